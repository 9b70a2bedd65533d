package engine

import (
	"math/bits"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// Scopes under the relaxed memory model.
//
// PTX makes two operations synchronise, or an atomic atomic with respect
// to another, only when they are morally strong: among other conditions,
// each one's scope must include the other's thread. A block-scope
// operation (.cta: __threadfence_block(), atomicAdd_block,
// cuda::thread_scope_block) is morally strong only with operations of its
// own block. So, between blocks:
//
//   - a block-scope fence orders nothing another block observes: it makes
//     the block's due stores visible and nothing more (weakFence);
//   - a block-scope release or acquire (an atomic, load, store or fence
//     with Inst.Order) orders nothing either, while a device- or
//     system-scope release makes the block's buffered stores visible first
//     and a device- or system-scope acquire moves the block's horizon
//     after (see weakAtom, mkLoadWeak, mkStoreWeak);
//   - block-scope atomics of different blocks on one global address are
//     not atomic with respect to each other (PTX's atomicity axiom covers
//     morally strong pairs only): updates may be lost. The model performs
//     a block-scope atomic on global memory in its block's view: it reads
//     what a load of the block may read (its own buffer first) and writes
//     the new value to the block's store buffer. Two blocks may read the
//     same old value, and the later store overwrites the other's update.
//     Within a block they stay atomic: each reads the block's last result,
//     from its buffer or from memory it has seen.
//
// A GPU's L2 performs every global atomic whatever its scope, so lost
// updates from atomicAdd_block are allowed, not promised: the model shows
// what the PTX model lets a compiler or a future GPU do.

// mkAtomNarrow is the step of an atomic whose scope does not reach other
// blocks, under the relaxed model: on global memory, a read and a
// buffered write in the block's view; on shared memory, inner (every
// thread that can reach a block's shared memory is in the block).
func (x *exec) mkAtomNarrow(in *ir.Inst, pc int, inner step) step {
	dst, a, b, c := ri(in.Dst), ri(in.A), ri(in.B), ri(in.C)
	hasDst := in.Dst != ir.NoReg
	op, k := cudac.Builtin(in.Aux), in.T
	size := kindSize(k)
	acc := access{"atomic " + op.String(), pc}
	floatAdd := op == cudac.AtomicAdd && (k == cudac.Float32 || k == cudac.Float64)
	isCAS := op == cudac.AtomicCAS
	agg := in.Flags&ir.FlagAggregatable != 0
	fullOnly := in.Flags&ir.FlagAggFullWarp != 0
	return func(w *warp) stop {
		r := w.regs
		ad := addrRegs(r, a)
		if windowOf(ad[bits.TrailingZeros32(w.mask)]) != spGlobal {
			return inner(w)
		}
		if st := orderPoint(w, false); st != run {
			return st
		}
		if st := x.settleCrossed(w, ad, 0, size); st != run {
			return st
		}
		x.drainDue(w.blk, w.clock)
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
		cache := &w.blk.ctx.caches[pc]
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			addr := ad[l]
			p, sp := x.resolve(w, l, addr, size, cache, acc)
			if p == nil {
				return stopFault
			}
			var v, cv uint64
			if val != nil {
				v = val[l]
			}
			if cmp != nil {
				cv = cmp[l]
			}
			var old uint64
			if sp == spGlobal {
				old = x.weakLoad(w, addr, size, p, k)
			} else {
				old = loadBits(p, k)
			}
			if isCAS && Canon(k, old) != Canon(k, cv) {
				w.blk.ctx.count.CASFailures++
			}
			nv := Canon(k, atomicOp(op, k, old, v, cv, sp == spGlobal))
			switch {
			case sp == spGlobal && nv != Canon(k, old):
				x.bufStore(w, addr, size, p, nv)
			case sp == spGlobal:
				// Writing back the value read changes nothing the block
				// sees; skipping it is the execution in which the write
				// lands at once.
			default:
				storeBits(p, size, nv)
			}
			if hasDst {
				d[l] = old
			}
			group.add(sp, addr)
		}
		aggNow := agg && (!fullOnly || w.mask == 0xffffffff)
		done := x.atom.record(x, w, &group, aggNow, hasDst, floatAdd, k)
		if hasDst && group.space == spGlobal {
			w.clock = max(w.clock, done)
		}
		return run
	}
}
