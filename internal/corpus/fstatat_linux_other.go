//go:build linux && !(amd64 || arm64)

package corpus

import "golang.org/x/sys/unix"

// fstatat is unix.Fstatat of name, which ends in a NUL byte.
func fstatat(dirfd int, name []byte, st *unix.Stat_t, flags int) error {
	return unix.Fstatat(dirfd, string(name[:len(name)-1]), st, flags)
}

// openat is unix.Openat of name, which ends in a NUL byte (mode 0).
func openat(dirfd int, name []byte, flags int) (int, error) {
	return unix.Openat(dirfd, string(name[:len(name)-1]), flags, 0)
}
