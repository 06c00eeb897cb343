package doctor

import (
	"io"
	"slices"
	"time"

	"github.com/procedures-go/procedures/internal/gatelog"
)

// An EscapeSummary counts the escape log's records: gates released because
// they were switched off.
type EscapeSummary struct {
	InWindow    int
	Older       int
	Unparseable int
	Overlong    int
	// By counts the rows in the window by "<gate key> by <variable>", for
	// at most MaxGroups distinct pairs (the rest are in Overflow).
	By       map[string]int
	Overflow int
}

var escapeKeys = []string{"ts", "gate", "released_by"}

// SummarizeEscapes reads an escape log from r, streaming, and counts the
// records at or after since.
func SummarizeEscapes(r io.Reader, since time.Time) (*EscapeSummary, error) {
	s := &EscapeSummary{By: map[string]int{}}
	vals := make([][]byte, len(escapeKeys))
	var key []byte
	overlong, _, err := gatelog.ScanLines(r, func(n int, line []byte) {
		if !gatelog.ParseFlat(line, escapeKeys, vals) || len(vals[1]) == 0 || len(vals[2]) == 0 {
			s.Unparseable++
			return
		}
		ts, ok := gatelog.ParseTS(vals[0])
		if !ok {
			s.Unparseable++
			return
		}
		if ts.Before(since) {
			s.Older++
			return
		}
		s.InWindow++
		key = append(append(append(key[:0], vals[1]...), " by "...), vals[2]...)
		if _, ok := s.By[string(key)]; !ok && len(s.By) >= MaxGroups {
			s.Overflow++
			return
		}
		s.By[string(key)]++
	})
	s.Overlong = overlong
	return s, err
}

// keys returns the pairs of s.By in order.
func (s *EscapeSummary) keys() []string {
	var ks []string
	for k := range s.By {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
