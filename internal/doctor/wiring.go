package doctor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mvdan.cc/sh/v3/syntax"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/gate"
	"github.com/procedures-go/procedures/internal/wiring"
)

// MaxConfig caps hooks.json and plugin.json.
const MaxConfig = 1 << 20

// DefaultPlugin is the bundle the running binary belongs to: the parent of
// binDir ($PROCEDURES_BIN_DIR) when that is set (the launcher sets it to
// its own bin directory), else the grandparent of exe's directory when exe sits in
// bin/<os>-<arch>/. It returns "" when neither applies. Symlinks are
// resolved, so ".." means what the kernel makes of it.
func DefaultPlugin(binDir, exe string) string {
	if d := binDir; d != "" {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Dir(r)
		}
		return d + "/.."
	}
	if exe == "" {
		return ""
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	dir := filepath.Dir(exe)
	if isPlatformDir(filepath.Base(dir)) && filepath.Base(filepath.Dir(dir)) == "bin" {
		return filepath.Dir(filepath.Dir(dir))
	}
	return ""
}

func isPlatformDir(name string) bool {
	for _, p := range bundle.Platforms {
		if p.String() == name {
			return true
		}
	}
	return false
}

// readConfig reads a small configuration file, refusing one above MaxConfig.
func readConfig(path string) ([]byte, error) {
	f, err := openLog(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxConfig+1))
	if err == nil && len(data) > MaxConfig {
		err = fmt.Errorf("%s is larger than %d bytes", path, MaxConfig)
	}
	return data, err
}

// A wired hook is one handler of hooks.json.
type wired struct {
	event, matcher, command string // command: the raw command line
	name                    string // the procedures command it runs ("" if not understood)
	parsed                  hookCmd
	parseErr                error
	upstream                string // the hook, when the line is the bash original's (bundle.UpstreamHook)
}

func (w wired) where() string {
	if w.matcher == "" {
		return w.event
	}
	return w.event + "[" + w.matcher + "]"
}

// foreign reports whether w is not a procedures hook at all: a command
// that does not run the launcher or a binary named after a procedures
// command (an operator's own hook, which bundling keeps).
func (w wired) foreign() bool {
	if w.parseErr != nil || len(w.parsed.args) != 1 {
		return !strings.Contains(w.command, "procedures") && !mentionsHook(w.command)
	}
	base := strings.TrimSuffix(filepath.Base(w.parsed.prog), ".exe")
	return base != "procedures" && !wiring.IsHook(base) && !isCommand(base)
}

func mentionsHook(command string) bool {
	for _, h := range wiring.Hooks() {
		if strings.Contains(command, h.Command) {
			return true
		}
	}
	return false
}

// isCommand reports whether name is a command of the multi-call binary.
func isCommand(name string) bool {
	return slices.Contains(config.RootCommands, name) || name == "session-digest-read" || name == "doctor"
}

func tableWhere(h wiring.Hook) string {
	return wired{event: h.Event, matcher: h.Matcher}.where()
}

// rebundleMark stands in a resolution's fix for the command that writes
// the bundle again, which only checkWiring knows.
const rebundleMark = "\x00rebundle"

