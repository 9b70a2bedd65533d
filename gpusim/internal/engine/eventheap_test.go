package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEventHeapOrder pushes and pops seeded random events and checks that
// each pop returns the earliest event by (t, seq), as a sorted list does.
func TestEventHeapOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h eventHeap
	var ref []event
	var seq uint64
	for i := range 20000 {
		if len(ref) == 0 || rng.IntN(3) > 0 {
			seq++
			e := event{t: rng.Int64N(64), seq: seq, slot: i}
			h.push(e)
			ref = append(ref, e)
			continue
		}
		slices.SortFunc(ref, func(a, b event) int {
			if a.t != b.t {
				return int(a.t - b.t)
			}
			return int(a.seq) - int(b.seq)
		})
		got, want := h.pop(), ref[0]
		ref = ref[1:]
		if got != want {
			t.Fatalf("pop %d: got event t=%d seq=%d, want t=%d seq=%d", i, got.t, got.seq, want.t, want.seq)
		}
		if h.Len() != len(ref) {
			t.Fatalf("pop %d: %d events left, want %d", i, h.Len(), len(ref))
		}
	}
}
