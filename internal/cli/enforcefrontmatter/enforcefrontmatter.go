// Package enforcefrontmatter implements the enforce-frontmatter command. enforce-frontmatter is a PostToolUse hook (matcher
// Write|Edit|MultiEdit): when the written file is a record under the
// knowledge root it lints it in-process and, on a violation, prints a
// FRONTMATTER: block on stderr and exits 2 so the model fixes the record.
//
// Everything else exits 0 silently: a malformed payload, a non-.md or
// missing file, a file outside $KNOWLEDGE_ROOT (else $CODEX_ROOT, else
// $HOME/.claude), a non-record .md, a clean record, and a violation while
// the check is switched off (PROCEDURES_ENABLE_FRONTMATTER_CHECK=false or
// CLAUDE_PLUGIN_OPTION_ENABLE_FRONTMATTER_CHECK=false; the release is
// appended to $GATE_ESCAPE_LOG). An internal failure (a panic) exits 0 too,
// and appends an internal-error row to the fail-open log
// ($GATE_FAILOPEN_LOG, else $HOME/.claude/gate-failopen.jsonl).
package enforcefrontmatter

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/procedures-go/procedures/hookio"
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/lint"
	"github.com/procedures-go/procedures/internal/lintmsg"
	"github.com/procedures-go/procedures/internal/offswitch"
	"github.com/procedures-go/procedures/internal/writerindex"
)

// hook is enforce-frontmatter; a panic is recorded under its own name.
var hook = cli.Hook{Help: help, Body: func(stdin io.Reader, _, stderr io.Writer, env cli.Env) int {
	return run(stdin, stderr, env.Get, time.Now)
}}

// Main is the hook; see the package doc. Given any argument it only answers
// it (see cli.Help.Answer: no stdin, no log); otherwise it never writes to
// stdout. An internal failure (a panic) never blocks: it exits 0 and is
// recorded as internal-error.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	return hook.Main(args, stdin, stdout, stderr, env)
}

// run returns the hook's exit status: 2 to block on a violation, else 0.
func run(stdin io.Reader, stderr io.Writer, getenv func(string) string, now func() time.Time) int {
	p, err := hookio.Read(stdin) // over the cap, malformed: nothing to check
	if err != nil {
		return 0
	}
	// Scope is decided on the lexically cleaned path, before any lookup, so
	// "$ROOT/references/x/../decisions/bad.md" is linted whether or not x
	// exists (the kernel would fail on a missing x).
	file := writtenFile(p)
	if !strings.HasSuffix(file, ".md") {
		return 0
	}
	file = filepath.Clean(file)
	if fi, err := os.Stat(file); err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	s := config.RecordsFrom(getenv, config.KnowledgeRoot) // its one read of the record setting
	root := s.Root
	rel, ok := corpus.InRoot(root, file)    // cleaned, and resolved alike
	if !ok || !lint.IsLintableRecord(rel) { // decided by the lint's rule, not its output
		return 0
	}
	// Through the writers' index: only the records declaring the ids the
	// record declares or links to are stat-ed (PROCEDURES_NO_INDEX=1: all
	// are read, as before).
	res, err := lintTarget(root, rel, writerindex.Options{Off: s.Index.Off, Dir: s.Index.Dir})
	if err != nil {
		return 0
	}
	// OUT is what the linter printed, both streams in write order: the
	// store list's extra-store warnings first, as upstream.
	var out bytes.Buffer
	out.Write(cli.ExtraStoreWarnings(s.Rejected))
	lintmsg.WriteCapped(res, &out, &out, maxShownFindings)
	if !res.Failed() {
		return 0
	}
	if !offswitch.EnabledOrLogRelease(offswitch.FrontmatterCheck, config.SwitchesFrom(getenv), config.EscapeLogPath(getenv), now()) {
		return 0
	}
	io.WriteString(stderr, "FRONTMATTER: "+rel+" violates the record frontmatter schema. Fix it now:\n"+
		strings.TrimRight(out.String(), "\n")+"\n"+
		"Every record needs the six keys: id, kind, date, keywords (non-empty), links, status.\n")
	return 2
}

// writtenFile is the payload's tool_input.file_path (no input fallback), as
// text (trailing newlines dropped as a shell command substitution does; a
// value that is not a string never names a .md file). A relative path is
// resolved against the payload's cwd when that is an absolute path.
func writtenFile(p *hookio.Payload) string {
	file := p.Get("tool_input.file_path").Text()
	if file != "" && !filepath.IsAbs(file) {
		if cwd := p.Get("cwd").Text(); filepath.IsAbs(cwd) {
			file = filepath.Join(cwd, file)
		}
	}
	return file
}

// maxShownFindings is how many per-file findings the hook feeds back to the
// model; a record with 100,000 dangling links then costs it a few
// kilobytes, not megabytes.
const maxShownFindings = 50
