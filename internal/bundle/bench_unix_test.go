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
// each one's mean and the launcher's overhead in ms/op; and, as Claude
// Code runs hooks.json, sh -c with the bundle's hook line (the launcher
// sourced) against sh -c running the binary (hook-line-overhead-ms/op).
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
	// As Claude Code runs a hooks.json line: sh -c with the line, the
	// launcher sourced in that shell, against sh -c running the binary.
	env = append(env, "CLAUDE_PLUGIN_ROOT="+root)
	hookLine := HookCommand("how-do-i-gate")
	directLine := shQuote(direct) + " how-do-i-gate"
	var viaLauncher, viaDirect, viaLine, viaShDirect time.Duration
	b.ResetTimer()
	for b.Loop() {
		viaLauncher += run("sh", launcher, "how-do-i-gate")
		viaDirect += run(direct, "how-do-i-gate")
		viaLine += run("sh", "-c", hookLine)
		viaShDirect += run("sh", "-c", directLine)
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / n / 1000 }
	b.ReportMetric(ms(viaLauncher), "launcher-ms/op")
	b.ReportMetric(ms(viaDirect), "direct-ms/op")
	b.ReportMetric(ms(viaLauncher-viaDirect), "overhead-ms/op")
	b.ReportMetric(ms(viaLine), "hook-line-ms/op")
	b.ReportMetric(ms(viaLine-viaShDirect), "hook-line-overhead-ms/op")
}
