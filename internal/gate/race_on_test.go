//go:build race

package gate_test

// raceEnabled: the race detector's shadow memory multiplies a child's RSS,
// so memory bounds are asserted only by the uninstrumented run (.ci/run runs
// both: go test -race, then go test -cover).
const raceEnabled = true
