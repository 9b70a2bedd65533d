package engine

import (
	"math"
	"math/bits"

	"github.com/warplab/warplab/gpusim/internal/ir"
)

// A hot line's queue takes one SM's requests only so fast: on the H200 an
// SM whose warps all wait at a work queue's head issues its atomics about
// one each 75 to 150 ns once the head's queue is long, near its share of
// the line's service, and the first 2,048 served sit on 121 to 132 SMs
// (calibration/evidence/2026-12-01-h200-prolog-warps), where a line that served
// its queue in arrival order would give an SM whose warps arrived first
// all of them. Machine.HotLineQueued bounds the atomics one SM holds
// queued at one line and not yet started: a warp whose atomic would be
// one more waits, before it reaches the line, until the earliest of them
// starts. The line's throughput is unchanged; the order it serves the
// SMs in is not. It bounds the warp-aggregated atomics (one request a
// warp to one word: a work queue's pops, a counter's adds), which is what
// those rows measured; other atomics keep their arrival order, which the
// L2's window of queued operations (Costs.L2InFlight) was fitted with
// (hotlines.csv: bounding their requests too priced the packed atomicMax
// rows at half the H200's time).

// hotKey is an L2 line (address >> 7) and an SM.
type hotKey struct {
	line uint64
	sm   int
}

// admit holds back, where the machine bounds an SM's queued atomics at a
// line (HotLineQueued), the warp of block b whose warp-aggregated global
// atomic (all its lanes on one word) the
// scheduler is about to allow at now when its SM already holds that many
// queued and not yet started at the line of the warp's first active lane:
// the warp's clock moves to when the earliest of them starts, and the
// block's event is pushed again. It reports whether it moved the warp.
// A compare-and-swap the L2 serves has its own queue (casserve.go).
func (x *exec) admit(b *block, now int64) bool {
	c := x.m.HotLineQueued
	if c <= 0 || x.hot == nil {
		return false
	}
	w := b.picked // charge's pick, when it made one
	if w == nil {
		w = b.pick()
	}
	if w == nil || w.pend != pendGlobal || w.clock > now || w.mask == 0 {
		return false
	}
	in := &x.k.Code[w.pc]
	if in.Op != ir.Atom || in.Flags&ir.FlagAggregatable == 0 || !x.chargeable(in) {
		return false
	}
	ad := addrRegs(w.regs, ri(in.A))
	addr := ad[bits.TrailingZeros32(w.mask)]
	if windowOf(addr) != spGlobal || !uniformAddr(ad, w.mask) {
		return false
	}
	starts := x.hot[hotKey{addr >> 7, b.sm}]
	n := len(starts)
	if n < c {
		return false
	}
	at := int64(math.Ceil(starts[n-c]))
	if at <= now {
		return false
	}
	w.clock = at
	b.picked = nil
	b.yieldAt = b.pick().clock
	x.push(event{t: b.yieldAt, b: b})
	return true
}

// queued records, where the machine bounds an SM's queued atomics
// (HotLineQueued), when the warp-aggregated global atomic g (agg, one
// word) that warp w just sent to the L2 starts there
// (atomStats.firstStart), if that is later than the warp's clock: a
// request that starts at once never counts as queued.
func (x *exec) queued(w *warp, g *atomGroup, agg bool) {
	c := x.m.HotLineQueued
	if c <= 0 || !agg || g.space != spGlobal || g.k != 1 {
		return
	}
	start := x.atom.firstStart
	if start <= float64(w.clock) {
		return
	}
	addr := g.addrs[0]
	if x.hot == nil {
		x.hot = map[hotKey][]float64{}
	}
	k := hotKey{addr >> 7, w.blk.sm}
	s := append(x.hot[k], start)
	if len(s) > 4*c {
		s = append(s[:0], s[len(s)-c:]...)
	}
	x.hot[k] = s
}