// checkWiring adds the Wiring findings for the bundle at plugin; f spells
// the command that writes it again.
func checkWiring(r *Report, o *Options, plugin string, f fixer) {
	add := func(st Status, subject, reason, fix string) {
		r.add(Finding{Section: SectionWiring, Status: st, Subject: subject, Reason: reason, Fix: fix})
	}
	if plugin == "" {
		add(Warn, "plugin", "no procedures plugin is installed in Claude Code (installed_plugins.json, known_marketplaces.json) and this procedures does not run from a plugin bundle, so there is no wiring to check: doctor --plugin DIR checks a bundle anywhere, docs/install.md installs one", "")
		return
	}
	if fi, err := os.Stat(plugin); err != nil || !fi.IsDir() {
		add(Fail, "plugin", fmt.Sprintf("%s is not a directory", plugin), f.rebundle(plugin))
		return
	}
	hooksPath := filepath.Join(plugin, "hooks", "hooks.json")
	hooks, err := readHooks(hooksPath, plugin)
	if err != nil {
		add(Fail, "hooks.json", err.Error(), hooksFix(err, hooksPath, plugin, f))
	} else {
		add(OK, "hooks.json", fmt.Sprintf("%s parses: %d hooks", hooksPath, len(hooks)), "")
	}
	upstream := checkUpstream(r, plugin, hooks, f)

	bindirs := map[string]string{} // gate hook -> the directory it takes as its own
	type warning struct {
		st                 Status
		subject, warn, fix string
	}
	warned := map[warning][]string{} // a warning or failure -> the hooks it concerns
	var causes []warning             // in the order first seen
	for _, h := range wiring.Hooks() {
		var match, elsewhere []wired
		for _, w := range hooks {
			if w.name != h.Command {
				continue
			}
			if w.event == h.Event && w.matcher == h.Matcher {
				match = append(match, w)
			} else {
				elsewhere = append(elsewhere, w)
			}
		}
		if err != nil {
			continue // hooks.json already failed
		}
		if len(match) == 0 {
			if upstream[h.Command] {
				continue // named once, by the bash original's finding
			}
			reason := fmt.Sprintf("not wired on %s", tableWhere(h))
			if len(elsewhere) > 0 {
				reason += ", but on " + elsewhere[0].where()
			}
			add(Fail, h.Command, reason, f.rebundle(plugin))
			continue
		}
		res := resolve(match[0].parsed, o.Settings.BinDir)
		res.fix = strings.ReplaceAll(res.fix, rebundleMark, f.rebundle(plugin))
		if res.err != nil {
			// One finding per cause: hooks sharing a missing binary share it.
			k := warning{Fail, res.err.Error(), res.err.Error(), res.fix}
			if p := res.subject; p != "" {
				k.subject = inPlugin(plugin, p)
			}
			if _, seen := warned[k]; !seen {
				causes = append(causes, k)
			}
			warned[k] = append(warned[k], h.Command)
			continue
		}
		bindirs[h.Command] = res.bindir
		st, reason := OK, fmt.Sprintf("%s: runs %s", match[0].where(), inPlugin(plugin, res.exe))
		if res.launcher != "" {
			reason += " through the launcher " + inPlugin(plugin, res.launcher)
		}
		if res.warn != "" {
			// One finding per cause: the hooks sharing a binary share
			// its warning, reported once below.
			k := warning{Warn, inPlugin(plugin, res.exe), res.warn, res.fix}
			if _, seen := warned[k]; !seen {
				causes = append(causes, k)
			}
			warned[k] = append(warned[k], h.Command)
			reason += " (see the warning on " + k.subject + ")"
			res.fix = ""
		}
		add(st, h.Command, reason, res.fix)
	}
	for _, k := range causes {
		add(k.st, k.subject, k.warn+" (hooks: "+strings.Join(warned[k], ", ")+")", k.fix)
	}
	if err == nil {
		for _, w := range hooks {
			if upstream[w.upstream] {
				continue // named by the bash original's finding
			}
			if w.foreign() {
				add(OK, w.where(), fmt.Sprintf("%q is not a procedures hook (yours, kept by the bundle): not checked", w.command), "")
				continue
			}
			if w.parseErr != nil {
				add(Fail, w.where(), fmt.Sprintf("cannot read the hook command %q: %v", w.command, w.parseErr),
					f.rebundle(plugin))
				continue
			}
			if !slices.Contains(wiring.Hooks(), wiring.Hook{Event: w.event, Matcher: w.matcher, Command: w.name}) {
				add(Warn, w.where(), fmt.Sprintf("%q is not a hook of this procedures build: remove it, or write hooks.json again", w.command),
					f.rebundle(plugin))
			}
		}
	}

	checkSkills(r, plugin, bindirs, f)
	checkPlatformVersions(r, plugin, f)
	checkPluginJSON(r, plugin, f)
}

