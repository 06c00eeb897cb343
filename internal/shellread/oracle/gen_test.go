package oracle

import (
	"strings"
	"testing"
)

// The generator is deterministic: the same seed and index give the same
// command, and different seeds differ.
func TestCommandDeterministic(t *testing.T) {
	same, diff := 0, 0
	for i := range 200 {
		if a, b := Command(7, i), Command(7, i); a != b {
			t.Fatalf("Command(7, %d) is not deterministic", i)
		}
		if Command(7, i) == Command(8, i) {
			same++
		} else {
			diff++
		}
	}
	if diff < 100 {
		t.Errorf("seeds 7 and 8 agree on %d of 200 commands", same)
	}
}

// Every tool of the grammar appears in the first
// 10,000 commands, and so do the constructs the oracle exists for.
func TestCommandCoverage(t *testing.T) {
	var all strings.Builder
	for i := range 10000 {
		all.WriteString(Command(1, i))
		all.WriteByte('\n')
	}
	s := all.String()
	for _, name := range Tools() {
		if !strings.Contains(s, name+" ") && !strings.Contains(s, name+"\n") {
			t.Errorf("no generated command uses %s", name)
		}
	}
	for _, want := range []string{"--{", "$_", "$1", "$(", "<(", "'", "\"", " -- ", " - ", ">/dev/null", "2>&1", "#", "*(e:", " | ", " && ", "[", "-o OUT", "-delete", "-i", "w OUT", "- OUT", "-r -p", "branch", "tag", "config", "stash"} {
		if !strings.Contains(s, want) {
			t.Errorf("no generated command holds %q", want)
		}
	}
}

// The mutations are deterministic, and the first 10,000 generated commands
// hold every move the generators make.
func TestMutatedCoverage(t *testing.T) {
	a, b := Mutated(3, 5), Mutated(3, 5)
	if a != b || Generated(3, 7) != Mutated(3, 7) || Generated(3, 4) != Command(3, 4) {
		t.Fatal("the mutations are not deterministic, or not every fourth command")
	}
	var all strings.Builder
	for i := range 10000 {
		all.WriteString(Generated(1, i))
		all.WriteByte(0)
	}
	s := all.String()
	for _, want := range []string{"\\\n", "\r", "# \\\n", "<<EO\\\nF", "<<-EOF", "<<'", "{d..d}", "$\\\n(",
		"x}\\\n", "\u00a0", "\u202e", "for f in", "if [ ", "while [", "[[ ", "LC_ALL=C ", "PATH=", "[ -v "} {
		if !strings.Contains(s, want) {
			t.Errorf("no generated command holds %q", want)
		}
	}
}

// The mutation generators make each of the adversary's moves on every
// mutable program within the first 10,000 commands.
func TestMutationCoverage(t *testing.T) {
	var all strings.Builder
	for i := range 10000 {
		all.WriteString(Command(1, i))
		all.WriteByte('\n')
	}
	s := all.String()
	for _, m := range mutables {
		if !strings.Contains(s, m.cmd+" ") {
			t.Errorf("no mutated command runs %s", m.cmd)
		}
	}
	for _, want := range []string{"sort -T -- -o OUT", "git log --decorate-refs -- --output", "rg -e -- --pre",
		"tree -Lo 1 OUT", "--outp", "git config core.x y --get", "uniq f OUT", "xxd f -OUT", "journalctl -n -- --cursor-file"} {
		if !strings.Contains(s, want) {
			t.Errorf("no mutated command holds %q", want)
		}
	}
}
