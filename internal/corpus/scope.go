package corpus

import (
	"path/filepath"
	"strings"
)

// InRoot reports whether file lies inside root and returns its path relative
// to root (slash-separated), as a hook decides whether a written file is a
// record to lint. Both are cleaned first, so "./", "//" and "x/.." spell the
// same path; failing that, both are resolved through symlinks the same way
// (the root whole, the file's directory but not the file itself), so a path
// through a symlinked root is inside it too. A path that leaves the root
// ("root/../elsewhere", a sibling "root2") is not.
func InRoot(root, file string) (string, bool) {
	if root == "" || file == "" {
		return "", false
	}
	if rel, ok := under(filepath.Clean(root), filepath.Clean(file)); ok {
		return rel, true
	}
	r, err := resolve(root)
	if err != nil {
		return "", false
	}
	clean := filepath.Clean(file)
	dir, err := resolve(filepath.Dir(clean))
	if err != nil {
		return "", false
	}
	return under(r, filepath.Join(dir, filepath.Base(clean)))
}

func resolve(p string) (string, error) {
	p, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(p)
}

// under returns p relative to the cleaned directory root when p is below it.
func under(root, p string) (string, bool) {
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	rel, ok := strings.CutPrefix(p, prefix)
	if !ok || rel == "" {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
