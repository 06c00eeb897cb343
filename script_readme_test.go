package procedures_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeNamesScenarios: the README's "Differences from the bash
// original" tables are the one traceability table, so every scenario they
// name (a backquoted `<area>_<behaviour>`, or `…_<behaviour>` after one of
// the same area) is a file under testdata/script. An area is the first word
// of an existing scenario's name.
func TestReadmeNamesScenarios(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "\n## Differences from the bash original\n")
	if start < 0 {
		t.Fatal(`README.md has no "## Differences from the bash original" section`)
	}
	section := text[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	scripts, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	areas := map[string]bool{}
	for _, s := range scripts {
		area, _, _ := strings.Cut(filepath.Base(s), "_")
		areas[area] = true
	}
	name := regexp.MustCompile(`^[a-z][a-z-]*_[a-z0-9_]+$`)
	var area string
	named := 0
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(section, -1) {
		tok := m[1]
		if rest, ok := strings.CutPrefix(tok, "…_"); ok && area != "" {
			tok = area + "_" + rest
		}
		a, _, _ := strings.Cut(tok, "_")
		if !name.MatchString(tok) || !areas[a] {
			continue
		}
		area = a
		named++
		if _, err := os.Stat(filepath.Join("testdata", "script", tok+".txtar")); err != nil {
			t.Errorf("README names scenario %s, which does not exist", tok)
		}
	}
	if named == 0 {
		t.Fatal("the differences section names no scenario")
	}
}
