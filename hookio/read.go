package hookio

import (
	"errors"
	"fmt"
	"io"
)

// MaxPayload is the most a hook reads from stdin: 16 MiB. A larger payload
// is refused rather than read to the end.
const MaxPayload = 16 << 20

// ErrTooLarge reports a payload over [MaxPayload].
var ErrTooLarge = errors.New("hook payload too large")

// ReadPayload reads a whole hook payload from r, at most [MaxPayload] bytes.
// A longer input yields an error wrapping [ErrTooLarge] (after reading one
// byte past the cap, never the rest).
func ReadPayload(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxPayload+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxPayload {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, MaxPayload)
	}
	return data, nil
}
