package frontmatter

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// split is what a reader of a record keeps of its frontmatter.
type split struct {
	present, terminated bool
	block, body         []byte
	yamlErr             *YAMLError
	fields              string
}

func (s split) String() string {
	return fmt.Sprintf("present=%v terminated=%v block=%q body=%q(nil=%v) yamlErr=%v fields=%s",
		s.present, s.terminated, s.block, s.body, s.body == nil, s.yamlErr, s.fields)
}

func (s split) equal(o split) bool {
	return s.present == o.present && s.terminated == o.terminated &&
		bytes.Equal(s.block, o.block) && bytes.Equal(s.body, o.body) && (s.body == nil) == (o.body == nil) &&
		(s.yamlErr == nil) == (o.yamlErr == nil) && (s.yamlErr == nil || *s.yamlErr == *o.yamlErr) &&
		s.fields == o.fields
}

// viaFastPath reads content the optimised way; ok is false when the fast
// path does not apply (the library decides alone).
func viaFastPath(content []byte) (split, bool) {
	var fs Fields
	present, terminated, block, body := SplitFences(content)
	if present && !parseSimple(block, &fs) {
		return split{}, false
	}
	return split{present, terminated, block, body, nil, dumpFields(&fs)}, true
}

func viaLibrary(content []byte) split {
	var fs Fields
	present, terminated, block, body, yerr := parseLibrary(content, &fs)
	return split{present, terminated, block, body, yerr, dumpFields(&fs)}
}

// testRecords are the record shapes the tests use: the shipped example
// knowledge base and every .md file of the scenarios, plus the blocks the
// fast path must accept.
func testRecords(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	repo := filepath.Join("..", "..")
	filepath.WalkDir(filepath.Join(repo, "testdata", "kb"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			if b, err := os.ReadFile(p); err == nil {
				out[p] = b
			}
		}
		return nil
	})
	scripts, _ := filepath.Glob(filepath.Join(repo, "testdata", "script", "*.txtar"))
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".md") {
				out[filepath.Base(s)+":"+f.Name] = f.Data
			}
		}
	}
	for i, b := range simpleBlocks {
		out[fmt.Sprint("simpleBlocks", i)] = []byte("---\n" + b + "---\n# body\n")
	}
	if len(out) < 200 {
		t.Fatalf("only %d record shapes found", len(out))
	}
	return out
}

// hostile are contents where the library's own fence rule (blank lines
// skipped, lines trimmed) and the upstream one part, and other odd shapes.
var hostile = []string{
	"---\nid: a\n--- \nkind: b\n---\nbody\n",
	"---\nid: a\n ---\nkind: b\n---\nbody\n",
	"---\nid: a\n---\r\nkind: b\n---\n",
	"---\nid: a\n\t---\t\nkind: b\n",
	"\n---\nid: a\n---\n",
	" ---\nid: a\n---\n",
	"--- \nid: a\n---\n",
	"---\r\nid: a\r\n---\r\n",
	"---", "---\n", "---\n---", "---\n---\n", "---\nid: a", "---\nid: a\n", "---\nid: [a\n",
	"---\nid: x\n---", "---\nid: x\n---\n",
	"---\nid: 'a\n---\nkind: b\n---\n",
	"---\nid: \"a\nkind: b\n---\nbody\n",
	"---\nkeywords: [a, b]\nlinks: {}\n---\n---\nsecond: block\n---\n",
	"---\n+++\n---\n", "---\n{\"id\": 1}\n---\n", "---toml\nid = 1\n---\n", "+++\nid = 1\n+++\n",
	"---\n...\n---\n", "---\nid: a\n...\nkind: b\n---\n", "---\nid: a\n--- b\n---\n",
	"---\nid: a\x00b\n---\n", "---\nid: \xff\xfe\n---\n",
	"---\n- a\n- b\n---\n", "---\njust text\n---\n", "---\nid: &x a\nkind: *x\n---\n",
	"---\nid: a\nid: b\n---\n", "---\n  id: a\n---\n", "---\nid:a\n---\n",
	"no frontmatter\n---\nid: a\n---\n", "",
}

// The optimisation in front of the library changes nothing: wherever the
// fast path applies it gives what the library path gives, field for field.
func TestFastPathMatchesLibrary(t *testing.T) {
	n := 0
	for name, c := range testRecords(t) {
		if fast, ok := viaFastPath(c); ok {
			n++
			if lib := viaLibrary(c); !fast.equal(lib) {
				t.Errorf("%s:\nfast    %s\nlibrary %s", name, fast, lib)
			}
		}
	}
	for _, c := range hostile {
		if fast, ok := viaFastPath([]byte(c)); ok {
			n++
			if lib := viaLibrary([]byte(c)); !fast.equal(lib) {
				t.Errorf("%q:\nfast    %s\nlibrary %s", c, fast, lib)
			}
		}
	}
	if n < 100 {
		t.Errorf("the fast path applied to only %d shapes", n)
	}
}

// The library splits as the upstream tools did (the rule the commands keep):
// on every shape, tests' and hostile, the block and body it yields are the
// upstream fence rule's.
func TestLibrarySplitIsUpstreamRule(t *testing.T) {
	check := func(name string, c []byte) {
		present, terminated, block, body := SplitFences(c)
		want := split{present: present, terminated: terminated, block: block, body: body}
		lib := viaLibrary(c)
		lib.yamlErr, lib.fields = nil, ""
		if present && block == nil {
			want.block = []byte{}
		}
		if !want.equal(lib) {
			t.Errorf("%s:\nupstream %s\nlibrary  %s", name, want, lib)
		}
	}
	for name, c := range testRecords(t) {
		check(name, c)
	}
	for _, c := range hostile {
		check(fmt.Sprintf("%q", c), []byte(c))
	}
}

func FuzzFastPathMatchesLibrary(f *testing.F) {
	for _, c := range hostile {
		f.Add([]byte(c))
	}
	for _, b := range simpleBlocks {
		f.Add([]byte("---\n" + b + "---\n# body\n"))
	}
	f.Fuzz(func(t *testing.T, c []byte) {
		lib := viaLibrary(c)
		if fast, ok := viaFastPath(c); ok && !fast.equal(lib) {
			t.Fatalf("%q:\nfast    %s\nlibrary %s", c, fast, lib)
		}
		present, terminated, block, body := SplitFences(c)
		if present != lib.present || terminated != lib.terminated || !bytes.Equal(block, lib.block) || !bytes.Equal(body, lib.body) {
			t.Fatalf("%q: library split %s, upstream %v %v %q %q", c, lib, present, terminated, block, body)
		}
	})
}
