package engine

import "github.com/warplab/warplab/gpusim/internal/ir"

// What the SMs' schedulers issue. The IR is not the GPU's machine code:
// it materialises every constant (movi), copies values between an inlined
// function's parameters and its caller (mov), and marks the structure of
// the code (loop, func, endif, ...) with instructions nvcc turns into
// nothing. And nvcc unrolls an innermost counted loop (for (j = 0; j < c;
// ++j) with a loop-invariant bound): the SASS of the queue microbenchmark's
// FMA loop (docs/evidence) issues its compare-and-branch and its counter
// update once per unrolled body, not once per iteration. Counting the IR's
// instructions as issue slots made an FMA loop cost five slots per FMA
// where the GPU spends under two.
//
// issueWeights returns, for each instruction, the machine instructions one
// execution of it issues, and marks the instructions of the loops the
// compiler unrolls by unroll (unroll <= 1: none), their bottom tests
// included. The warp counters keep counting IR instructions; the weights
// feed the cost model's issue term, and in an unrolled loop the warp's
// clock too (compile, in ops.go).
func issueWeights(code []ir.Inst, unroll, unrollALU int64) (w []float64, unrolled []bool) {
	w = make([]float64, len(code))
	unrolled = make([]bool, len(code))
	for pc := range code {
		w[pc] = issueWeight(code[pc].Op)
	}
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
// loops of docs/evidence/2026-11-30-h200-l1reuse/sass/l1reuse.sm_90.sass
// (grid_sum, i += gridDim.x * blockDim.x: one LDG a trip, the stride's
// IMAD hoisted above the loop) and of
// docs/evidence/2026-11-30-h200-mergeburst/sass/mergeburst.sm_90.sass (the
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
