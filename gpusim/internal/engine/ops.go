package engine

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// compile turns the kernel's instructions into closures bound to this launch.
func (x *exec) compile() error {
	x.code = make([]pcInfo, len(x.k.Code))
	for pc := range x.k.Code {
		in := &x.k.Code[pc]
		fn, err := x.mkStep(in, pc)
		if err != nil {
			return err
		}
		if x.weak != nil {
			// Outermost: a deferred load settles before anything else.
			fn = x.lateGuarded(in, pc, fn)
		}
		x.code[pc] = pcInfo{fn: fn, cost: x.costOf(in), dst: in.Dst}
	}
	// In a loop nvcc unrolls, the global loads of the unrolled
	// iterations are in flight together (each waits for the first's
	// latency, not its own), and the warp spends on the loop's control
	// and constants only what they issue. A register-only body ptxas
	// unrolls again (UnrollALU) issues its control less often still, but
	// the warp's clock keeps Unroll's charges: the ALU latency was
	// calibrated with them.
	c := &x.m.Costs
	im := issueModel{unroll: c.Unroll, unrollALU: c.UnrollALU, hoist: c.Hoist, converge: c.ConvergeSlots,
		remainder: c.UnrollRemainderSlots, branch: c.BranchSlots, aggregate: c.AggregateSlots}
	x.issueW, _ = issueWeights(x.k.Code, im)
	for pc := range x.code {
		x.code[pc].issue = x.issueW[pc]
	}
	// What nvcc emits around a branch or a loop's entry that the IR has no
	// instruction for (issue.go, brackets) the warp issues in its own
	// stream: ALU cycles each, as every instruction it issues.
	for pc, b := range brackets(x.k.Code, im) {
		x.code[pc].cost += int64(math.Round(b * float64(c.ALU)))
	}
	var clockW []float64
	im.unrollALU, im.branch = 0, 0 // the ALU latency was calibrated with one IR instruction a branch
	clockW, x.unrolled = issueWeights(x.k.Code, im)
	for pc, in := range x.unrolled {
		if !in {
			continue
		}
		c, pi := &x.k.Code[pc], &x.code[pc]
		switch {
		case c.Op == ir.Ld && c.Space != ir.SpaceShared && c.Space != ir.SpaceLocal:
			pi.cost = max(x.m.Costs.ALU, pi.cost/x.m.Costs.Unroll)
		case pi.cost == x.m.Costs.ALU:
			pi.cost = int64(math.Round(float64(x.m.Costs.ALU) * clockW[pc]))
		}
	}
	return nil
}

func ri(r ir.Reg) int { return int(r) * 32 }

