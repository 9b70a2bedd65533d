package engine

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// The windows an address can fall in.
const (
	spNone uint8 = iota
	spGlobal
	spShared
	spLocal
)

// access describes one memory instruction for error messages.
type access struct {
	verb string // "load", "store", "atomic"
	pc   int
}

// resolve maps lane l's address to host memory, checking alignment and
// bounds. On a fault it records the error and returns nil.
func (x *exec) resolve(w *warp, l int, addr, size uint64, cache **Alloc, acc access) (unsafe.Pointer, uint8) {
	if c := *cache; c != nil {
		if off := addr - c.Base; off+size <= uint64(len(c.Data)) && off < uint64(len(c.Data)) && addr&(size-1) == 0 {
			return unsafe.Pointer(&c.Data[off]), spGlobal
		}
	}
	if addr&(size-1) != 0 {
		x.fail(w, l, driver.ErrMisaligned, fmt.Sprintf("%s of %d bytes at address %#x, which is not a multiple of %d", acc.verb, size, addr, size))
		return nil, spNone
	}
	if off := addr - ir.SharedBase; off < ir.SharedMax {
		sh := w.blk.shared
		if off+size <= uint64(len(sh)) {
			return unsafe.Pointer(&sh[off]), spShared
		}
		x.fail(w, l, driver.ErrIllegalAddress, fmt.Sprintf("%s of %d bytes at shared-memory offset %d, past the end of the block's %d bytes of shared memory%s",
			acc.verb, size, off, len(sh), x.sharedName(off)))
		return nil, spNone
	}
	if off := addr - ir.LocalBase; off < ir.LocalMax {
		lb := uint64(x.k.LocalBytes)
		if off+size <= lb {
			return unsafe.Pointer(&w.local[uint64(l)*lb+off]), spLocal
		}
		x.fail(w, l, driver.ErrIllegalAddress, fmt.Sprintf("%s of %d bytes at offset %d of the thread's %d bytes of local memory (a local array index out of range?)",
			acc.verb, size, off, lb))
		return nil, spNone
	}
	a := x.mem.find(addr, size)
	if a == nil {
		x.fail(w, l, driver.ErrIllegalAddress, fmt.Sprintf("%s of %d bytes: %s", acc.verb, size, x.mem.describe(addr, size)))
		return nil, spNone
	}
	*cache = a
	return unsafe.Pointer(&a.Data[addr-a.Base]), spGlobal
}

// sharedName names the shared variable an offset lies in or beyond.
func (x *exec) sharedName(off uint64) string {
	var best *ir.SharedVar
	for i := range x.k.SharedVars {
		v := &x.k.SharedVars[i]
		if uint64(v.Offset) <= off && (best == nil || v.Offset > best.Offset) {
			best = v
		}
	}
	if best == nil {
		return ""
	}
	size := best.Size
	if best.Dynamic {
		size = x.cfg.SharedBytes
	}
	if best.ElemSize > 0 && off >= uint64(best.Offset+size) {
		return fmt.Sprintf(" (%s has %d elements; this is element %d)", best.Name, size/best.ElemSize, (int64(off)-best.Offset)/best.ElemSize)
	}
	return ""
}

