package procedures_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"
)

// The doctor scenarios need two things no standard command does: a
// directory another user owns, and a program run as a user that file
// modes bind (root ignores a read-only directory).
func init() {
	registerScriptCmds(map[string]func(*testscript.TestScript, bool, []string){
		"doctor-chown-nobody": cmdDoctorChownNobody,
		"doctor-unpriv":       cmdDoctorUnpriv,
	})
}

// scriptCondition adds the scenario condition [root]: the scenarios run as
// the superuser.
func scriptCondition(cond string) (bool, error) {
	if cond == "root" {
		return os.Geteuid() == 0, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// cmdDoctorChownNobody gives each path to uid/gid 65534. Only root can
// (guard it with [!root] skip).
//
//	doctor-chown-nobody <path>...
func cmdDoctorChownNobody(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: doctor-chown-nobody <path>...")
	}
	if os.Geteuid() != 0 {
		ts.Fatalf("doctor-chown-nobody: needs root to give a path to another user (guard it with [!root] skip)")
	}
	for _, p := range args {
		ts.Check(os.Chown(ts.MkAbs(p), 65534, 65534))
	}
}

// cmdDoctorUnpriv is exitcode for a program that must run as a user file
// modes bind: as root it runs through setpriv as uid/gid 65534, after the
// binary directory and the work directory (and its parent) are made
// traversable for others (guard it with [root] [!exec:setpriv] skip). As a
// non-root user the program runs directly.
//
//	doctor-unpriv <status> <program> [args...]
func cmdDoctorUnpriv(ts *testscript.TestScript, neg bool, args []string) {
	if os.Geteuid() != 0 {
		expectStatus(ts, "doctor-unpriv", neg, args, nil)
		return
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		ts.Fatalf("doctor-unpriv: running as root without setpriv: cannot drop privileges (guard it with [root] [!exec:setpriv] skip)")
	}
	work := ts.Getenv("WORK")
	for _, dir := range []string{binDir, work, filepath.Dir(work)} {
		fi, err := os.Stat(dir)
		ts.Check(err)
		ts.Check(os.Chmod(dir, fi.Mode().Perm()|0o055))
	}
	expectStatus(ts, "doctor-unpriv", neg, args, func(prog string, args []string) (string, []string) {
		return setpriv, append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", prog}, args...)
	})
}
