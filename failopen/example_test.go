package failopen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/procedures-go/procedures/failopen"
)

func ExampleLog_Record() {
	dir, _ := os.MkdirTemp("", "failopen")
	defer os.RemoveAll(dir)
	log := &failopen.Log{
		Path: filepath.Join(dir, "gate-failopen.jsonl"),
		Now:  func() time.Time { return time.Date(2026, 11, 30, 8, 35, 5, 0, time.UTC) },
	}
	log.Record("digest-record", failopen.WhyPayloadShapeUnrecognized, "sess/../weird id.42")
	log.Record("how-do-i", "brand-new-condition", `evil","injected":"yes`)
	data, _ := os.ReadFile(log.Path)
	fmt.Print(string(data))
	// Output:
	// {"ts":"2026-11-30T08:35:05Z","gate":"digest-record","why":"payload-shape-unrecognized","session_id":"sess_.._weird_id.42"}
	// {"ts":"2026-11-30T08:35:05Z","gate":"how-do-i","why":"unrecognized:brand-new-condition","session_id":"evil___injected_:_yes"}
}

// The zero Log records nothing, and so does a nil one: a tool that keeps no
// fail-open log passes either.
func ExampleLog_Record_zero() {
	var log failopen.Log
	fmt.Println(log.Record("digest-record", failopen.WhyInternalError, ""))
	var none *failopen.Log
	fmt.Println(none.Record("digest-record", failopen.WhyInternalError, ""))
	// Output:
	// <nil>
	// <nil>
}

// A hook that cannot write its log loses the record and goes on; the error
// is there for callers that want to see it.
func ExampleLog_Record_unwritable() {
	log := &failopen.Log{Path: filepath.Join(os.TempDir(), "no-such-dir", "gate-failopen.jsonl")}
	err := log.Record("am-i-done", failopen.WhyStoreUnwritable, "s1")
	fmt.Println(err != nil)
	// Output:
	// true
}
