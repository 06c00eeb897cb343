// Package digest is a per-session digest store: a forked /how-do-i scout's
// digest is kept as one append-only file per write, named
// <key>.digest.<epoch>.<unique>, and replayed to later scouts of the same
// session, oldest first among the newest few.
//
// [Open] takes a directory and plain [Options]; the zero Options keeps the
// documented defaults (replay the newest 3, expire after 3 days). The
// package reads no environment variable.
//
// Writes are atomic and never overwrite: the body is written and fsynced to
// a dot-prefixed temporary file inside the digest directory (a
// github.com/google/renameio/v2 pending file, never in $TMPDIR), then
// published under its final name with a hard link, which fails with EEXIST
// instead of replacing another digest (a new <unique> is then drawn); the
// temporary file is removed afterwards. Where the file system has no hard
// links the name is reserved with O_CREATE|O_EXCL and the temporary file
// renamed over that reservation (the reader skips zero-byte files, so the
// empty reservation is never replayed). On Windows, where renameio/v2 does
// not build, the digest is written directly to an O_EXCL-created final
// name: not atomic, but still never overwriting.
//
// The store is private to its user: neither the writer nor the reader
// follows a symlink another user (other than root) owns on the way to the
// directory (each existing component is checked with Lstat), and both
// refuse a directory the current user does not own: the writer never
// creates, chmods, reaps or writes there ([ErrInsecureDir]), the reader
// replays nothing. A symlink the user owns is followed.
package digest
