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

// Issue 18, shared host: another user pre-creates the per-user fallback
// /tmp/claude-turn-state-<uid> (0777, their own) and plants a marker after
// the reset. The hooks must not use that directory: the reset writes
// nothing there (no session ids to read), the gate does not see the planted
// marker and fails open with a fail-open row instead of being disarmed in
// silence. A fallback of the user's own that others may write is refused
// the same way; a private one (or a missing one, created 0700) works. Runs
// in a child with a private /tmp (a mount namespace), as
// TestSharedHostFallback; needs root.
func TestSharedHostFallbackMustBePrivate(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a private /tmp needs root")
	}
	cmd := proctest.Self(t, []string{}, runHookEnv+"=sharedhost-fallback")
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
	if os.Getenv(runHookEnv) == "sharedhost-fallback" {
		os.Exit(sharedHostFallbackChild())
	}
}

func sharedHostFallbackChild() int {
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
	// The shared default belongs to another user, so the fallback is chosen.
	os.Mkdir("/tmp/claude-turn-state", 0o755)
	os.Chown("/tmp/claude-turn-state", 65534, 65534)
	fb := "/tmp/claude-turn-state-" + strconv.Itoa(os.Geteuid())
	for _, c := range []struct {
		name  string
		owner int
		mode  os.FileMode
	}{{"another user's 0777 fallback", 65534, 0o777}, {"my 0777 fallback", os.Geteuid(), 0o777}, {"my group-writable fallback", os.Geteuid(), 0o775}} {
		os.RemoveAll(fb)
		os.Remove("/tmp/fo.jsonl")
		os.Mkdir(fb, c.mode)
		os.Chmod(fb, c.mode)
		os.Chown(fb, c.owner, c.owner)
		run("turn-state-reset", `{"session_id":"S"}`)
		if entries, _ := os.ReadDir(fb); len(entries) > 0 {
			fmt.Printf("%s: the reset wrote into it: %v\n", c.name, entries)
			return 1
		}
		for _, m := range []string{"S.turn", "S.how_do_i"} { // the attacker's markers
			os.WriteFile(fb+"/"+m, nil, 0o666)
			os.Chown(fb+"/"+m, c.owner, c.owner)
		}
		if out := run("how-do-i-gate", `{"session_id":"S","tool_name":"Edit"}`); out != "" {
			fmt.Printf("%s: the gate did not fail open: %q\n", c.name, out)
			return 1
		}
		if b, _ := os.ReadFile("/tmp/fo.jsonl"); !bytes.Contains(b, []byte(`"session_id":"S"`)) {
			fmt.Printf("%s: the gate was disarmed without a fail-open row (log %q)\n", c.name, b)
			return 1
		}
	}
	// A missing fallback is created private and works.
	os.RemoveAll(fb)
	run("turn-state-reset", `{"session_id":"S"}`)
	if fi, err := os.Lstat(fb); err != nil || fi.Mode().Perm() != 0o700 {
		fmt.Printf("missing fallback: created %v, %v; want mode 0700\n", fi, err)
		return 1
	}
	if out := run("how-do-i-gate", `{"session_id":"S","tool_name":"Edit"}`); !strings.Contains(out, "HOW-DO-I-GATE") {
		fmt.Printf("private fallback: the gate did not deny: %q\n", out)
		return 1
	}
	fmt.Println("ok")
	return 0
}
