//go:build unix

package gatelog

import "syscall"

// nonblock makes opening a log path that is a FIFO without a reader fail
// (ENXIO) instead of waiting for one; it changes nothing for regular files.
const nonblock = syscall.O_NONBLOCK
