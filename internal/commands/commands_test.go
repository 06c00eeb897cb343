package commands

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The table is sorted, names are unique, every entry is complete, and every
// command has a thin main under cmd/ (besides cmd/procedures, which runs
// them all).
func TestTableIsSortedCompleteAndInstalled(t *testing.T) {
	if !slices.IsSortedFunc(All, func(a, b Command) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("All is not sorted by Name")
	}
	for i, c := range All {
		if i > 0 && All[i-1].Name == c.Name {
			t.Errorf("%s listed twice", c.Name)
		}
		if c.Summary == "" || strings.Contains(c.Summary, "\n") || c.Main == nil {
			t.Errorf("%s: incomplete entry %+v", c.Name, c)
		}
		if _, err := os.Stat("../../cmd/" + c.Name + "/main.go"); err != nil {
			t.Errorf("%s: no cmd/%s/main.go: %v", c.Name, c.Name, err)
		}
		if got, ok := Lookup(c.Name); !ok || got.Name != c.Name {
			t.Errorf("Lookup(%q) = %v, %v", c.Name, got.Name, ok)
		}
	}
	dirs, err := os.ReadDir("../../cmd")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if d.Name() == "procedures" {
			continue // the multi-call binary that dispatches on this table
		}
		if _, ok := Lookup(d.Name()); !ok {
			t.Errorf("cmd/%s has no entry in All", d.Name())
		}
	}
	if _, ok := Lookup("no-such-command"); ok {
		t.Error("Lookup found a command that does not exist")
	}
}
