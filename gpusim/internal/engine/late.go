package engine

import (
	"math/bits"
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
// The simulator implements a subset of that. Under memory=relaxed, a
// global load whose destination the warp does not read before it reaches
// a global store is deferred: the lanes' addresses are recorded, the store
// and the straight-line code around it run, and the load reads memory only
// at the first instruction that cannot pass it (settle): one that reads or
// overwrites its register, any control flow, fence, barrier, atomic,
// shared store, another load, or a store by the same thread to the same
// address (coherence). Settling is an order point between blocks, at the
// later of that instruction and a seeded time up to the store buffer's
// delay after the load issued (the value's arrival), and first makes
// visible the other blocks' buffered stores to the load's addresses that
// are due by then. So the other thread's store, issued after its own load,
// can be what this load reads, and both loads of LB can read 1 for some
// seeds; a dependent store waits for the load, so no value comes out of
// thin air. The subset: a fence of any scope, an atomic (relaxed ones
// included) or any control flow (even a branch on a constant, such as a
// template's if (F)) ends the window here, though PTX lets relaxed atomics
// and block-scope fences between blocks show LB too.

// lateLoad is a warp's deferred load.
type lateLoad struct {
	mask  uint32 // the lanes still to read; 0 when none is pending
	dst   int    // ri(destination)
	kind  cudac.Kind
	size  uint64
	ready int64 // the earliest clock at which the value arrives
	addr  [32]uint64
	p     [32]unsafe.Pointer
}

// What a deferred load checks at an instruction (exec.lateGuard).
const (
	guardStore uint8 = 1 << iota // a store in a load's window: settle first if a lane stores to the load's address
	guardEnd                     // the end of a load's window: settle first
)

// planLate finds the loads that may be deferred: lateEnd[pc] is the
// instruction a deferred load at pc settles at, or -1 for an instruction
// that is no deferrable load.
func (x *exec) planLate() {
	code := x.k.Code
	x.lateEnd = make([]int32, len(code))
	x.lateGuard = make([]uint8, len(code))
	for pc := range code {
		x.lateEnd[pc] = -1
		in := &code[pc]
		if in.Op != ir.Ld || in.Space == ir.SpaceShared || in.Space == ir.SpaceLocal || in.Order.Acquires() || in.Dst == ir.NoReg {
			continue
		}
		stores := false
		end := pc + 1
		for ; end < len(code); end++ {
			next := &code[end]
			if !passesLoad(next, in.Dst) {
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
		for i := pc + 1; i < end; i++ {
			if code[i].Op == ir.St {
				x.lateGuard[i] |= guardStore
			}
		}
	}
}

// passesLoad reports whether instruction in may run while a load into
// register dst is pending: it neither reads nor writes dst, and it is
// straight-line arithmetic or a global store without release order.
func passesLoad(in *ir.Inst, dst ir.Reg) bool {
	if in.Dst == dst || in.A == dst || in.B == dst || in.C == dst {
		return false
	}
	for _, r := range in.Args {
		if r == dst {
			return false
		}
	}
	switch in.Op {
	case ir.Nop, ir.Mov, ir.MovI, ir.Sel, ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Rem, ir.And, ir.Or, ir.Xor,
		ir.Shl, ir.Shr, ir.Min, ir.Max, ir.Eq, ir.Ne, ir.Lt, ir.Le, ir.Gt, ir.Ge, ir.Neg, ir.Not, ir.LNot,
		ir.Abs, ir.Fma, ir.Lea, ir.Cvt, ir.Math, ir.Bits, ir.S2R, ir.GAddr:
		return true
	case ir.St:
		return in.Space != ir.SpaceShared && in.Space != ir.SpaceLocal && !in.Order.Releases()
	}
	return false
}

// deferLoad records a warp's load, whose active lanes' addresses and host
// pointers are addrs and ps, instead of reading it.
func (x *exec) deferLoad(w *warp, dst int, k cudac.Kind, size uint64, addrs *[32]uint64, ps *[32]unsafe.Pointer) {
	l := w.late
	l.mask, l.dst, l.kind, l.size = w.mask, dst, k, size
	l.addr, l.p = *addrs, *ps
	w.rng = splitmix(w.rng)
	l.ready = w.clock + int64(w.rng%(x.weak.delay+1))
}

// lateGuarded wraps the step of an instruction that a deferred load may
// have to settle before: the end of a load's window (always) or a store
// inside it (when a lane stores to the address it loads).
func (x *exec) lateGuarded(in *ir.Inst, pc int, inner step) step {
	if x.lateGuard == nil || x.lateGuard[pc] == 0 {
		return inner
	}
	end := x.lateGuard[pc]&guardEnd != 0
	a, off, size := ri(in.A), in.Imm, kindSize(in.T)
	return func(w *warp) stop {
		l := w.late
		if l.mask == 0 {
			return inner(w)
		}
		if !end && !x.lateClash(w, addrRegs(w.regs, a), off, size) {
			return inner(w)
		}
		if !w.cleared {
			w.clock = max(w.clock, l.ready)
			return stopGlobal
		}
		w.cleared = false
		x.settle(w)
		return inner(w)
	}
}

// lateClash reports whether an active lane's store overlaps what the same
// lane's deferred load reads.
func (x *exec) lateClash(w *warp, ad *[32]uint64, off, size uint64) bool {
	l := w.late
	for m := w.mask & l.mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		if overlaps(ad[i]+off, size, l.addr[i], l.size) {
			return true
		}
	}
	return false
}

// settle satisfies a warp's deferred load now: other blocks' stores to
// its addresses that are due reach memory, then each lane reads as a weak
// load does.
func (x *exec) settle(w *warp) {
	l := w.late
	now := w.clock
	for m := l.mask; m != 0; m &= m - 1 {
		x.drainOthers(w.blk, l.addr[bits.TrailingZeros32(m)], now)
	}
	x.drainDue(w.blk, now)
	d := (*[32]uint64)(w.regs[l.dst:])
	for m := l.mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = x.weakLoad(w, l.addr[i], l.size, l.p[i], l.kind)
	}
	l.mask = 0
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
