package engine

import (
	"math/bits"
	"slices"
	"unsafe"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// The fast paths of loads and stores: when every active lane's address is
// valid in the window the instruction is expected to use, the lanes are
// served in one tight loop. Anything else (a fault, a generic pointer into
// another window) takes the checked per-lane path, which reports faults.

// sharedOffsets computes the active lanes' offsets into the block's shared
// memory; ok is false when a lane is outside it or misaligned. regular says
// the lanes access consecutive elements or all the same one, the accesses
// that have no bank conflicts.
func sharedOffsets(w *warp, ad *[32]uint64, off, size uint64, offs *[32]uint64) (ok, regular bool) {
	n := uint64(len(w.blk.shared))
	if n < size {
		return false, false
	}
	base := off - ir.SharedBase
	first := bits.TrailingZeros32(w.mask)
	o0 := ad[first] + base
	var or, hi uint64
	seq, same := true, true
	for m := w.mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		o := ad[l] + base
		offs[l] = o
		or |= o
		hi = max(hi, o)
		seq = seq && o == o0+uint64(l-first)*size
		same = same && o == o0
	}
	if hi > n-size || or&(size-1) != 0 {
		return false, false
	}
	return true, seq || same
}

// globalOffsets computes the active lanes' offsets into allocation c.
func globalOffsets(c *Alloc, mask uint32, ad *[32]uint64, off, size uint64, offs *[32]uint64) bool {
	n := uint64(len(c.Data))
	base := off - c.Base
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		o := ad[l] + base
		if o >= n || o+size > n || o&(size-1) != 0 {
			return false
		}
		offs[l] = o
	}
	return true
}

// sharedConflicts returns the extra wavefronts of a shared access that is
// not regular (consecutive elements spread over the banks; one address is a
// broadcast).
func sharedConflicts(offs *[32]uint64, mask uint32, size uint64, regular bool) int64 {
	if regular {
		return 0
	}
	var st memStats
	for m := mask; m != 0; m &= m - 1 {
		st.add(spShared, offs[bits.TrailingZeros32(m)])
	}
	return st.bankConflicts(size)
}

// sectors counts the distinct 32-byte sectors of a global access.
func sectors(base uint64, offs *[32]uint64, mask uint32, size uint64) int64 {
	var n int64
	last := ^uint64(0)
	for m := mask; m != 0; m &= m - 1 {
		sec := (base + offs[bits.TrailingZeros32(m)]) >> 5
		if sec != last {
			if last != ^uint64(0) && sec < last || size > 32 {
				return exactSectors(base, offs, mask, size)
			}
			n++
			last = sec
		}
	}
	return n
}

// lines counts the distinct 128-byte lines the active lanes' accesses
// start in: exactly when the lanes' lines are in lane order (coalesced and
// strided accesses), by sorting otherwise.
func lines(base uint64, offs *[32]uint64, mask uint32) int64 {
	var n int64
	last := ^uint64(0)
	for m := mask; m != 0; m &= m - 1 {
		ln := (base + offs[bits.TrailingZeros32(m)]) >> 7
		if ln != last {
			if last != ^uint64(0) && ln < last {
				return exactLines(base, offs, mask)
			}
			n++
			last = ln
		}
	}
	return n
}

func exactLines(base uint64, offs *[32]uint64, mask uint32) int64 {
	var ls [32]uint64
	k := 0
	for m := mask; m != 0; m &= m - 1 {
		ls[k] = (base + offs[bits.TrailingZeros32(m)]) >> 7
		k++
	}
	s := ls[:k]
	slices.Sort(s)
	return int64(len(slices.Compact(s)))
}

func exactSectors(base uint64, offs *[32]uint64, mask uint32, size uint64) int64 {
	secs := make([]uint64, 0, 64)
	for m := mask; m != 0; m &= m - 1 {
		a := base + offs[bits.TrailingZeros32(m)]
		for s := a >> 5; s <= (a+size-1)>>5; s++ {
			secs = append(secs, s)
		}
	}
	slices.Sort(secs)
	return int64(len(slices.Compact(secs)))
}

