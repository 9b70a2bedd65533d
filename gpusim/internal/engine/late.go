package engine

import (
	"math/bits"
	"slices"
	"unsafe"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// Loads satisfied late: load buffering under the relaxed memory model.
//
// PTX allows the load-buffering outcome: in
//
//	thread 1: r1 = x; y = 1        thread 2: r2 = y; x = 1
//
// with plain, volatile or relaxed accesses and no fence between a load
// and the store after it, r1 = r2 = 1 is allowed: each load may be
// satisfied after the store that follows it in program order has become
// visible. What PTX forbids is a value out of thin air: its No Thin Air
// axiom makes the union of dependencies and reads-from acyclic, so a store
// whose value, address or execution depends on the load (y = r1) cannot
// become visible before the load is satisfied. A fence.sc or fence.acq_rel
// between them (__threadfence(), at a scope that includes the other
// thread), an acquire load, a release store or a barrier orders them.
//
// Under memory=relaxed, a global load, or a relaxed device- or
// system-scope atomic read-modify-write (atomicAdd(x, 0) as a load),
// whose result the warp does not use before it reaches a global store is
// deferred: the lanes' addresses are recorded, the code after it runs,
// and the load reads memory (the atomic is performed) only at the first
// instruction that cannot pass it (settle), the atomic on the operands it
// issued with. What passes: straight-line arithmetic that does not read
// the result, a copy of the result into another register (the copies are
// written when it settles), global stores without release order, and
// a block-scope fence (__threadfence_block()). Anything else ends the
// window: a use of the result, any control flow (even a branch on a
// constant), a device- or system-scope fence, a barrier, another load or
// atomic, a shared store, a release store, and a store by the same thread
// to the address loaded (coherence).
//
// At the end of the window the warp first makes visible its block's
// buffered stores that are due by the value's arrival (a seeded time from
// the access's latency to that plus the store buffer's delay after it
// issued; the warp issues on meanwhile), then waits for it: the
// stores after the load can reach the other blocks while it is pending,
// and so can everything those blocks do in reply. Settling is an order
// point between blocks; it makes visible the other blocks' buffered
// stores to the load's addresses that are due by then and reads as a weak
// load does. So the other thread's store, issued after its own load, can
// be what this load reads, and both loads of LB can read 1 for some
// seeds, with or without a fence on the other side; a dependent store
// waits for the load, so no value comes out of thin air.
//
// A block-scope fence orders the load before the stores after it for the
// threads of the load's block only (PTX's fences synchronise only threads
// in each other's scope). Once a pending load has passed one (crossed), a
// store or atomic by any thread of the block to an address it loads
// settles it first, and so does a device- or system-scope release by any
// warp of the block (a fence, a release store or atomic), through which
// the block's later stores would become ordered for the other blocks too.
// Other blocks see the stores after the fence before the load is
// satisfied, which PTX allows between blocks.

// lateLoad is a warp's deferred load.
type lateLoad struct {
	mask  uint32 // the lanes still to read; 0 when none is pending
	atom  int32  // the pc of a deferred atomic, or -1 for a load
	kind  cudac.Kind
	size  uint64
	ready int64 // the earliest clock at which the value arrives
	// crossed: the load has passed a block-scope fence (counted in the
	// block's storeBuf.crossed).
	crossed bool
	// stalled: the warp stopped at the window's end to wait for the
	// value; a settle by another warp meanwhile clears the pass.
	stalled bool
	addr    [32]uint64
	p       [32]unsafe.Pointer
	// ops are a deferred atomic's operand registers (A, B, C) as they
	// were when it issued.
	ops [3][32]uint64
}

// What a deferred load checks at an instruction (exec.lateGuard).
const (
	guardStore uint8 = 1 << iota // a store in a load's window: settle first if it stores to the load's address
	guardEnd                     // the end of a load's window: settle first
	guardFence                   // a block-scope fence in a load's window: the load crosses it
)

// planLate finds the loads that may be deferred: lateEnd[pc] is the
// instruction a deferred load at pc settles at, or -1 for an instruction
// that is no deferrable load; lateLive[i], for i in a window, the
// registers that hold the pending result before instruction i runs.
func (x *exec) planLate() {
	code := x.k.Code
	x.lateEnd = make([]int32, len(code))
	x.lateGuard = make([]uint8, len(code))
	x.lateLive = make([][]ir.Reg, len(code))
	x.lateAtoms = make([]step, len(code))
	lives := make([][]ir.Reg, len(code))
	for pc := range code {
		x.lateEnd[pc] = -1
		in := &code[pc]
		if !deferrable(in) {
			continue
		}
		live := []ir.Reg{in.Dst}
		stores := false
		end := pc + 1
		for ; end < len(code); end++ {
			next := &code[end]
			lives[end] = live
			var ok bool
			if live, ok = passesLoad(next, live); !ok {
				break
			}
			if next.Op == ir.St {
				stores = true
			}
		}
		if !stores || end >= len(code) {
			continue
		}
		x.lateEnd[pc] = int32(end)
		x.lateAny = true
		x.lateGuard[end] |= guardEnd
		for i := pc + 1; i <= end; i++ {
			x.lateLive[i] = lives[i]
			switch code[i].Op {
			case ir.St:
				if i < end {
					x.lateGuard[i] |= guardStore
				}
			case ir.Fence:
				if i < end {
					x.lateGuard[i] |= guardFence
				}
			}
		}
	}
}

// deferrable reports whether in may be satisfied late: a global load with
// a result and without acquire order, or a relaxed atomic of device or
// system scope with a result.
func deferrable(in *ir.Inst) bool {
	if in.Dst == ir.NoReg || in.Space == ir.SpaceShared || in.Space == ir.SpaceLocal {
		return false
	}
	switch in.Op {
	case ir.Ld:
		return !in.Order.Acquires()
	case ir.Atom:
		return in.Scope.AcrossBlocks() && !in.Order.Acquires() && !in.Order.Releases()
	}
	return false
}

// passesLoad reports whether instruction in may run while a load whose
// result is meant for the registers live is pending, and which registers
// are meant for it after in: in reads none of them except to copy one
// (a Mov, which adds its destination), and is straight-line arithmetic, a
// global store without release order or a block-scope fence. Overwriting
// a live register takes it off the list.
func passesLoad(in *ir.Inst, live []ir.Reg) ([]ir.Reg, bool) {
	reads := slices.Contains(live, in.A) || slices.Contains(live, in.B) || slices.Contains(live, in.C)
	for _, r := range in.Args {
		reads = reads || slices.Contains(live, r)
	}
	switch {
	case reads && in.Op == ir.Mov:
		if !slices.Contains(live, in.Dst) {
			live = append(slices.Clip(live), in.Dst)
		}
		return live, true
	case reads:
		return live, false
	}
	switch in.Op {
	case ir.Nop, ir.Mov, ir.MovI, ir.Sel, ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Rem, ir.And, ir.Or, ir.Xor,
		ir.Shl, ir.Shr, ir.Min, ir.Max, ir.Eq, ir.Ne, ir.Lt, ir.Le, ir.Gt, ir.Ge, ir.Neg, ir.Not, ir.LNot,
		ir.Abs, ir.Fma, ir.Lea, ir.Cvt, ir.Math, ir.Bits, ir.S2R, ir.GAddr:
	case ir.St:
		if in.Space == ir.SpaceShared || in.Space == ir.SpaceLocal || in.Order.Releases() {
			return live, false
		}
	case ir.Fence:
		if in.Scope.AcrossBlocks() {
			return live, false
		}
	default:
		return live, false
	}
	if in.Dst != ir.NoReg && slices.Contains(live, in.Dst) {
		live = slices.DeleteFunc(slices.Clone(live), func(r ir.Reg) bool { return r == in.Dst })
	}
	return live, true
}

// deferLoad records a warp's load or atomic at pc (atom true), whose
// active lanes' addresses and host pointers are addrs and ps, instead of
// performing it.
func (x *exec) deferLoad(w *warp, pc int, atom bool, k cudac.Kind, size uint64, addrs *[32]uint64, ps *[32]unsafe.Pointer) {
	l := w.late
	l.mask, l.kind, l.size = w.mask, k, size
	l.atom = -1
	if atom {
		l.atom = int32(pc)
	}
	l.crossed, l.stalled = false, false
	l.addr, l.p = *addrs, *ps
	// The value arrives no sooner than the access's latency, and up to
	// the store buffer's delay later; the warp waits for it where it
	// settles, not here (it issues on, as a GPU's scoreboard lets it).
	c := x.code[pc].cost
	w.rng = splitmix(w.rng)
	l.ready = w.clock + c + int64(w.rng%(x.weak.delay+1))
	w.clock -= c - min(c, x.m.Costs.ALU)
}

// mkAtomLate is the step of a deferrable atomic (planLate): on global
// memory it records the atomic and its operands, and inner performs it
// when it settles.
func (x *exec) mkAtomLate(in *ir.Inst, pc int, inner step) step {
	a := ri(in.A)
	regs := atomOperands(in)
	k := in.T
	size := kindSize(k)
	acc := access{"atomic " + cudac.Builtin(in.Aux).String(), pc}
	x.lateAtoms[pc] = inner
	return func(w *warp) stop {
		ad := addrRegs(w.regs, a)
		cache := &w.blk.ctx.caches[pc]
		var addrs [32]uint64
		var ps [32]unsafe.Pointer
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			p, sp := x.resolve(w, l, ad[l], size, cache, acc)
			if p == nil {
				return stopFault
			}
			if sp != spGlobal {
				return inner(w)
			}
			addrs[l], ps[l] = ad[l], p
		}
		x.deferLoad(w, pc, true, k, size, &addrs, &ps)
		for i, r := range regs {
			if r != ir.NoReg {
				w.late.ops[i] = *(*[32]uint64)(w.regs[ri(r):])
			}
		}
		return run
	}
}