func loadBits(p unsafe.Pointer, k cudac.Kind) uint64 {
	switch k {
	case cudac.Int8:
		return uint64(uint32(int32(*(*int8)(p))))
	case cudac.Uint8, cudac.Bool:
		return uint64(*(*uint8)(p))
	case cudac.Int16:
		return uint64(uint32(int32(*(*int16)(p))))
	case cudac.Uint16:
		return uint64(*(*uint16)(p))
	case cudac.Int32, cudac.Uint32, cudac.Float32:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

func storeBits(p unsafe.Pointer, size uint64, v uint64) {
	switch size {
	case 1:
		*(*uint8)(p) = uint8(v)
	case 2:
		*(*uint16)(p) = uint16(v)
	case 4:
		*(*uint32)(p) = uint32(v)
	default:
		*(*uint64)(p) = v
	}
}

func kindSize(k cudac.Kind) uint64 { return uint64(cudac.ScalarType(k).Size()) }

// memStats accumulates one instruction's per-lane facts for the counters.
type memStats struct {
	space      uint8
	n          int
	sectors    int64
	lastSector uint64
	unordered  bool
	addrs      [32]uint64 // the lanes' addresses (global) or offsets (shared)
}

func (s *memStats) add(sp uint8, addr uint64) {
	if s.n == 0 {
		s.space = sp
	}
	s.addrs[s.n] = addr
	s.n++
	if sp == spGlobal {
		sec := addr >> 5
		if s.sectors == 0 || sec != s.lastSector {
			if s.sectors > 0 && sec < s.lastSector {
				s.unordered = true
			}
			s.sectors++
			s.lastSector = sec
		}
	}
}

// globalSectors returns the distinct 32-byte sectors the access touched.
func (s *memStats) globalSectors(size uint64) int64 {
	if !s.unordered && size <= 32 {
		return s.sectors
	}
	secs := make([]uint64, 0, 64)
	for _, a := range s.addrs[:s.n] {
		for b := a >> 5; b <= (a+size-1)>>5; b++ {
			secs = append(secs, b)
		}
	}
	slices.Sort(secs)
	return int64(len(slices.Compact(secs)))
}

// bankConflicts returns the extra shared-memory wavefronts of an access:
// lanes that hit distinct 4-byte words of one bank are served one after
// another; the same word is broadcast.
func (s *memStats) bankConflicts(size uint64) int64 {
	var words [64]uint32
	nw := 0
	for _, off := range s.addrs[:s.n] {
		w0 := uint32(off >> 2)
		words[nw] = w0
		nw++
		if size == 8 {
			words[nw] = w0 + 1
			nw++
		}
	}
	// Fast path: no bank holds two different words.
	var seen uint32
	var bankWord [32]uint32
	clash := false
	for _, wd := range words[:nw] {
		b := wd & 31
		if seen&(1<<b) == 0 {
			seen |= 1 << b
			bankWord[b] = wd
		} else if bankWord[b] != wd {
			clash = true
			break
		}
	}
	if !clash {
		return 0
	}
	ws := words[:nw]
	slices.Sort(ws)
	ws = slices.Compact(ws)
	var perBank [32]int64
	var most int64
	for _, wd := range ws {
		perBank[wd&31]++
		most = max(most, perBank[wd&31])
	}
	minimal := (int64(len(ws)) + 31) / 32
	return max(0, most-minimal)
}

func (x *exec) mkLoad(in *ir.Inst, pc int) step {
	dst, a := ri(in.Dst), ri(in.A)
	off, k := in.Imm, in.T
	size := kindSize(k)
	volatile := in.Flags&ir.FlagVolatile != 0
	hintShared := in.Space == ir.SpaceShared
	acc := access{"load", pc}
	return func(w *warp) stop {
		r := w.regs
		d, ad := (*[32]uint64)(r[dst:]), addrRegs(r, a)
		// hot: the read side of a contended word (a counter, flag or
		// maximum other warps update atomically).
		hot := x.orderLoads && !hintShared && w.mask != 0 && uniformAddr(ad, w.mask) &&
			windowOf(ad[bits.TrailingZeros32(w.mask)]+off) == spGlobal
		if volatile || hot {
			if st := orderPoint(w, hintShared); st != run {
				return st
			}
		}
		if hot && !volatile && x.holdLoad(w, ad[bits.TrailingZeros32(w.mask)]+off) {
			// It waits at its SM behind the requests to a busy line
			// (casserve.go).
			return stopGlobal
		}
		cache := &w.blk.ctx.caches[pc]
		if x.loadFast(w, d, ad, off, size, hintShared, *cache, pc, k) {
			if !hintShared && x.spreadLoad(pc) {
				w.loadExtra = x.loadSpread(w, ad, off)
			}
			return run
		}
		var st memStats
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			addr := ad[l] + off
			p, sp := x.resolve(w, l, addr, size, cache, acc)
			if p == nil {
				return stopFault
			}
			d[l] = loadBits(p, k)
			if sp == spShared {
				so := addr - ir.SharedBase
				st.add(sp, so)
				if rs := w.blk.race; rs != nil {
					rs.read(x, w, l, so, size, pc)
				}
			} else {
				st.add(sp, addr)
			}
		}
		w.blk.ctx.l2.part = w.blk.part
		countMem(w.blk.ctx, &st, size, false)
		if st.n > 0 && st.space == spGlobal && x.spreadLoad(pc) {
			w.loadExtra = x.loadSpread(w, ad, off)
		}
		return run
	}
}

func (x *exec) mkStore(in *ir.Inst, pc int) step {
	a, b := ri(in.A), ri(in.B)
	off, k := in.Imm, in.T
	size := kindSize(k)
	volatile := in.Flags&ir.FlagVolatile != 0
	hintShared := in.Space == ir.SpaceShared
	atomic := in.Order != cudac.OrderDefault // cuda::atomic_ref's store: not a plain write to the race check
	acc := access{"store", pc}
	return func(w *warp) stop {
		if volatile {
			if st := orderPoint(w, hintShared); st != run {
				return st
			}
		}
		r := w.regs
		v, ad := (*[32]uint64)(r[b:]), addrRegs(r, a)
		cache := &w.blk.ctx.caches[pc]
		if !atomic && x.storeFast(w, v, ad, off, size, hintShared, *cache, pc) {
			return run
		}
		var st memStats
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			addr := ad[l] + off
			p, sp := x.resolve(w, l, addr, size, cache, acc)
			if p == nil {
				return stopFault
			}
			storeBits(p, size, v[l])
			if sp == spShared {
				so := addr - ir.SharedBase
				st.add(sp, so)
				if rs := w.blk.race; rs != nil {
					rs.write(x, w, l, so, size, pc, atomic)
				}
			} else {
				st.add(sp, addr)
			}
		}
		w.blk.ctx.l2.part = w.blk.part
		countMem(w.blk.ctx, &st, size, true)
		return run
	}
}

