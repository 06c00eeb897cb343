package failopen_test

import (
	"fmt"
	"time"

	"github.com/procedures-go/procedures/failopen"
)

func ExampleLine() {
	t := time.Date(2026, 11, 30, 8, 35, 5, 0, time.UTC)
	fmt.Printf("%s", failopen.Line(t, "digest-record", "payload-shape-unrecognized", "sess/../weird id.42"))
	fmt.Printf("%s", failopen.Line(t, "how-do-i", "brand-new-condition", `evil","injected":"yes`))
	// Output:
	// {"ts":"2026-11-30T08:35:05Z","gate":"digest-record","why":"payload-shape-unrecognized","session_id":"sess_.._weird_id.42"}
	// {"ts":"2026-11-30T08:35:05Z","gate":"how-do-i","why":"unrecognized:brand-new-condition","session_id":"evil___injected_:_yes"}
}
