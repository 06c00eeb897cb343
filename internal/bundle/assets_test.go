package bundle

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func shippedFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := fs.ReadFile(PluginFiles(), name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestWriteAssetsWritesEveryPluginFile(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	if err := writeAssets(dir, &log); err != nil {
		t.Fatal(err)
	}
	n := 0
	fs.WalkDir(PluginFiles(), ".", func(name string, d fs.DirEntry, _ error) error {
		if d.IsDir() {
			return nil
		}
		n++
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, shippedFile(t, name)) {
			t.Errorf("%s not written as shipped: %v", name, err)
		}
		return nil
	})
	if n < 4 {
		t.Fatalf("only %d plugin files embedded", n)
	}
	var m manifest
	b, _ := os.ReadFile(filepath.Join(dir, AssetsManifest))
	if err := json.Unmarshal(b, &m); err != nil || len(m.Files) != n {
		t.Errorf("manifest lists %d of %d files (%v)", len(m.Files), n, err)
	}
	if strings.Contains(log.String(), "kept") {
		t.Errorf("a fresh bundle kept something:\n%s", log.String())
	}
}

const skillPath = "skills/how-do-i/SKILL.md"

func TestWriteAssetsKeepsAFileItDidNotWrite(t *testing.T) {
	dir := t.TempDir()
	own := []byte("---\nname: how-do-i\ndescription: the operator's own\n---\nmine\n")
	os.MkdirAll(filepath.Join(dir, "skills", "how-do-i"), 0o755)
	os.WriteFile(filepath.Join(dir, skillPath), own, 0o644)
	var log bytes.Buffer
	if err := writeAssets(dir, &log); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, skillPath)); !bytes.Equal(got, own) {
		t.Error("the operator's skill was overwritten")
	}
	if !strings.Contains(log.String(), "kept "+filepath.Join(dir, skillPath)+": a file the bundle did not write") {
		t.Errorf("the kept file was not named:\n%s", log.String())
	}
	// A second bundle still keeps it: the manifest does not claim it.
	log.Reset()
	if err := writeAssets(dir, &log); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, skillPath)); !bytes.Equal(got, own) {
		t.Error("the operator's skill was overwritten by the second bundle")
	}
}

func TestWriteAssetsUpdatesWhatItWrote(t *testing.T) {
	dir := t.TempDir()
	older := []byte("an older version the bundle wrote\n")
	os.MkdirAll(filepath.Join(dir, "skills", "how-do-i"), 0o755)
	os.WriteFile(filepath.Join(dir, skillPath), older, 0o644)
	m, _ := json.Marshal(manifest{Files: map[string]string{skillPath: sum(older)}})
	os.WriteFile(filepath.Join(dir, AssetsManifest), m, 0o644)
	if err := writeAssets(dir, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, skillPath)); !bytes.Equal(got, shippedFile(t, skillPath)) {
		t.Error("the bundle's older file was not updated")
	}
	// Edited by hand after that: kept.
	edited := append(shippedFile(t, skillPath), "an operator's note\n"...)
	os.WriteFile(filepath.Join(dir, skillPath), edited, 0o644)
	var log bytes.Buffer
	if err := writeAssets(dir, &log); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, skillPath)); !bytes.Equal(got, edited) {
		t.Error("an edited file was overwritten")
	}
	if !strings.Contains(log.String(), "edited since the bundle wrote it") {
		t.Errorf("the edited file was not named:\n%s", log.String())
	}
}

func TestWriteAssetsNeverWritesThroughASymlink(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim.md")
	os.WriteFile(victim, []byte("outside\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "skills", "how-do-i"), 0o755)
	os.Symlink(victim, filepath.Join(dir, skillPath))
	var log bytes.Buffer
	if err := writeAssets(dir, &log); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "outside\n" {
		t.Error("wrote through a symlinked file")
	}
	if !strings.Contains(log.String(), "not a regular file") {
		t.Errorf("the symlink was not named:\n%s", log.String())
	}
	// A symlinked directory leading out: its files are kept (named), or
	// the bundle stops; either way nothing is written there.
	dir2 := t.TempDir()
	os.Symlink(outside, filepath.Join(dir2, "agents"))
	log.Reset()
	if err := writeAssets(dir2, &log); err == nil && !strings.Contains(log.String(), "kept "+filepath.Join(dir2, "agents")) {
		t.Errorf("a symlinked directory leading out was neither refused nor named:\n%s", log.String())
	}
	if _, err := os.Stat(filepath.Join(outside, "procedure-scout.md")); err == nil {
		t.Error("wrote through a symlinked directory")
	}
}

func TestWriteAssetsDoesNotReadAHugeFile(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "skills", "how-do-i"), 0o755)
	huge := bytes.Repeat([]byte("x"), maxManifest+1)
	os.WriteFile(filepath.Join(dir, skillPath), huge, 0o644)
	var log bytes.Buffer
	if err := writeAssets(dir, &log); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, skillPath)); fi.Size() != int64(len(huge)) {
		t.Error("the huge file was replaced")
	}
	if !strings.Contains(log.String(), "kept ") {
		t.Errorf("the huge file was not named:\n%s", log.String())
	}
}
