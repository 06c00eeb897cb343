package e2e

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/amidonegate"
	"github.com/procedures-go/procedures/internal/cli/digestrecord"
	"github.com/procedures-go/procedures/internal/cli/enforcefrontmatter"
	"github.com/procedures-go/procedures/internal/cli/howdoigate"
	"github.com/procedures-go/procedures/internal/cli/turnstaterecord"
	"github.com/procedures-go/procedures/internal/cli/turnstatereset"
)

// TestFixturesDriveHooks feeds the payloads captured from the CLI
// (testdata/hookpayloads) to the hooks in-process: no CLI, plain go test.
func TestFixturesDriveHooks(t *testing.T) {
	dir := t.TempDir()
	plugin := filepath.Join(dir, "plugin")
	if err := os.MkdirAll(filepath.Join(plugin, "bin"), 0o755); err != nil { // the gates resolve bin/../skills
		t.Fatal(err)
	}
	if err := writeSkills(plugin); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"HOME":               filepath.Join(dir, "home"),
		"TURN_STATE_DIR":     filepath.Join(dir, "turn-state"),
		"GATE_FAILOPEN_LOG":  filepath.Join(dir, "failopen.jsonl"),
		"GATE_ESCAPE_LOG":    filepath.Join(dir, "escape.jsonl"),
		"PROCEDURES_BIN_DIR": filepath.Join(plugin, "bin"),
		"KNOWLEDGE_ROOT":     filepath.Join(dir, "kb"),
	}
	env := cli.Env(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	run := func(main func([]string, *bytes.Reader, *bytes.Buffer, *bytes.Buffer, cli.Env) int, fixture string) (int, string) {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(fixtureDir, fixture+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := main(nil, bytes.NewReader(data), &out, &errb, env)
		if errb.Len() > 0 {
			t.Errorf("%s: stderr %q", fixture, errb.String())
		}
		return code, out.String()
	}
	wrap := func(m func([]string, io.Reader, io.Writer, io.Writer, cli.Env) int) func([]string, *bytes.Reader, *bytes.Buffer, *bytes.Buffer, cli.Env) int {
		return func(a []string, in *bytes.Reader, out, errb *bytes.Buffer, e cli.Env) int {
			return m(a, in, out, errb, e)
		}
	}
	reset, gate, record := wrap(turnstatereset.Main), wrap(howdoigate.Main), wrap(digestrecord.Main)
	mark, stop, enforce := wrap(turnstaterecord.Main), wrap(amidonegate.Main), wrap(enforcefrontmatter.Main)

	if code, out := run(reset, "UserPromptSubmit"); code != 0 || out != "" {
		t.Fatalf("turn-state-reset: %d %q", code, out)
	}
	if _, out := run(gate, "PreToolUse-Bash"); !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Errorf("how-do-i-gate on the captured main-agent Bash payload did not deny: %q", out)
	}
	if _, out := run(gate, "PreToolUse-Bash-subagent"); out != "" {
		t.Errorf("how-do-i-gate on the captured subagent Bash payload answered: %q", out)
	}
	if code, out := run(record, "PostToolUse-Skill-how-do-i"); code != 0 || out != "" {
		t.Errorf("digest-record: %d %q", code, out)
	}
	digests, _ := filepath.Glob(filepath.Join(vars["TURN_STATE_DIR"], "digests", "*"))
	if len(digests) == 0 {
		t.Error("digest-record stored no digest from the captured forked-Skill payload")
	}
	// The Skill call itself passes the gate; once turn-state-record has
	// seen the forked how-do-i result, the main agent's Bash and Write pass.
	if _, out := run(gate, "PreToolUse-Skill"); out != "" {
		t.Errorf("how-do-i-gate denied the captured Skill call: %q", out)
	}
	if code, out := run(mark, "PostToolUse-Skill-how-do-i"); code != 0 || out != "" {
		t.Errorf("turn-state-record: %d %q", code, out)
	}
	for _, f := range []string{"PreToolUse-Bash", "PreToolUse-Write"} {
		if _, out := run(gate, f); out != "" {
			t.Errorf("how-do-i-gate on %s after the captured how-do-i result: %q", f, out)
		}
	}
	if code, out := run(mark, "PostToolUse-Skill-am-i-done"); code != 0 || out != "" {
		t.Errorf("turn-state-record (am-i-done): %d %q", code, out)
	}
	// A Write outside every store is no record: enforce-frontmatter passes it.
	if code, out := run(enforce, "PostToolUse-Write"); code != 0 || out != "" {
		t.Errorf("enforce-frontmatter on the captured Write: %d %q", code, out)
	}
	// The Stop hook's second call of a stop (stop_hook_active) releases.
	if code, out := run(stop, "Stop-stop_hook_active-true"); code != 0 || out != "" {
		t.Errorf("am-i-done-gate on stop_hook_active true: %d %q", code, out)
	}
	if data, err := os.ReadFile(vars["GATE_FAILOPEN_LOG"]); err == nil {
		t.Errorf("fail-open rows from captured payloads:\n%s", data)
	}
}
