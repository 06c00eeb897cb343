package cli

import (
	"os"
	"testing"
)

func TestLookupTellsUnsetFromEmpty(t *testing.T) {
	env := MapEnv(map[string]string{"EMPTY": "", "FULL": "x"})
	for key, want := range map[string]bool{"EMPTY": true, "FULL": true, "MISSING": false} {
		if _, set := Lookup(env, key); set != want {
			t.Errorf("MapEnv: Lookup(%q) set = %v, want %v", key, set, want)
		}
	}
	t.Setenv("PROCEDURES_CLI_TEST_EMPTY", "")
	os.Unsetenv("PROCEDURES_CLI_TEST_MISSING")
	if _, set := Lookup(OSEnv(), "PROCEDURES_CLI_TEST_EMPTY"); !set {
		t.Error("OSEnv: an empty variable reads as unset")
	}
	if _, set := Lookup(OSEnv(), "PROCEDURES_CLI_TEST_MISSING"); set {
		t.Error("OSEnv: an unset variable reads as set")
	}
	if v := OSEnv()("PROCEDURES_CLI_TEST_MISSING"); v != "" {
		t.Errorf("OSEnv: unset variable reads %q", v)
	}
}
