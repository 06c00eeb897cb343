package shellread

import (
	"strings"
	"sync"
)

// specCache holds the option tables parsed so far. A table is parsed on
// its first use: a gate process judges a few programs, and parsing every
// table would cost more than judging.
var specCache struct {
	sync.Mutex
	m map[string]*argSpec
}

// specAliases are programs that share another's table.
var specAliases map[string]string // made by loadTables

func makeSpecAliases() map[string]string {
	return map[string]string{"egrep": "grep", "fgrep": "grep", "sha1sum": "md5sum", "sha224sum": "md5sum",
		"sha256sum": "md5sum", "sha384sum": "md5sum", "sha512sum": "md5sum", "fd": "fdfind", "gawk": "awk",
		"mawk": "awk", "nawk": "awk"}
}

// specSource returns the text and operand check of the table named key: a
// program, "git SUB" or "docker SUB" ("docker " for docker's own options).
func specSource(key string) (string, func(p *parsed) bool, bool) {
	if a, ok := specAliases[key]; ok {
		key = a
	}
	if t, ok := optionTables[key]; ok {
		return t, specChecks[key], true
	}
	if t, ok := moreTables[key]; ok {
		return t, moreChecks[key], true
	}
	if t, ok := coreTables[key]; ok {
		return t, nil, true
	}
	switch key {
	case "zcat": // gzip -cd: it never writes a file
		return moreTables["gzip"], nil, true
	case "awk":
		return awkTable, nil, true
	case "docker ":
		return dockerGlobal, nil, true
	}
	if sub, ok := strings.CutPrefix(key, "git "); ok {
		t, ok := gitTables[sub]
		return t, nil, ok
	}
	if sub, ok := strings.CutPrefix(key, "docker "); ok {
		t, ok := dockerTables[sub]
		return t, nil, ok
	}
	return "", nil, false
}

// spec returns the parsed table named key, or nil.
func spec(key string) *argSpec {
	specCache.Lock()
	defer specCache.Unlock()
	if s, ok := specCache.m[key]; ok {
		return s
	}
	text, check, ok := specSource(key)
	if !ok {
		return nil
	}
	s := parseSpec(text)
	s.check = check
	if specCache.m == nil {
		specCache.m = map[string]*argSpec{}
	}
	specCache.m[key] = s
	return s
}

// listed reports whether name has a rule or a table.
func listed(name string) bool {
	if _, ok := rules[name]; ok {
		return true
	}
	_, _, ok := specSource(name)
	return ok && !strings.Contains(name, " ")
}

// loadData makes the tables' maps (at first use, not at start-up: every
// command links this package).
func loadData() {
	dockerTables = makeDockerTables()
	dockerPaths = makeDockerPaths()
	findArity = makeFindArity()
	gitTables = makeGitTables()
	specAliases = makeSpecAliases()
	specChecks = makeSpecChecks()
	moreChecks = makeMoreChecks()
	optionTables = makeOptionTables()
	moreTables = makeMoreTables()
	coreTables = makeCoreTables()
}
