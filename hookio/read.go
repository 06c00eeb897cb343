package hookio

import (
	"errors"
	"fmt"
	"io"
)

// MaxPayload is the most a hook reads from stdin: 16 MiB. Real payloads are a
// few kilobytes and a large digest is far below it.
const MaxPayload = 16 << 20

// ErrTooLarge reports a payload above [MaxPayload] bytes. A hook records it
// as "malformed-payload", like any other undecodable payload.
var ErrTooLarge = errors.New("hook payload too large")

// ReadPayload reads a whole hook payload from r, but never more than
// MaxPayload+1 bytes: a longer one is an error wrapping [ErrTooLarge] (the
// rest of r is left unread). Any read error is returned as is.
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

// Decoding limits. A payload within [MaxPayload] may still be costly to
// decode into maps (millions of tiny members), so [Decode] first makes one
// linear pass over the bytes, without allocating, that counts object
// members and nesting, and refuses a payload beyond either limit as
// malformed. Arrays and strings cost no more than their bytes and are not
// counted.
const (
	// MaxMembers caps the object members of the whole payload, at every
	// depth (real payloads have a few dozen).
	MaxMembers = 100_000
	// MaxDepth caps the nesting of objects and arrays.
	MaxDepth = 512
)

// errTooComplex is the cause of a payload refused by the decoding limits.
var errTooComplex = errors.New("payload too complex to decode")

// checkLimits is the pass described at [MaxMembers]. It does not validate:
// the JSON decoder does that afterwards, on a payload now known to be cheap.
// A member is counted at each ':' outside a string.
func checkLimits(data []byte) error {
	depth, members := 0, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			if depth++; depth > MaxDepth {
				return fmt.Errorf("%w: nested deeper than %d", errTooComplex, MaxDepth)
			}
		case '}', ']':
			depth--
		case ':':
			if members++; members > MaxMembers {
				return fmt.Errorf("%w: more than %d object members", errTooComplex, MaxMembers)
			}
		}
	}
	return nil
}
