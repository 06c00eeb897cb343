//go:build !unix

package turnstate

// openFlags: no O_NOFOLLOW or O_NONBLOCK here.
const openFlags = 0
