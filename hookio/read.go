package hookio

import (
	"errors"
	"fmt"
	"io"
)

// maxPayload is the most [Read] takes from its reader: 16 MiB. Real payloads
// are a few kilobytes and a large digest is far below it.
const maxPayload = 16 << 20

// Decoding limits. A payload within maxPayload may still be costly to decode
// into maps (millions of tiny members), so [Read] first makes one linear pass
// over the bytes, without allocating, that counts object members and
// nesting, and refuses a payload beyond either limit as malformed. Arrays and
// strings cost no more than their bytes and are not counted.
const (
	// maxMembers caps the object members of the whole payload, at every
	// depth (real payloads have a few dozen).
	maxMembers = 100_000
	// maxDepth caps the nesting of objects and arrays.
	maxDepth = 512
)

// Read reads one hook payload from r and decodes it: exactly one JSON object,
// a leading UTF-8 BOM and surrounding white space tolerated. It reads at most
// 16 MiB and one byte, leaving the rest of r unread: a longer payload is a
// [*DecodeError] of kind [ErrTooLarge]. A payload that is not one JSON value
// (trailing data included), is null or false, or holds more than 100,000
// object members or nests deeper than 512 is one of kind [ErrMalformed],
// checked before any map is built; a string, number, true or array is one of
// kind [ErrNonObject]. A read error is returned as it is.
func Read(r io.Reader) (*Payload, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPayload+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxPayload {
		return nil, &DecodeError{Kind: ErrTooLarge, Err: fmt.Errorf("more than %d bytes", maxPayload)}
	}
	return decode(data)
}

// errTooComplex is the cause of a payload refused by the decoding limits.
var errTooComplex = errors.New("payload too complex to decode")

// checkLimits is the pass described at maxMembers. It does not validate:
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
			if depth++; depth > maxDepth {
				return fmt.Errorf("%w: nested deeper than %d", errTooComplex, maxDepth)
			}
		case '}', ']':
			depth--
		case ':':
			if members++; members > maxMembers {
				return fmt.Errorf("%w: more than %d object members", errTooComplex, maxMembers)
			}
		}
	}
	return nil
}
