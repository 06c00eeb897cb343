package digest

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var benchBody = strings.Repeat("GOAL: benchmark digest line\n", 80) // ~2.2 KB, like a real digest

// BenchmarkWrite is the in-process write path (directory check, reap scan,
// pending file, fsync, hard link). The store is emptied every 100 writes
// so the reap scan stays at a realistic size.
func BenchmarkWrite(b *testing.B) {
	s := &Store{dir: filepath.Join(b.TempDir(), "digests"), keep: defaultKeep, ttl: defaultTTL, now: time.Now}
	i := 0
	for b.Loop() {
		if _, err := s.Write("cd95eb6f-408f-4c02-80af-46f48bb7eef4", benchBody); err != nil {
			b.Fatal(err)
		}
		if i++; i%100 == 0 {
			b.StopTimer()
			os.RemoveAll(s.dir)
			b.StartTimer()
		}
	}
}

// BenchmarkRead is the in-process replay of 10 digests (3 shown) among 50
// other sessions' digests.
func BenchmarkRead(b *testing.B) {
	s := &Store{dir: filepath.Join(b.TempDir(), "digests"), keep: defaultKeep, ttl: defaultTTL, now: time.Now}
	for range 10 {
		if _, err := s.Write("cd95eb6f-408f-4c02-80af-46f48bb7eef4", benchBody); err != nil {
			b.Fatal(err)
		}
	}
	for range 50 {
		s.Write("other-session", benchBody)
	}
	for b.Loop() {
		if err := s.Read("cd95eb6f-408f-4c02-80af-46f48bb7eef4", io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
