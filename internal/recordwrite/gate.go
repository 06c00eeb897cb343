package recordwrite

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// MaxRowBytes caps one mistakes.jsonl line: the promotion count skips a
// longer line, and a longer row is never appended.
const MaxRowBytes = 64 << 20

// CountPattern counts the rows of a mistakes.jsonl stream that are JSON
// objects whose "pattern" member is the string pattern, whatever the
// spacing or escaping. Lines that are not JSON objects, and lines longer
// than MaxRowBytes, are not counted. It reads r once.
func CountPattern(r io.Reader, pattern string) (int, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	n := 0
	skipping := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !skipping {
			if len(line)+len(chunk) > MaxRowBytes {
				skipping, line = true, line[:0]
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if !skipping && rowHasPattern(line, pattern) {
			n++
		}
		line, skipping = line[:0], false
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

func rowHasPattern(line []byte, pattern string) bool {
	// A row can only hold the pattern literally or through an escape.
	if !bytes.Contains(line, []byte(pattern)) && !bytes.Contains(line, []byte{'\\'}) {
		return false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(line, &obj) != nil {
		return false
	}
	raw, ok := obj["pattern"]
	if !ok {
		return false
	}
	var s string
	return json.Unmarshal(raw, &s) == nil && s == pattern
}
