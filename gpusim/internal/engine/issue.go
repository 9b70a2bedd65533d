package engine

import (
	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// What the SMs' schedulers issue. The IR is not the GPU's machine code:
// it materialises every constant (movi), copies values between an inlined
// function's parameters and its caller (mov), and marks the structure of
// the code (loop, func, endif, ...) with instructions nvcc turns into
// nothing. And nvcc unrolls an innermost counted loop (for (j = 0; j < c;
// ++j) with a loop-invariant bound): the SASS of the queue microbenchmark's
// FMA loop (calibration/evidence) issues its compare-and-branch and its counter
// update once per unrolled body, not once per iteration. Counting the IR's
// instructions as issue slots made an FMA loop cost five slots per FMA
// where the GPU spends under two. The rules below bring the labs' hot
// loops to within a few instructions a trip of the H200's SASS: the table
// in sass_test.go (TestSASSCounts), with what is left.

// issueModel is what issueWeights models of the compiler's code.
type issueModel struct {
	// unroll and unrollALU are Costs.Unroll and Costs.UnrollALU.
	unroll, unrollALU int64
	// hoist: a loop's invariant integer arithmetic issues nothing
	// (Costs.Hoist, see hoist).
	hoist bool
	// converge is the instructions a divergent branch around memory
	// accesses in a loop issues beside its compare and branch
	// (Costs.ConvergeSlots, see brackets).
	converge float64
	// remainder is the instructions an unrolled loop with a trip count
	// known only at run time issues on entry beside its first test
	// (Costs.UnrollRemainderSlots, see brackets).
	remainder float64
	// branch is the instructions a conditional branch issues, its compare
	// and its branch (Costs.BranchSlots; 0: 1, as the IR's one).
	branch float64
	// aggregate is the instructions nvcc's warp aggregation of an
	// integer atomic whose old value the lanes use issues beside the
	// atomic (Costs.AggregateSlots; 0: none).
	aggregate float64
}

// issueWeights returns, for each instruction, the machine instructions one
// execution of it issues, and marks the instructions of the loops the
// compiler unrolls by m.unroll (unroll <= 1: none), their bottom tests
// included. The warp counters keep counting IR instructions; the weights
// feed the cost model's issue term, and in an unrolled loop the warp's
// clock too (compile, in ops.go).
func issueWeights(code []ir.Inst, m issueModel) (w []float64, unrolled []bool) {
	w = make([]float64, len(code))
	unrolled = make([]bool, len(code))
	for pc := range code {
		w[pc] = issueWeight(code[pc].Op)
		if m.branch > 0 && conditional(&code[pc]) {
			w[pc] = m.branch
		}
		if in := &code[pc]; in.Op == ir.Atom && in.Flags&ir.FlagAggregatable != 0 && in.Dst != ir.NoReg {
			w[pc] += m.aggregate
		}
	}
	if m.hoist {
		hoist(code, w)
	}
	for pc, b := range brackets(code, m) {
		w[pc] += b
	}
	unroll, unrollALU := m.unroll, m.unrollALU
	if unroll <= 1 {
		return w, unrolled
	}
	for p := range code {
		ind, ok := countedLoop(code, p)
		if !ok {
			continue
		}
		u := unroll
		if unrollALU > u && aluOnly(code[code[p].Target:p]) {
			u = unrollALU
		}
		w[p] /= float64(u)
		w[ind] /= float64(u)
		for pc := int(code[p].Target); pc <= p; pc++ {
			unrolled[pc] = true
		}
	}
	return w, unrolled
}

// issueWeight is the machine instructions one IR instruction of op issues
// outside an unrolled loop.
func issueWeight(op ir.Op) float64 {
	switch op {
	case ir.Nop, ir.Mov, ir.MovI, // constants are operands, copies coalesce
		ir.Loop, ir.EndLoop, ir.ContJoin, ir.Func, ir.EndFunc, ir.EndIf, ir.EndSwitch: // structure
		return 0
	}
	return 1
}

// conditional reports whether in is a conditional branch: the IR
// compares and branches in one instruction where the GPU issues an ISETP
// and a predicated BRA (every loop and branch of the SASS in TestSASSCounts).
func conditional(in *ir.Inst) bool {
	switch in.Op {
	case ir.If, ir.LoopTest:
		return true
	case ir.LoopBack:
		return in.Cmp != 0
	}
	return false
}

// countedLoop reports whether the instruction at p is the bottom test of a
// loop nvcc unrolls: an innermost loop (no loop inside it) whose bottom
// test compares an induction variable, stepped once in the body by a
// constant, with a constant or a
// loop-invariant bound, and whose body has no early exit and no operation
// that must stay convergent (a barrier, a shuffle, a vote, a match, a
// __syncwarp), which unrolling with a remainder would break. It returns
// the induction variable's update.
func countedLoop(code []ir.Inst, p int) (ind int, ok bool) {
	lb := &code[p]
	if lb.Op != ir.LoopBack || lb.Cmp == 0 || lb.A == ir.NoReg || int(lb.Target) > p || lb.Target < 0 {
		return 0, false
	}
	body := code[lb.Target:p]
	defs := func(r ir.Reg) (n, at int) {
		for i := range body {
			if body[i].Dst == r && r != ir.NoReg {
				n, at = n+1, i
			}
		}
		return n, at
	}
	for i := range body {
		switch body[i].Op {
		case ir.Loop, ir.LoopBack, ir.Bar, ir.SyncWarp, ir.Shfl, ir.Vote, ir.Match,
			ir.Break, ir.Continue, ir.Return, ir.Exit, ir.Jmp, ir.Printf, ir.Trap:
			return 0, false
		}
	}
	if lb.Flags&ir.FlagImmB == 0 {
		if n, _ := defs(lb.B); n > 0 {
			return 0, false // the bound changes in the loop
		}
	}
	n, at := defs(lb.A)
	if n != 1 {
		return 0, false
	}
	up := &body[at]
	if (up.Op != ir.Add && up.Op != ir.Sub) || up.A != lb.A {
		return 0, false
	}
	if up.Flags&ir.FlagImmB == 0 && !constReg(code, up.B) {
		return 0, false // a step known only at run time
	}
	return int(lb.Target) + at, true
}

// constReg reports whether every definition of r in code is a constant
// (movi): a step the compiler knows. nvcc does not unroll a loop whose
// step is a run-time value, even a loop-invariant one: the grid-stride
// loops of calibration/evidence/2026-11-30-h200-l1reuse/sass/l1reuse.sm_90.sass
// (grid_sum, i += gridDim.x * blockDim.x: one LDG a trip, the stride's
// IMAD hoisted above the loop) and of
// calibration/evidence/2026-11-30-h200-mergeburst/sass/mergeburst.sm_90.sass (the
// walk and the b += blockDim.x loops) run one iteration a trip, where the
// constant-step loops beside them (seq_sum's i++: 4 LDG a trip) are
// unrolled.
func constReg(code []ir.Inst, r ir.Reg) bool {
	if r == ir.NoReg {
		return false
	}
	n := 0
	for i := range code {
		if code[i].Dst == r {
			if code[i].Op != ir.MovI {
				return false
			}
			n++
		}
	}
	return n > 0
}

// aluOnly reports whether a loop body holds nothing but arithmetic on
// registers (no memory access, no special function): ptxas unrolls such
// a body again, to unrollALU (the queue's FMA loop, 16 FFMA a branch).
func aluOnly(body []ir.Inst) bool {
	for i := range body {
		switch body[i].Op {
		case ir.Ld, ir.St, ir.Atom, ir.Math, ir.Shfl, ir.Vote, ir.Match, ir.SyncWarp, ir.Bar, ir.Fence,
			ir.GAddr, ir.Printf, ir.Trap, ir.Clock:
			return false
		}
	}
	return true
}

// hoist sets to 0 the weight of the instructions of an innermost loop that
// nvcc computes once above it: reads of the launch's special registers
// (threadIdx, blockIdx, blockDim, gridDim) and integer arithmetic on
// them, on constants and on values the loop does not change, outside any
// branch in the body. The grid-stride loop's i += gridDim.x * blockDim.x
// is one IADD3 a trip on the H200, its IMAD above the loop
// (calibration/evidence/2026-11-30-h200-l1reuse/sass/l1reuse.sm_90.sass,
// grid_sum), where the IR reads both registers and multiplies them every
// trip.
func hoist(code []ir.Inst, w []float64) {
	for p := range code {
		lb := &code[p]
		if lb.Op != ir.LoopBack || lb.Target < 0 || int(lb.Target) > p {
			continue
		}
		lo := int(lb.Target)
		body := code[lo:p]
		innermost := true
		for i := range body {
			if body[i].Op == ir.Loop || body[i].Op == ir.LoopBack {
				innermost = false
			}
		}
		if !innermost {
			continue
		}
		inv := make([]bool, len(body))
		// invariantAt reports whether r holds, at body index i, a value the
		// loop does not change.
		invariantAt := func(r ir.Reg, i int) bool {
			if r == ir.NoReg {
				return true
			}
			for j := i - 1; j >= 0; j-- {
				if body[j].Dst == r {
					return inv[j]
				}
			}
			for j := i; j < len(body); j++ {
				if body[j].Dst == r {
					return false // carried from the previous trip
				}
			}
			return true
		}
		depth := 0
		for i := range body {
			in := &body[i]
			switch in.Op {
			case ir.If, ir.Switch:
				depth++
			case ir.EndIf, ir.EndSwitch:
				depth--
			}
			if depth != 0 || in.Dst == ir.NoReg {
				continue
			}
			switch in.Op {
			case ir.S2R:
				inv[i] = cudac.Builtin(in.Aux).IsSpecialRegister()
			case ir.Add, ir.Sub, ir.Mul, ir.And, ir.Or, ir.Xor, ir.Shl, ir.Shr, ir.Min, ir.Max, ir.Lea, ir.Cvt:
				if in.Op != ir.Lea && in.Op != ir.Cvt && !isInt(in.T) {
					continue
				}
				b := in.B
				if in.Flags&ir.FlagImmB != 0 || in.Op == ir.Cvt {
					b = ir.NoReg
				}
				inv[i] = invariantAt(in.A, i) && invariantAt(b, i)
			case ir.MovI:
				inv[i] = true
			case ir.Mov:
				inv[i] = invariantAt(in.A, i)
			}
			if inv[i] {
				w[lo+i] = 0
			}
		}
	}
}

// isInt reports whether kind k is an integer type.
func isInt(k cudac.Kind) bool {
	switch k {
	case cudac.Int32, cudac.Uint32, cudac.Int64, cudac.Uint64:
		return true
	}
	return false
}

// brackets returns, for each instruction, the machine instructions nvcc
// emits around it that the IR has no instruction for (0 for most):
//
//   - A branch that may diverge (not FlagUniform) inside a loop, around a
//     body with an atomic (which nvcc does not predicate; see bracketed), is
//     bracketed by a BSSY before it and a BSYNC where its lanes reconverge:
//     m.converge more a trip. histshape's merge loop
//     (calibration/evidence/2026-11-30-h200-microbenchmarks-gated2/sass/histshape.sm_90.sass,
//     priv_small: BSSY B0, LDS, ISETP, @!P0 BRA, REDG, BSYNC B0 a bin) is
//     9 SASS a trip for an empty bin where the IR has 7.
//   - An unrolled counted loop whose trip count is known only at run time
//     (its bound is neither a constant nor chosen among constants, which
//     nvcc specialises) enters through a remainder dispatch: the trip
//     count's tests against the unrolled body's sizes and a jump into the
//     remainder, m.remainder more each time the loop is entered, on its
//     first test (the queue lab's FMA loop, 17 SASS beside its FFMAs and
//     the bottom tests of its 16-FFMA body where the IR has one looptest:
//     calibration/evidence/2026-11-30-h200-queue-nvrtc-vs-nvcc/sass/nvrtc-lab-popThread.sass,
//     0x970 to 0xcd0).
func brackets(code []ir.Inst, m issueModel) map[int]float64 {
	out := map[int]float64{}
	if m.converge > 0 {
		depth := 0
		for pc := range code {
			switch code[pc].Op {
			case ir.Loop:
				depth++
			case ir.EndLoop:
				depth--
			case ir.If:
				if depth > 0 && code[pc].Flags&ir.FlagUniform == 0 && bracketed(code, pc) {
					out[pc] += m.converge
				}
			}
		}
	}
	if m.remainder > 0 && m.unroll > 1 {
		for p := range code {
			if _, ok := countedLoop(code, p); !ok {
				continue
			}
			lb := &code[p]
			if lb.Flags&ir.FlagImmB != 0 || knownCount(code, lb.B, 0) {
				continue
			}
			// The loop's first test: the looptest just above its body.
			for pc := int(lb.Target) - 1; pc >= 0; pc-- {
				if code[pc].Op == ir.LoopTest {
					out[pc] += m.remainder
					break
				}
				if code[pc].Op != ir.Mov && code[pc].Op != ir.MovI && code[pc].Op != ir.Nop {
					break
				}
			}
		}
	}
	return out
}

// bracketed reports whether nvcc brackets the If at pc with BSSY and
// BSYNC: its body (to its EndIf) holds an atomic, and its lanes do not
// reconverge at a warp-synchronous operation right after it (the queue
// lab's popWarp: the lane-0 pop is followed by WARPSYNC.ALL and the
// shuffle, no BSSY). Bodies without an atomic nvcc predicates: the loads
// and stores of the reproducible microbenchmark's tree levels and of
// reduce_partials' first trip (nvcc-reproducible.sass) and the heavy
// cost's constant load in popThread carry a predicate, no branch.
func bracketed(code []ir.Inst, pc int) bool {
	depth, atom := 0, false
	for i := pc; i < len(code); i++ {
		switch code[i].Op {
		case ir.If:
			depth++
		case ir.EndIf:
			if depth--; depth > 0 {
				continue
			}
			for j := i + 1; j < len(code); j++ {
				switch code[j].Op {
				case ir.Nop, ir.Mov, ir.MovI, ir.EndIf:
					continue
				case ir.Shfl, ir.Vote, ir.Match, ir.SyncWarp:
					return false
				}
				return atom
			}
			return atom
		case ir.Atom:
			atom = true
		}
	}
	return false
}

// knownCount reports whether every value r can hold is a constant: each
// of its definitions in code is a constant, a copy of such a register or a
// select between two (the fidelity queue's cost_of: 32, or 2048 or 16 by
// a hash), so that nvcc knows every trip count of a loop bounded by it.
func knownCount(code []ir.Inst, r ir.Reg, depth int) bool {
	if r == ir.NoReg || depth > 8 {
		return false
	}
	n := 0
	for i := range code {
		in := &code[i]
		if in.Dst != r {
			continue
		}
		n++
		switch in.Op {
		case ir.MovI:
		case ir.Mov:
			if !knownCount(code, in.A, depth+1) {
				return false
			}
		case ir.Sel:
			if !knownCount(code, in.A, depth+1) || !knownCount(code, in.B, depth+1) {
				return false
			}
		default:
			return false
		}
	}
	return n > 0
}