// atomOperands are an atomic's operand registers: its address, value and
// compare (NoReg where it has none).
func atomOperands(in *ir.Inst) [3]ir.Reg { return [3]ir.Reg{in.A, in.B, in.C} }

// lateGuarded wraps the step of an instruction that a deferred load may
// have to settle before: the end of a load's window (always), a store
// inside it (when it stores to an address the load reads), or a
// block-scope fence inside it (which the load crosses).
func (x *exec) lateGuarded(in *ir.Inst, pc int, inner step) step {
	if x.lateGuard == nil || x.lateGuard[pc] == 0 {
		return inner
	}
	guard := x.lateGuard[pc]
	a, off, size := ri(in.A), in.Imm, uint64(0)
	if guard&guardStore != 0 {
		size = kindSize(in.T)
	}
	return func(w *warp) stop {
		l := w.late
		if l.mask == 0 {
			if l.stalled {
				// Another warp settled the load while this one waited:
				// the scheduler's pass was for the settle.
				l.stalled, w.cleared = false, false
			}
			return inner(w)
		}
		switch {
		case guard&guardFence != 0:
			st := inner(w)
			if st == run && !l.crossed {
				l.crossed = true
				w.blk.wb.crossed++
			}
			return st
		case guard&guardStore != 0 && !x.lateClash(w, addrRegs(w.regs, a), off, size):
			return inner(w)
		}
		if !w.cleared {
			// The stores after the load that are due before its value
			// arrives reach the other blocks while the warp waits.
			x.drainDue(w.blk, l.ready)
			w.clock = max(w.clock, l.ready)
			l.stalled = true
			return stopGlobal
		}
		w.cleared, l.stalled = false, false
		if st := x.settle(w, pc, w.clock); st != run {
			return st
		}
		return inner(w)
	}
}

