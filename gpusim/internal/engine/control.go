package engine

import (
	"fmt"
	"math/bits"

	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// condBits returns the active lanes whose register value is non-zero.
func condBits(w *warp, a int) uint32 {
	v := (*[32]uint64)(w.regs[a:])
	var c uint32
	if w.mask == w.launched {
		for l := range v {
			c |= uint32((v[l]|-v[l])>>63) << l
		}
		return c & w.mask
	}
	for m := w.mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if v[l] != 0 {
			c |= 1 << l
		}
	}
	return c
}

// mkCond returns a branch's condition as a function giving the lanes of the
// active mask for which it holds.
func mkCond(in *ir.Inst) func(w *warp) uint32 {
	test := mkCmpBits(in.Cmp, in.T, ri(in.A), ri(in.B), in.Imm, in.Flags&ir.FlagImmB != 0)
	if test == nil {
		panic(fmt.Sprintf("engine: no comparison %s for %s", in.Cmp, in.T))
	}
	if in.Flags&ir.FlagUniform != 0 {
		// Every active lane agrees: ask the first.
		return func(w *warp) uint32 {
			if test(w, w.mask&-w.mask) != 0 {
				return w.mask
			}
			return 0
		}
	}
	return func(w *warp) uint32 { return test(w, w.mask) }
}

func (x *exec) mkControl(in *ir.Inst) step {
	target := in.Target
	a := ri(in.A)
	aux := int(in.Aux)
	switch in.Op {
	case ir.Jmp:
		return func(w *warp) stop { w.pc = target; return run }
	case ir.If:
		pc := int32(-1)
		if in.Flags&ir.FlagBarrier != 0 {
			pc = x.pcOf(in)
		}
		cond := mkCond(in)
		return func(w *warp) stop {
			c := cond(w)
			e := &w.stack[w.sp]
			w.sp++
			e.saved, e.a, e.pc, e.side = w.mask, w.mask&^c, pc, sideThen
			if pc >= 0 {
				if c != 0 {
					w.went(pc, sideThen)
				}
				if e.a != 0 {
					w.went(pc, sideElse)
				}
			}
			w.mask = c
			if c == 0 {
				w.pc = target
			}
			return run
		}
	case ir.Else:
		return func(w *warp) stop {
			e := &w.stack[w.sp-1]
			e.side = sideElse
			w.mask = e.a
			if w.mask == 0 {
				w.pc = target
			}
			return run
		}
	case ir.EndIf, ir.EndFunc, ir.EndLoop, ir.EndSwitch:
		release := in.Op != ir.EndIf
		return func(w *warp) stop {
			w.sp--
			e := &w.stack[w.sp]
			if release {
				w.parked &^= e.a
			}
			w.mask = e.saved &^ w.parked
			if w.mask == 0 {
				w.pc = target
			}
			return run
		}
	case ir.Loop, ir.Func:
		pc := int32(-1)
		if in.Flags&ir.FlagBarrier != 0 {
			pc = x.pcOf(in)
		}
		return func(w *warp) stop {
			e := &w.stack[w.sp]
			w.sp++
			e.saved, e.a, e.b, e.pc, e.side = w.mask, 0, 0, pc, sideThen
			return run
		}
	case ir.LoopTest:
		flagged := in.Flags&ir.FlagBarrier != 0
		cond := mkCond(in)
		return func(w *warp) stop {
			if w.leaveLoop(aux, cond(w), flagged) == 0 {
				w.pc = target
			}
			return run
		}
	case ir.LoopBack:
		flagged := in.Flags&ir.FlagBarrier != 0
		var cond func(w *warp) uint32
		if in.Cmp != 0 {
			cond = mkCond(in)
		}
		return func(w *warp) stop {
			if cond != nil {
				w.leaveLoop(aux, cond(w), flagged)
			}
			if w.mask != 0 {
				w.pc = target
			}
			return run
		}
	case ir.ContJoin:
		return func(w *warp) stop {
			e := &w.stack[aux]
			if e.b != 0 {
				w.parked &^= e.b
				w.mask |= e.b
				e.b = 0
			}
			if w.mask == 0 {
				w.pc = target
			}
			return run
		}
	case ir.Break, ir.Return:
		return func(w *warp) stop {
			w.stack[aux].a |= w.mask
			w.parked |= w.mask
			w.mask = 0
			w.pc = target
			return run
		}
	case ir.Continue:
		return func(w *warp) stop {
			w.stack[aux].b |= w.mask
			w.parked |= w.mask
			w.mask = 0
			w.pc = target
			return run
		}
	case ir.Switch:
		vals := in.Vals
		return func(w *warp) stop {
			v := (*[32]uint64)(w.regs[a:])
			var dflt uint32
			for m := w.mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				hit := false
				for _, c := range vals {
					if v[l] == uint64(c) {
						hit = true
						break
					}
				}
				if !hit {
					dflt |= 1 << l
				}
			}
			e := &w.stack[w.sp]
			w.sp++
			e.saved, e.a, e.b, e.pc = w.mask, 0, dflt, -1
			w.mask = 0
			return run
		}
	case ir.Case:
		val := in.Imm
		return func(w *warp) stop {
			e := &w.stack[aux]
			v := (*[32]uint64)(w.regs[a:])
			for m := e.saved &^ w.parked; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				if v[l] == val {
					w.mask |= 1 << l
				}
			}
			if w.mask == 0 {
				w.pc = target
			}
			return run
		}
	case ir.Default:
		return func(w *warp) stop {
			w.mask |= w.stack[aux].b
			if w.mask == 0 {
				w.pc = target
			}
			return run
		}
	case ir.Exit:
		return func(w *warp) stop {
			w.exited |= w.mask
			w.parked |= w.mask
			w.mask = 0
			if w.exited == w.launched {
				return stopExit
			}
			w.pc = target
			return run
		}
	case ir.End:
		return func(w *warp) stop {
			w.exited |= w.mask
			w.mask = 0
			return stopExit
		}
	}
	panic(fmt.Sprintf("engine: %s is not a control instruction", in.Op))
}

