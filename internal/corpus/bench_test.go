package corpus

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// The benchmark corpus: a deterministic generator of realistic records
// (writer-shaped frontmatter, a heading, ~1 KiB of body) spread over every
// store in nested directories, with a few archived files, INDEX.md files and
// block-style links (which need the YAML decoder).

var (
	benchMu    sync.Mutex
	benchRoots = map[int]string{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, r := range benchRoots {
		os.RemoveAll(r)
	}
	os.Exit(code)
}

var benchWords = func() []string {
	r := rand.New(rand.NewPCG(1, 2))
	w := make([]string, 3000)
	const letters = "abcdefghijklmnopqrstuvwxyz"
	for i := range w {
		n := 4 + r.IntN(7)
		b := make([]byte, n)
		for j := range b {
			b[j] = letters[r.IntN(len(letters))]
		}
		w[i] = string(b)
	}
	return w
}()

// benchKind maps a store to the kind its records carry.
var benchKind = map[string]string{
	"references/failure-modes": "failure-mode", "references/decisions": "decision",
	"references/solutions": "solution", "references/procedures": "procedure",
	"references/research": "research", "plans": "plan", "references/principles": "principle",
	"references/invariants": "invariant", "references/policies": "policy",
	"references/standards": "standard", "titw": "principle",
}

// benchCorpus returns a root holding n records (generated once per size).
func benchCorpus(tb testing.TB, n int) string {
	benchMu.Lock()
	defer benchMu.Unlock()
	if r, ok := benchRoots[n]; ok {
		return r
	}
	root, err := os.MkdirTemp("", fmt.Sprintf("records-bench-%d-", n))
	if err != nil {
		tb.Fatal(err)
	}
	benchRoots[n] = root
	r := rand.New(rand.NewPCG(uint64(n), 7))
	stores := append(Stores(), "titw")
	pick := func() string {
		// Zipf-like: low indices are common words.
		return benchWords[int(float64(len(benchWords))*r.Float64()*r.Float64()*r.Float64())]
	}
	var body strings.Builder
	for i := range 40 {
		body.WriteString(benchWords[i*7%len(benchWords)] + " ")
		if i%10 == 9 {
			body.WriteString("lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.\n")
		}
	}
	for i := range n {
		store := stores[i%len(stores)]
		kind := benchKind[store]
		dir := filepath.Join(root, store, fmt.Sprintf("d%02d", (i/len(stores))%(n/500+1)))
		if i%997 == 0 {
			dir = filepath.Join(root, store, "_archived")
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "---\nid: %s.rec-%05d\nkind: %s\ndate: 2026-06-%02d\n", kind[:3], i, kind, 1+i%28)
		kw := make([]string, 3+r.IntN(6))
		for j := range kw {
			kw[j] = pick()
		}
		fmt.Fprintf(&b, "keywords: [%s]\n", strings.Join(kw, ", "))
		switch {
		case i%20 == 3:
			fmt.Fprintf(&b, "links:\n  decisions: [dec.rec-%05d]\n  scenario: sc.%d\n", r.IntN(n), i)
		case i%3 == 0:
			fmt.Fprintf(&b, "links: { decisions: [dec.rec-%05d], failure-modes: [fai.rec-%05d] }\n", r.IntN(n), r.IntN(n))
		default:
			b.WriteString("links: {}\n")
		}
		b.WriteString("status: active\n")
		if i%4 == 0 {
			b.WriteString("project: langwatch/scenario\n")
		}
		fmt.Fprintf(&b, "---\n# Record %d about %s and %s\n\n%s", i, kw[0], pick(), body.String())
		name := filepath.Join(dir, fmt.Sprintf("rec-%05d.md", i))
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
		if i%500 == 0 {
			os.WriteFile(filepath.Join(dir, "INDEX.md"), []byte("# index\n"), 0o644)
		}
	}
	return root
}

var benchSizes = []int{2000, 20000}

func benchEach(b *testing.B, fn func(b *testing.B, root string)) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			root := benchCorpus(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			fn(b, root)
		})
	}
}

// BenchmarkFloor only walks the stores and reads every record file once:
// the least any query can do.
func BenchmarkFloor(b *testing.B) {
	benchEach(b, func(b *testing.B, root string) {
		stores, _ := allStores("")
		for b.Loop() {
			paths, _ := Enumerate(root, stores)
			for _, p := range paths {
				if _, err := os.ReadFile(root + "/" + p); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkFloorParallel is the floor done with the queries' tools: one
// goroutine per core, a reused buffer each, every file read to EOF.
func BenchmarkFloorParallel(b *testing.B) {
	benchEach(b, func(b *testing.B, root string) {
		stores, _ := allStores("")
		workers := runtime.GOMAXPROCS(0)
		for b.Loop() {
			paths, _ := Enumerate(root, stores)
			var next atomic.Int64
			var wg sync.WaitGroup
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					buf := make([]byte, 64<<10)
					for {
						i := int(next.Add(1)) - 1
						if i >= len(paths) {
							return
						}
						f, err := os.Open(root + "/" + paths[i])
						if err != nil {
							panic(err)
						}
						for {
							if _, err := f.Read(buf); err != nil {
								break
							}
						}
						f.Close()
					}
				}()
			}
			wg.Wait()
		}
	})
}

func benchQuery(b *testing.B, q Query) {
	benchEach(b, func(b *testing.B, root string) {
		stores, _ := allStores("")
		for b.Loop() {
			c, err := Open(root, stores)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := c.Query(q); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkKeyword(b *testing.B) {
	benchQuery(b, Query{Keyword: benchWords[3] + " " + benchWords[40] + " " + benchWords[700], RelRatio: DefaultRelRatio})
}

func BenchmarkKind(b *testing.B) { benchQuery(b, Query{Kind: "decision"}) }

func BenchmarkLinksTo(b *testing.B) { benchQuery(b, Query{LinksTo: "dec.rec-00042"}) }

func BenchmarkCat50(b *testing.B) {
	benchEach(b, func(b *testing.B, root string) {
		stores, _ := allStores("")
		c, _ := Open(root, stores)
		paths := c.Paths()
		refs := make([]string, 50)
		for i := range refs {
			refs[i] = paths[i*len(paths)/50]
		}
		for b.Loop() {
			c, err := Open(root, stores)
			if err != nil {
				b.Fatal(err)
			}
			if d, err := c.Cat(refs); err != nil || len(d) != 50 {
				b.Fatal(err, len(d))
			}
		}
	})
}
