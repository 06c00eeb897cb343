package evidence

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// rawUsage is a message's usage as written: the counts stay raw so that a
// count that is not a whole, non-negative, plausible number is seen and
// skipped, never summed.
type rawUsage struct {
	Input         json.RawMessage `json:"input_tokens"`
	CacheCreation json.RawMessage `json:"cache_creation_input_tokens"`
	CacheRead     json.RawMessage `json:"cache_read_input_tokens"`
	Output        json.RawMessage `json:"output_tokens"`
	// Split is the cache write by lifetime; when present, the cache write
	// is its two parts (as ccusage counts it) and the one-hour part is
	// priced at the one-hour rate.
	Split *struct {
		M5 json.RawMessage `json:"ephemeral_5m_input_tokens"`
		H1 json.RawMessage `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
	Speed json.RawMessage `json:"speed"`
}

// MaxCount is the largest token count one bucket of one turn may carry;
// a larger one is absurd (no model reads a trillion tokens in a turn) and
// its row is skipped and counted in Skipped.AbsurdCounts.
const MaxCount = 1_000_000_000_000

// Why a count is refused.
const (
	countOK = iota
	countNegative
	countFractional
	countAbsurd
	countInvalid
)

// parseCount reads one raw count: absent is zero; a plain decimal integer
// from 0 to MaxCount is the count; anything else is refused, by reason.
func parseCount(raw json.RawMessage) (int64, int) {
	if len(raw) == 0 {
		return 0, countOK
	}
	if raw[0] == '-' {
		if _, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return 0, countNegative
		}
		return 0, countInvalid
	}
	if bytes.ContainsAny(raw, ".eE") {
		if _, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return 0, countFractional
		}
		return 0, countInvalid
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, countAbsurd
		}
		return 0, countInvalid
	}
	if n > MaxCount {
		return 0, countAbsurd
	}
	return int64(n), countOK
}

// usage is a turn's counts once read: the four buckets (input,
// cache_creation, cache_read, output), the one-hour part of the cache
// write, and whether the turn ran in fast mode.
type usage struct {
	u    [4]int64
	h1   int64
	fast bool
}

// read checks every count of u; a row with any refused count is skipped
// whole (as ccusage skips it) and counted in sk by the first reason.
func (ru *rawUsage) read(sk *Skipped) (usage, bool) {
	var out usage
	why := countOK
	get := func(raw json.RawMessage) int64 {
		n, w := parseCount(raw)
		if why == countOK {
			why = w
		}
		return n
	}
	out.u[0] = get(ru.Input)
	out.u[1] = get(ru.CacheCreation)
	out.u[2] = get(ru.CacheRead)
	out.u[3] = get(ru.Output)
	if ru.Split != nil {
		m5, h1 := get(ru.Split.M5), get(ru.Split.H1)
		out.u[1], out.h1 = m5+h1, h1
	}
	switch string(ru.Speed) {
	case "", "null", `"standard"`:
	case `"fast"`:
		out.fast = true
	default:
		if why == countOK {
			why = countInvalid
		}
	}
	switch why {
	case countOK:
		return out, true
	case countNegative:
		sk.NegativeCounts++
	case countFractional:
		sk.FractionalCounts++
	case countAbsurd:
		sk.AbsurdCounts++
	default:
		sk.InvalidCounts++
	}
	return usage{}, false
}

// addSat adds n to *sum, saturating at the largest int64 and reporting
// whether it did.
func addSat(sum *int64, n int64) bool {
	if n > 0 && *sum > math.MaxInt64-n {
		*sum = math.MaxInt64
		return true
	}
	*sum += n
	return false
}
