package procedures_test

import (
	"fmt"
	"log"

	"github.com/procedures-go/procedures/records"
)

// Example_goAPI is the README's "Use it from Go" program, run on the
// example knowledge base: TestReadmeGoSnippetIsTheExample holds the two
// equal, so the README's code compiles and prints what it says.
func Example_goAPI() {
	c, err := records.Open("testdata/kb", records.Options{}) // the default stores
	if err != nil {
		log.Fatal(err)
	}
	hits, err := c.Query(records.Query{Keyword: "flaky ci"})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range hits {
		fmt.Println(r.Path, "—", r.Gloss)
	}
	// Output:
	// references/solutions/2026-07-02-rerun-failing-test.md — Re-run the failing test before declaring a fix
	// plans/2026-q3-ci-hardening.md — Q3 plan: harden CI
	// references/decisions/2026-08-10-cache-dependency-downloads.md — Cache dependency downloads in CI
	// references/solutions/2026-07-20-flaky-network-in-ci.md — Retry dependency downloads on network flakes
	// references/decisions/2026-06-20-protect-main-branch.md — Protect the main branch
}
