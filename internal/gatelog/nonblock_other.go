//go:build !unix

package gatelog

// nonblock: no FIFOs to guard against here.
const nonblock = 0
