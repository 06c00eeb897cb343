package bundle

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
)

// pluginFiles are the plugin's own skills and agents, written into every
// bundle under the same relative paths.
//
//go:embed all:plugin
var pluginFiles embed.FS

// PluginFiles is the tree of the plugin's own files (skills/…, agents/…),
// as the bundle writes them.
func PluginFiles() fs.FS {
	sub, err := fs.Sub(pluginFiles, "plugin")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}

// AssetsManifest is the file, at a bundle's root, that records every plugin
// file the bundle wrote and the SHA-256 of what it wrote.
const AssetsManifest = ".procedures-assets.json"

// maxManifest caps the manifest the bundle reads back, and the size of a
// file at one of our paths that it reads to recognise.
const maxManifest = 1 << 20

type manifest struct {
	Files map[string]string `json:"files"` // relative path -> sha256 hex
}

// writeAssets writes the plugin's own files into dir. A file that is not
// there is written; a file the bundle wrote before (its content still hashes
// to the manifest's entry) or one already equal to ours is replaced. Any
// other file at one of our paths (an operator's own skill, an edited copy,
// a symlink) is kept, and named on log. Writes go through an os.Root at
// dir, so none lands outside it, and each replaces its target by rename.
func writeAssets(dir string, log io.Writer) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	old := readManifest(root)
	next := manifest{Files: map[string]string{}}
	var names []string
	err = fs.WalkDir(PluginFiles(), ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, name)
		}
		return err
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		data, err := fs.ReadFile(PluginFiles(), name)
		if err != nil {
			return err
		}
		ours := sum(data)
		write, why := mayWrite(root, name, ours, old.Files[name])
		if !write {
			if why != "" {
				logf(log, "kept %s: %s; the plugin's own version was not written", filepath.Join(dir, filepath.FromSlash(name)), why)
			}
			if old.Files[name] != "" {
				next.Files[name] = old.Files[name]
			}
			continue
		}
		if err := root.MkdirAll(path.Dir(name), 0o755); err != nil {
			return err
		}
		if err := rootReplace(root, name, data, 0o644); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(dir, filepath.FromSlash(name)), err)
		}
		next.Files[name] = ours
		logf(log, "wrote %s", filepath.Join(dir, filepath.FromSlash(name)))
	}
	b, err := json.MarshalIndent(next, "", "  ")
	if err != nil {
		return err
	}
	return rootReplace(root, AssetsManifest, append(b, '\n'), 0o644)
}

// mayWrite reports whether the file at name may be (re)written, and when
// not, why (empty when it already holds our content).
func mayWrite(root *os.Root, name, ours, recorded string) (bool, string) {
	fi, err := root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return true, ""
	}
	if err != nil {
		return false, err.Error()
	}
	if !fi.Mode().IsRegular() {
		return false, "not a regular file"
	}
	if fi.Size() > maxManifest {
		return false, "a file the bundle did not write" // ours are far smaller; not read
	}
	have, err := root.ReadFile(name)
	if err != nil {
		return false, err.Error()
	}
	switch h := sum(have); {
	case h == ours:
		return true, ""
	case recorded != "" && h == recorded:
		return true, ""
	case recorded != "":
		return false, "edited since the bundle wrote it"
	}
	return false, "a file the bundle did not write"
}

func readManifest(root *os.Root) manifest {
	var m manifest
	f, err := root.Open(AssetsManifest)
	if err != nil {
		return m
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxManifest+1))
	if err != nil || len(b) > maxManifest || json.Unmarshal(b, &m) != nil {
		return manifest{} // unreadable: every file counts as not ours, so none is overwritten
	}
	return m
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// rootReplace writes data to a new file beside name, inside root, and
// renames it over name.
func rootReplace(root *os.Root, name string, data []byte, mode os.FileMode) error {
	var rnd [8]byte
	rand.Read(rnd[:])
	tmp := path.Join(path.Dir(name), "."+path.Base(name)+".new-"+hex.EncodeToString(rnd[:]))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, werr := io.Copy(f, bytes.NewReader(data))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = root.Chmod(tmp, mode)
	}
	if werr == nil {
		werr = root.Rename(tmp, name)
	}
	if werr != nil {
		root.Remove(tmp)
	}
	return werr
}
