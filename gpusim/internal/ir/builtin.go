package ir

import (
	"github.com/warplab/warplab/cudac"
)

// allocReg asks emit for a fresh destination register.
const allocReg Reg = -2

func (l *lowerer) args(e *cudac.BuiltinCall) []Reg {
	rs := make([]Reg, len(e.Args))
	for i, a := range e.Args {
		rs[i] = l.materialize(l.expr(a, true))
	}
	return rs
}

// builtin lowers a built-in call; want is false when its value is unused.
func (l *lowerer) builtin(e *cudac.BuiltinCall, want bool) operand {
	b := e.Builtin
	ek := cudac.Invalid
	if e.Elem != nil {
		ek = regKind(e.Elem)
		if e.Elem.Kind == cudac.Pointer {
			ek = cudac.Uint64
		}
	}
	emit := func(in Inst) operand {
		if in.Dst == allocReg {
			in.Dst = l.tmp()
		}
		l.emit(in)
		if in.Dst == NoReg {
			return immOp(0)
		}
		return regOp(in.Dst)
	}
	none := Inst{Dst: allocReg, A: NoReg, B: NoReg, C: NoReg, Aux: int32(b)}
	switch {
	case b.IsSpecialRegister():
		in := none
		in.Op, in.T = S2R, cudac.Uint32
		return emit(in)
	case b.IsAtomic():
		return l.atomic(e, want)
	}
	switch b {
	case cudac.SyncThreads:
		l.bars++
		in := none
		in.Op, in.Dst = Bar, NoReg
		return emit(in)
	case cudac.GridSync:
		// A barrier of the whole grid: Bar with Aux GridSync.
		l.bars++
		in := none
		in.Op, in.Dst = Bar, NoReg
		return emit(in)
	case cudac.SyncThreadsCount, cudac.SyncThreadsAnd, cudac.SyncThreadsOr:
		l.bars++
		in := none
		in.Op, in.T, in.A = Bar, cudac.Int32, l.args(e)[0]
		return emit(in)
	case cudac.SyncWarp:
		in := none
		in.Op, in.Dst, in.A = SyncWarp, NoReg, l.args(e)[0]
		return emit(in)
	case cudac.ThreadFence, cudac.ThreadFenceBlock, cudac.ThreadFenceSystem:
		in := none
		in.Op, in.Dst, in.Scope, in.Order = Fence, NoReg, e.Scope, e.Order
		if in.Order == cudac.OrderDefault {
			in.Order = cudac.OrderSeqCst
		}
		return emit(in)
	case cudac.ShflSync, cudac.ShflUpSync, cudac.ShflDownSync, cudac.ShflXorSync:
		a := l.args(e)
		in := none
		in.Op, in.T, in.A, in.B, in.C, in.Args = Shfl, ek, a[0], a[1], a[2], []Reg{a[3]}
		return emit(in)
	case cudac.BallotSync, cudac.AnySync, cudac.AllSync:
		a := l.args(e)
		in := none
		in.Op, in.T, in.A, in.B = Vote, cudac.Uint32, a[0], a[1]
		return emit(in)
	case cudac.ActiveMask:
		in := none
		in.Op, in.T = Vote, cudac.Uint32
		return emit(in)
	case cudac.AtomicLoad, cudac.AtomicStore:
		// cuda::atomic_ref's load and store: an Ld or St that carries its
		// scope and order, volatile (it goes to the L2, never the L1).
		addr := l.materialize(l.expr(e.Args[0], true))
		in := Inst{T: memKind(e.Elem), A: addr, B: NoReg, C: NoReg, Dst: NoReg, Space: l.spaceOf(e.Args[0]),
			Scope: e.Scope, Order: e.Order, Flags: FlagVolatile}
		if b == cudac.AtomicLoad {
			in.Op, in.Dst = Ld, l.tmp()
			l.emit(in)
			return regOp(in.Dst)
		}
		in.Op, in.B = St, l.materialize(l.expr(e.Args[1], true))
		l.emit(in)
		return immOp(0)
	case cudac.ReduceAddSync, cudac.ReduceMinSync, cudac.ReduceMaxSync, cudac.ReduceAndSync,
		cudac.ReduceOrSync, cudac.ReduceXorSync:
		a := l.args(e)
		in := none
		in.Op, in.T, in.A, in.B = Match, ek, a[0], a[1]
		return emit(in)
	case cudac.MatchAnySync:
		a := l.args(e)
		in := none
		in.Op, in.T, in.A, in.B = Match, ek, a[0], a[1]
		return emit(in)
	case cudac.MatchAllSync:
		mask := l.materialize(l.expr(e.Args[0], true))
		val := l.materialize(l.expr(e.Args[1], true))
		pred := l.tmp()
		in := none
		in.Op, in.T, in.A, in.B, in.Args = Match, ek, mask, val, []Reg{pred}
		res := emit(in)
		// Store the predicate through the third argument.
		lv := l.normalize(lval{reg: NoReg, addr: l.expr(e.Args[2], true), t: cudac.ScalarType(cudac.Int32), space: l.spaceOf(e.Args[2])})
		l.store(lv, regOp(pred), cudac.ScalarType(cudac.Int32))
		return res
	case cudac.Popc, cudac.Popcll, cudac.Ffs, cudac.Ffsll, cudac.Clz, cudac.Clzll, cudac.Brev, cudac.Brevll:
		k := cudac.Uint32
		switch b {
		case cudac.Popcll, cudac.Ffsll, cudac.Clzll, cudac.Brevll:
			k = cudac.Uint64
		}
		in := none
		in.Op, in.T, in.A = Bits, k, l.args(e)[0]
		return emit(in)
	case cudac.MathFma, cudac.FmaRn:
		a := l.args(e)
		in := none
		in.Op, in.T, in.A, in.B, in.C = Fma, ek, a[0], a[1], a[2]
		in.Aux = 0
		return emit(in)
	case cudac.FaddRn, cudac.FmulRn, cudac.FastDiv:
		op := map[cudac.Builtin]Op{cudac.FaddRn: Add, cudac.FmulRn: Mul, cudac.FastDiv: Div}[b]
		a := l.args(e)
		in := none
		in.Op, in.T, in.A, in.B, in.Aux = op, cudac.Float32, a[0], a[1], 0
		return emit(in)
	case cudac.Min, cudac.Max:
		op := Min
		if b == cudac.Max {
			op = Max
		}
		return l.binop(op, ek, l.expr(e.Args[0], true), l.expr(e.Args[1], true))
	case cudac.LlRint:
		in := none
		in.Op, in.T, in.A, in.Aux = Math, ek, l.args(e)[0], int32(cudac.MathRint)
		return l.convert(emit(in), e.Elem, cudac.ScalarType(cudac.Int64))
	case cudac.IsNaN, cudac.IsInf, cudac.IsFinite, cudac.SignBit:
		return l.classify(b, ek, l.expr(e.Args[0], true))
	case cudac.Abs:
		in := none
		in.Op, in.T, in.A, in.Aux = Abs, ek, l.args(e)[0], 0
		return emit(in)
	case cudac.FloatAsInt, cudac.FloatAsUint, cudac.IntAsFloat, cudac.UintAsFloat,
		cudac.DoubleAsLongLong, cudac.LongLongAsDouble:
		// Registers hold bits: reinterpretation is free.
		return l.expr(e.Args[0], true)
	case cudac.Ldg:
		lv := l.normalize(lval{reg: NoReg, addr: l.expr(e.Args[0], true), t: e.T, space: l.spaceOf(e.Args[0])})
		return l.load(lv)
	case cudac.Clock, cudac.Clock64:
		in := none
		in.Op, in.T = Clock, cudac.Int64
		return emit(in)
	case cudac.Trap:
		in := none
		in.Op, in.Dst = Trap, NoReg
		return emit(in)
	case cudac.Printf:
		return l.printf(e)
	}
	if b >= cudac.MathExp && b <= cudac.FastCos {
		a := l.args(e)
		in := none
		in.Op, in.T, in.A = Math, ek, a[0]
		if len(a) > 1 {
			in.B = a[1]
		}
		return emit(in)
	}
	l.failf(e.P, "the simulator does not support %s", b)
	return operand{}
}

