package engine

import (
	"math/rand/v2"
	"testing"
)

// TestAddrCounts checks addrCounts against a map of counts: sparse pages,
// pages that turn dense, sub-word addresses, and counts past a uint32.
func TestAddrCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var a addrCounts
	a.init()
	want := map[uint64]int64{}
	add := func(addr uint64, n int64) {
		a.add(addr, n)
		want[addr] += n
	}
	const base = 1 << 40
	for range 20000 {
		switch rng.IntN(4) {
		case 0: // a dense page
			add(base+uint64(rng.IntN(1024))*4, 1)
		case 1: // sparse pages far apart
			add(base+1<<30+uint64(rng.IntN(64))<<pageShift+uint64(rng.IntN(8))*8, int64(rng.IntN(3)+1))
		case 2: // 2-byte atomics
			add(base+2<<30+uint64(rng.IntN(16))*2, 1)
		default: // one address past a uint32's count
			add(base+3<<30, 1<<31)
		}
	}
	var most int64
	for _, n := range want {
		most = max(most, n)
	}
	if a.distinct != int64(len(want)) || a.most != most {
		t.Errorf("distinct %d, most %d; want %d and %d", a.distinct, a.most, len(want), most)
	}
	dense := 0
	for _, p := range a.pages {
		if p.dense != nil {
			dense++
		}
	}
	if dense != 1 {
		t.Errorf("%d dense pages, want 1 (the page of 1024 words)", dense)
	}
}