// orderPoint makes a warp stop before an access that other warps observe
// (a volatile one) until the scheduler lets it run in virtual-time order:
// among the block's warps for shared memory, among all blocks otherwise.
func orderPoint(w *warp, shared bool) stop {
	if w.cleared {
		w.cleared = false
		return run
	}
	if shared {
		return stopLocal
	}
	return stopGlobal
}

func countMem(cx *ctx, st *memStats, size uint64, store bool) {
	if st.n == 0 {
		return
	}
	c := &cx.count
	switch st.space {
	case spGlobal:
		// The checked path (generic pointers) logs its L2 accesses
		// without the L1's reuse.
		var offs [32]uint64
		copy(offs[:], st.addrs[:st.n])
		kind := l2Load
		if store {
			kind = l2Store
		}
		moved, _, lone := dramBytes(0, &offs, uint32(uint64(1)<<st.n-1), size, nil, &cx.l2, kind)
		if store {
			c.DRAMBytes += moved
			c.GlobalStoreRequests++
			cx.countStore(st.globalSectors(size), lines(0, &offs, uint32(uint64(1)<<st.n-1)), partialSectors(0, &offs, uint32(uint64(1)<<st.n-1), size))
			c.GlobalStoreBytes += int64(st.n) * int64(size)
		} else {
			cx.globalLoad(lines(0, &offs, uint32(uint64(1)<<st.n-1)), moved, 0, lone)
			c.GlobalLoadRequests++
			c.GlobalLoadSectors += st.globalSectors(size)
			c.GlobalLoadBytes += int64(st.n) * int64(size)
		}
	case spShared:
		if store {
			c.SharedStoreRequests++
		} else {
			c.SharedLoadRequests++
		}
		c.SharedBankConflicts += st.bankConflicts(size)
	case spLocal:
		if store {
			c.LocalStoreRequests++
		} else {
			c.LocalLoadRequests++
		}
	}
}

var zeroAddrs [32]uint64

