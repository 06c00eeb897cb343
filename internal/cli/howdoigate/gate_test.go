package howdoigate

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/hooktest"
	"github.com/procedures-go/procedures/internal/gate"
	"github.com/procedures-go/procedures/internal/turnstate"
)

// The gate in order: a subagent passes; a turn never started is released
// with a fail-open row; a started turn is denied until the skill ran; a
// switched-off gate and a missing skill file let the call through.
func TestMainDecides(t *testing.T) {
	root, vars := hooktest.Sandbox(t)
	skill := hooktest.Skill(root, gate.SkillHowDoI)
	env := cli.MapEnv(vars)
	edit := `{"session_id":"s","tool_name":"Edit","tool_input":{"file_path":"/tmp/x"}}`
	deny := string(gate.Deny(gate.DenyReason))
	run := func(stdin string) string { t.Helper(); return hooktest.Run(t, Main, vars, stdin) }
	log := func(name string) string { b, _ := os.ReadFile(vars[name]); return string(b) }

	if out := run(`{"session_id":"s","agent_id":"a","tool_name":"Edit"}`); out != "" {
		t.Errorf("a subagent's call: %q", out)
	}
	if out := run(edit); out != "" || !strings.Contains(log("GATE_FAILOPEN_LOG"), `"why":"reset-hook-never-ran"`) {
		t.Errorf("a turn never started: %q, log %q", out, log("GATE_FAILOPEN_LOG"))
	}
	st := turnstate.New(env.Get)
	if err := st.Reset("s", time.Now()); err != nil {
		t.Fatal(err)
	}
	if out := run(edit); out != deny {
		t.Errorf("a started turn without the skill: %q", out)
	}
	if out := run(`{"session_id":"s","tool_name":"Read","tool_input":{"file_path":"/etc/hosts"}}`); out != "" {
		t.Errorf("a read-only call: %q", out)
	}
	vars["PROCEDURES_ENABLE_HOW_DO_I_GATE"] = "false"
	if out := run(edit); out != "" || !strings.Contains(log("GATE_ESCAPE_LOG"), "PROCEDURES_ENABLE_HOW_DO_I_GATE") {
		t.Errorf("switched off: %q, escape log %q", out, log("GATE_ESCAPE_LOG"))
	}
	delete(vars, "PROCEDURES_ENABLE_HOW_DO_I_GATE")
	os.Remove(skill)
	if out := run(edit); out != "" || !strings.Contains(log("GATE_FAILOPEN_LOG"), `"why":"skill-unresolvable"`) {
		t.Errorf("no skill file: %q, log %q", out, log("GATE_FAILOPEN_LOG"))
	}
	if err := os.WriteFile(skill, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := st.Mark("s", turnstate.HowDoI); err != nil {
		t.Fatal(err)
	}
	if out := run(edit); out != "" {
		t.Errorf("after the skill ran: %q", out)
	}
}
