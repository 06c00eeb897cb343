//go:build !unix

package gate

const nonblock = 0