// addrRegs returns the address register at offset a, or zeros for an
// instruction whose address is its immediate alone.
// alignChecked wraps the step of a load or store that begins a wide
// (vector) access: each lane's address must be aligned to the access.
func (x *exec) alignChecked(in *ir.Inst, pc int, st step) step {
	var align uint64
	switch {
	case in.Flags&ir.FlagAlign16 != 0:
		align = 16
	case in.Flags&ir.FlagAlign8 != 0:
		align = 8
	default:
		return st
	}
	a, off := ri(in.A), in.Imm
	verb := "load"
	if in.Op == ir.St {
		verb = "store"
	}
	return func(w *warp) stop {
		ad := addrRegs(w.regs, a)
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			if addr := ad[l] + off; addr&(align-1) != 0 {
				x.fail(w, l, driver.ErrMisaligned, fmt.Sprintf(
					"vector %s of %d bytes at address %#x, which is not a multiple of %d (a float4, int4 or other aligned struct moves in one access)",
					verb, align, addr, align))
				return stopFault
			}
		}
		return st(w)
	}
}

func addrRegs(r []uint64, a int) *[32]uint64 {
	if a < 0 {
		return &zeroAddrs
	}
	return (*[32]uint64)(r[a:])
}

// uniformAddr reports whether every active lane holds the same address.
func uniformAddr(ad *[32]uint64, mask uint32) bool {
	a := ad[bits.TrailingZeros32(mask)]
	for m := mask; m != 0; m &= m - 1 {
		if ad[bits.TrailingZeros32(m)] != a {
			return false
		}
	}
	return true
}

// windowOf says which window an address is in.
func windowOf(addr uint64) uint8 {
	switch {
	case addr-ir.SharedBase < ir.SharedMax:
		return spShared
	case addr-ir.LocalBase < ir.LocalMax:
		return spLocal
	}
	return spGlobal
}

