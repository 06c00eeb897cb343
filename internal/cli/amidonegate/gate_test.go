package amidonegate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/hooktest"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/gate"
	"github.com/procedures-go/procedures/internal/turnstate"
)

// The Stop gate in order: another event passes; a turn never started is
// released with a fail-open row; a turn whose transcript shows tool use is
// blocked once, and its next Stop passes; an unreadable transcript is
// released with a fail-open row; a conversational turn passes.
func TestMainDecides(t *testing.T) {
	root, vars := hooktest.Sandbox(t)
	used := filepath.Join(root, "used.jsonl")
	os.WriteFile(used, []byte(`{"type":"user","message":{"role":"user","content":"go"}}`+"\n"+
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{}}]}}`+"\n"), 0o644)
	idle := filepath.Join(root, "idle.jsonl")
	os.WriteFile(idle, []byte(`{"type":"user","message":{"role":"user","content":"hi"}}`+"\n"), 0o644)
	foLog := vars["GATE_FAILOPEN_LOG"]
	env := cli.MapEnv(vars)
	stop := func(sid, transcript string) string {
		return `{"hook_event_name":"Stop","session_id":"` + sid + `","transcript_path":"` + transcript + `"}`
	}
	run := func(stdin string) string { t.Helper(); return hooktest.Run(t, Main, vars, stdin) }
	logged := func(why string) bool {
		b, _ := os.ReadFile(foLog)
		return strings.Contains(string(b), `"why":"`+why+`"`)
	}

	if out := run(`{"hook_event_name":"SubagentStop","session_id":"s"}`); out != "" {
		t.Errorf("SubagentStop: %q", out)
	}
	if out := run(stop("s", used)); out != "" || !logged("reset-hook-never-ran") {
		t.Errorf("a turn never started: %q", out)
	}
	st := turnstate.New(config.TurnStateFrom(env.Get))
	for _, sid := range []string{"s", "gone", "chat"} {
		if err := st.Reset(sid, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if out := run(stop("s", used)); out != string(gate.Block(gate.BlockReason)) {
		t.Errorf("a turn that used tools: %q", out)
	}
	if out := run(stop("s", used)); out != "" {
		t.Errorf("the second Stop of the turn: %q", out)
	}
	if out := run(stop("gone", filepath.Join(root, "missing.jsonl"))); out != "" || !logged("activity-undetermined") {
		t.Errorf("no transcript: %q", out)
	}
	if out := run(stop("chat", idle)); out != "" {
		t.Errorf("a conversational turn: %q", out)
	}
}
