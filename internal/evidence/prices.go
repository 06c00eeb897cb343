package evidence

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// A Price is one model's USD price per million tokens of each bucket.
type Price struct {
	Input        float64 `json:"input"`
	Output       float64 `json:"output"`
	CacheWrite   float64 `json:"cache_write"`    // five-minute cache write
	CacheWrite1h float64 `json:"cache_write_1h"` // one-hour cache write
	CacheRead    float64 `json:"cache_read"`
	// Above200k, when set, prices each bucket's tokens past TierAt in one
	// turn; each bucket is tiered on its own.
	Above200k *Price `json:"above_200k,omitempty"`
	// Fast multiplies the whole turn when it ran in fast mode (0: 1).
	Fast float64 `json:"fast,omitempty"`
}

// TierAt is where a tiered price's second rate starts, per bucket and
// turn.
const TierAt = 200_000

// Prices is a dated price table.
type Prices struct {
	Date   string           `json:"date"`
	Note   string           `json:"note,omitempty"`
	Models map[string]Price `json:"models"`
}

//go:embed prices.json
var embeddedPrices []byte

// DefaultPrices is the embedded table.
func DefaultPrices() *Prices {
	var p Prices
	if err := json.Unmarshal(embeddedPrices, &p); err != nil {
		panic("evidence: embedded prices.json: " + err.Error())
	}
	return &p
}

// maxPricesFile bounds a --prices file.
const maxPricesFile = 1 << 20

// LoadPrices reads a --prices file (the embedded table's format; at most
// 1 MiB) and lays its models over p: a model it names is priced by the
// file, the others keep their price. The file's date, when set, replaces
// p's.
func (p *Prices) LoadPrices(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxPricesFile+1))
	if err != nil {
		return err
	}
	if len(b) > maxPricesFile {
		return fmt.Errorf("%s: over %d bytes", path, maxPricesFile)
	}
	var q Prices
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	for name, pr := range q.Models {
		if err := pr.check(); err != nil {
			return fmt.Errorf("%s: model %q: %v", path, name, err)
		}
		p.Models[name] = pr
	}
	if q.Date != "" {
		p.Date = q.Date
	}
	return nil
}

func (pr *Price) check() error {
	for _, v := range []float64{pr.Input, pr.Output, pr.CacheWrite, pr.CacheWrite1h, pr.CacheRead, pr.Fast} {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) || v > 1e6 {
			return fmt.Errorf("a price must be a number from 0 to 1e6, not %v", v)
		}
	}
	if pr.Above200k != nil {
		if pr.Above200k.Above200k != nil {
			return fmt.Errorf("above_200k cannot nest")
		}
		return pr.Above200k.check()
	}
	return nil
}

// lookup finds the price of a model id as transcripts spell it: the id
// itself, or the id without a provider prefix (anthropic/), a bracketed
// variant ([1m]) or a release date (-20250929). Nothing else is guessed.
func (p *Prices) lookup(model string) (*Price, bool) {
	m := strings.TrimPrefix(model, "anthropic/")
	if i := strings.IndexByte(m, '['); i > 0 && strings.HasSuffix(m, "]") {
		m = m[:i]
	}
	if pr, ok := p.Models[m]; ok {
		return &pr, true
	}
	if i := strings.LastIndexByte(m, '-'); i > 0 && isDate(m[i+1:]) {
		if pr, ok := p.Models[m[:i]]; ok {
			return &pr, true
		}
	}
	return nil, false
}

func isDate(s string) bool {
	if len(s) != 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// cost is one turn's price in USD.
func (pr *Price) cost(t *turnRow) float64 {
	tier := func(n int64, base float64, above func(*Price) float64) float64 {
		if pr.Above200k == nil || n <= TierAt {
			return float64(n) * base / 1e6
		}
		return float64(TierAt)*base/1e6 + float64(n-TierAt)*above(pr.Above200k)/1e6
	}
	c := tier(t.u[0], pr.Input, func(a *Price) float64 { return a.Input }) +
		tier(t.u[1]-t.h1, pr.CacheWrite, func(a *Price) float64 { return a.CacheWrite }) +
		tier(t.h1, pr.CacheWrite1h, func(a *Price) float64 { return a.CacheWrite1h }) +
		tier(t.u[2], pr.CacheRead, func(a *Price) float64 { return a.CacheRead }) +
		tier(t.u[3], pr.Output, func(a *Price) float64 { return a.Output })
	if t.fast && pr.Fast > 0 {
		c *= pr.Fast
	}
	return c
}