func (x *exec) mkAtom(in *ir.Inst, pc int) step {
	dst, a, b, c := ri(in.Dst), ri(in.A), ri(in.B), ri(in.C)
	hasDst := in.Dst != ir.NoReg
	op, k := cudac.Builtin(in.Aux), in.T
	size := kindSize(k)
	agg := in.Flags&ir.FlagAggregatable != 0
	fullOnly := in.Flags&ir.FlagAggFullWarp != 0
	popc := in.Flags&ir.FlagPopcInc != 0
	acc := access{"atomic " + op.String(), pc}
	floatAdd := op == cudac.AtomicAdd && (k == cudac.Float32 || k == cudac.Float64)
	addF32 := op == cudac.AtomicAdd && k == cudac.Float32 && in.B != ir.NoReg
	isCAS := op == cudac.AtomicCAS
	canon := canonMask(k)
	return func(w *warp) stop {
		r := w.regs
		ad := addrRegs(r, a)
		// Atomics are ordered: shared ones among the block's warps, global
		// ones among all blocks.
		if st := orderPoint(w, windowOf(ad[bits.TrailingZeros32(w.mask)]) == spShared); st != run {
			return st
		}
		var val, cmp, d *[32]uint64
		if in.B != ir.NoReg {
			val = (*[32]uint64)(r[b:])
		}
		if in.C != ir.NoReg {
			cmp = (*[32]uint64)(r[c:])
		}
		if hasDst {
			d = (*[32]uint64)(r[dst:])
		}
		var group atomGroup
		var offs [32]uint64
		cache := &w.blk.ctx.caches[pc]
		fast := *cache != nil && globalOffsets(*cache, w.mask, ad, 0, size, &offs)
		uniform := fast && uniformAddr(ad, w.mask)
		// A compare-and-swap the L2 serves later compares there
		// (casserve.go): first queue it, then apply it when served.
		served, svc := false, int64(0)
		if x.casServed(isCAS, hasDst, uniform) {
			if served, svc = w.servedCAS(); !served {
				x.queueCAS(w, ad[bits.TrailingZeros32(w.mask)], agg && (!fullOnly || w.mask == 0xffffffff), k)
				return stopGlobal
			}
		}
		if uniform {
			// Every lane on one global address, the common contended
			// case: apply the lanes in order to a value held here.
			first := bits.TrailingZeros32(w.mask)
			p := unsafe.Pointer(&(*cache).Data[offs[first]])
			cur := loadBits(p, k)
			n, casFails := 0, int64(0)
			if addF32 {
				// The labs' contended case, a global float sum: the
				// lanes' adds in the L2, as atomicOp does them.
				a := math.Float32frombits(uint32(cur))
				for m := w.mask; m != 0; m &= m - 1 {
					l := bits.TrailingZeros32(m)
					if hasDst {
						d[l] = uint64(math.Float32bits(a))
					}
					a = ftz32(ftz32(a) + ftz32(math.Float32frombits(uint32(val[l]))))
					n++
				}
				cur = uint64(math.Float32bits(a))
			}
			for m := w.mask; m != 0 && !addF32; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				var v, cv uint64
				if val != nil {
					v = val[l]
				}
				if cmp != nil {
					cv = cmp[l]
				}
				if hasDst {
					d[l] = cur
				}
				if isCAS && cur&canon != cv&canon {
					casFails++
				}
				cur = atomicOp(op, k, cur, v, cv, true) & canon
				n++
			}
			w.blk.ctx.count.CASFailures += casFails
			storeBits(p, size, cur)
			group = atomGroup{space: spGlobal, n: n, k: 1}
			group.addrs[0], group.count[0] = ad[first], int64(n)
		}
		for m := w.mask; m != 0 && !uniform; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			addr := ad[l]
			var p unsafe.Pointer
			sp := spGlobal
			if fast {
				p = unsafe.Pointer(&(*cache).Data[offs[l]])
			} else if p, sp = x.resolve(w, l, addr, size, cache, acc); p == nil {
				return stopFault
			}
			old := loadBits(p, k)
			var v, cv uint64
			if val != nil {
				v = val[l]
			}
			if cmp != nil {
				cv = cmp[l]
			}
			if isCAS && old&canon != cv&canon {
				w.blk.ctx.count.CASFailures++
			}
			storeBits(p, size, atomicOp(op, k, old, v, cv, sp == spGlobal))
			if hasDst {
				d[l] = old
			}
			i := group.add(sp, addr)
			if floatAdd && sp == spShared && v&^signBit(k) == 0 {
				group.zeros[i]++
			}
			if sp == spShared {
				if rs := w.blk.race; rs != nil {
					rs.writeAtomic(x, w, l, addr-ir.SharedBase, size, pc)
				}
			}
		}
		// The compiler's guard: some aggregations need every lane active.
		aggNow := agg && (!fullOnly || w.mask == 0xffffffff)
		if popc && group.space == spShared {
			// ATOMS.POPC.INC: one increment per address, by its lane count.
			for i := 0; i < group.k; i++ {
				group.count[i] = 1
			}
		}
		var done int64
		if served {
			// Queued and counted at issue: the line serves it now.
			done = w.clock + svc
		} else {
			done = x.atom.record(x, w, &group, aggNow, hasDst, floatAdd, k)
		}
		switch {
		case group.space == spShared:
			x.queueShared(w, &group, floatAdd, popc)
		case hasDst:
			// The warp needs the old values: it waits for the L2.
			w.clock = max(w.clock, done)
		}
		return run
	}
}

// atomicOp returns the new value an atomic stores. global says the
// operation runs in the L2 (a global float add flushes subnormals there).
func atomicOp(op cudac.Builtin, k cudac.Kind, old, v, cmp uint64, global bool) uint64 {
	switch op {
	case cudac.AtomicAdd:
		switch k {
		case cudac.Float32:
			a, b := math.Float32frombits(uint32(old)), math.Float32frombits(uint32(v))
			if global {
				return uint64(math.Float32bits(ftz32(ftz32(a) + ftz32(b))))
			}
			return uint64(math.Float32bits(a + b))
		case cudac.Float64:
			return math.Float64bits(math.Float64frombits(old) + math.Float64frombits(v))
		case cudac.Int32, cudac.Uint32:
			return uint64(uint32(old + v))
		}
		return old + v
	case cudac.AtomicSub:
		if k == cudac.Int64 || k == cudac.Uint64 {
			return old - v
		}
		return uint64(uint32(old - v))
	case cudac.AtomicExch:
		return v
	case cudac.AtomicMin, cudac.AtomicMax:
		less := false
		switch k {
		case cudac.Int32:
			less = int32(uint32(v)) < int32(uint32(old))
		case cudac.Uint32:
			less = uint32(v) < uint32(old)
		case cudac.Int64:
			less = int64(v) < int64(old)
		default:
			less = v < old
		}
		if (op == cudac.AtomicMin) == less && v != old {
			return v
		}
		return old
	case cudac.AtomicInc:
		o, lim := uint32(old), uint32(v)
		if o >= lim {
			return 0
		}
		return uint64(o + 1)
	case cudac.AtomicDec:
		o, lim := uint32(old), uint32(v)
		if o == 0 || o > lim {
			return uint64(lim)
		}
		return uint64(o - 1)
	case cudac.AtomicCAS:
		if Canon(k, old) == Canon(k, cmp) {
			return v
		}
		return old
	case cudac.AtomicAnd:
		return old & v
	case cudac.AtomicOr:
		return old | v
	case cudac.AtomicXor:
		return old ^ v
	}
	return old
}