// mkBar is __syncthreads and its counting forms. Every live thread of the
// warp must be here; the scheduler releases the block when every live warp
// has arrived at the same barrier.
func (x *exec) mkBar(in *ir.Inst) step {
	a := ri(in.A)
	hasPred := in.A != ir.NoReg
	return func(w *warp) stop {
		alive := w.launched &^ w.exited
		if w.mask != alive {
			missing := alive &^ w.mask
			l := bits.TrailingZeros32(missing)
			x.fail(w, l, driver.ErrBarrierDivergence, fmt.Sprintf(
				"__syncthreads() reached by %d of the %d running threads of warp %d; this thread (and %d others) took a branch that skips it, and the block would hang",
				bits.OnesCount32(w.mask), bits.OnesCount32(alive), w.idx, bits.OnesCount32(missing)-1))
			return stopFault
		}
		b := w.blk
		if hasPred {
			b.barCnt += int32(bits.OnesCount32(condBits(w, a)))
		}
		b.barLane += int32(bits.OnesCount32(w.mask))
		return stopBarrier
	}
}

// mkGridBar is grid_group::sync(): every live thread of the warp must be
// here, and the launch must be cooperative. The block waits until every
// block of the grid has arrived (see gridArrive).
func (x *exec) mkGridBar(in *ir.Inst) step {
	return func(w *warp) stop {
		if !x.cfg.Cooperative {
			x.fail(w, -1, driver.ErrInvalidConfig, "grid_group::sync() in a launch that is not cooperative (LaunchConfig.Cooperative)")
			return stopFault
		}
		alive := w.launched &^ w.exited
		if w.mask != alive {
			missing := alive &^ w.mask
			x.fail(w, bits.TrailingZeros32(missing), driver.ErrBarrierDivergence, fmt.Sprintf(
				"grid_group::sync() reached by %d of the %d running threads of warp %d; this thread (and %d others) took a branch that skips it, and the grid would hang",
				bits.OnesCount32(w.mask), bits.OnesCount32(alive), w.idx, bits.OnesCount32(missing)-1))
			return stopFault
		}
		return stopGridBarrier
	}
}

// leaveLoop parks the active lanes outside c in loop entry aux, as lanes
// whose loop condition failed, and returns the lanes that go on.
func (w *warp) leaveLoop(aux int, c uint32, flagged bool) uint32 {
	if leave := w.mask &^ c; leave != 0 {
		if flagged {
			w.went(w.stack[aux].pc, sideLeft)
		}
		w.stack[aux].a |= leave
		w.parked |= leave
		w.mask = c
	}
	return w.mask
}

// pcOf returns the index of an instruction of the kernel being run.
func (x *exec) pcOf(in *ir.Inst) int32 {
	for i := range x.k.Code {
		if &x.k.Code[i] == in {
			return int32(i)
		}
	}
	return -1
}

// skippedBarrier checks a warp that finished while others of its block wait
// at a barrier: if it went another way at a construct that encloses that
// barrier, it skipped the barrier while still running, which is barrier
// divergence (exiting before the barrier's construct is not).
func (x *exec) skippedBarrier(b *block, w *warp) {
	var waiting *warp
	for _, o := range b.warps {
		if o.state == atBarrier {
			waiting = o
			break
		}
	}
	if waiting == nil {
		return
	}
	for i := 0; i < waiting.sp; i++ {
		e := &waiting.stack[i]
		if e.pc < 0 {
			continue
		}
		var other side
		switch e.side {
		case sideThen:
			other = sideElse
			if x.k.Code[e.pc].Op == ir.Loop {
				other = sideLeft
			}
		case sideElse:
			other = sideThen
		}
		if w.took(e.pc)&other == 0 {
			continue
		}
		construct := "if"
		if x.k.Code[e.pc].Op == ir.Loop {
			construct = "loop"
		}
		bar := x.k.PosOf(int(b.barPC))
		x.fail(w, -1, driver.ErrBarrierDivergence, fmt.Sprintf(
			"warp %d (threads %d-%d) went the other way at the %s on line %d and finished, while warp %d waits at the __syncthreads() on line %d; every thread that has not exited must reach the same barrier",
			w.idx, w.idx*32, w.idx*32+bits.OnesCount32(w.launched)-1, construct, x.k.PosOf(int(e.pc)).Line, waiting.idx, bar.Line))
		w.blk.ctx.err.(*driver.LaunchError).Pos = bar
		return
	}
}
