package digest_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/procedures-go/procedures/digest"
)

// A digest written by one scout is replayed to the next scout of the same
// session.
func Example() {
	tmp, _ := os.MkdirTemp("", "digest-example-")
	defer os.RemoveAll(tmp)

	store, err := digest.Open(filepath.Join(tmp, "digests"), digest.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	store.Write("session-1", "GOAL: first\n")
	store.Write("session-1", "GOAL: second\n\n")
	store.Read("session-1", os.Stdout)
	// Output:
	// ==> prior /how-do-i digest 1 <==
	// GOAL: first
	// ==> prior /how-do-i digest 2 <==
	// GOAL: second
}

// The zero Options replay the newest 3 digests and expire a digest after
// three days; Unlimited lifts either limit. Open touches nothing on disk.
func ExampleOpen() {
	tmp, _ := os.MkdirTemp("", "digest-example-")
	defer os.RemoveAll(tmp)

	dir := filepath.Join(tmp, "digests")
	store, err := digest.Open(dir, digest.Options{Keep: digest.Unlimited, TTL: 24 * time.Hour})
	fmt.Println(err, store.Dir() == dir)
	_, err = os.Stat(dir)
	fmt.Println(errors.Is(err, os.ErrNotExist))
	_, err = digest.Open("", digest.Options{})
	fmt.Println(err)
	// Output:
	// <nil> true
	// true
	// open : invalid argument
}

// Write publishes a new file per digest and reports its name; an empty key
// or a whitespace-only body stores nothing, and a key outside
// [A-Za-z0-9_-] is refused.
func ExampleStore_Write() {
	tmp, _ := os.MkdirTemp("", "digest-example-")
	defer os.RemoveAll(tmp)
	store, _ := digest.Open(filepath.Join(tmp, "digests"), digest.Options{})

	name, err := store.Write("s1", "GOAL: x")
	fmt.Println(filepath.Ext(filepath.Base(name)) != "", err)
	name, err = store.Write("s1", " \n\t\n")
	fmt.Printf("%q %v\n", name, err)
	_, err = store.Write("../s1", "GOAL: x")
	var we *digest.WriteError
	fmt.Println(errors.As(err, &we), errors.Is(err, digest.ErrInvalidKey))
	// Output:
	// true <nil>
	// "" <nil>
	// true true
}

// Read announces a cap it applies, then replays the newest digests oldest
// first.
func ExampleStore_Read() {
	tmp, _ := os.MkdirTemp("", "digest-example-")
	defer os.RemoveAll(tmp)
	store, _ := digest.Open(filepath.Join(tmp, "digests"), digest.Options{Keep: 2})
	for _, goal := range []string{"one", "two", "three"} {
		store.Write("s1", "GOAL: "+goal)
	}
	store.Read("s1", os.Stdout)
	store.Read("another-session", os.Stdout) // nothing
	// Output:
	// (3 prior digests this session — replaying the 2 most recent)
	// ==> prior /how-do-i digest 1 <==
	// GOAL: two
	// ==> prior /how-do-i digest 2 <==
	// GOAL: three
}

// List names the files Read would replay, oldest first, before the cap.
func ExampleStore_List() {
	tmp, _ := os.MkdirTemp("", "digest-example-")
	defer os.RemoveAll(tmp)
	store, _ := digest.Open(filepath.Join(tmp, "digests"), digest.Options{})
	first, _ := store.Write("s1", "GOAL: one")
	store.Write("s2", "GOAL: other session")
	second, _ := store.Write("s1", "GOAL: two")
	names := store.List("s1")
	fmt.Println(len(names), names[0] == first, names[1] == second)
	// Output:
	// 2 true true
}

// Reap deletes expired digests; Write reaps too, before it publishes.
func ExampleStore_Reap() {
	tmp, _ := os.MkdirTemp("", "digest-example-")
	defer os.RemoveAll(tmp)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	store, _ := digest.Open(filepath.Join(tmp, "digests"), digest.Options{
		TTL: 24 * time.Hour,
		Now: func() time.Time { return now },
	})
	name, _ := store.Write("s1", "GOAL: old")
	old := now.Add(-25 * time.Hour)
	os.Chtimes(filepath.Join(store.Dir(), name), old, old)
	fmt.Println(len(store.List("s1")))
	fmt.Println(store.Reap())
	_, err := os.Stat(filepath.Join(store.Dir(), name))
	fmt.Println(errors.Is(err, os.ErrNotExist))
	// Output:
	// 0
	// <nil>
	// true
}

// Prepare lets a caller that keeps the store inside a directory of its own
// create or check that directory, only when there is a digest to store.
func ExampleOptions_prepare() {
	tmp, _ := os.MkdirTemp("", "digest-example-")
	defer os.RemoveAll(tmp)
	parent := filepath.Join(tmp, "private")
	store, _ := digest.Open(filepath.Join(parent, "digests"), digest.Options{
		Prepare: func() error { return os.Mkdir(parent, 0o700) },
	})
	store.Write("s1", "   ") // nothing to store: Prepare is not called
	_, err := os.Stat(parent)
	fmt.Println(errors.Is(err, os.ErrNotExist))
	_, err = store.Write("s1", "GOAL: x")
	fmt.Println(err)
	_, err = store.Write("s1", "GOAL: y") // Mkdir fails: the parent exists
	fmt.Println(errors.Is(err, os.ErrExist))
	// Output:
	// true
	// <nil>
	// true
}
