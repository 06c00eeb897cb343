package config

import (
	"reflect"
	"testing"
)

// HooksFrom reads every hook setting once: the paths with their defaults,
// and only the switch variables that are set and not empty.
func TestHooksFrom(t *testing.T) {
	env := map[string]string{
		"HOME":                             "/h",
		"TURN_STATE_DIR":                   "/ts",
		"SESSION_DIGEST_KEEP":              "0",
		"GATE_ESCAPE_LOG":                  "/e.jsonl",
		"PROCEDURES_BIN_DIR":               "/b",
		"CLAUDE_CODE_ENTRYPOINT":           "sdk-cli",
		"PROCEDURES_ENABLE_HOW_DO_I_GATE":  "false",
		"PROCEDURES_ENABLE_AM_I_DONE_GATE": "",
		"PROCEDURES_ENABLE_SOMETHING":      "false", // no such switch
	}
	got := HooksFrom(func(k string) string { return env[k] })
	want := Hooks{
		Home:        "/h",
		TurnState:   TurnState{Dir: "/ts"},
		Digest:      Digest{Keep: 0, TTLDays: 2},
		FailOpenLog: "/h/.claude/gate-failopen.jsonl",
		EscapeLog:   "/e.jsonl",
		BinDir:      "/b",
		Entrypoint:  "sdk-cli",
		Switches:    Switches{"PROCEDURES_ENABLE_HOW_DO_I_GATE": "false"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("HooksFrom = %+v\nwant %+v", got, want)
	}
	if h := HooksFrom(nil); h.Home != "" || len(h.Switches) != 0 || h.FailOpenLog != "/.claude/gate-failopen.jsonl" {
		t.Errorf("HooksFrom(nil) = %+v", h)
	}
}