// granuleShift gives the DRAM's access granularity, 64 bytes: the H200's
// strided reads, timed gated
// (calibration/evidence/2026-11-30-h200-microbenchmarks-gated2/csv/access.csv:
// 0.0370 ms with lanes 32 bytes apart, 0.0685 at 64, 0.0775 at 128; the
// ungated round-2 run's 0.0390, 0.0701, 0.0790 say the same) slow down
// until lanes are 64 bytes apart, not 32, and its naive
// transpose, whose lanes each store 4 bytes of their own 64-byte granule,
// takes the time of moving the whole granules. ncu counts the same DRAM
// sectors at 64 and 128 bytes apart
// (calibration/evidence/2026-11-30-h200-ncu-sums-stride); what makes 128 slower
// is that a line gives one granule, not two (the cost model's
// Cost.DRAMLoneGranuleFactor, on the lone bytes dramBytes returns).
const granuleShift = 6

// dramBytes returns the DRAM traffic of a global access by the lanes in
// mask at base+offs were the L2 to hold none of it: the distinct 64-byte
// granules it touches, times 64, and of those the granules moved without
// the other granule of their 128-byte line (lone), times 64. For a load
// (l1 non-nil), a granule that one of its lanes loaded last time too is an
// L1 hit and moves nothing; every lane then remembers its granule. It also
// returns the distinct 32-byte sectors the access reads from such
// granules: what the L1 serves if it still holds the lanes' lines (the
// cost model's l2 reads term decides how many it does). When log is not
// nil, the granules that move are logged, with their distinct sectors, as
// accesses of kind to the L2 (l2cache.go), whose residency model decides
// the loads' DRAM traffic.
func dramBytes(base uint64, offs *[32]uint64, mask uint32, size uint64, l1 *[32]uint64, log *l2Log, kind uint8) (bytes, hitSectors, lone int64) {
	var gs, ss, mv [32]uint64
	n := 0
	hit := uint32(0)
	sorted := true
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		a := base + offs[l]
		g := a >> granuleShift
		if (a+size-1)>>granuleShift != g {
			// A lane whose element straddles two granules: rare (a
			// misaligned vector), counted exactly without the L1.
			return straddlingBytes(base, offs, mask, size, log, kind), 0, 0
		}
		if l1 != nil {
			if l1[l] == g+1 {
				hit |= 1 << uint(n)
			}
			l1[l] = g + 1
		}
		sorted = sorted && (n == 0 || a>>5 >= ss[n-1])
		gs[n], ss[n] = g, a>>5
		n++
	}
	// Distinct granules; a granule is a hit when any lane hit it. Lanes in
	// address order (coalesced and strided accesses) group each granule's
	// lanes together, so one pass over the runs does.
	if sorted {
		var moved, secs int64
		for i := 0; i < n; {
			h := false
			j := i
			for ; j < n && gs[j] == gs[i]; j++ {
				h = h || hit&(1<<uint(j)) != 0
			}
			var d int64
			for k := i; k < j; k++ {
				if k == i || ss[k] != ss[k-1] {
					d++
				}
			}
			if !h {
				mv[moved] = gs[i]
				moved++
				if log != nil {
					log.add(gs[i], uint32(d), uint8(d), kind)
				}
			} else {
				secs += d
			}
			i = j
		}
		// The moved granules are in address order: a granule's line-mate,
		// if moved, is next to it.
		for i := int64(0); i < moved; i++ {
			g := mv[i]
			if !(i > 0 && mv[i-1] == g^1 || i+1 < moved && mv[i+1] == g^1) {
				lone++
			}
		}
		return moved << granuleShift, secs, lone << granuleShift
	}
	var moved, secs int64
	var missed [32]uint64 // the sectors of the granules that move
	nm := 0
	for i := 0; i < n; i++ {
		dup, h := false, hit&(1<<uint(i)) != 0
		for j := 0; j < i; j++ {
			if gs[j] == gs[i] {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		for j := i + 1; j < n && !h; j++ {
			h = gs[j] == gs[i] && hit&(1<<uint(j)) != 0
		}
		// The granule's distinct sectors.
		var d int64
		for j := i; j < n; j++ {
			if gs[j] != gs[i] {
				continue
			}
			first := true
			for k := i; k < j; k++ {
				if gs[k] == gs[i] && ss[k] == ss[j] {
					first = false
					break
				}
			}
			if first {
				d++
				if !h {
					missed[nm] = ss[j]
					nm++
				}
			}
		}
		if !h {
			mv[moved] = gs[i]
			moved++
		} else {
			secs += d
		}
	}
	if log != nil && nm > 0 {
		ms := missed[:nm]
		slices.Sort(ms)
		log.addSectors(ms, kind)
	}
	for i := int64(0); i < moved; i++ {
		mate := false
		for j := int64(0); j < moved && !mate; j++ {
			mate = mv[j] == mv[i]^1
		}
		if !mate {
			lone++
		}
	}
	return moved << granuleShift, secs, lone << granuleShift
}

func straddlingBytes(base uint64, offs *[32]uint64, mask uint32, size uint64, log *l2Log, kind uint8) int64 {
	gs := make([]uint64, 0, 64)
	for m := mask; m != 0; m &= m - 1 {
		a := base + offs[bits.TrailingZeros32(m)]
		for s := a >> 5; s <= (a+size-1)>>5; s++ {
			gs = append(gs, s)
		}
	}
	slices.Sort(gs)
	gs = slices.Compact(gs)
	if log != nil {
		log.addSectors(gs, kind)
	}
	var moved int64
	for i := range gs {
		if i == 0 || gs[i]>>(granuleShift-5) != gs[i-1]>>(granuleShift-5) {
			moved++
		}
	}
	return moved << granuleShift
}

// loadFast tries the fast path of a load; it returns false to fall back.
func (x *exec) loadFast(w *warp, d, ad *[32]uint64, off, size uint64, hintShared bool, cache *Alloc, pc int, k cudac.Kind) bool {
	if w.mask == allLanes && (size == 4 || size == 8) && consecutive(ad, size) {
		if x.loadSeq(w, d, ad[0]+off, size, hintShared, cache, pc) {
			return true
		}
	}
	return x.loadLanes(w, d, ad, off, size, hintShared, cache, pc, k)
}

// loadLanes is loadFast lane by lane.
func (x *exec) loadLanes(w *warp, d, ad *[32]uint64, off, size uint64, hintShared bool, cache *Alloc, pc int, k cudac.Kind) bool {
	var offs [32]uint64
	if hintShared {
		ok, regular := sharedOffsets(w, ad, off, size, &offs)
		if !ok {
			return false
		}
		gather(d, unsafe.Pointer(&w.blk.shared[0]), &offs, w.mask, size, k)
		c := &w.blk.ctx.count
		c.SharedLoadRequests++
		c.SharedBankConflicts += sharedConflicts(&offs, w.mask, size, regular)
		if rs := w.blk.race; rs != nil {
			rs.readWarp(x, w, &offs, size, pc)
		}
		return true
	}
	if cache == nil || !globalOffsets(cache, w.mask, ad, off, size, &offs) {
		return false
	}
	n := gather(d, unsafe.Pointer(&cache.Data[0]), &offs, w.mask, size, k)
	c := &w.blk.ctx.count
	c.GlobalLoadRequests++
	c.GlobalLoadSectors += sectors(cache.Base, &offs, w.mask, size)
	cx := w.blk.ctx
	cx.l2.part = w.blk.part
	moved, hits, lone := dramBytes(cache.Base, &offs, w.mask, size, &w.l1, &cx.l2, l2Load)
	c.GlobalLoadBytes += int64(n) * int64(size)
	cx.globalLoad(lines(cache.Base, &offs, w.mask), moved, hits, lone)
	return true
}

// storeFast tries the fast path of a store.
func (x *exec) storeFast(w *warp, v, ad *[32]uint64, off, size uint64, hintShared bool, cache *Alloc, pc int) bool {
	if w.mask == allLanes && (size == 4 || size == 8) && consecutive(ad, size) {
		if x.storeSeq(w, v, ad[0]+off, size, hintShared, cache, pc) {
			return true
		}
	}
	return x.storeLanes(w, v, ad, off, size, hintShared, cache, pc)
}

// storeLanes is storeFast lane by lane.
func (x *exec) storeLanes(w *warp, v, ad *[32]uint64, off, size uint64, hintShared bool, cache *Alloc, pc int) bool {
	var offs [32]uint64
	var p unsafe.Pointer
	regular := false
	if hintShared {
		var ok bool
		if ok, regular = sharedOffsets(w, ad, off, size, &offs); !ok {
			return false
		}
		p = unsafe.Pointer(&w.blk.shared[0])
	} else {
		if cache == nil || !globalOffsets(cache, w.mask, ad, off, size, &offs) {
			return false
		}
		p = unsafe.Pointer(&cache.Data[0])
	}
	n := 0
	switch size {
	case 4:
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			*(*uint32)(unsafe.Add(p, offs[l])) = uint32(v[l])
			n++
		}
	default:
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			storeBits(unsafe.Add(p, offs[l]), size, v[l])
			n++
		}
	}
	c := &w.blk.ctx.count
	if hintShared {
		c.SharedStoreRequests++
		c.SharedBankConflicts += sharedConflicts(&offs, w.mask, size, regular)
		if rs := w.blk.race; rs != nil {
			rs.writeWarp(x, w, &offs, size, pc)
		}
		return true
	}
	c.GlobalStoreRequests++
	w.blk.ctx.countStore(sectors(cache.Base, &offs, w.mask, size), lines(cache.Base, &offs, w.mask), partialSectors(cache.Base, &offs, w.mask, size))
	w.blk.ctx.l2.part = w.blk.part
	moved, _, _ := dramBytes(cache.Base, &offs, w.mask, size, nil, &w.blk.ctx.l2, l2Store)
	c.DRAMBytes += moved
	c.GlobalStoreBytes += int64(n) * int64(size)
	return true
}

