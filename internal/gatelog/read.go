package gatelog

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"time"
	"unicode/utf8"
)

// The reading side of the log format, shared by every reader of the logs
// (internal/doctor, internal/evidence).

// MaxLine caps one log line, newline excluded. A longer line is counted as
// over-long and skipped as it streams past: it is never held whole. A line
// [Line] writes is a few hundred bytes ([MaxField] per field).
const MaxLine = 64 << 10

// ScanLines calls fn with each line of r (without its '\n', and with a
// 1-based line number) that is shorter than MaxLine bytes, and returns how
// many lines were over-long and the first of them. fn must not keep line.
// Memory use is one MaxLine buffer, whatever r holds.
func ScanLines(r io.Reader, fn func(n int, line []byte)) (overlong, firstOverlong int, err error) {
	br := bufio.NewReaderSize(r, MaxLine)
	n := 0
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 || err == nil {
			n++
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			if overlong == 0 {
				firstOverlong = n
			}
			overlong++
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
		} else if len(line) > 0 {
			fn(n, bytes.TrimSuffix(line, []byte("\n")))
		}
		if err == io.EOF {
			return overlong, firstOverlong, nil
		}
		if err != nil {
			return overlong, firstOverlong, err
		}
	}
}

// ParseFlat parses line as a JSON object of exactly the given keys, in
// that order, each with a string value: the compact shape [Line] writes,
// {"k1":"v1","k2":"v2"}. A value may hold no '"', no '\\' and no control
// character (C0, DEL or C1) and must be valid UTF-8: a record the loggers
// wrote never does, so anything else is not trusted. The values are
// stored in vals, as slices of line.
func ParseFlat(line []byte, keys []string, vals [][]byte) bool {
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		return false
	}
	rest := line[1 : len(line)-1]
	for i, k := range keys {
		if i > 0 {
			if len(rest) == 0 || rest[0] != ',' {
				return false
			}
			rest = rest[1:]
		}
		if len(rest) < len(k)+3 || rest[0] != '"' || string(rest[1:1+len(k)]) != k ||
			rest[1+len(k)] != '"' || rest[2+len(k)] != ':' {
			return false
		}
		rest = rest[3+len(k):]
		if len(rest) == 0 || rest[0] != '"' {
			return false
		}
		rest = rest[1:]
		end := bytes.IndexByte(rest, '"')
		if end < 0 || !CleanValue(rest[:end]) {
			return false
		}
		vals[i] = rest[:end]
		rest = rest[end+1:]
	}
	return len(rest) == 0
}

// CleanValue reports whether v is printable text: valid UTF-8 with no
// backslash and no control character.
func CleanValue(v []byte) bool {
	ascii := true
	for _, c := range v {
		if c < 0x20 || c == 0x7f || c == '\\' {
			return false
		}
		if c >= 0x80 {
			ascii = false
		}
	}
	if ascii {
		return true
	}
	for len(v) > 0 {
		r, size := utf8.DecodeRune(v)
		if r == utf8.RuneError && size <= 1 || 0x80 <= r && r <= 0x9f {
			return false
		}
		v = v[size:]
	}
	return true
}

// ParseTS reads a log timestamp in [TimeLayout] (UTC to the second, as
// the loggers write it); anything else, an impossible date included, is
// refused. It is time.Parse of that layout, without its cost per line.
func ParseTS(b []byte) (time.Time, bool) {
	if len(b) != 20 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' || b[19] != 'Z' {
		return time.Time{}, false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range b[i : i+n] {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, mo, d, h, mi, s := num(0, 4), num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2)
	if y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, s, 0, time.UTC)
	if t.Day() != d { // 31 April, 29 February of a common year
		return time.Time{}, false
	}
	return t, true
}
