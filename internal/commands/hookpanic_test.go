package commands

import (
	"bytes"
	"os"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/wiring"
)

// panicReader is a hook's stdin that panics on the first read: the panic
// happens inside the hook's body, wherever that reads its payload.
type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("boom: a bug inside the hook") }

// The one panic policy (cli.Hook): every hook of the wiring table, panicking
// inside its body, exits 0 with nothing on stdout or stderr and leaves
// exactly one fail-open row, internal-error under its gate label.
func TestEveryHookRecordsAPanic(t *testing.T) {
	labels := map[string]string{
		"how-do-i-gate":  "how-do-i",
		"am-i-done-gate": "am-i-done",
	}
	for _, h := range wiring.Hooks() {
		t.Run(h.Command, func(t *testing.T) {
			fx := newFixture(t)
			env := fx.env()
			c, ok := Lookup(h.Command)
			if !ok {
				t.Fatalf("the wiring names %s, which is not a command", h.Command)
			}
			var stdout, stderr bytes.Buffer
			code := c.Main(nil, panicReader{}, &stdout, &stderr, cli.MapEnv(env))
			if code != 0 || stdout.Len() != 0 || stderr.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr %q; want a silent exit 0", code, stdout.String(), stderr.String())
			}
			label := h.Command
			if l, ok := labels[h.Command]; ok {
				label = l
			}
			b, _ := os.ReadFile(env["GATE_FAILOPEN_LOG"])
			want := `"gate":"` + label + `","why":"internal-error","session_id":""}` + "\n"
			if bytes.Count(b, []byte("\n")) != 1 || !bytes.HasSuffix(b, []byte(want)) {
				t.Errorf("fail-open log %q, want one row ending %s", b, want)
			}
		})
	}
}
