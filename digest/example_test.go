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
