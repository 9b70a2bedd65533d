package engine

import (
	"math/rand/v2"
	"testing"
)

// TestDRAMBytes checks dramBytes against a count of distinct 64-byte
// granules, on lanes in address order (its one-pass path) and shuffled
// (its general path), and the L1 credit of a lane reloading its granule.
func TestDRAMBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 2000; trial++ {
		var offs [32]uint64
		stride := uint64(rng.IntN(160)) * 4
		for l := range offs {
			offs[l] = uint64(l) * stride
			if trial%2 == 1 {
				offs[l] = uint64(rng.IntN(4096)) * 4
			}
		}
		mask := rng.Uint32() | 1
		want := map[uint64]bool{}
		for l := 0; l < 32; l++ {
			if mask&(1<<l) != 0 {
				want[offs[l]>>granuleShift] = true
			}
		}
		if got, _ := dramBytes(0, &offs, mask, 4, nil); got != int64(len(want))*64 {
			t.Fatalf("trial %d: %d bytes, want %d granules of 64", trial, got, len(want))
		}
		var l1 [32]uint64
		dramBytes(0, &offs, mask, 4, &l1)
		got, hits := dramBytes(0, &offs, mask, 4, &l1)
		if got != 0 {
			t.Fatalf("trial %d: a repeated load moved %d bytes, want 0 (every lane's granule is in the L1)", trial, got)
		}
		if want := exactSectors(0, &offs, mask, 4); hits != want {
			t.Fatalf("trial %d: a repeated load read %d sectors from the L1, want its %d distinct sectors", trial, hits, want)
		}
	}
}

// TestDRAMBytesSeq checks the sequential path against dramBytes: the same
// bytes and the same L1 afterwards, for 4- and 8-byte elements at aligned
// starts, with an L1 left by earlier loads of nearby addresses.
func TestDRAMBytesSeq(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 5000; trial++ {
		size := uint64(4 << rng.IntN(2))
		a0 := uint64(rng.IntN(1<<12)) * size
		var offs [32]uint64
		for l := range offs {
			offs[l] = uint64(l) * size
		}
		var want, got [32]uint64
		for l := range want {
			if rng.IntN(2) == 0 {
				want[l] = (a0+uint64(rng.IntN(512)))>>granuleShift + 1
			}
		}
		got = want
		if trial%3 == 0 {
			g, _ := dramBytesSeq(a0, size, nil)
			if w, _ := dramBytes(a0, &offs, allLanes, size, nil); g != w {
				t.Fatalf("trial %d: store of %d-byte elements at %#x: %d bytes, want %d", trial, size, a0, g, w)
			}
		}
		g, gh := dramBytesSeq(a0, size, &got)
		w, wh := dramBytes(a0, &offs, allLanes, size, &want)
		if g != w || gh != wh || got != want {
			t.Fatalf("trial %d: load of %d-byte elements at %#x: %d bytes and %d hit sectors, want %d and %d; L1 %v, want %v", trial, size, a0, g, gh, w, wh, got, want)
		}
	}
}