// lateClash reports whether an active lane's store of size bytes at
// ad[l]+off overlaps what warp w's deferred load reads: the same lane's
// address, or any lane's once the load has crossed a block-scope fence.
func (x *exec) lateClash(w *warp, ad *[32]uint64, off, size uint64) bool {
	l := w.late
	if l.crossed {
		return x.clashAny(w.mask, ad, off, size, l)
	}
	for m := w.mask & l.mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		if overlaps(ad[i]+off, size, l.addr[i], l.size) {
			return true
		}
	}
	return false
}

// clashAny reports whether any of the lanes in mask, accessing size bytes
// at ad[l]+off, overlaps what any lane of the deferred load l reads.
func (x *exec) clashAny(mask uint32, ad *[32]uint64, off, size uint64, l *lateLoad) bool {
	for m := mask; m != 0; m &= m - 1 {
		a := ad[bits.TrailingZeros32(m)] + off
		for n := l.mask; n != 0; n &= n - 1 {
			if overlaps(a, size, l.addr[bits.TrailingZeros32(n)], l.size) {
				return true
			}
		}
	}
	return false
}

// settleCrossed settles the deferred loads of w's block, other than w's
// own, that have crossed a block-scope fence and that w's write of size
// bytes at ad[l]+off (for its active lanes) overlaps; with ad nil, all of
// them (w makes the block's stores visible at device scope).
func (x *exec) settleCrossed(w *warp, ad *[32]uint64, off, size uint64) stop {
	wb := w.blk.wb
	if wb.crossed == 0 {
		return run
	}
	for _, o := range w.blk.warps {
		l := o.late
		if o == w || l.mask == 0 || !l.crossed {
			continue
		}
		if ad != nil && !x.clashAny(w.mask, ad, off, size, l) {
			continue
		}
		if st := x.settle(o, int(o.pc), max(o.clock, w.clock)); st != run {
			return st
		}
	}
	return run
}

