package pluginlint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// SurfaceOptions select the procedures-specific surface rules.
type SurfaceOptions struct {
	// Procedures enables S6 (update-records names every kind) and S7 (no
	// retired skill slugs).
	Procedures bool
}

// SurfaceResult is the outcome of [CheckSurface].
type SurfaceResult struct {
	Skills   int      // skill directories under skills/
	Findings []string // one message per finding, in rule order
}

// recordKinds are the artifact kinds /update-records must name (S6).
var recordKinds = []string{"mistake", "decision", "solution", "failure-mode", "procedure",
	"evolution", "principle", "invariant", "policy", "standard", "reference", "skill"}

// pointerRE matches a plugin-root or skill-dir file pointer (S5). It is
// compiled leftmost-longest, as POSIX grep -E matches.
var pointerRE = func() *regexp.Regexp {
	re := regexp.MustCompile(`\$\{(CLAUDE_PLUGIN_ROOT|CLAUDE_SKILL_DIR)\}/[A-Za-z0-9._/-]+\.(md|sh|py|json)`)
	re.Longest()
	return re
}()

// CheckSurface applies the plugin-surface rules S1–S7 to the plugin at dir.
// Values are read line by line, anywhere in SKILL.md, as the upstream test did.
func CheckSurface(dir string, opt SurfaceOptions) (*SurfaceResult, error) {
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	r := &SurfaceResult{}
	find := func(format string, a ...any) { r.Findings = append(r.Findings, fmt.Sprintf(format, a...)) }
	skillsDir := filepath.Join(dir, "skills")
	ents, err := os.ReadDir(skillsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var dirs, missing []string
	for _, e := range ents {
		if !hidden(e.Name()) && isDir(filepath.Join(skillsDir, e.Name())) {
			dirs = append(dirs, e.Name())
		}
	}
	r.Skills = len(dirs)
	type named struct{ dir, name string }
	var names []named
	var s3 []string
	for _, d := range dirs {
		path := filepath.Join(skillsDir, d, "SKILL.md")
		if !isFile(path) {
			missing = append(missing, d)
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		name, hasName := firstLine(b, "name:")
		desc, hasDesc := firstLine(b, "description:")
		name = strings.NewReplacer(`"`, "", `'`, "", " ", "").Replace(name)
		switch {
		case !hasName || name == "":
			s3 = append(s3, fmt.Sprintf("%s: no name:", d))
		case name != d:
			s3 = append(s3, fmt.Sprintf("%s: name '%s' != dir '%s'", d, name, d))
		}
		if !hasDesc || strings.TrimSpace(desc) == "" {
			s3 = append(s3, fmt.Sprintf("%s: no description:", d))
		}
		if hasName && name != "" {
			names = append(names, named{d, name})
		}
	}
	// S1
	if len(missing) > 0 {
		find("skill dirs with no SKILL.md: %s", strings.Join(missing, " "))
	}
	// S2
	if len(dirs) < 2 {
		find("skills/ has fewer than 2 skill directories")
	}
	// S3
	r.Findings = append(r.Findings, s3...)
	// S4
	seen := map[string]int{}
	var dups []string
	for _, n := range names {
		seen[n.name]++
		if seen[n.name] == 2 {
			dups = append(dups, n.name)
		}
	}
	if len(dups) > 0 {
		slices.Sort(dups)
		find("duplicate skill slugs: %s", strings.Join(dups, " "))
	}
	// S5
	for _, sub := range []string{"skills", "agents"} {
		err := filepath.WalkDir(filepath.Join(dir, sub), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && path == filepath.Join(dir, sub) {
					return nil
				}
				return err
			}
			if d.IsDir() || !strings.HasSuffix(d.Name(), ".md") || !d.Type().IsRegular() {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			here := filepath.Dir(path)
			for _, ref := range pointerRE.FindAllString(string(b), -1) {
				target := strings.Replace(ref, "${CLAUDE_PLUGIN_ROOT}", dir, 1)
				target = strings.Replace(target, "${CLAUDE_SKILL_DIR}", here, 1)
				if _, err := os.Stat(target); err != nil {
					find("dead pointer: %s/%s -> %s", filepath.Base(here), d.Name(), ref)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if opt.Procedures {
		// S6
		b, _ := os.ReadFile(filepath.Join(skillsDir, "update-records", "SKILL.md"))
		for _, k := range recordKinds {
			if !strings.Contains(string(b), k) {
				find("/update-records does not mention kind: %s", k)
			}
		}
		// S7
		for _, retired := range []string{"log", "create-new"} {
			if _, err := os.Lstat(filepath.Join(skillsDir, retired)); err == nil {
				find("retired skill slug present: %s", retired)
			}
		}
	}
	return r, nil
}

// firstLine returns the rest of the first line of b starting with prefix,
// with leading blanks removed.
func firstLine(b []byte, prefix string) (string, bool) {
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return strings.TrimLeft(strings.TrimRight(rest, "\r\n"), " \t"), true
		}
	}
	return "", false
}
