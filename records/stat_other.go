//go:build !linux

package records

const haveStat = false

type statter struct{}

func newStatter() *statter                     { return &statter{} }
func (*statter) lstat(string) (FileStat, bool) { return FileStat{}, false }
func (*statter) close()                        {}
