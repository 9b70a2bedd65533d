package engine

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// seqCase is one block's state for comparing the sequential paths with
// the lane-by-lane ones: its shared memory and race shadow, a global
// allocation, and a warp's L1.
type seqCase struct {
	w     *warp
	alloc *Alloc
}

func newSeqCase(seed uint64) *seqCase {
	r := rand.New(rand.NewPCG(seed, 7))
	b := &block{shared: make([]byte, 2048), ctx: &ctx{}, epoch: 5, race: newRaceShadow(2048, 2)}
	for i := range b.shared {
		b.shared[i] = byte(r.Uint32())
	}
	// Shadow records from an earlier epoch, and this epoch's records of
	// the warp's own threads: none of them races with the warp.
	for g := range b.race.w {
		if r.IntN(2) == 0 {
			b.race.w[g] = pack(4, 0, r.IntN(256), r.IntN(2) == 0)
		}
		if r.IntN(3) == 0 {
			b.race.r[g] = pack(4, 0, r.IntN(256), r.IntN(2) == 0)
		}
	}
	w := &warp{blk: b, idx: 1, mask: allLanes, launched: allLanes}
	for l := range w.l1 {
		if r.IntN(2) == 0 {
			w.l1[l] = 0x1000/64 + uint64(r.IntN(64)) + 1
		}
	}
	a := &Alloc{Base: 0x1000, Data: make([]byte, 4096)}
	for i := range a.Data {
		a.Data[i] = byte(r.Uint32())
	}
	return &seqCase{w: w, alloc: a}
}

// TestSeqPathsMatchLanes runs full-warp loads and stores of consecutive
// elements through the sequential paths and through the lane-by-lane
// ones, from the same state, and compares everything they change: the
// loaded values, memory, counters, the L1 and the race shadow.
func TestSeqPathsMatchLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := &exec{}
	for trial := 0; trial < 3000; trial++ {
		size := uint64(4 << rng.IntN(2))
		k := cudac.Float32
		if size == 8 {
			k = cudac.Float64
		}
		shared := rng.IntN(2) == 0
		store := rng.IntN(2) == 0
		seed := rng.Uint64()
		a, b := newSeqCase(seed), newSeqCase(seed)
		var base, limit uint64 = a.alloc.Base, uint64(len(a.alloc.Data))
		if shared {
			base, limit = ir.SharedBase, 2048
		}
		// Mostly in range and aligned; sometimes past the end or
		// misaligned, where both must refuse the fast path.
		first := uint64(rng.IntN(int(limit/size))) * size
		if rng.IntN(10) == 0 {
			first += uint64(rng.IntN(int(size)))
		}
		var ad [32]uint64
		for l := range ad {
			ad[l] = base + first + uint64(l)*size
		}
		var v [32]uint64
		for l := range v {
			v[l] = rng.Uint64()
		}
		var da, db [32]uint64
		var okA, okB bool
		if store {
			okA = x.storeSeq(a.w, &v, ad[0], size, shared, a.alloc, 3)
			okB = x.storeLanes(b.w, &v, &ad, 0, size, shared, b.alloc, 3)
		} else {
			okA = x.loadSeq(a.w, &da, ad[0], size, shared, a.alloc, 3)
			okB = x.loadLanes(b.w, &db, &ad, 0, size, shared, b.alloc, 3, k)
		}
		if okA && !okB {
			t.Fatalf("trial %d: sequential path took an access the lane path refused (size %d, shared %v, offset %d)", trial, size, shared, first)
		}
		if !okA {
			continue // the lane path then runs for both
		}
		what := map[bool]string{false: "load", true: "store"}[store]
		if da != db {
			t.Fatalf("trial %d: %s values differ", trial, what)
		}
		if a.w.blk.ctx.count != b.w.blk.ctx.count {
			t.Fatalf("trial %d: %s counters %+v, want %+v", trial, what, a.w.blk.ctx.count, b.w.blk.ctx.count)
		}
		if a.w.l1 != b.w.l1 {
			t.Fatalf("trial %d: %s L1 differs", trial, what)
		}
		ca, cb := a.w.blk.ctx, b.w.blk.ctx
		if ca.storeLines != cb.storeLines || ca.storeSectors != cb.storeSectors || ca.loadLines != cb.loadLines {
			t.Fatalf("trial %d: %s lines and partly written sectors %d, %d, %d; want %d, %d, %d", trial, what,
				ca.storeLines, ca.storeSectors, ca.loadLines, cb.storeLines, cb.storeSectors, cb.loadLines)
		}
		if !reflect.DeepEqual(a.w.blk.shared, b.w.blk.shared) || !reflect.DeepEqual(a.alloc.Data, b.alloc.Data) {
			t.Fatalf("trial %d: %s memory differs", trial, what)
		}
		if !reflect.DeepEqual(a.w.blk.race, b.w.blk.race) {
			t.Fatalf("trial %d: %s race shadow differs", trial, what)
		}
	}
}
