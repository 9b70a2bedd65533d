package engine

import (
	"math/rand/v2"
	"slices"
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
		lone := 0
		for g := range want {
			if !want[g^1] {
				lone++
			}
		}
		var log l2Log
		if got, _, gotLone := dramBytes(0, &offs, mask, 4, nil, &log, l2Load); got != int64(len(want))*64 || gotLone != int64(lone)*64 {
			t.Fatalf("trial %d: %d bytes, %d of them lone; want %d granules of 64, %d lone", trial, got, gotLone, len(want), lone)
		}
		// The log has each granule once, with its distinct sectors.
		var secs int64
		for i, a := range log.list {
			if !want[a.gran] || a.n != uint32(a.secs) || a.secs < 1 || a.secs > 2 || i > 0 && log.list[i-1].gran >= a.gran {
				t.Fatalf("trial %d: log entry %d is %+v (log %v)", trial, i, a, log.list)
			}
			secs += int64(a.n)
		}
		if w := exactSectors(0, &offs, mask, 4); len(log.list) != len(want) || secs != w {
			t.Fatalf("trial %d: logged %d granules and %d sectors, want %d and %d", trial, len(log.list), secs, len(want), w)
		}
		var l1 [32]uint64
		dramBytes(0, &offs, mask, 4, &l1, nil, l2Load)
		got, hits, _ := dramBytes(0, &offs, mask, 4, &l1, nil, l2Load)
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
			g, _, gl := dramBytesSeq(a0, size, nil, nil, l2Store)
			if w, _, wl := dramBytes(a0, &offs, allLanes, size, nil, nil, l2Store); g != w || gl != wl {
				t.Fatalf("trial %d: store of %d-byte elements at %#x: %d bytes (%d lone), want %d (%d)", trial, size, a0, g, gl, w, wl)
			}
		}
		var glog, wlog l2Log
		g, gh, _ := dramBytesSeq(a0, size, &got, &glog, l2Load)
		w, wh, _ := dramBytes(a0, &offs, allLanes, size, &want, &wlog, l2Load)
		if g != w || gh != wh || got != want {
			t.Fatalf("trial %d: load of %d-byte elements at %#x: %d bytes and %d hit sectors, want %d and %d; L1 %v, want %v", trial, size, a0, g, gh, w, wh, got, want)
		}
		if !slices.Equal(glog.list, wlog.list) {
			t.Fatalf("trial %d: load of %d-byte elements at %#x logged %v, want %v", trial, size, a0, glog.list, wlog.list)
		}
	}
}

// TestDRAMLoneGranules: the strided reads of access.cu, one lane per
// element at 32, 64 and 128 bytes apart, read every granule of the lines
// they touch at 32 and 64 bytes and one granule a line at 128
// (calibration/evidence/2026-11-30-h200-ncu-sums-stride: the same DRAM sectors at
// 64 and 128, at 90% and 78% of the DRAM's peak).
func TestDRAMLoneGranules(t *testing.T) {
	for _, c := range []struct{ apart, bytes, lone int64 }{{4, 128, 0}, {32, 1024, 0}, {64, 2048, 0}, {128, 2048, 2048}, {256, 2048, 2048}} {
		var offs [32]uint64
		for l := range offs {
			offs[l] = uint64(int64(l) * c.apart)
		}
		if got, _, lone := dramBytes(1<<20, &offs, allLanes, 4, nil, nil, l2Load); got != c.bytes || lone != c.lone {
			t.Errorf("lanes %d bytes apart: %d bytes, %d lone; want %d and %d", c.apart, got, lone, c.bytes, c.lone)
		}
	}
	// A coalesced run of 8-byte elements that starts in a line's second
	// granule ends in a line's first: a lone granule at each end.
	if got, _, lone := dramBytesSeq(1<<20+64, 8, nil, nil, l2Load); got != 256 || lone != 128 {
		t.Errorf("256 bytes from a line's second granule: %d bytes, %d lone; want 256 and 128", got, lone)
	}
}
