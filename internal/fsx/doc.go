// Package fsx holds the file-system steps the plugin's stores share: opening
// a path without blocking on a FIFO ([NonBlock], [OpenRegular]), publishing
// a new file exclusively and atomically ([File.CreateExclusive]) and
// replacing one atomically ([File.Replace]).
//
// On Unix the writes go through a github.com/google/renameio/v2 pending file
// created inside the destination directory (never in $TMPDIR) and fsynced
// before it is linked or renamed into place. renameio/v2 does not build for
// Windows: there a build-tagged fallback (publish_windows.go) creates the
// final name with O_CREATE|O_EXCL and writes in place, which still never
// replaces an existing file but is not atomic (a concurrent reader may see
// the file partly written), and Replace writes a temporary file and renames
// it over the old one.
package fsx
