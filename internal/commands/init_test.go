package commands

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/testcache"
)

// exitEnv makes this test binary exit 0 at once (TestMain), after every
// package's init has run: a stand-in for the multi-call binary's start-up.
const exitEnv = "PROCEDURES_MULTICALL_TEST_EXIT"

func TestMain(m *testing.M) {
	if os.Getenv(exitEnv) == "1" {
		os.Exit(0)
	}
	os.Exit(testcache.Main(m)) // the index in a cache of its own
}

// initBudget is the most one of this module's packages may allocate in its
// package initialisation. Every command links every package here, so each
// package's init runs at every hook call, whatever the command: a table or
// a regular expression only some commands use is made on first use
// (sync.OnceValue), not at init; so are the Bash classifier's tables, which
// only the gates' Bash calls need. Allocation is the measure because it is
// deterministic: inittrace's clock figures are not, on a shared machine.
const initBudget = 4 << 10

// TestInitAllocations runs the binary with GODEBUG=inittrace=1 and holds
// each of this module's packages to its init allocation budget.
func TestInitAllocations(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation adds to what init allocates")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), exitEnv+"=1", "GODEBUG=inittrace=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	const module = "github.com/procedures-go/procedures/"
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(errb.Bytes()))
	for sc.Scan() {
		// init <package> @<t> ms, <c> ms clock, <n> bytes, <a> allocs
		f := strings.Fields(sc.Text())
		if len(f) < 11 || f[0] != "init" || !strings.HasPrefix(f[1], module) || f[8] != "bytes," {
			continue
		}
		seen++
		pkg := strings.TrimPrefix(f[1], module)
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		if n > initBudget {
			t.Errorf("package %s allocates %d bytes in its init (budget %d): make what only some commands use on first use", pkg, n, initBudget)
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace of this module's packages in:\n%s", errb.String())
	}
}