// gather loads each active lane's value from p+offs[l] and returns the
// number of lanes.
func gather(d *[32]uint64, p unsafe.Pointer, offs *[32]uint64, mask uint32, size uint64, k cudac.Kind) int {
	switch size {
	case 4:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			d[l] = uint64(*(*uint32)(unsafe.Add(p, offs[l])))
		}
	case 8:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			d[l] = *(*uint64)(unsafe.Add(p, offs[l]))
		}
	default:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			d[l] = loadBits(unsafe.Add(p, offs[l]), k)
		}
	}
	return bits.OnesCount32(mask)
}

// The sequential paths: all 32 lanes active, lane l at a0 + l*size with
// 4- or 8-byte elements, the shape of a coalesced access (a[i] with i
// the thread index). They give the same values, counters and race reports
// as the per-lane fast paths above, with no per-lane offsets, bank or
// sector bookkeeping.

// allLanes is the mask of a full warp.
const allLanes = ^uint32(0)

// consecutive reports whether lane l's address is ad[0] + l*size for
// every lane.
func consecutive(ad *[32]uint64, size uint64) bool {
	// Every lane's difference from its address, ORed together: no branch
	// a lane, which the common cases (all consecutive, or a lane far from
	// the first) do not need.
	var diff uint64
	want := ad[0]
	for l := 1; l < 32; l++ {
		want += size
		diff |= ad[l] ^ want
	}
	return diff == 0
}