// checkSkills adds, for each gate, whether its SKILL.md is readable from
// the directory its hook takes as its own (bindirs, else the plugin's
// bin): a missing one is a fail whose fix writes the bundle again.
func checkSkills(r *Report, plugin string, bindirs map[string]string, f fixer) {
	add := func(st Status, subject, reason, fix string) {
		r.add(Finding{Section: SectionWiring, Status: st, Subject: subject, Reason: reason, Fix: fix})
	}
	for _, hook := range []string{"how-do-i-gate", "am-i-done-gate"} {
		skill := gateSkills[hook]
		bindir, ok := bindirs[hook]
		if !ok {
			bindir = filepath.Join(plugin, "bin")
		}
		path := gate.SkillPath(bindir, skill)
		if err := gate.Readable(path); err != nil {
			add(Fail, hook+" skill", fmt.Sprintf("%s is not readable (%v): the gate will release every turn blind, recording %s; the fix writes the bundle again, or put the %s skill at %s",
				path, cause(err), "skill-unresolvable", skill, filepath.Join(plugin, "skills", skill, "SKILL.md")),
				f.rebundle(plugin))
			continue
		}
		add(OK, hook+" skill", path+" is readable", "")
	}
}

// readHooks parses hooks.json into its handlers.
func readHooks(path, plugin string) ([]wired, error) {
	data, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string    `json:"type"`
				Command string    `json:"command"`
				Args    *[]string `json:"args"` // set: the exec form, no shell
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, &parseError{path, jsonPosition(data, err)}
	}
	if doc.Hooks == nil {
		return nil, fmt.Errorf("%s has no \"hooks\" object", path)
	}
	var out []wired
	events := make([]string, 0, len(doc.Hooks))
	for ev := range doc.Hooks {
		events = append(events, ev)
	}
	slices.Sort(events)
	for _, ev := range events {
		for _, g := range doc.Hooks[ev] {
			for _, h := range g.Hooks {
				w := wired{event: ev, matcher: g.Matcher, command: h.Command}
				w.upstream, _ = bundle.UpstreamHook(h.Command)
				switch {
				case h.Type != "command":
					w.parseErr = fmt.Errorf("type %q, not \"command\"", h.Type)
				case h.Args != nil:
					w.parsed = execForm(h.Command, *h.Args, plugin)
				default:
					w.parsed, w.parseErr = parseHookCommand(h.Command, plugin)
				}
				if w.parseErr == nil {
					if len(w.parsed.args) != 1 {
						w.parseErr = errors.New("want one argument, the command name")
					} else {
						w.name = w.parsed.args[0]
					}
				}
				out = append(out, w)
			}
		}
	}
	return out, nil
}

