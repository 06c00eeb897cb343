package howdoigate

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/hookio"
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/hooktest"
	"github.com/procedures-go/procedures/internal/config"
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
	st := turnstate.New(config.TurnStateFrom(env.Get))
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

// Decide only reads: a release comes back as a verdict naming its row, and
// nothing is written until the verdict is carried out.
func TestDecideWritesNothing(t *testing.T) {
	_, vars := hooktest.Sandbox(t)
	s := config.HooksFrom(cli.MapEnv(vars).Get)
	st := turnstate.New(s.TurnState)
	edit := decode(t, `{"session_id":"s","tool_name":"Edit","tool_input":{"file_path":"/tmp/x"}}`)
	exists := func(path string) bool { _, err := os.Stat(path); return err == nil }

	v := Decide(edit, s, st)
	if v.FailOpen != "reset-hook-never-ran" || v.Session != "s" || v.Print != nil || exists(s.FailOpenLog) {
		t.Errorf("a turn never started: %+v, log written %v", v, exists(s.FailOpenLog))
	}
	var out strings.Builder
	v.Carry(s, st, gate.LabelHowDoI, &out, time.Now())
	if b, _ := os.ReadFile(s.FailOpenLog); !strings.Contains(string(b), `"why":"reset-hook-never-ran"`) || out.Len() > 0 {
		t.Errorf("carried: log %q, printed %q", b, out.String())
	}

	if err := st.Reset("s", time.Now()); err != nil {
		t.Fatal(err)
	}
	off := s
	off.Switches = config.Switches{"PROCEDURES_ENABLE_HOW_DO_I_GATE": "false"}
	v = Decide(edit, off, st)
	if v.ReleasedBy != "PROCEDURES_ENABLE_HOW_DO_I_GATE" || v.Switch != "HOW_DO_I_GATE" || exists(s.EscapeLog) {
		t.Errorf("switched off: %+v, escape log written %v", v, exists(s.EscapeLog))
	}
	if v = Decide(edit, s, st); string(v.Print) != string(gate.Deny(gate.DenyReason)) || v.FailOpen != "" || v.ReleasedBy != "" {
		t.Errorf("armed: %+v", v)
	}
}

func decode(t *testing.T, payload string) *hookio.Payload {
	t.Helper()
	p, err := hookio.Read(strings.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