// settle satisfies warp w's deferred load now, with w about to run
// instruction pc: other blocks' stores to its addresses that are due by
// now reach memory, then each lane reads as a weak load does (or the
// atomic is performed), into the registers meant for the result.
func (x *exec) settle(w *warp, pc int, now int64) stop {
	l := w.late
	for m := l.mask; m != 0; m &= m - 1 {
		x.drainOthers(w.blk, l.addr[bits.TrailingZeros32(m)], now)
	}
	x.drainDue(w.blk, now)
	if l.crossed {
		w.blk.wb.crossed--
	}
	mask := l.mask
	l.mask, l.crossed = 0, false
	var vals [32]uint64
	if l.atom >= 0 {
		if st := x.settleAtom(w, mask, int(l.atom), &vals); st != run {
			return st
		}
	} else {
		for m := mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			vals[i] = x.weakLoad(w, l.addr[i], l.size, l.p[i], l.kind)
		}
	}
	for _, r := range x.lateLive[pc] {
		d := (*[32]uint64)(w.regs[ri(r):])
		for m := mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			d[i] = vals[i]
		}
	}
	return run
}

// settleAtom performs warp w's deferred atomic at pc for the lanes in
// mask, on the operands it issued with, and returns the old values in
// vals, leaving the registers as they were (settle writes the registers
// meant for the result).
func (x *exec) settleAtom(w *warp, mask uint32, pc int, vals *[32]uint64) stop {
	in := &x.k.Code[pc]
	regs := atomOperands(in)
	var keep [3][32]uint64
	for i, r := range regs {
		if r != ir.NoReg {
			o := (*[32]uint64)(w.regs[ri(r):])
			keep[i], *o = *o, w.late.ops[i]
		}
	}
	d := (*[32]uint64)(w.regs[ri(in.Dst):])
	keepDst := *d
	saveMask, saveCleared := w.mask, w.cleared
	w.mask, w.cleared = mask, true // the deferral was the atomic's turn
	st := x.lateAtoms[pc](w)
	w.mask, w.cleared = saveMask, saveCleared
	*vals = *d
	for i, r := range regs {
		if r != ir.NoReg {
			*(*[32]uint64)(w.regs[ri(r):]) = keep[i]
		}
	}
	*d = keepDst
	return st
}

// drainOthers makes visible the stores due by t in the buffers of the
// blocks other than b that hold a store to addr.
func (x *exec) drainOthers(b *block, addr uint64, t int64) {
	owners := x.weak.owners[addr]
	if len(owners) == 0 {
		return
	}
	var others [8]*block
	list := others[:0]
	for _, o := range owners {
		if o != b {
			list = append(list, o)
		}
	}
	for _, o := range list {
		x.drainDue(o, t)
	}
}
