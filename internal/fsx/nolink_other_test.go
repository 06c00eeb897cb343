//go:build !unix

package fsx

import "errors"

var errPerm = errors.New("operation not permitted")
