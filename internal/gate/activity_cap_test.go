package gate

import "testing"

// newlineFree reads as size bytes of 'x' and counts what was read.
type newlineFree struct{ read int64 }

func (r *newlineFree) ReadAt(p []byte, off int64) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	r.read += int64(len(p))
	return len(p), nil
}

// A transcript that decides nothing is read for at most MaxScan bytes (and
// one block), however large, and reports OverCap.
func TestTurnActivityScanCap(t *testing.T) {
	for _, size := range []int64{MaxScan + 1, 10 << 30} {
		r := &newlineFree{}
		if got := TurnActivity(r, size); got != OverCap {
			t.Errorf("size %d: %v, want over-cap", size, got)
		}
		if r.read > MaxScan+64<<10 {
			t.Errorf("size %d: read %d bytes, more than the cap %d", size, r.read, MaxScan)
		}
	}
	r := &newlineFree{}
	if got := TurnActivity(r, MaxScan-1); got != Idle {
		t.Errorf("under the cap: %v, want idle (nothing decides, all read)", got)
	}
}
