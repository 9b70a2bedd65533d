package engine

import "github.com/warplab/warplab/gpusim/internal/ir"

// The scoreboard (Costs.Scoreboard). A GPU does not stall a warp at a
// load: it marks the load's destination register pending and stalls the
// first instruction that reads it. The instructions in between issue while
// the load is in flight, another load among them, whose latency then
// overlaps the first's. nvcc schedules for this: each level of a block
// tree is two LDS, then the FADD that waits for both, then an STS that the
// warp does not wait for before the BAR
// (calibration/evidence/2026-11-30-h200-queue-nvrtc-vs-nvcc/sass/nvcc-reproducible.sass,
// tree_partials), so the level pays one shared latency, not three.
//
// With the scoreboard
//   - a plain load costs its issue (Costs.ALU) and its latency sets the
//     clock at which its destination is ready; an instruction that reads a
//     pending register first moves the warp's clock to that register's
//     ready time, and a warp ends when its loads have landed;
//   - a store to shared memory costs its issue;
//   - the IR's copies, constants and structure markers, which issue
//     nothing (issueWeight), cost nothing.
// Loads the scheduler orders between blocks (volatile and atomic loads,
// the loads of a kernel that uses its atomics' results), the loads of
// unrolled loops (which already overlap by Costs.Unroll, see compile) and
// every instruction under the relaxed memory model keep their whole
// latency where they stand.

// planScoreboard puts the kernel's plain loads on the scoreboard and
// records what every instruction reads. unrolled marks the instructions
// of unrolled loops.
func (x *exec) planScoreboard(unrolled []bool) {
	if !x.m.Costs.Scoreboard || x.weak != nil {
		return
	}
	onBoard := false
	for pc := range x.k.Code {
		in, pi := &x.k.Code[pc], &x.code[pc]
		pi.srcs = [3]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg}
		if x.issueW[pc] == 0 && pi.cost == x.m.Costs.ALU {
			pi.cost = 0 // nvcc emits nothing for it
			continue
		}
		if in.Op == ir.St && in.Space == ir.SpaceShared && !observed(in) {
			pi.cost = x.m.Costs.ALU // the warp does not wait for its store
			continue
		}
		if in.Op != ir.Ld || in.Dst == ir.NoReg || unrolled[pc] || observed(in) || x.orderLoads && globalLoad(in) {
			continue
		}
		if pi.cost <= x.m.Costs.ALU {
			continue // nothing to overlap
		}
		pi.lat, pi.cost = pi.cost, x.m.Costs.ALU
		onBoard = true
	}
	if !onBoard {
		return
	}
	x.scoreboard = true
	n := ir.Reg(x.k.NumRegs)
	for pc := range x.k.Code {
		in, pi := &x.k.Code[pc], &x.code[pc]
		switch in.Op {
		case ir.End, ir.Exit, ir.Trap:
			// A warp retires when its loads have landed.
			pi.all = true
			continue
		}
		if len(in.Args) > 0 {
			pi.all = true
			continue
		}
		regs := [3]ir.Reg{in.A, in.B, in.C}
		if in.Flags&ir.FlagImmB != 0 {
			regs[1] = ir.NoReg
		}
		for i, r := range regs {
			if r >= 0 && r < n {
				pi.srcs[i] = r
			}
		}
	}
}

// await moves w's clock to the time the registers p reads are ready.
func (w *warp) await(p *pcInfo) {
	if p.all {
		w.clock = max(w.clock, w.pendUntil)
		return
	}
	for _, r := range p.srcs {
		if r >= 0 {
			w.clock = max(w.clock, w.ready[r])
		}
	}
}

// issued records a scoreboard load p that w issued at its clock, writing
// dst.
func (w *warp) issued(p *pcInfo, dst ir.Reg) {
	t := w.clock + p.lat + w.loadExtra
	w.ready[dst] = t
	w.pendUntil = max(w.pendUntil, t)
}