func (x *exec) mkStep(in *ir.Inst, pc int) (step, error) {
	dst, a, b, c := ri(in.Dst), ri(in.A), ri(in.B), ri(in.C)
	switch in.Op {
	case ir.Nop:
		return func(*warp) stop { return run }, nil
	case ir.Mov:
		return func(w *warp) stop {
			r := w.regs
			d, s := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[a:])
			if w.mask == w.launched {
				*d = *s
			} else {
				for m := w.mask; m != 0; m &= m - 1 {
					l := bits.TrailingZeros32(m)
					d[l] = s[l]
				}
			}
			return run
		}, nil
	case ir.MovI:
		v := in.Imm
		return func(w *warp) stop {
			d := (*[32]uint64)(w.regs[dst:])
			if w.mask == w.launched {
				for l := range d {
					d[l] = v
				}
			} else {
				for m := w.mask; m != 0; m &= m - 1 {
					d[bits.TrailingZeros32(m)] = v
				}
			}
			return run
		}, nil
	case ir.Sel:
		return func(w *warp) stop {
			r := w.regs
			d, p, q, s := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[a:]), (*[32]uint64)(r[b:]), (*[32]uint64)(r[c:])
			for m := w.mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				if s[l] != 0 {
					d[l] = p[l]
				} else {
					d[l] = q[l]
				}
			}
			return run
		}, nil
	case ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Rem, ir.And, ir.Or, ir.Xor, ir.Shl, ir.Shr, ir.Min, ir.Max,
		ir.Eq, ir.Ne, ir.Lt, ir.Le, ir.Gt, ir.Ge:
		if fn := mkBinary(in.Op, in.T, dst, a, b, in.Imm, in.Flags&ir.FlagImmB != 0); fn != nil {
			return fn, nil
		}
	case ir.Neg, ir.Not, ir.Abs:
		if fn := mkUnary(in.Op, in.T, dst, a); fn != nil {
			return fn, nil
		}
	case ir.LNot:
		return func(w *warp) stop {
			r := w.regs
			d, s := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[a:])
			for m := w.mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				d[l] = b2u(s[l] == 0)
			}
			return run
		}, nil
	case ir.Fma:
		return mkFma(in.T, dst, a, b, c), nil
	case ir.Lea:
		scale := int64(in.Imm)
		if in.A == ir.NoReg {
			return func(w *warp) stop {
				r := w.regs
				d, i := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[b:])
				if w.mask == w.launched {
					for l := range d {
						d[l] = uint64(int64(i[l]) * scale)
					}
				} else {
					for m := w.mask; m != 0; m &= m - 1 {
						l := bits.TrailingZeros32(m)
						d[l] = uint64(int64(i[l]) * scale)
					}
				}
				return run
			}, nil
		}
		return func(w *warp) stop {
			r := w.regs
			d, p, i := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[a:]), (*[32]uint64)(r[b:])
			if w.mask == w.launched {
				for l := range d {
					d[l] = p[l] + uint64(int64(i[l])*scale)
				}
			} else {
				for m := w.mask; m != 0; m &= m - 1 {
					l := bits.TrailingZeros32(m)
					d[l] = p[l] + uint64(int64(i[l])*scale)
				}
			}
			return run
		}, nil
	case ir.Cvt:
		if fn := mkCvt(in.T, in.T2, dst, a); fn != nil {
			return fn, nil
		}
		to, from := in.T, in.T2
		return func(w *warp) stop {
			r := w.regs
			d, s := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[a:])
			for m := w.mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				d[l] = ir.ConvertBits(to, from, s[l])
			}
			return run
		}, nil
	case ir.Math:
		return mkMath(cudac.Builtin(in.Aux), in.T, dst, a, b)
	case ir.Bits:
		return mkBits(cudac.Builtin(in.Aux), dst, a), nil
	case ir.S2R:
		return x.mkS2R(in.Aux, dst), nil
	case ir.GAddr:
		if int(in.Aux) >= len(x.cfg.Globals) {
			return nil, fmt.Errorf("gpusim: kernel %s uses a module variable that was not placed", x.k.Name)
		}
		v := x.cfg.Globals[in.Aux] + in.Imm
		return func(w *warp) stop {
			d := (*[32]uint64)(w.regs[dst:])
			for m := w.mask; m != 0; m &= m - 1 {
				d[bits.TrailingZeros32(m)] = v
			}
			return run
		}, nil
	case ir.Ld, ir.St:
		var fn step
		switch {
		case in.Op == ir.Ld && x.weak != nil:
			fn = x.mkLoadWeak(in, pc)
		case in.Op == ir.Ld:
			fn = x.mkLoad(in, pc)
		case x.weak != nil:
			fn = x.mkStoreWeak(in, pc)
		default:
			fn = x.mkStore(in, pc)
		}
		fn = x.alignChecked(in, pc, fn)
		if x.cfg.Fine {
			fn = x.fineStop(in, fn)
		}
		return fn, nil
	case ir.Atom:
		if x.weak != nil {
			fn := x.weakAtom(in, x.mkAtom(in, pc))
			switch {
			case !in.Scope.AcrossBlocks():
				fn = x.mkAtomNarrow(in, pc, fn)
			case x.lateEnd[pc] >= 0:
				// Satisfied late (late.go).
				fn = x.mkAtomLate(in, pc, fn)
			}
			return fn, nil
		}
		return x.mkAtom(in, pc), nil
	case ir.Shfl:
		return x.mkShfl(in, pc), nil
	case ir.Vote:
		return x.mkVote(in, pc), nil
	case ir.Match:
		if m := cudac.Builtin(in.Aux); m != cudac.MatchAnySync && m != cudac.MatchAllSync {
			return x.mkReduce(in, pc), nil
		}
		return x.mkMatch(in, pc), nil
	case ir.SyncWarp:
		return x.mkSyncWarp(in, pc), nil
	case ir.Bar:
		if in.Aux == int32(cudac.GridSync) {
			return x.mkGridBar(in), nil
		}
		return x.mkBar(in), nil
	case ir.Fence:
		scope, order := in.Scope, in.Order
		return func(w *warp) stop {
			if !w.cleared {
				return stopGlobal
			}
			w.cleared = false
			w.blk.ctx.count.Fences++
			if x.weak != nil {
				x.weakFence(w, scope, order)
			}
			return run
		}, nil
	case ir.Printf:
		return x.mkPrintf(in), nil
	case ir.Trap:
		return func(w *warp) stop {
			x.fail(w, bits.TrailingZeros32(w.mask), driver.ErrTrap, "__trap() called")
			return stopFault
		}, nil
	case ir.Clock:
		return func(w *warp) stop {
			d := (*[32]uint64)(w.regs[dst:])
			for m := w.mask; m != 0; m &= m - 1 {
				d[bits.TrailingZeros32(m)] = uint64(w.clock)
			}
			return run
		}, nil
	default:
		if in.Op.IsControl() {
			return x.mkControl(in), nil
		}
	}
	return nil, fmt.Errorf("gpusim: kernel %s: %s: cannot execute %s", x.k.Name, x.k.PosOf(pc), in)
}

