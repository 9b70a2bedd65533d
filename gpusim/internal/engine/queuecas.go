package engine

import (
	"math"
	"slices"
)

// A block's shared float atomicAdd is a compare-and-swap loop
// (ATOMS.CAST.SPIN): each trip loads the word, adds, and swaps if the word
// is still what it loaded. On the H200 the loop runs in one of two modes by
// when the block's warps reach it
// (calibration/evidence/2026-11-30-h200-microbench-blockq): warps that arrive
// within about 35 cycles of each other form a convoy, one success each
// 83.8 cycles however many warps; warps that arrive further apart
// interleave two successes into that interval, 43.5 cycles a lane. The
// phase model behind it: a trip fails when another success fell between
// its load and its compare (Costs.SharedCASWindow), and every warp trips
// at the convoy's interval (Costs.SharedCASConvoy), so arrivals in the
// same window of that interval stay in one convoy for good, and arrivals
// in different windows make room for a second success per interval (the
// window is over a third of the interval: there is none for a third).
//
// The two-phase rate was measured in blocks of 8 warps; blocks of 32 run
// their queues at about the convoy's rate though their warps' lines come
// back tens of cycles apart (Costs.SharedCASPhasesWarps).
//
// casMode joins a warp's arrival to the queue's busy period and returns
// the factor its lanes' cost takes: 1 in a convoy, Phases/Convoy once the
// period's arrivals spread wider than the window, when the lanes still
// queued switch too. The arrival is the warp's clock where it reached the
// atomic, before the seeded jitter there, which orders the block's warps
// but is not a time they spend.
func (q *addrQueue) casMode(w *warp, c *Costs) float64 {
	if c.SharedCASConvoy <= 0 || c.SharedCASPhasesWarps > 0 && len(w.blk.warps) > c.SharedCASPhasesWarps {
		return 1
	}
	now, at := w.clock, w.localAt
	if q.free <= now {
		// A new busy period.
		q.ref, q.nphases, q.spread = at, 0, false
	}
	fast := c.SharedCASPhases / c.SharedCASConvoy
	if !q.spread && q.nphases < len(q.phases) {
		p := math.Mod(float64(at-q.ref), c.SharedCASConvoy)
		if p < 0 {
			p += c.SharedCASConvoy
		}
		q.phases[q.nphases] = float32(p)
		q.nphases++
		if arcSpread(q.phases[:q.nphases], c.SharedCASConvoy) >= c.SharedCASWindow {
			q.spread = true
			if q.free > now {
				q.free = now + int64(float64(q.free-now)*fast)
			}
		}
	}
	if q.spread {
		return fast
	}
	return 1
}

// arcSpread is the shortest arc of a circle of circumference period that
// holds every point: the circumference less the widest gap between
// neighbours.
func arcSpread(points []float32, period float64) float64 {
	if len(points) < 2 {
		return 0
	}
	var s [32]float32
	p := s[:len(points)]
	copy(p, points)
	slices.Sort(p)
	gap := period - float64(p[len(p)-1]) + float64(p[0])
	for i := 1; i < len(p); i++ {
		gap = max(gap, float64(p[i]-p[i-1]))
	}
	return period - gap
}
