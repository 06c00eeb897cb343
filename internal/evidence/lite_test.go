package evidence

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sameAsJSON checks the fast reading of one line against encoding/json:
// when it answers, it agrees on validity and on every field.
func sameAsJSON(t *testing.T, line []byte) (answered bool) {
	t.Helper()
	fast, valid, ok := decodeFast(line)
	if !ok {
		return false
	}
	var slow liteRow
	err := json.Unmarshal(line, &slow)
	if valid != (err == nil) {
		t.Fatalf("valid %v, encoding/json: %v\n%s", valid, err, line)
	}
	if valid && !reflect.DeepEqual(norm(fast), norm(slow)) {
		t.Fatalf("fast %+v\nslow %+v\n%s", norm(fast), norm(slow), line)
	}
	return true
}

// norm makes nil and empty raw values alike (both read as absent).
func norm(r liteRow) liteRow {
	if u := r.Message.Usage; u != nil {
		c := *u
		for _, p := range []*json.RawMessage{&c.Input, &c.CacheCreation, &c.CacheRead, &c.Output, &c.Speed} {
			if len(*p) == 0 {
				*p = nil
			}
		}
		r.Message.Usage = &c
	}
	return r
}

// TestDecodeFast: on every assistant row of the fixtures and generated
// corpora, and on thousands of mutations of them (bytes dropped, doubled
// or changed, keys recased or escaped, fields retyped or repeated), the
// fast reading agrees with encoding/json whenever it answers, and answers
// for the plain rows.
func TestDecodeFast(t *testing.T) {
	dir := t.TempDir()
	genCorpus(t, filepath.Join(dir, "a"), 2, 4, 64)
	genMoneyCorpus(t, filepath.Join(dir, "b"))
	var lines [][]byte
	for _, root := range []string{"testdata/nested", "testdata/flat", dir} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				if bytes.Contains(sc.Bytes(), []byte(`"type":"assistant"`)) {
					lines = append(lines, bytes.Clone(sc.Bytes()))
				}
			}
			return nil
		})
	}
	if len(lines) < 100 {
		t.Fatalf("%d assistant rows", len(lines))
	}
	for _, l := range lines {
		if !sameAsJSON(t, l) {
			t.Fatalf("the fast reading passed on a plain row:\n%s", l)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	edits := []func([]byte) []byte{
		func(b []byte) []byte { i := rng.IntN(len(b)); return append(b[:i:i], b[i+1:]...) },
		func(b []byte) []byte { i := rng.IntN(len(b)); return append(b[:i+1:i+1], b[i:]...) },
		func(b []byte) []byte {
			i := rng.IntN(len(b))
			c := bytes.Clone(b)
			c[i] = `{}[]",:0123456789.eE-+ \tntfaslu\\x`[rng.IntN(33)]
			return c
		},
		func(b []byte) []byte { return bytes.Replace(b, []byte(`"usage"`), []byte(`"Usage"`), 1) },
		func(b []byte) []byte { return bytes.Replace(b, []byte(`"model"`), []byte(`"mod\u0065l"`), 1) },
		func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"requestId":"`), []byte(`"requestId":5,"x":"`), 1)
		},
		func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"usage":{`), []byte(`"usage":{"input_tokens":7},"usage":{`), 1)
		},
		func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"message":{`), []byte(`"message":null,"message":{`), 1)
		},
		func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"input_tokens":`), []byte(`"input_tokens": -0.5e+3 ,"x":`), 1)
		},
		func(b []byte) []byte { return append(bytes.Clone(b), " x"...) },
		func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"timestamp":"`), []byte(`"timestamp":"\ud83d\ude00 \n`), 1)
		},
	}
	answered := 0
	for range 20000 {
		b := lines[rng.IntN(len(lines))]
		for range 1 + rng.IntN(3) {
			b = edits[rng.IntN(len(edits))](b)
		}
		if sameAsJSON(t, b) {
			answered++
		}
	}
	t.Logf("%d rows, 20000 mutations, %d answered by the fast reading", len(lines), answered)
}
