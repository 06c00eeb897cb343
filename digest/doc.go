// Package digest is the per-session digest store: a forked /how-do-i scout's
// digest is kept as one append-only file per write, named
// <key>.digest.<epoch>.<unique>, and replayed to later scouts of the same
// session, oldest first among the newest [Store.Keep].
//
// Writes are atomic and never overwrite: the body is written and fsynced to
// a dot-prefixed temporary file inside the digest directory (a
// github.com/google/renameio/v2 PendingFile created with WithTempDir, never in
// $TMPDIR), then published under its final name with a hard link, which fails
// with EEXIST instead of replacing another digest (a new <unique> is then
// drawn); the temporary file is removed afterwards. Where the file system has
// no hard links the name is reserved with O_CREATE|O_EXCL and the temporary
// file renamed over that reservation (the reader skips zero-byte files, so the
// empty reservation is never replayed). On Windows, where renameio/v2 does not
// build, the digest is written directly to an O_EXCL-created final name: not
// atomic, but still never overwriting.
//
// On a shared host the store is private to its user: the default directory
// is [TurnStateDir]/digests, where TurnStateDir falls back to
// /tmp/claude-turn-state-<uid> when /tmp/claude-turn-state is not a real
// directory of the current user. Neither the writer nor the reader follows a
// symlink another user (other than root) owns on the way to the directory
// (each existing component is checked with Lstat), and both refuse a
// directory the current user does not own: the writer never creates, chmods,
// reaps or writes there (ErrInsecureDir), the reader replays nothing. A
// symlink the user owns (an explicit SESSION_DIGEST_DIR link) is followed.
package digest
