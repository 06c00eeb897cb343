//go:build unix

package fsx

import "syscall"

// NonBlock, or'ed into os.OpenFile's flag, makes opening a FIFO return at
// once (ENXIO for a writer without a reader; a reader without a writer
// opens at once) instead of waiting; it changes nothing for a regular file.
const NonBlock = syscall.O_NONBLOCK

// NoFollow, or'ed into os.OpenFile's flag, makes the open fail when the
// last component of the path is a symlink.
const NoFollow = syscall.O_NOFOLLOW
