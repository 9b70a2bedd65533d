package engine

import (
	"math/bits"

	"github.com/warplab/warplab/gpusim/internal/ir"
)

// Fine interleaving (Config.Fine, the spec's interleave=fine).
//
// By default a block's warps switch only where they reach something the
// others observe in order (an atomic, a volatile access, a fence, a
// barrier): the warp with the lowest clock runs until then, and plain
// shared-memory accesses in between never wait for another warp. That is
// cheap and keeps the modelled times, but it hides races between warps:
// in a privatised histogram without the barrier between zeroing the bins
// and adding to them, every warp's zeroing stores finish before the first
// warp's first shared atomic, so the counts come out exact.
//
// Under fine interleaving every plain load or store that reaches shared
// memory is a switch point too: the warp stops before it, after a seeded
// delay of up to the machine's Jitter cycles (a warp scheduler picking
// other ready warps first), and the block runs whichever warp has the
// lowest clock next. Warps of a block then drift apart by seed, as they do
// on a GPU where some wait for memory, for the issue slots of their
// sub-partition or for another block's warps, and two warps' unordered
// accesses to one shared word land in an order that changes from seed to
// seed: a race gives wrong results for some seeds, each reproducible from
// its seed. Accesses ordered by __syncthreads() or __syncwarp(), and
// atomics, stay as exact as before. The delays make the modelled time
// longer than coarse interleaving's; fine interleaving is for finding
// races, not for timing. With order=deterministic there are no delays,
// and the warps interleave by clock alone.
//
// The default path pays nothing: the wrapper is compiled in only for
// launches that ask for it.

// fineStop wraps a plain load or store's step: before an access whose
// first active lane's address is in shared memory, the warp stops once
// (stopLocal) and lets the block's other warps run first.
func (x *exec) fineStop(in *ir.Inst, inner step) step {
	if in.Flags&ir.FlagVolatile != 0 || in.Space == ir.SpaceLocal {
		// A volatile access already stops at its order point.
		return inner
	}
	a, off := ri(in.A), in.Imm
	jitter := x.cfg.Order == Seeded && x.m.Jitter > 0
	return func(w *warp) stop {
		if w.cleared {
			w.cleared = false
			return inner(w)
		}
		if windowOf(addrRegs(w.regs, a)[bits.TrailingZeros32(w.mask)]+off) != spShared {
			return inner(w)
		}
		if jitter {
			w.clock += int64(x.jitter(w))
		}
		return stopLocal
	}
}