func (l *lowerer) atomic(e *cudac.BuiltinCall, want bool) operand {
	a := make([]Reg, len(e.Args))
	one := false
	for i, arg := range e.Args {
		o := l.expr(arg, true)
		one = one || (i == 1 && o.isImm && o.imm == 1)
		a[i] = l.materialize(o)
	}
	in := Inst{Op: Atom, T: e.Elem.Kind, Aux: int32(e.Builtin), A: a[0], B: NoReg, C: NoReg, Dst: NoReg,
		Space: l.spaceOf(e.Args[0]), Scope: e.Scope, Order: e.Order}
	if len(a) > 1 {
		in.B = a[1]
	}
	if e.Builtin == cudac.AtomicCAS {
		in.B, in.C = a[2], a[1] // B the new value, C the compare value
	}
	if want {
		in.Dst = l.tmp()
	}
	in.Flags |= l.aggregation(e, want)
	if one && !want && e.Builtin == cudac.AtomicAdd && e.Elem.IsInteger() && e.Elem.Size() == 4 {
		// A shared atomicAdd(p, 1) whose result is unused is nvcc's
		// ATOMS.POPC.INC.32: each address is incremented once by the number
		// of lanes on it (calibration/evidence/2026-11-29-h200-microbenchmarks,
		// sass_atomics.txt shared_kernel<2, *>; atomics_shared.csv: 256
		// threads adding 1u to one shared address, u32_atomic_one one_rt,
		// 0.014 ms, as fast as to 256 addresses, where u32_atomic_lane one_rt,
		// adding a per-lane value, takes 0.271). The engine applies it so to
		// shared memory only; a global one is a per-lane REDG.
		in.Flags |= FlagPopcInc
	}
	l.emit(in)
	if in.Dst == NoReg {
		return immOp(0)
	}
	return regOp(in.Dst)
}

