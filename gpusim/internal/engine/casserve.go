package engine

import (
	"math/bits"

	"github.com/warplab/warplab/cudac"
)

// Compare-and-swap served in the L2 (Costs.CASServed). A warp's atomicCAS
// on one word does not compare when the warp issues it but when the
// word's line in the L2 serves it, often long after: the line serves one
// transaction at a time (0.731 ns a lane, failing or not:
// calibration/evidence/2026-11-30-h200-cas-wait, cas_wait.csv lane), and a
// contended word's line has a queue. Warps of a CAS loop whose load comes
// microseconds after their group's first CAS still read the initial value
// (calibration/evidence/2026-11-30-h200-cas-timeline-sm-issue), and their loads
// of the word wait too, a median 11,000 to 19,000 cycles at 4096 to
// 65,536 threads per word (cas_wait.csv pct). So the engine takes such a
// CAS in two steps, both at the global scheduler in virtual-time order:
//
//   - at issue it queues the transaction at its line (the line's busy
//     time, which the throughput terms use, as for any atomic) and holds
//     the warp until the point of the queue where the line serves it;
//   - there it compares and swaps against memory as it is then, and the
//     warp has its result after the transaction and the return latency.
//
// Where in the queue the line serves the transaction: in arrival order
// while its queue holds at most Costs.CASOrdered cycles of work ahead of
// it; past that the transactions wait at their SMs, which send them on in
// no particular order, so one that arrives at a longer queue is served at
// a seeded random point of the part past CASOrdered (0: arrival order
// always). A warp's next trip then need not wait for every other warp's
// first: under arrival order alone the trips of a launch's first wave go
// in rounds, each warp failing about 62 times (what the H200 does with 8
// warps to a word, C = 256), and the failures feed the queue.
//
// A load of such a word (an ordered warp-uniform global load, see
// mkLoad) waits at its SM behind the requests to the busy line, a seeded
// random share of the line's queued work, then reads the word as the line
// has served it: a CAS still queued is not in it. Stores and the other
// atomics act at their issue. Failures follow simulated time, not the
// order in which the engine happened to run the warps.

// casServed reports whether a warp's atomic is a compare-and-swap the L2
// serves in two steps: its result used, every active lane on one global
// word, under sequential consistency.
func (x *exec) casServed(isCAS, hasDst, uniform bool) bool {
	return x.m.Costs.CASServed && isCAS && hasDst && uniform && x.weak == nil
}

// queueCAS is the first step: it queues warp w's compare-and-swap on the
// word at addr at its line and holds the warp until the line serves it.
// The caller returns stopGlobal, so the warp runs the instruction again
// when the scheduler reaches that time.
func (x *exec) queueCAS(w *warp, addr uint64, agg bool, k cudac.Kind) {
	var g atomGroup
	g.space, g.n, g.k = spGlobal, bits.OnesCount32(w.mask), 1
	g.addrs[0], g.count[0] = addr, int64(g.n)
	now := w.clock
	end := x.atom.record(x, w, &g, agg, true, false, k)
	svc := x.atom.lastIssue
	// The work queued at the line ahead of this transaction.
	ahead := max(0, end-svc-now)
	at := ahead
	if lim := x.m.Costs.CASOrdered; lim > 0 && ahead > lim {
		at = lim + int64(x.share(w)*float64(ahead-lim))
	}
	w.clock = now + at
	w.casHeld = svc
}

// servedCAS is the second step, at the time the line serves the
// transaction: it reports whether w's compare-and-swap was queued, and
// the cycles its transaction takes, clearing the hold.
func (w *warp) servedCAS() (bool, int64) {
	if w.casHeld < 0 {
		return false, 0
	}
	svc := w.casHeld
	w.casHeld = -1
	return true, svc
}

// holdLoad holds a warp's load of a contended word at addr at its SM
// while the word's line has work queued: the load waits behind the SM's
// other requests to the line for a seeded random share of that work, then
// reads the word as the line has served it. It reports whether it held
// the warp (the caller stops; the load runs when the scheduler reaches
// the new time).
func (x *exec) holdLoad(w *warp, addr uint64) bool {
	if !x.m.Costs.CASServed || x.weak != nil {
		return false
	}
	if w.loadHeld {
		w.loadHeld = false
		return false
	}
	p := x.atom.perAddr.pages[addr>>pageShift]
	if p == nil {
		return false
	}
	ahead := int64(p.lines[addr>>7&(1<<(pageShift-7)-1)].free) - w.clock
	if ahead <= 0 {
		return false
	}
	w.clock += int64(x.share(w) * float64(ahead))
	w.loadHeld = true
	return true
}

// share draws where in a queue a warp's held transaction lands, as a
// fraction in [0, 1) from w's seeded stream; 0.5, the middle, when the
// launch is not seeded.
func (x *exec) share(w *warp) float64 {
	if x.cfg.Order != Seeded {
		return 0.5
	}
	w.rng = splitmix(w.rng)
	return float64(w.rng>>11) / (1 << 53)
}
