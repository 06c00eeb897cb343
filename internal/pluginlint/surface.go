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
	"sync"
)

// SurfaceOptions select the procedures-specific surface rules.
type SurfaceOptions struct {
	// Procedures adds two rules: update-records names every record kind, and
	// no retired skill slug (log, create-new) is present.
	Procedures bool
}

// SurfaceResult is the outcome of [CheckSurface].
type SurfaceResult struct {
	Skills   int      // skill directories under skills/
	Findings []string // one message per finding, in rule order
}

// recordKinds are the artifact kinds /update-records must name.
var recordKinds = []string{"mistake", "decision", "solution", "failure-mode", "procedure",
	"evolution", "principle", "invariant", "policy", "standard", "reference", "skill"}

// pointerRE matches a plugin-root or skill-dir file pointer. It is compiled
// leftmost-longest, as POSIX grep -E matches, on first use (not at every
// start of the multi-call binary).
var pointerRE = sync.OnceValue(func() *regexp.Regexp {
	re := regexp.MustCompile(`\$\{(CLAUDE_PLUGIN_ROOT|CLAUDE_SKILL_DIR)\}/[A-Za-z0-9._/-]+\.(md|sh|py|json)`)
	re.Longest()
	return re
})

// skill is one directory under skills/ and what its SKILL.md says.
type skill struct {
	dir      string
	hasSKILL bool   // SKILL.md exists
	name     string // name: with quotes and blanks removed
	hasName  bool
	hasDesc  bool // a non-blank description:
}

// CheckSurface applies the plugin-surface rules to the plugin at dir, in
// order: every skill directory has a SKILL.md; there are at least two
// skills; each names itself after its directory and has a description; no
// two share a slug; every file pointer resolves; and, with
// opt.Procedures, the procedures-plugin rules. Values are read line by line,
// anywhere in SKILL.md, as the upstream test did.
func CheckSurface(dir string, opt SurfaceOptions) (*SurfaceResult, error) {
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	skills, err := readSkills(filepath.Join(dir, "skills"))
	if err != nil {
		return nil, err
	}
	r := &SurfaceResult{Skills: len(skills)}
	r.Findings = append(r.Findings, missingSKILL(skills)...)
	r.Findings = append(r.Findings, tooFewSkills(skills)...)
	r.Findings = append(r.Findings, badNameOrDescription(skills)...)
	r.Findings = append(r.Findings, duplicateSlugs(skills)...)
	dead, err := deadPointers(dir)
	if err != nil {
		return nil, err
	}
	r.Findings = append(r.Findings, dead...)
	if opt.Procedures {
		r.Findings = append(r.Findings, unnamedKinds(dir)...)
		r.Findings = append(r.Findings, retiredSlugs(dir)...)
	}
	return r, nil
}

// readSkills reads every non-hidden directory of skillsDir (none when it
// does not exist).
func readSkills(skillsDir string) ([]skill, error) {
	ents, err := os.ReadDir(skillsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var skills []skill
	for _, e := range ents {
		if hidden(e.Name()) || !isDir(filepath.Join(skillsDir, e.Name())) {
			continue
		}
		sk := skill{dir: e.Name()}
		path := filepath.Join(skillsDir, e.Name(), "SKILL.md")
		if isFile(path) {
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			sk.hasSKILL = true
			sk.name, sk.hasName = firstLine(b, "name:")
			sk.name = strings.NewReplacer(`"`, "", `'`, "", " ", "").Replace(sk.name)
			desc, hasDesc := firstLine(b, "description:")
			sk.hasDesc = hasDesc && strings.TrimSpace(desc) != ""
		}
		skills = append(skills, sk)
	}
	return skills, nil
}

// missingSKILL: every skill directory holds a SKILL.md.
func missingSKILL(skills []skill) []string {
	var missing []string
	for _, sk := range skills {
		if !sk.hasSKILL {
			missing = append(missing, sk.dir)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return []string{"skill dirs with no SKILL.md: " + strings.Join(missing, " ")}
}

// tooFewSkills: a plugin has at least two skill directories.
func tooFewSkills(skills []skill) []string {
	if len(skills) < 2 {
		return []string{"skills/ has fewer than 2 skill directories"}
	}
	return nil
}

// badNameOrDescription: a SKILL.md names its own directory and describes it.
func badNameOrDescription(skills []skill) []string {
	var out []string
	for _, sk := range skills {
		if !sk.hasSKILL {
			continue
		}
		switch {
		case !sk.hasName || sk.name == "":
			out = append(out, fmt.Sprintf("%s: no name:", sk.dir))
		case sk.name != sk.dir:
			out = append(out, fmt.Sprintf("%s: name '%s' != dir '%s'", sk.dir, sk.name, sk.dir))
		}
		if !sk.hasDesc {
			out = append(out, fmt.Sprintf("%s: no description:", sk.dir))
		}
	}
	return out
}

// duplicateSlugs: no two skills declare the same name.
func duplicateSlugs(skills []skill) []string {
	seen := map[string]int{}
	var dups []string
	for _, sk := range skills {
		if !sk.hasSKILL || !sk.hasName || sk.name == "" {
			continue
		}
		seen[sk.name]++
		if seen[sk.name] == 2 {
			dups = append(dups, sk.name)
		}
	}
	if len(dups) == 0 {
		return nil
	}
	slices.Sort(dups)
	return []string{"duplicate skill slugs: " + strings.Join(dups, " ")}
}

// deadPointers: every ${CLAUDE_PLUGIN_ROOT}/ or ${CLAUDE_SKILL_DIR}/ file
// pointer in a skill or agent .md file names a file that exists.
func deadPointers(dir string) ([]string, error) {
	var out []string
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
			for _, ref := range pointerRE().FindAllString(string(b), -1) {
				target := strings.Replace(ref, "${CLAUDE_PLUGIN_ROOT}", dir, 1)
				target = strings.Replace(target, "${CLAUDE_SKILL_DIR}", here, 1)
				if _, err := os.Stat(target); err != nil {
					out = append(out, fmt.Sprintf("dead pointer: %s/%s -> %s", filepath.Base(here), d.Name(), ref))
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// unnamedKinds: the update-records skill mentions every record kind.
func unnamedKinds(dir string) []string {
	b, _ := os.ReadFile(filepath.Join(dir, "skills", "update-records", "SKILL.md"))
	var out []string
	for _, k := range recordKinds {
		if !strings.Contains(string(b), k) {
			out = append(out, "/update-records does not mention kind: "+k)
		}
	}
	return out
}

// retiredSlugs: the retired log and create-new skills are gone.
func retiredSlugs(dir string) []string {
	var out []string
	for _, retired := range []string{"log", "create-new"} {
		if _, err := os.Lstat(filepath.Join(dir, "skills", retired)); err == nil {
			out = append(out, "retired skill slug present: "+retired)
		}
	}
	return out
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
