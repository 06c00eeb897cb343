package turnstatereset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
)

// A prompt starts the session's turn (its .turn marker) and clears the
// markers of the turn before; undecodable input resets the "unknown"
// bucket. Every path exits 0 and prints nothing.
func TestMainStartsTheTurn(t *testing.T) {
	dir := t.TempDir()
	env := cli.MapEnv(map[string]string{"TURN_STATE_DIR": dir})
	if err := os.WriteFile(filepath.Join(dir, "s1.how_do_i"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ stdin, marker string }{
		{`{"session_id":"s1","prompt":"go"}`, "s1.turn"},
		{`not json`, "unknown.turn"},
	} {
		var out, errb strings.Builder
		if code := Main(nil, strings.NewReader(c.stdin), &out, &errb, env); code != 0 || out.Len()+errb.Len() > 0 {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", c.stdin, code, out.String(), errb.String())
		}
		if _, err := os.Stat(filepath.Join(dir, c.marker)); err != nil {
			t.Errorf("%s: no %s: %v", c.stdin, c.marker, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "s1.how_do_i")); !os.IsNotExist(err) {
		t.Errorf("the previous turn's how_do_i marker survived the reset: %v", err)
	}
}
