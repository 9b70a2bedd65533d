package engine

import (
	"math"
	"math/bits"
)

// The spread of a global load's latency by the line it reads
// (Costs.LoadSpread). On the H200 an uncontended load that hits the L2
// takes 259 to 342 cycles by which SM asks for which word, 17 cycles
// about its SM's mean (standard deviation), the same for the two SMs of a
// TPC (calibration/evidence/2026-11-30-h200-l2sm, lat rows): the way from an SM
// to the slice that holds the line. A block whose warps load different
// lines gets them back tens of cycles apart, and where a shared float
// queue follows the loads its mode follows that spread (queuecas.go;
// calibration/evidence/2026-11-30-h200-microbench-blockq, lab natural).
//
// Where a line goes is the device's physical address hash, which is not
// documented and differs from process to process (blockq-2: the same
// offsets of a new buffer ran in other modes). The engine draws each
// line's offset from the measured distribution instead, by a hash of the
// line's address unit and the SM's TPC: where a buffer lies picks its
// lines' latencies, as on the GPU, but the same way in every run (one
// process's placement, not the process-to-process lottery). The unit is
// 256 bytes with bit 9 of the address left out: the H200 returns lines
// that differ in address bit 7 or 9 at the same latency from every SM,
// and lines that differ in bit 8 or 10 to 14 17 to 21 cycles apart
// (calibration/evidence/2026-11-30-h200-l2line, 1,024 lines from all 132 SMs; in
// its lab rows, as in blockq's, the warps of a block split by bit 8 of
// their lines are what reach the queue apart).

// spreadUnit is the address unit whose lines share a latency: bits 8 and
// 10 up, bit 9 left out.
func spreadUnit(addr uint64) uint64 { return addr>>10<<1 | addr>>8&1 }

// planLoadSpread marks the plain global loads that take the spread and
// moves their fixed latency to the spread's least: the offsets a load
// then adds (loadSpread) are never negative, so the scheduler's lookahead
// (minLookahead), a lower bound of the fixed costs, stays one. Loads of an
// unrolled loop, whose latencies overlap (compile), keep a fixed cost, and
// so do the loads of a kernel that uses its atomics' results, which the
// scheduler orders like its atomics and serves behind their lines
// (usesAtomicResults, casserve.go): their time is the line's queue.
func (x *exec) planLoadSpread() {
	q := x.m.Costs.LoadSpread
	if len(q) < 2 || x.orderLoads || x.weak != nil {
		return
	}
	low := int64(math.Round(q[0]))
	for pc := range x.k.Code {
		in, pi := &x.k.Code[pc], &x.code[pc]
		if !globalLoad(in) || x.unrolled[pc] || pi.cost+low < x.m.Costs.ALU {
			continue
		}
		pi.cost += low
		pi.spread = true
		x.spread = true
	}
	x.spreadLow = q[0]
}

// loadSpread returns the cycles past the spread's least that warp w's
// load of the addresses ad (+off) of its active lanes takes: the most
// over the units it reads.
func (x *exec) loadSpread(w *warp, ad *[32]uint64, off uint64) int64 {
	tpc := uint64(w.blk.sm >> 1)
	var most float64
	last := ^uint64(0)
	for m := w.mask; m != 0; m &= m - 1 {
		u := spreadUnit(ad[bits.TrailingZeros32(m)] + off)
		if u == last {
			continue
		}
		last = u
		most = max(most, x.spreadOf(u, tpc))
	}
	return int64(math.Round(most))
}

// spreadOf is unit u's offset from TPC tpc above the spread's least: the
// quantile of a hashed probability.
func (x *exec) spreadOf(u, tpc uint64) float64 {
	q := x.m.Costs.LoadSpread
	h := splitmix(u*0x9e3779b97f4a7c15 ^ tpc<<52)
	p := float64(h>>11) / (1 << 53) * float64(len(q)-1)
	i := int(p)
	if i >= len(q)-1 {
		return q[len(q)-1] - x.spreadLow
	}
	return q[i] + (q[i+1]-q[i])*(p-float64(i)) - x.spreadLow
}

// spreadLoad reports whether instruction pc is a load that takes the
// spread.
func (x *exec) spreadLoad(pc int) bool { return x.spread && x.code[pc].spread }