// seqWindow returns the offset of a sequential access at addr in a
// window of n bytes starting at base, or false when a lane would fall
// outside it or the first element is misaligned.
func seqWindow(addr, base, n, size uint64) (uint64, bool) {
	o0 := addr - base
	if n < 32*size || o0 > n-32*size || o0&(size-1) != 0 {
		return 0, false
	}
	return o0, true
}

// span returns how many 1<<shift-byte units (32-byte sectors at 5,
// 128-byte lines at 7) the n bytes from a touch.
func span(a, n uint64, shift uint) int64 { return int64((a+n-1)>>shift - a>>shift + 1) }

// loadSeq is loadFast for a sequential access.
func (x *exec) loadSeq(w *warp, d *[32]uint64, addr, size uint64, hintShared bool, cache *Alloc, pc int) bool {
	if hintShared {
		sh := w.blk.shared
		o0, ok := seqWindow(addr, ir.SharedBase, uint64(len(sh)), size)
		if !ok {
			return false
		}
		gatherSeq(d, unsafe.Pointer(&sh[o0]), size)
		w.blk.ctx.count.SharedLoadRequests++ // consecutive elements: no bank conflicts
		if rs := w.blk.race; rs != nil {
			rs.readWarpSeq(x, w, o0, size, pc)
		}
		return true
	}
	if cache == nil {
		return false
	}
	o0, ok := seqWindow(addr, cache.Base, uint64(len(cache.Data)), size)
	if !ok {
		return false
	}
	gatherSeq(d, unsafe.Pointer(&cache.Data[o0]), size)
	c := &w.blk.ctx.count
	a0 := cache.Base + o0
	c.GlobalLoadRequests++
	c.GlobalLoadSectors += span(a0, 32*size, 5)
	cx := w.blk.ctx
	cx.l2.part = w.blk.part
	moved, hits, lone := dramBytesSeq(a0, size, &w.l1, &cx.l2, l2Load)
	c.GlobalLoadBytes += 32 * int64(size)
	cx.globalLoad(span(a0, 32*size, 7), moved, hits, lone)
	return true
}

