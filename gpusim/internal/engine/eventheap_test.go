package engine

import (
	"container/heap"
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

// refFinishes is container/heap's view of a finish slice, the order
// finishHeap must reproduce exactly, ties included.
type refFinishes []finish

func (h refFinishes) Len() int           { return len(h) }
func (h refFinishes) Less(i, j int) bool { return h[i].at < h[j].at }
func (h refFinishes) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *refFinishes) Push(v any)        { *h = append(*h, v.(finish)) }
func (h *refFinishes) Pop() any {
	old := *h
	f := old[len(old)-1]
	*h = old[:len(old)-1]
	return f
}

// TestFinishHeapAsContainerHeap pushes and pops seeded random finishes,
// many with equal times, on finishHeap and through container/heap, and
// checks every pop returns the same finish: the schedulers' replay sums
// rates in pop order, so ties must break the same way.
func TestFinishHeapAsContainerHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var h finishHeap
	var ref refFinishes
	for i := range 20000 {
		if len(ref) == 0 || rng.IntN(3) > 0 {
			f := finish{at: float64(rng.IntN(16)), rate: float64(i)}
			h.push(f)
			heap.Push(&ref, f)
			continue
		}
		got, want := h.pop(), heap.Pop(&ref).(finish)
		if got != want {
			t.Fatalf("pop %d: got %+v, want %+v", i, got, want)
		}
	}
}
