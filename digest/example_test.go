package digest_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/procedures-go/procedures/digest"
)

func Example() {
	tmp, _ := os.MkdirTemp("", "digest-example-")
	defer os.RemoveAll(tmp)
	store := digest.FromEnv(func(name string) string {
		if name == "TURN_STATE_DIR" {
			return tmp
		}
		return ""
	})

	key, ok := digest.Key("sess/../weird id.42")
	fmt.Println(key, ok)
	_, ok = digest.Key("${CLAUDE_SESSION_ID}")
	fmt.Println(ok)

	store.Write(key, "GOAL: first\n")
	store.Write(key, "GOAL: second\n\n")
	fmt.Println(filepath.Base(store.Dir), len(store.List(key)))
	store.Read(key, os.Stdout)
	// Output:
	// sess____weird_id_42 true
	// false
	// digests 2
	// ==> prior /how-do-i digest 1 <==
	// GOAL: first
	// ==> prior /how-do-i digest 2 <==
	// GOAL: second
}

// A tool that reports on the hooks' state applies the turn-state rule to a
// default of its own: $TURN_STATE_DIR wins; else the default is used while
// it does not exist or is the current user's own directory.
func ExampleTurnStateDirFrom() {
	tmp, _ := os.MkdirTemp("", "digest-example-")
	defer os.RemoveAll(tmp)
	def := filepath.Join(tmp, "claude-turn-state")
	noEnv := func(string) string { return "" }
	fmt.Println(digest.TurnStateDirFrom(noEnv, def) == def)
	fmt.Println(digest.TurnStateDirFrom(func(k string) string {
		if k == "TURN_STATE_DIR" {
			return "/srv/turn-state"
		}
		return ""
	}, def))
	// Output:
	// true
	// /srv/turn-state
}

func ExampleSessionName() {
	fmt.Println(digest.SessionName("../../etc/passwd"))
	fmt.Println(digest.SessionName("héllo"))
	// Output:
	// ______etc_passwd
	// h__llo
}
