package engine

import (
	"math/rand/v2"
	"testing"
)

// TestPartialSectors: a warp's store counts, per 128-byte line, its partly
// written 32-byte sectors beyond the first, whatever the lanes' order.
func TestPartialSectors(t *testing.T) {
	strided := func(stride uint64) [32]uint64 {
		var o [32]uint64
		for l := range o {
			o[l] = uint64(l) * stride
		}
		return o
	}
	same := [32]uint64{}
	for _, c := range []struct {
		name string
		offs [32]uint64
		mask uint32
		size uint64
		want int64
	}{
		{"coalesced words: four whole sectors", strided(4), ^uint32(0), 4, 0},
		{"coalesced float2: two lines of whole sectors", strided(8), ^uint32(0), 8, 0},
		{"lanes 16 bytes apart: 4 lines of 4 partial sectors", strided(16), ^uint32(0), 4, 4 * 3},
		{"lanes 32 bytes apart: 8 lines of 4", strided(32), ^uint32(0), 4, 8 * 3},
		{"lanes 64 bytes apart: 16 lines of 2", strided(64), ^uint32(0), 4, 16 * 1},
		{"lanes 128 bytes apart: one sector a line", strided(128), ^uint32(0), 4, 0},
		{"one address", same, ^uint32(0), 4, 0},
		{"16-byte lanes 32 bytes apart: half of every sector", strided(32), ^uint32(0), 16, 8 * 3},
		{"two lanes 32 bytes apart", strided(32), 0b11, 4, 1},
		{"no lanes", strided(32), 0, 4, 0},
		{"wider than 16 bytes: not counted", strided(32), ^uint32(0), 32, 0},
	} {
		if got := partialSectors(0x1000, &c.offs, c.mask, c.size); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
		// The same lanes in another order.
		rng := rand.New(rand.NewPCG(1, uint64(c.want)))
		o := c.offs
		rng.Shuffle(32, func(i, j int) { o[i], o[j] = o[j], o[i] })
		if c.mask == ^uint32(0) {
			if got := partialSectors(0x1000, &o, c.mask, c.size); got != c.want {
				t.Errorf("%s, lanes shuffled: %d, want %d", c.name, got, c.want)
			}
		}
	}
	// A misaligned access that crosses a sector is not counted.
	o := strided(32)
	for l := range o {
		o[l] += 30
	}
	if got := partialSectors(0, &o, ^uint32(0), 4); got != 0 {
		t.Errorf("accesses across a sector boundary: %d, want 0", got)
	}
}

// TestSeqPartialSectors: consecutive bytes leave partly written sectors
// only at their ends, a further one only when both ends share a line.
func TestSeqPartialSectors(t *testing.T) {
	for _, c := range []struct {
		a, n uint64
		want int64
	}{
		{0, 128, 0},  // one whole line
		{4, 128, 0},  // partial ends in two lines
		{36, 64, 1},  // both ends partial, in one line
		{32, 64, 0},  // whole sectors
		{36, 8, 0},   // inside one sector
		{100, 24, 0}, // ends at a sector boundary
	} {
		if got := seqPartialSectors(c.a, c.n); got != c.want {
			t.Errorf("seqPartialSectors(%d, %d) = %d, want %d", c.a, c.n, got, c.want)
		}
		// The same as partialSectors over its words.
		var offs [32]uint64
		var mask uint32
		for i := uint64(0); i < c.n/4 && i < 32; i++ {
			offs[i] = c.a + 4*i
			mask |= 1 << i
		}
		if c.a%4 == 0 && c.n%4 == 0 && c.n <= 128 {
			if got := partialSectors(0, &offs, mask, 4); got != c.want {
				t.Errorf("partialSectors over the words of (%d, %d) = %d, want %d", c.a, c.n, got, c.want)
			}
		}
	}
}
