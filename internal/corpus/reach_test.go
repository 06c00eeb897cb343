package corpus

import (
	"slices"
	"testing"
)

func TestReachListsRecordsTheirTitleDoesNotFind(t *testing.T) {
	files := map[string]string{
		"procedures/lost.md": "---\nkind: procedure\n---\n# Notes\n\nRotate the vault tokens monthly.\n",
		"procedures/none.md": "---\nkind: procedure\n---\n",
		"procedures/ok.md":   "---\nkind: procedure\n---\n# Rotate vault tokens\n\nMonthly.\n",
	}
	// Six more records titled "Notes" push the first one out of the top 5.
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		files["procedures/"+n+"-notes.md"] = "---\nkind: procedure\n---\n# Notes\n\nSomething else.\n"
	}
	root := writeRecords(t, files)
	c, err := Open(root, []string{"procedures"})
	if err != nil {
		t.Fatal(err)
	}
	got, checked, err := c.Reach(nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	if checked != 9 {
		t.Errorf("checked %d", checked)
	}
	var paths []string
	for _, u := range got {
		paths = append(paths, u.Path)
	}
	if !slices.Equal(paths, []string{"procedures/f-notes.md", "procedures/lost.md", "procedures/none.md"}) {
		t.Fatalf("unreached %v", paths)
	}
	lost := got[1]
	if lost.Rank != 7 || !slices.Contains(lost.Terms, "lost") {
		t.Errorf("lost: %+v", lost)
	}
}
