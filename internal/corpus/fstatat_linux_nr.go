//go:build linux && (amd64 || arm64)

package corpus

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// fstatat is unix.Fstatat of name, which ends in a NUL byte: the path is
// handed to the kernel as it is, without the copy the string form makes
// on every call.
func fstatat(dirfd int, name []byte, st *unix.Stat_t, flags int) error {
	_, _, e := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(dirfd), uintptr(unsafe.Pointer(&name[0])),
		uintptr(unsafe.Pointer(st)), uintptr(flags), 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// openat is unix.Openat of name, which ends in a NUL byte (mode 0).
func openat(dirfd int, name []byte, flags int) (int, error) {
	fd, _, e := unix.Syscall6(unix.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(&name[0])),
		uintptr(flags), 0, 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}