// checkPluginJSON checks that plugin.json declares every switch as a
// userConfig option, without which Claude Code never sets its variable.
func checkPluginJSON(r *Report, plugin string, f fixer) {
	path := filepath.Join(plugin, ".claude-plugin", "plugin.json")
	add := func(st Status, reason, fix string) {
		r.add(Finding{Section: SectionWiring, Status: st, Subject: "plugin.json", Reason: reason, Fix: fix})
	}
	data, err := readConfig(path)
	if err != nil {
		add(Warn, err.Error(), f.rebundle(plugin))
		return
	}
	var doc struct {
		UserConfig map[string]json.RawMessage `json:"userConfig"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		add(Warn, fmt.Sprintf("%s does not parse: %v (fix it there; bundling again keeps plugin.json's keys, so it refuses a file that does not parse: the fix moves it aside)", path, jsonPosition(data, err)),
			moveAside(path)+" && "+f.rebundle(plugin))
		return
	}
	var missing, have []string
	for _, s := range wiring.Switches() {
		if _, ok := doc.UserConfig[s.Option]; ok {
			have = append(have, s.Option)
		} else {
			missing = append(missing, s.Option)
		}
	}
	if len(missing) > 0 {
		add(Warn, fmt.Sprintf("%s does not declare %s: those switches can only be set by PROCEDURES_ENABLE_* variables (bundling again adds them, and changes nothing else)",
			path, strings.Join(missing, ", ")), f.rebundle(plugin))
		return
	}
	add(OK, fmt.Sprintf("%s declares %s", path, strings.Join(have, ", ")), "")
}

// execForm reads a hook in exec form ("args" set): Claude Code runs the
// command, ${CLAUDE_PLUGIN_ROOT} replaced, with args and no shell. A binary
// named after a hook (docs/bundle.md's exec form: bin/<hook>, dispatching on its
// own name) runs that hook; the multi-call binary runs its first argument.
func execForm(command string, args []string, root string) hookCmd {
	prog := strings.ReplaceAll(command, "${"+pluginRootVar+"}", root)
	c := hookCmd{prog: prog, args: args}
	if base := strings.TrimSuffix(filepath.Base(prog), ".exe"); base != "procedures" && len(args) == 0 {
		c.args = []string{base}
	}
	return c
}

// MaxHookCommand caps the hook command lines the doctor parses; a
// procedures hook command is under a hundred bytes.
const MaxHookCommand = 4096

// A hookCmd is a hooks.json command line, read as the shell would read it.
type hookCmd struct {
	shell string   // "sh" (or bash, dash) when a shell runs prog as a script; "." when the hook's own shell sources it; "" when prog is executed
	prog  string   // the script or executable, ${CLAUDE_PLUGIN_ROOT} expanded
	args  []string // the rest
}

// parseHookCommand reads a hook command line as sh would, on the AST of
// mvdan.cc/sh/v3/syntax: it must be one simple command (no operators,
// redirections, assignments or substitutions) whose words are literals,
// '...' and "..." quoting, and $CLAUDE_PLUGIN_ROOT or ${CLAUDE_PLUGIN_ROOT},
// which is replaced by root. Anything else a shell would interpret
// (another variable, a backslash, a glob) is refused, and so is a NUL byte:
// no shell is ever handed one (an exec argument ends at it) and the parser
// drops it, so what the doctor read would not be what runs. The one other
// form it reads is the bundle's own, which sources the launcher in the
// hook's shell: `set -- <script> [args...]; . "$1"` (see sourcedForm).
func parseHookCommand(line, root string) (hookCmd, error) {
	if len(line) > MaxHookCommand {
		// The parser's tree grows with the nesting, about a kilobyte per
		// byte of a nested command: cap the input to bound the walk.
		return hookCmd{}, fmt.Errorf("is %d bytes long, over the %d the doctor reads", len(line), MaxHookCommand)
	}
	if strings.IndexByte(line, 0) >= 0 {
		return hookCmd{}, errors.New("holds a NUL byte, which no shell is ever given")
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(line), "")
	if err != nil {
		return hookCmd{}, fmt.Errorf("does not parse as a shell command: %v", err)
	}
	if len(f.Stmts) == 0 {
		return hookCmd{}, errors.New("is empty")
	}
	if words, ok := sourcedForm(f, line); ok {
		c := hookCmd{shell: "."}
		for _, w := range words {
			var b strings.Builder
			if err := appendWord(&b, w.Parts, false, line, root); err != nil {
				return hookCmd{}, err
			}
			c.args = append(c.args, b.String())
		}
		if len(c.args) == 0 {
			return hookCmd{}, errors.New("sources no script")
		}
		c.prog, c.args = c.args[0], c.args[1:]
		return c, nil
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if len(f.Stmts) > 1 || !ok || len(st.Redirs) > 0 || len(call.Assigns) > 0 || st.Negated || st.Background {
		return hookCmd{}, errors.New("is not one simple command, which the doctor does not interpret")
	}
	words := make([]string, 0, len(call.Args))
	for _, w := range call.Args {
		var b strings.Builder
		if err := appendWord(&b, w.Parts, false, line, root); err != nil {
			return hookCmd{}, err
		}
		words = append(words, b.String())
	}
	var c hookCmd
	switch filepath.Base(words[0]) {
	case "sh", "bash", "dash":
		if len(words) < 2 {
			return hookCmd{}, errors.New("runs a shell with no script")
		}
		c.shell, words = words[0], words[1:]
	}
	c.prog, c.args = words[0], words[1:]
	return c, nil
}

// sourcedForm reports whether f is exactly two plain statements, the first
// ended by ";": `set -- words...` and `. "$1"`, each word spelled as
// here, and returns the words after "--". The hook's shell sources the
// script the first word names, with the words as its positional
// parameters (dash gives "." no arguments, so they travel in $@).
func sourcedForm(f *syntax.File, line string) ([]*syntax.Word, bool) {
	if len(f.Stmts) != 2 {
		return nil, false
	}
	text := func(n syntax.Node) string { return line[n.Pos().Offset():n.End().Offset()] }
	var calls [2]*syntax.CallExpr
	for i, st := range f.Stmts {
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(st.Redirs) > 0 || len(call.Assigns) > 0 || st.Negated || st.Background || st.Coprocess {
			return nil, false
		}
		calls[i] = call
	}
	set, dot := calls[0].Args, calls[1].Args
	if !f.Stmts[0].Semicolon.IsValid() || f.Stmts[1].Semicolon.IsValid() ||
		len(set) < 2 || text(set[0]) != "set" || text(set[1]) != "--" ||
		len(dot) != 2 || text(dot[0]) != "." || text(dot[1]) != `"$1"` {
		return nil, false
	}
	return set[2:], true
}

// appendWord appends the value of a word's parts to b, with
// $CLAUDE_PLUGIN_ROOT replaced by root; line is the source the parts point
// into; quoted says they stand inside double quotes. A part the doctor does
// not interpret is an error.
func appendWord(b *strings.Builder, parts []syntax.WordPart, quoted bool, line, root string) error {
	for _, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			special := `\*?[~{}` // outside quotes: escapes, globs, tilde, braces
			if quoted {
				special = `\`
			}
			if i := strings.IndexAny(p.Value, special); i >= 0 {
				return fmt.Errorf("uses %q, which the doctor does not interpret", p.Value[i])
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return errors.New("uses $'...' quoting, which the doctor does not interpret")
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if err := appendWord(b, p.Parts, true, line, root); err != nil {
				return err
			}
		case *syntax.ParamExp:
			switch line[p.Pos().Offset():p.End().Offset()] {
			case "$" + pluginRootVar, "${" + pluginRootVar + "}":
				b.WriteString(root)
			default:
				return fmt.Errorf("uses a variable other than %s", pluginRootVar)
			}
		default:
			return errors.New("uses an expansion or substitution, which the doctor does not interpret")
		}
	}
	return nil
}

// pluginRootVar is the one variable a hook command line may use.
const pluginRootVar = "CLAUDE_PLUGIN_ROOT"

// A resolution is where a hook command ends up on this platform.
type resolution struct {
	exe      string // the binary that runs
	launcher string // the launcher script it runs through, if any
	bindir   string // the directory the hook takes as its own
	warn     string // works, but worth knowing
	err      error  // does not work
	fix      string
	subject  string // the file err is about
}

// resolve follows a hook command to the binary it runs here: through the
// launcher (a script: bin/<os>-<arch>/procedures[.exe] beside it, as the
// launcher picks it) or directly.
func resolve(c hookCmd, binDir string) resolution {
	var res resolution
	fi, err := os.Stat(c.prog)
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: %w", c.prog, ErrNotRegular)
	}
	if err == nil {
		if c.shell != "" {
			err = gate.Readable(c.prog)
		} else {
			err = access(c.prog, accessX)
		}
	}
	if err != nil && c.shell == "" && fi != nil && fi.Mode().IsRegular() && access(c.prog, accessX) != nil {
		res.err = fmt.Errorf("%s is not executable (%v): run without a shell, it needs its exec bit", c.prog, cause(err))
		res.fix, res.subject = "chmod +x "+shellQuote(c.prog), c.prog
		return res
	}
	if err != nil {
		res.err, res.fix, res.subject = err, rebundleMark, c.prog
		return res
	}
	if c.shell != "" && c.shell != "." {
		if _, err := exec.LookPath(c.shell); err != nil {
			res.warn = fmt.Sprintf("%s is not on this PATH; Claude Code needs it to run the hook", c.shell)
		}
	}
	if c.shell == "" && !isScript(c.prog) {
		res.exe, res.bindir = c.prog, hookBinDir(binDir, c.prog)
		return res
	}
	if c.shell == "." && !sourceable(c.prog) {
		res.err = fmt.Errorf("%s predates hooks.json's sourcing line (set -- …; . \"$1\"): sourced, it fails every hook (\"no binary\") and the gates let everything through", c.prog)
		res.fix, res.subject = rebundleMark, c.prog
		return res
	}
	// The launcher: it takes its own directory, as spelled, and runs the
	// host's binary below it.
	res.launcher = c.prog
	res.bindir = "."
	if i := strings.LastIndex(c.prog, "/"); i >= 0 {
		res.bindir = c.prog[:i]
	}
	host := bundle.Host()
	exe := filepath.Join(res.bindir, host.String(), host.Exe())
	fi, err = os.Stat(exe)
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: %w", exe, ErrNotRegular)
	}
	if err == nil {
		err = gate.Readable(exe)
	}
	if err != nil {
		res.err = fmt.Errorf("no usable binary for this platform (%s): %v; the bundle has: %s", host, err, platformsIn(res.bindir))
		res.fix, res.subject = rebundleMark, exe
		return res
	}
	res.exe = exe
	if access(exe, accessX) != nil {
		w := exe + " has lost its exec bit: the launcher restores it, or runs a private copy"
		if res.warn != "" {
			w = res.warn + "; " + w
		}
		res.warn, res.fix = w, "chmod +x "+shellQuote(exe)
	}
	return res
}

// sourceable reports whether the launcher at path may be sourced: one of
// its first 64 KiB's lines is bundle.SourceableMark.
func sourceable(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	for line := range strings.Lines(string(b)) {
		if strings.TrimSuffix(line, "\n") == bundle.SourceableMark {
			return true
		}
	}
	return false
}

// isScript reports whether path starts with "#!".
func isScript(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [2]byte
	n, _ := io.ReadFull(f, b[:])
	return n == 2 && string(b[:]) == "#!"
}

// platformsIn lists the platform directories of a bundle's bin directory.
func platformsIn(bindir string) string {
	var have []string
	for _, p := range bundle.Platforms {
		if _, err := os.Stat(filepath.Join(bindir, p.String(), p.Exe())); err == nil {
			have = append(have, p.String())
		}
	}
	if len(have) == 0 {
		return "none"
	}
	return strings.Join(have, ", ")
}

// cause is err without the path an *fs.PathError repeats.
func cause(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}

// inPlugin spells path relative to the plugin directory when it is inside.
func inPlugin(plugin, path string) string {
	if rel, ok := strings.CutPrefix(path, plugin+string(filepath.Separator)); ok {
		return rel
	}
	if rel, ok := strings.CutPrefix(path, plugin+"/"); ok {
		return rel
	}
	return path
}

// A parseError is a configuration file that is not valid JSON.
type parseError struct {
	path string
	err  error
}

func (e *parseError) Error() string { return e.path + " does not parse: " + e.err.Error() }

// jsonPosition adds the line and column of a JSON syntax error in data.
func jsonPosition(data []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	off := se.Offset - 1 // just after the offending byte
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Errorf("line %d, column %d: %v", line, col, err)
}

// hooksFix is the fix for a hooks.json that cannot be read: one that
// does not parse is moved aside (bundling again refuses it, to keep the
// operator's own hooks: they stay in the moved file), then the bundle is
// written again.
func hooksFix(err error, path, plugin string, f fixer) string {
	if _, ok := errors.AsType[*parseError](err); ok {
		return moveAside(path) + " && " + f.rebundle(plugin)
	}
	return f.rebundle(plugin)
}

// moveAside is the command that renames path to path.broken.
func moveAside(path string) string {
	return "mv -f -- " + shellQuote(path) + " " + shellQuote(path+".broken")
}

// rebundle is the command that writes the bundle at plugin again, run as
// printed from any directory and needing no Go toolchain: the bundle's own
// launcher with -self for this platform when its binary is there, else
// exe (the running procedures binary) with -self, else procedures from
// PATH with -self. Other platforms'
// binaries are then removed (bundle names them); a procedures-go clone's
// go run line writes every platform, and is the fix where doctor knows the
// clone (a directory marketplace).
func rebundle(plugin, exe string) string {
	host := bundle.Host()
	dir := shellQuote(plugin)
	launcher := filepath.Join(plugin, "bin", "procedures")
	hostExe := filepath.Join(plugin, "bin", host.String(), host.Exe())
	if gate.Readable(hostExe) == nil && gate.Readable(launcher) == nil {
		return "sh " + shellQuote(launcher) + " bundle -o " + dir + " -platforms host -self"
	}
	if exe != "" {
		return shellQuote(exe) + " bundle -o " + dir + " -platforms host -self"
	}
	return "procedures bundle -o " + dir + " -platforms host -self"
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	q, err := syntax.Quote(s, syntax.LangPOSIX)
	if err != nil {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return q
}
