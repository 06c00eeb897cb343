//go:build unix

package bundle

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// noopEnv makes this test binary exit 0 at once (TestMain), so it can stand
// in for the platform binary when the launcher's own cost is measured.
const noopEnv = "PROCEDURES_BUNDLE_TEST_NOOP"

func TestMain(m *testing.M) {
	if os.Getenv(noopEnv) == "1" {
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// BenchmarkLauncherOverhead runs the host binary through the launcher
// (sh bin/procedures) and directly, alternated in one loop, and reports
// each one's mean and the launcher's overhead in ms/op.
func BenchmarkLauncherOverhead(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	if err := Write(Options{Dir: root, Platforms: []Platform{Host()}, Version: "0", Binary: self}); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), noopEnv+"=1")
	run := func(name string, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Env = env
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	launcher := filepath.Join(root, "bin", "procedures")
	direct := filepath.Join(root, "bin", Host().String(), Host().Exe())
	var viaLauncher, viaDirect time.Duration
	b.ResetTimer()
	for b.Loop() {
		viaLauncher += run("sh", launcher, "how-do-i-gate")
		viaDirect += run(direct, "how-do-i-gate")
	}
	n := float64(b.N)
	b.ReportMetric(float64(viaLauncher.Microseconds())/n/1000, "launcher-ms/op")
	b.ReportMetric(float64(viaDirect.Microseconds())/n/1000, "direct-ms/op")
	b.ReportMetric(float64((viaLauncher-viaDirect).Microseconds())/n/1000, "overhead-ms/op")
}
