package gate_test

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/commands"
	"github.com/procedures-go/procedures/internal/proctest"
)

// Shared hosts: with TURN_STATE_DIR unset, when /tmp/claude-turn-state
// exists but is not a directory owned by the current user (a planted file;
// another user's directory), the reset, the record hook and the gate all use
// /tmp/claude-turn-state-<uid>, and nothing is written into the foreign
// path. The hooks run in a child with a private /tmp (a new mount namespace
// and a tmpfs), so the real default path is never touched; that needs root.
func TestSharedHostFallback(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a private /tmp needs root")
	}
	cmd := proctest.Self(t, []string{}, runHookEnv+"=sharedhost")
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
	out, err := cmd.CombinedOutput()
	if err != nil && bytes.Contains(out, []byte("SKIP:")) {
		t.Skip(string(out))
	}
	if err != nil || string(out) != "ok\n" {
		t.Fatalf("shared-host child: %v\n%s", err, out)
	}
}

func init() {
	if os.Getenv(runHookEnv) == "sharedhost" {
		os.Exit(sharedHostChild())
	}
}

func sharedHostChild() int {
	if err := syscall.Mount("tmpfs", "/tmp", "tmpfs", 0, ""); err != nil {
		fmt.Println("SKIP: mount tmpfs:", err)
		return 1
	}
	env := cli.MapEnv(map[string]string{"GATE_FAILOPEN_LOG": "/tmp/fo.jsonl", "GATE_ESCAPE_LOG": "/tmp/esc.jsonl",
		"HOME": "/tmp/home", "PROCEDURES_BIN_DIR": "/tmp/plugin/bin"})
	os.MkdirAll("/tmp/plugin/bin", 0o777)
	os.MkdirAll("/tmp/plugin/skills/how-do-i", 0o777)
	os.WriteFile("/tmp/plugin/skills/how-do-i/SKILL.md", []byte("x"), 0o666)
	run := func(name, in string) string {
		c, _ := commands.Lookup(name)
		var out bytes.Buffer
		c.Main(nil, strings.NewReader(in), &out, &out, env)
		return out.String()
	}
	mine := "/tmp/claude-turn-state-" + strconv.Itoa(os.Geteuid())
	for _, plant := range []string{"file", "foreign dir"} {
		os.RemoveAll("/tmp/claude-turn-state")
		os.RemoveAll(mine)
		if plant == "file" {
			os.WriteFile("/tmp/claude-turn-state", []byte("planted"), 0o666)
		} else {
			os.Mkdir("/tmp/claude-turn-state", 0o777)
			os.Chmod("/tmp/claude-turn-state", 0o777)
			os.Chown("/tmp/claude-turn-state", 65534, 65534)
		}
		run("turn-state-reset", `{"session_id":"S"}`)
		if out := run("how-do-i-gate", `{"session_id":"S","tool_name":"Edit"}`); !strings.Contains(out, "HOW-DO-I-GATE") {
			fmt.Printf("%s: the gate did not find the reset's turn: %q\n", plant, out)
			return 1
		}
		run("turn-state-record", `{"session_id":"S","tool_name":"Skill","tool_input":{"skill":"how-do-i"}}`)
		if out := run("how-do-i-gate", `{"session_id":"S","tool_name":"Edit"}`); out != "" {
			fmt.Printf("%s: the gate did not see the record: %q\n", plant, out)
			return 1
		}
		for _, f := range []string{"S.turn", "S.how_do_i"} {
			if _, err := os.Stat(mine + "/" + f); err != nil {
				fmt.Printf("%s: %s not in %s\n", plant, f, mine)
				return 1
			}
		}
		if plant == "foreign dir" {
			if entries, _ := os.ReadDir("/tmp/claude-turn-state"); len(entries) > 0 {
				fmt.Printf("%s: written into the foreign directory\n", plant)
				return 1
			}
		} else if b, _ := os.ReadFile("/tmp/claude-turn-state"); string(b) != "planted" {
			fmt.Printf("%s: the planted file changed\n", plant)
			return 1
		}
	}
	fmt.Println("ok")
	return 0
}