func mkFma(k cudac.Kind, dst, a, b, c int) step {
	if k == cudac.Float64 {
		return func(w *warp) stop {
			r := w.regs
			d, p, q, s := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[a:]), (*[32]uint64)(r[b:]), (*[32]uint64)(r[c:])
			for m := w.mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				d[l] = math.Float64bits(math.FMA(math.Float64frombits(p[l]), math.Float64frombits(q[l]), math.Float64frombits(s[l])))
			}
			return run
		}
	}
	return func(w *warp) stop {
		r := w.regs
		d, p, q, s := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[a:]), (*[32]uint64)(r[b:]), (*[32]uint64)(r[c:])
		if w.mask == w.launched {
			for l := range d {
				d[l] = uint64(math.Float32bits(fma32(math.Float32frombits(uint32(p[l])),
					math.Float32frombits(uint32(q[l])), math.Float32frombits(uint32(s[l])))))
			}
			return run
		}
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			d[l] = uint64(math.Float32bits(fma32(math.Float32frombits(uint32(p[l])),
				math.Float32frombits(uint32(q[l])), math.Float32frombits(uint32(s[l])))))
		}
		return run
	}
}

// costOf is the instruction's contribution to its warp's virtual clock.
func (x *exec) costOf(in *ir.Inst) int64 {
	c := x.m.Costs
	switch in.Op {
	case ir.Ld, ir.St:
		switch in.Space {
		case ir.SpaceShared:
			return c.Shared
		case ir.SpaceLocal:
			return c.Local
		}
		if in.Op == ir.St {
			return c.Store
		}
		return c.Global
	case ir.Atom:
		switch {
		case in.Space == ir.SpaceShared:
			return c.Shared // the queue adds the service time
		case in.Dst == ir.NoReg:
			return c.Store // a reduction: the warp does not wait for it
		}
		return c.Atomic
	case ir.Math:
		return c.SFU
	case ir.Bar:
		return c.Barrier
	}
	return c.ALU
}

// classOf picks the instruction-mix counter an instruction belongs to.
func classOf(m *driver.InstrMix, in *ir.Inst) *int64 {
	switch in.Op {
	case ir.Ld, ir.St:
		return &m.Memory
	case ir.Atom:
		return &m.Atomic
	case ir.Shfl, ir.Vote, ir.Match:
		return &m.Warp
	case ir.Bar, ir.Fence, ir.SyncWarp:
		return &m.Sync
	case ir.Cvt:
		return &m.Convert
	case ir.Math:
		return &m.SFU
	case ir.Printf, ir.Trap, ir.Clock:
		return &m.Control
	}
	if in.Op.IsControl() {
		return &m.Control
	}
	switch in.T {
	case cudac.Float32:
		return &m.FP32
	case cudac.Float64:
		return &m.FP64
	}
	return &m.Int
}

func (x *exec) mkS2R(which int32, dst int) step {
	blockDim := x.cfg.Block
	oneD := blockDim.Y == 1 && blockDim.Z == 1
	return func(w *warp) stop {
		d := (*[32]uint64)(w.regs[dst:])
		b := w.blk
		var v uint64
		switch which {
		case int32(cudac.ThreadIdxX):
			base := w.idx * 32
			if oneD && w.mask == allLanes {
				for l := range d {
					d[l] = uint64(base + l)
				}
				return run
			}
			if oneD {
				for m := w.mask; m != 0; m &= m - 1 {
					l := bits.TrailingZeros32(m)
					d[l] = uint64(base + l)
				}
				return run
			}
			for m := w.mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				d[l] = uint64((base + l) % blockDim.X)
			}
			return run
		case int32(cudac.ThreadIdxY), int32(cudac.ThreadIdxZ):
			for m := w.mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				t := w.thread(l)
				if which == int32(cudac.ThreadIdxY) {
					d[l] = uint64(t.Y)
				} else {
					d[l] = uint64(t.Z)
				}
			}
			return run
		case int32(cudac.BlockIdxX):
			v = uint64(b.id.X)
		case int32(cudac.BlockIdxY):
			v = uint64(b.id.Y)
		case int32(cudac.BlockIdxZ):
			v = uint64(b.id.Z)
		case int32(cudac.BlockDimX):
			v = uint64(blockDim.X)
		case int32(cudac.BlockDimY):
			v = uint64(blockDim.Y)
		case int32(cudac.BlockDimZ):
			v = uint64(blockDim.Z)
		case int32(cudac.GridDimX):
			v = uint64(x.cfg.Grid.X)
		case int32(cudac.GridDimY):
			v = uint64(x.cfg.Grid.Y)
		case int32(cudac.GridDimZ):
			v = uint64(x.cfg.Grid.Z)
		}
		if w.mask == allLanes {
			for l := range d {
				d[l] = v
			}
			return run
		}
		for m := w.mask; m != 0; m &= m - 1 {
			d[bits.TrailingZeros32(m)] = v
		}
		return run
	}
}

