package evidence

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/procedures-go/procedures/internal/fsx"
	"github.com/procedures-go/procedures/internal/gatelog"
)

// foRow is one fail-open record, as package failopen writes it.
type foRow struct {
	TS        string `json:"ts"`
	Gate      string `json:"gate"`
	Why       string `json:"why"`
	SessionID string `json:"session_id"`
}

// readFailOpen counts the fail-open log's records in the window by
// session id. Lines of gatelog.MaxLine bytes or more, and lines that are
// not records, are counted in sk.FailOpenUnparseable; a missing log is
// empty; a log another user could write is not read (sk.Untrusted).
func readFailOpen(path string, o *Options, sk *Skipped) map[string]int {
	out := map[string]int{}
	if path == "" {
		return out
	}
	f, err := os.OpenFile(path, os.O_RDONLY|fsx.NonBlock, 0)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			sk.Unreadable++
		}
		return out
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		sk.Unreadable++
		return out
	}
	if !trusted(fi) {
		sk.Untrusted++
		return out
	}
	over, _, _ := gatelog.ScanLines(io.LimitReader(f, fi.Size()), func(_ int, line []byte) {
		var r foRow
		ts, terr := time.Time{}, error(nil)
		if json.Unmarshal(line, &r) == nil {
			ts, terr = time.Parse(gatelog.TimeLayout, r.TS)
		}
		switch {
		case r.Gate == "" || r.TS == "" || terr != nil:
			sk.FailOpenUnparseable++
		case (o.Since.IsZero() || !ts.Before(o.Since)) && (o.Until.IsZero() || ts.Before(o.Until)):
			out[r.SessionID]++
		}
	})
	sk.FailOpenUnparseable += over
	return out
}
