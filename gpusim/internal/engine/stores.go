package engine

import (
	"cmp"
	"math/bits"
	"slices"
)

// The store path. A warp's global store sends the L2 one request per
// 128-byte line its lanes touch, and a request that writes part of several
// of the line's 32-byte sectors takes longer (a further sector beyond the
// first). Two resources take them. The SM's own path takes each request
// in Costs.StorePath, whatever its sectors: on the H200 the busiest SM of
// a work queue whose winning warps gather there, storing one word a lane
// on a line of its own, sends its requests 2.02 cycles apart while the
// rest of the GPU hardly stores
// (calibration/evidence/2026-11-30-h200-queue-sm: queue_sm.csv, even, k = 1024).
// The L2 takes every SM's requests together, Costs.StoreLine a request
// and Costs.StoreSector a further partly written sector, counted per SM
// over all the SMs: with every SM storing alike, lanes one word 16, 32 or
// 64 bytes apart (four, four and two partly written sectors a line) take
// 4 cycles a request and 2 a further sector, a coalesced store (whole
// sectors) no more than its request
// (calibration/evidence/2026-11-30-h200-queue-loop: queue_loop.csv, static
// batches without atomics at k = 4, 8 and 16). Both move a request's
// sectors one after another: one SM alone takes a further partly written
// sector in Costs.StorePathSector and a further whole one in
// StorePathWhole, and every SM together costs the L2 StoreWhole a
// further whole sector (calibration/evidence/2026-11-30-h200-store-sm:
// store_sm.csv, a request of four partly written sectors 5.0 cycles on
// one SM, a line of four whole sectors 3.9 on one SM and 8.6 on every
// SM). Every store is its own requests: the H200 merges no warp's
// back-to-back stores to the same sectors on one SM's path, nor the work
// queue's at k = 64 and 1024 (calibration/evidence/2026-12-01-h200-store-merge).
// Without Costs.StorePath, StoreLine and StoreSector price the busiest
// SM's requests instead.

// partialSectors returns the partly written 32-byte sectors of a warp's
// store beyond the first of each 128-byte line: over the lines the active
// lanes' accesses of size bytes touch, the sectors whose 32 bytes they do
// not all write, less one per line that has any. Lanes that write the same
// bytes count once. An access that is not naturally aligned within a
// sector, or wider than 16 bytes, is not counted (0 for the warp).
func partialSectors(base uint64, offs *[32]uint64, mask uint32, size uint64) int64 {
	if size == 0 || size > 16 || mask == 0 {
		return 0
	}
	type sec struct {
		s uint64 // sector index
		m uint32 // its bytes written
	}
	var buf [32]sec
	k := 0
	sorted := true
	full := uint32(1)<<size - 1
	for m := mask; m != 0; m &= m - 1 {
		a := base + offs[bits.TrailingZeros32(m)]
		off := a & 31
		if off+size > 32 {
			return 0
		}
		s := a >> 5
		if k > 0 && buf[k-1].s == s {
			buf[k-1].m |= full << off
			continue
		}
		if k > 0 && s < buf[k-1].s {
			sorted = false
		}
		buf[k] = sec{s, full << off}
		k++
	}
	secs := buf[:k]
	if !sorted {
		slices.SortFunc(secs, func(a, b sec) int { return cmp.Compare(a.s, b.s) })
		// Merge the masks of repeated sectors.
		j := 0
		for i := 1; i < len(secs); i++ {
			if secs[i].s == secs[j].s {
				secs[j].m |= secs[i].m
				continue
			}
			j++
			secs[j] = secs[i]
		}
		secs = secs[:j+1]
	}
	var extra int64
	line, partial := ^uint64(0), int64(0)
	for _, c := range secs {
		if l := c.s >> 2; l != line {
			extra += max(0, partial-1)
			line, partial = l, 0
		}
		if c.m != ^uint32(0) {
			partial++
		}
	}
	return extra + max(0, partial-1)
}

// countStore counts a warp's global store of sectors 32-byte sectors in
// lines 128-byte lines, partial of the sectors beyond each line's first
// partly written (partialSectors): the rest of those beyond the first are
// whole.
func (c *ctx) countStore(sectors, lines, partial int64) {
	c.count.GlobalStoreSectors += sectors
	c.storeLines += lines
	c.storeSectors += partial
	c.storeWhole += max(0, sectors-lines-partial)
}

// busiestStores returns the SM whose global stores cost its store path
// most: where the SM's own path is priced (Costs.StorePath), at
// Costs.StorePath a line request, StorePathSector a further partly
// written sector and StorePathWhole a further whole one; else at
// Costs.StoreLine a line request and StoreSector a further partly
// written sector; by line requests alone where those are 0. The lowest
// index among equals.
func (x *exec) busiestStores() int {
	c := &x.m.Costs
	line, sector, whole := c.StoreLine, c.StoreSector, 0.0
	if c.StorePath > 0 {
		line, sector, whole = c.StorePath, c.StorePathSector, c.StorePathWhole
	}
	if line == 0 && sector == 0 {
		line = 1
	}
	best, cost := 0, -1.0
	for sm, n := range x.smStores {
		if c := float64(n)*line + float64(x.smStoreSectors[sm])*sector + float64(x.smStoreWhole[sm])*whole; c > cost {
			best, cost = sm, c
		}
	}
	return best
}

// seqPartialSectors is partialSectors for n consecutive bytes from a: only
// the sectors at the two ends can be partly written, and they count as a
// further one when they share a line.
func seqPartialSectors(a, n uint64) int64 {
	first, last := a>>5, (a+n-1)>>5
	if first == last || a&31 == 0 || (a+n)&31 == 0 {
		return 0
	}
	if first>>2 == last>>2 {
		return 1
	}
	return 0
}