// storeSeq is storeFast for a sequential access.
func (x *exec) storeSeq(w *warp, v *[32]uint64, addr, size uint64, hintShared bool, cache *Alloc, pc int) bool {
	if hintShared {
		sh := w.blk.shared
		o0, ok := seqWindow(addr, ir.SharedBase, uint64(len(sh)), size)
		if !ok {
			return false
		}
		scatterSeq(unsafe.Pointer(&sh[o0]), v, size)
		w.blk.ctx.count.SharedStoreRequests++
		if rs := w.blk.race; rs != nil {
			rs.writeWarpSeq(x, w, o0, size, pc)
		}
		return true
	}
	if cache == nil {
		return false
	}
	o0, ok := seqWindow(addr, cache.Base, uint64(len(cache.Data)), size)
	if !ok {
		return false
	}
	scatterSeq(unsafe.Pointer(&cache.Data[o0]), v, size)
	c := &w.blk.ctx.count
	a0 := cache.Base + o0
	c.GlobalStoreRequests++
	w.blk.ctx.countStore(span(a0, 32*size, 5), span(a0, 32*size, 7), seqPartialSectors(a0, 32*size))
	w.blk.ctx.l2.part = w.blk.part
	moved, _, _ := dramBytesSeq(a0, size, nil, &w.blk.ctx.l2, l2Store)
	c.DRAMBytes += moved
	c.GlobalStoreBytes += 32 * int64(size)
	return true
}

// gatherSeq loads 32 consecutive elements of size bytes (4 or 8) at p.
func gatherSeq(d *[32]uint64, p unsafe.Pointer, size uint64) {
	if size == 4 {
		s := (*[32]uint32)(p)
		for l := range d {
			d[l] = uint64(s[l])
		}
		return
	}
	*d = *(*[32]uint64)(p)
}

// scatterSeq stores 32 consecutive elements of size bytes (4 or 8) at p.
func scatterSeq(p unsafe.Pointer, v *[32]uint64, size uint64) {
	if size == 4 {
		s := (*[32]uint32)(p)
		for l := range s {
			s[l] = uint32(v[l])
		}
		return
	}
	*(*[32]uint64)(p) = *v
}

// dramBytesSeq is dramBytes for 32 lanes at a0 + l*size with aligned
// 4- or 8-byte elements, which never straddle a granule or a sector and
// come in address order.
//
// Its lone bytes count the granules at either end of the run whose
// line-mate lies outside it (lanes L1 hits skip are not told apart: a
// sequential access moves whole lines but at its ends).
func dramBytesSeq(a0, size uint64, l1 *[32]uint64, log *l2Log, kind uint8) (bytes, hitSectors, lone int64) {
	g0, g1 := a0>>granuleShift, (a0+32*size-1)>>granuleShift
	if g0&1 == 1 {
		lone++
	}
	if g1&1 == 0 && g1 != g0 || g0 == g1 && g0&1 == 0 {
		lone++
	}
	lone <<= granuleShift
	var moved, secs int64
	cur := a0 >> granuleShift
	hit := false
	// A granule of 4- or 8-byte lanes in address order holds
	// granule/32 sectors of them: the run's first and last sector.
	first := a0 >> 5
	end := func(last uint64) {
		d := int64(last>>5 - first + 1)
		if !hit {
			moved++
			if log != nil {
				log.add(cur, uint32(d), uint8(d), kind)
			}
		} else {
			secs += d
		}
	}
	for l := 0; l < 32; l++ {
		a := a0 + uint64(l)*size
		g := a >> granuleShift
		if g != cur {
			end(a - size)
			cur, hit, first = g, false, a>>5
		}
		if l1 != nil {
			hit = hit || l1[l] == g+1
			l1[l] = g + 1
		}
	}
	end(a0 + 31*size)
	return moved << granuleShift, secs, min(lone, moved<<granuleShift)
}
