//go:build unix

package turnstate

import "syscall"

// openFlags makes creating a marker fail on a symlink (never write through a
// planted link) and on a FIFO without a reader (never wait).
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
