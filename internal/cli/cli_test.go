package cli

import (
	"bytes"
	"io"
	"os"
	"testing"
)

func TestEnvTellsUnsetFromEmpty(t *testing.T) {
	env := MapEnv(map[string]string{"EMPTY": "", "FULL": "x"})
	for key, want := range map[string]bool{"EMPTY": true, "FULL": true, "MISSING": false} {
		if _, set := env(key); set != want {
			t.Errorf("MapEnv: env(%q) set = %v, want %v", key, set, want)
		}
	}
	if env.Get("FULL") != "x" || env.Get("MISSING") != "" {
		t.Error("MapEnv: Get reads the wrong value")
	}
	t.Setenv("PROCEDURES_CLI_TEST_EMPTY", "")
	os.Unsetenv("PROCEDURES_CLI_TEST_MISSING")
	if _, set := OSEnv()("PROCEDURES_CLI_TEST_EMPTY"); !set {
		t.Error("OSEnv: an empty variable reads as unset")
	}
	if _, set := OSEnv()("PROCEDURES_CLI_TEST_MISSING"); set {
		t.Error("OSEnv: an unset variable reads as set")
	}
	if v := OSEnv().Get("PROCEDURES_CLI_TEST_MISSING"); v != "" {
		t.Errorf("OSEnv: unset variable reads %q", v)
	}
}

// Pipes, regular files and in-memory writers are not terminals.
func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.Create(t.TempDir() + "/f")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for name, wr := range map[string]io.Writer{"pipe": w, "file": f, "buffer": new(bytes.Buffer)} {
		if IsTerminal(wr) {
			t.Errorf("%s reads as a terminal", name)
		}
	}
}