func mkBits(op cudac.Builtin, dst, a int) step {
	var f func(uint64) uint64
	switch op {
	case cudac.Popc:
		f = func(v uint64) uint64 { return uint64(bits.OnesCount32(uint32(v))) }
	case cudac.Popcll:
		f = func(v uint64) uint64 { return uint64(bits.OnesCount64(v)) }
	case cudac.Clz:
		f = func(v uint64) uint64 { return uint64(bits.LeadingZeros32(uint32(v))) }
	case cudac.Clzll:
		f = func(v uint64) uint64 { return uint64(bits.LeadingZeros64(v)) }
	case cudac.Ffs:
		f = func(v uint64) uint64 {
			if uint32(v) == 0 {
				return 0
			}
			return uint64(bits.TrailingZeros32(uint32(v)) + 1)
		}
	case cudac.Ffsll:
		f = func(v uint64) uint64 {
			if v == 0 {
				return 0
			}
			return uint64(bits.TrailingZeros64(v) + 1)
		}
	case cudac.Brev:
		f = func(v uint64) uint64 { return uint64(bits.Reverse32(uint32(v))) }
	default: // Brevll
		f = bits.Reverse64
	}
	return func(w *warp) stop {
		r := w.regs
		d, s := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[a:])
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			d[l] = f(s[l])
		}
		return run
	}
}

// mkMath evaluates float functions in float64 and rounds, which is within
// the CUDA library's documented error (at most 2 ulp for most float
// functions) though not always bit-identical to it.
func mkMath(fn cudac.Builtin, k cudac.Kind, dst, a, b int) (step, error) {
	var f1 func(float64) float64
	var f2 func(float64, float64) float64
	switch fn {
	case cudac.MathExp:
		f1 = math.Exp
	case cudac.MathExp2:
		f1 = math.Exp2
	case cudac.MathLog:
		f1 = math.Log
	case cudac.MathLog2:
		f1 = math.Log2
	case cudac.MathLog10:
		f1 = math.Log10
	case cudac.MathSqrt:
		f1 = math.Sqrt
	case cudac.MathRsqrt:
		f1 = func(v float64) float64 { return 1 / math.Sqrt(v) }
	case cudac.MathFabs:
		f1 = math.Abs
	case cudac.MathFloor:
		f1 = math.Floor
	case cudac.MathCeil:
		f1 = math.Ceil
	case cudac.MathRound:
		f1 = math.Round
	case cudac.MathRint:
		f1 = math.RoundToEven
	case cudac.MathTrunc:
		f1 = math.Trunc
	case cudac.MathSin, cudac.FastSin:
		f1 = math.Sin
	case cudac.MathCos, cudac.FastCos:
		f1 = math.Cos
	case cudac.MathTan:
		f1 = math.Tan
	case cudac.MathTanh:
		f1 = math.Tanh
	case cudac.FastExp:
		// __expf is ex2.approx of x*log2(e) rounded to float.
		f1 = func(v float64) float64 { return math.Exp2(float64(float32(v * math.Log2E))) }
	case cudac.FastLog:
		f1 = func(v float64) float64 { return float64(float32(math.Log2(v))) * math.Ln2 }
	case cudac.MathPow, cudac.FastPow:
		f2 = math.Pow
	case cudac.MathFmin:
		f2 = fminF64
	case cudac.MathFmax:
		f2 = fmaxF64
	case cudac.MathFmod:
		f2 = math.Mod
	default:
		return nil, fmt.Errorf("gpusim: unsupported math function %s", fn)
	}
	dec := func(v uint64) float64 { return math.Float64frombits(v) }
	enc := math.Float64bits
	if k == cudac.Float32 {
		dec = func(v uint64) float64 { return float64(math.Float32frombits(uint32(v))) }
		enc = func(f float64) uint64 { return uint64(math.Float32bits(float32(f))) }
	}
	if f2 != nil {
		return func(w *warp) stop {
			r := w.regs
			d, p, q := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[a:]), (*[32]uint64)(r[b:])
			for m := w.mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				d[l] = enc(f2(dec(p[l]), dec(q[l])))
			}
			return run
		}, nil
	}
	return func(w *warp) stop {
		r := w.regs
		d, p := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[a:])
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			d[l] = enc(f1(dec(p[l])))
		}
		return run
	}, nil
}