// Canon keeps the bits of a value that a kind's memory holds.
func Canon(k cudac.Kind, v uint64) uint64 {
	return v & canonMask(k)
}

// canonMask is the mask Canon applies for kind k.
func canonMask(k cudac.Kind) uint64 {
	switch kindSize(k) {
	case 1:
		return 0xff
	case 2:
		return 0xffff
	case 4:
		return 0xffff_ffff
	}
	return ^uint64(0)
}

// atomWavefronts is the shared-memory wavefronts a warp's shared atomic
// takes: one per distinct word the busiest of the 32 banks serves (lanes
// on one word share it; their order is the address queue's).
func atomWavefronts(g *atomGroup) int64 {
	var banks [32]int64
	most := int64(0)
	for i := 0; i < g.k; i++ {
		bank := (g.addrs[i] >> 2) & 31
		banks[bank]++
		most = max(most, banks[bank])
	}
	return most
}

// signBit is the sign bit of a float kind's bits (0 for the others): a
// float whose other bits are all zero is +0 or -0.
func signBit(k cudac.Kind) uint64 {
	switch k {
	case cudac.Float32:
		return 1 << 31
	case cudac.Float64:
		return 1 << 63
	}
	return 0
}

// queueShared advances a warp's clock past its shared atomics: each
// address serves its lanes one after another, at a cost per lane that
// falls with the block's warps, which contend for it together (see
// Costs): the same for the first warp's lanes as for the last's, as the
// H200 measures (calibration/evidence/2026-11-30-h200-microbench-softmax-small:
// 256 lanes on one shared float cost a flat 42 ns each at 1 to 132
// blocks). A float add's lanes hold the address at least as long as the
// SM's pipeline takes for them beside the other resident blocks' loops
// (Costs.SharedFloatPipe); popc says the instruction is an
// ATOMS.POPC.INC, which takes at least Costs.SharedPopc wavefronts.
// queue returns the service of shared address addr, a cleared one on the
// block's first atomic there.
func (b *block) queue(addr uint64) *addrQueue {
	if i, ok := b.queues[addr]; ok {
		return &b.queueStore[i]
	}
	b.queues[addr] = int32(len(b.queueStore))
	b.queueStore = append(b.queueStore, addrQueue{})
	return &b.queueStore[len(b.queueStore)-1]
}

func (x *exec) queueShared(w *warp, g *atomGroup, floatAdd, popc bool) {
	c := &x.m.Costs
	b := w.blk
	wf := float64(atomWavefronts(g))
	if popc {
		wf = max(wf, c.SharedPopc)
	}
	b.ctx.atomWavefronts += int64(math.Round(wf * 64))
	done := w.clock
	for i := 0; i < g.k; i++ {
		q := b.queue(g.addrs[i])
		hold := float64(g.count[i]) * c.SharedInt
		if floatAdd {
			hold = float64(g.count[i]) * (c.SharedFloatA + c.SharedFloatB/float64(len(b.warps))) * q.casMode(w, c)
			hold = max(hold, float64(g.count[i]-g.zeros[i])*c.SharedFloatPipe*float64(b.peers))
		}
		start := max(w.clock, q.free)
		q.free = start + int64(hold)
		done = max(done, q.free)
	}
	w.clock = done
}