// aggregation returns the flags of nvcc's warp aggregation of an atomic,
// as CUDA 13.0 applies it on sm_75 and sm_90 (read in the SASS of
// calibration/evidence/2026-11-30-h200-nvcc-atomics-sass.txt): the address must be one the
// compiler proves uniform across the warp, the type an integer, and
//
//   - an add or sub becomes one atomic per warp whether or not its result is
//     used: with a lane-invariant value, a vote, a popc and, when the result
//     is used, a shuffle of the leader's old value plus each lane's rank;
//     with a per-lane value and the result used, a shuffle prefix sum that
//     the compiler guards with a full-warp test (FlagAggFullWarp), falling
//     back to one atomic per lane;
//   - an and, or, xor, min or max whose result is unused becomes a warp
//     reduction (REDUX on sm_80 and later) and one atomic per warp.
//
// atomicInc, atomicDec, atomicExch and atomicCAS are never aggregated, and
// neither is any atomic whose address depends on the lane's data.
func (l *lowerer) aggregation(e *cudac.BuiltinCall, want bool) Flags {
	if e.Order != cudac.OrderDefault && e.Order != cudac.OrderRelaxed {
		return 0 // an ordered atomic (cuda::atomic_ref's) is kept as it is
	}
	if !e.Elem.IsInteger() || !l.uni.expr(e.Args[0]) {
		return 0
	}
	switch e.Builtin {
	case cudac.AtomicAdd, cudac.AtomicSub:
		if want && !l.uni.expr(e.Args[1]) {
			return FlagAggregatable | FlagAggFullWarp
		}
		return FlagAggregatable
	case cudac.AtomicAnd, cudac.AtomicOr, cudac.AtomicXor, cudac.AtomicMin, cudac.AtomicMax:
		if !want {
			return FlagAggregatable
		}
	}
	return 0
}

func (l *lowerer) printf(e *cudac.BuiltinCall) operand {
	f := Format{Text: e.Args[0].(*cudac.StringLit).Value}
	var regs []Reg
	for _, a := range e.Args[1:] {
		regs = append(regs, l.materialize(l.expr(a, true)))
		k := a.Type().Kind
		f.Kinds = append(f.Kinds, k)
	}
	l.k.Formats = append(l.k.Formats, f)
	r := l.tmp()
	l.emit(Inst{Op: Printf, Dst: r, A: NoReg, B: NoReg, C: NoReg, Aux: int32(len(l.k.Formats) - 1), Args: regs})
	return regOp(r)
}

// classify lowers isnan, isinf, isfinite and signbit of x (a float or a
// double, k) to integer operations on its bits, which is what they are:
// exact for NaNs of either sign, both zeros and subnormals, and never
// raising anything.
func (l *lowerer) classify(b cudac.Builtin, k cudac.Kind, x operand) operand {
	t, sign, exp := cudac.Uint32, uint64(31), uint64(0x7f800000)
	if k == cudac.Float64 {
		t, sign, exp = cudac.Uint64, 63, 0x7ff0000000000000
	}
	magnitude := l.binop(And, t, x, immOp(1<<sign-1))
	switch b {
	case cudac.IsNaN:
		return l.binop(Gt, t, magnitude, immOp(exp))
	case cudac.IsInf:
		return l.binop(Eq, t, magnitude, immOp(exp))
	case cudac.IsFinite:
		return l.binop(Lt, t, magnitude, immOp(exp))
	}
	return l.binop(Shr, t, x, immOp(sign))
}
