package engine

import "testing"

func TestArcSpread(t *testing.T) {
	for _, c := range []struct {
		points []float32
		want   float64
	}{
		{nil, 0},
		{[]float32{40}, 0},
		{[]float32{0, 10, 20}, 20},
		{[]float32{20, 0, 10}, 20},
		// Across the wrap: 80 and 5 are 9 apart on a circle of 84.
		{[]float32{80, 5}, 9},
		{[]float32{0, 42}, 42},
		{[]float32{0, 21, 42, 63}, 63},
	} {
		if got := arcSpread(c.points, 84); got < c.want-1e-4 || got > c.want+1e-4 {
			t.Errorf("arcSpread(%v, 84) = %v, want %v", c.points, got, c.want)
		}
	}
}

// TestCASModeSwitch drives a queue through a convoy and into the
// two-phase mode: arrivals within the window keep the factor at 1, one
// outside it switches the period, and the lanes still queued take the
// faster rate too; an idle queue starts a new convoy.
func TestCASModeSwitch(t *testing.T) {
	c := &Costs{SharedCASConvoy: 84, SharedCASPhases: 42, SharedCASWindow: 30}
	q := &addrQueue{}
	w := &warp{}
	arrive := func(at int64) float64 {
		w.clock, w.localAt = at, at
		return q.casMode(w, c)
	}
	if f := arrive(100); f != 1 {
		t.Fatalf("first arrival: factor %v, want 1", f)
	}
	q.free = 100 + 32*84
	if f := arrive(110); f != 1 {
		t.Errorf("10 cycles later: factor %v, want 1 (a convoy)", f)
	}
	// 84 + 10 cycles after the first: in phase with it, still a convoy.
	if f := arrive(194); f != 1 {
		t.Errorf("one interval later: factor %v, want 1", f)
	}
	before := q.free
	if f := arrive(150); f != 0.5 {
		t.Errorf("50 cycles after the first: factor %v, want 0.5", f)
	}
	if want := 150 + (before-150)/2; q.free != want {
		t.Errorf("queued lanes: free %d, want %d (half the %d cycles left)", q.free, want, before-150)
	}
	if f := arrive(q.free + 1000); f != 1 {
		t.Errorf("after the queue drained: factor %v, want 1 (a new convoy)", f)
	}
}
