package engine

import (
	"math"
	"slices"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
)

// atomGroup collects one atomic instruction's lanes by address.
type atomGroup struct {
	space uint8
	n     int
	addrs [32]uint64
	count [32]int64
	// zeros counts, per address, the lanes of a float add that add zero.
	zeros [32]int64
	k     int // distinct addresses
}

// add counts a lane's operation on addr and returns the address's index
// in the group.
func (g *atomGroup) add(sp uint8, addr uint64) int {
	if g.n == 0 {
		g.space = sp
	}
	g.n++
	for i := 0; i < g.k; i++ {
		if g.addrs[i] == addr {
			g.count[i]++
			return i
		}
	}
	g.addrs[g.k] = addr
	g.count[g.k] = 1
	g.k++
	return g.k - 1
}

// atomStats accumulates the launch's atomic traffic.
type atomStats struct {
	perAddr addrCounts // operations issued per address, and the lines by page
	nlines  int64      // lines that received atomics
	drained int64      // the last cycle any line is busy
	// The current window of virtual time (see L2Profile.Windows) and the
	// windows before it.
	win     int64
	ops     int64 // operations in the current window (Costs.L2InFlight)
	cur     L2Window
	windows []L2Window
	// chains holds, by line, the SM cycle each 32-byte sector's last
	// operation completes: a later operation on the sector depends on its
	// result. Only lines that received a float add have one: an integer
	// operation's chain never outlasts its issue, so it never delays the
	// next transaction, and the lines of an integer launch need none.
	chains map[uint64]*[4]float64
	// lastIssue is the cycles the last transaction l2 queued takes from
	// its start to its end.
	lastIssue int64
}

// lineState is one L2 line's share of the launch's global atomics.
type lineState struct {
	used bool // the line has received atomics
	// chained: the line has received a float add, whose sector chains
	// (atomStats.chains) later transactions must wait for.
	chained bool
	// win is the last window (plus one, truncated) in which the line was hot.
	win    int32
	ops    int64   // operations issued
	busyNs float64 // time the line's atomic unit is held, stalls included
	// free is the SM cycle its queue can start the next transaction, kept
	// in fractions of a cycle: an operation shorter than a cycle (an
	// integer add on the H200, 1.45 cycles) would otherwise be rounded up
	// at every step of a long chain.
	free float64
}

func (s *atomStats) init() {
	s.perAddr.init()
	s.nlines = 0
	s.win, s.cur, s.windows, s.ops = 0, L2Window{}, nil, 0
	s.chains = nil
}

// window counts a transaction of ops operations on line ls, arriving at
// cycle now, in the current window of arrivals (its lines, and its first
// and last arrival, when its work reached the L2), first closing that window
// when it is full: when it holds Costs.L2InFlight operations, or where
// that is 0, when now is past its Costs.Global cycles of virtual time (a
// transaction that arrives out of order counts in the current one).
func (s *atomStats) window(x *exec, now, ops int64, ls *lineState) {
	if n := x.m.Costs.L2InFlight; n > 0 {
		// The window is the operations the L2 holds queued at once: it
		// closes once n of them have arrived, in arrival order.
		if s.ops >= n {
			s.windows = append(s.windows, s.cur)
			s.win, s.cur, s.ops = s.win+1, L2Window{}, 0
		}
		s.ops += ops
	} else if w := now / max(1, x.m.Costs.Global); w > s.win {
		if s.cur.Lines > 0 {
			s.windows = append(s.windows, s.cur)
		}
		s.win, s.cur = w, L2Window{}
	}
	if s.cur.Lines == 0 {
		s.cur.First, s.cur.Last = now, now
	}
	s.cur.First, s.cur.Last = min(s.cur.First, now), max(s.cur.Last, now)
	if w := int32(s.win + 1); ls.win != w {
		ls.win = w
		s.cur.Lines++
	}
}

// line returns the state of the L2 line that holds addr, adding it on first use.
func (s *atomStats) line(addr uint64) *lineState {
	ls := &s.perAddr.page(addr).lines[addr>>7&(1<<(pageShift-7)-1)]
	if !ls.used {
		ls.used = true
		s.nlines++
	}
	return ls
}

// eachLine calls f for every line that received atomics, in address
// order, so that sums over them do not depend on a map's order.
func (s *atomStats) eachLine(f func(*lineState)) {
	keys := make([]uint64, 0, len(s.perAddr.pages))
	for k := range s.perAddr.pages {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := s.perAddr.pages[k]
		for i := range p.lines {
			if p.lines[i].used {
				f(&p.lines[i])
			}
		}
	}
}

// record counts one atomic instruction and returns the SM cycle at which
// its global transactions complete (0 for shared atomics). agg says the
// compiler aggregates it per warp when its address is uniform (see the
// ir package's compiler model), used that the lanes use the old value it
// returns, floatAdd that it is a float or double add.
func (s *atomStats) record(x *exec, w *warp, g *atomGroup, agg, used, floatAdd bool, k cudac.Kind) int64 {
	if g.n == 0 {
		return 0
	}
	var done int64
	if g.space == spGlobal {
		done = s.l2(x, w.clock, g, agg && g.k == 1, k, floatAdd)
	}
	c := &w.blk.ctx.count
	switch g.space {
	case spGlobal:
		c.GlobalAtomicRequests++
		c.GlobalAtomicOps += int64(g.n)
		if floatAdd {
			c.GlobalFloatAtomicOps += int64(g.n)
		}
		aggregated := agg && g.k == 1
		if aggregated && used {
			c.GlobalAtomicAggregatedUsed += int64(g.n)
		}
		for i := 0; i < g.k; i++ {
			issued := g.count[i]
			if aggregated {
				issued = 1
			}
			c.GlobalAtomicIssued += issued
			addr := g.addrs[i]
			w.blk.ctx.l2.part = w.blk.part
			w.blk.ctx.l2.add(addr>>granuleShift, uint32(issued), 1, l2Atomic)
			s.perAddr.add(addr, issued)
			s.line(addr).ops += issued
		}
	case spShared:
		c.SharedAtomicRequests++
		c.SharedAtomicOps += int64(g.n)
		// The lanes beyond the first on an address serialise, except in
		// an ATOMS.POPC.INC, whose lanes on one address are one operation
		// (the caller counts them once).
		for i := 0; i < g.k; i++ {
			c.SharedAtomicConflicts += g.count[i] - 1
		}
		if floatAdd {
			// A shared float add is a compare-and-swap loop: k lanes on one
			// address take k trips, the i-th losing i-1 times.
			for i := 0; i < g.k; i++ {
				n := g.count[i]
				c.SharedCASRetries += n * (n - 1) / 2
			}
		}
	}
	return done
}

// l2 queues one atomic instruction's transactions at the L2 and returns the
// SM cycle the last completes. The lanes that hit one line form a
// transaction. The line's atomic unit takes transactions in arrival order
// and issues a transaction's operations for the longest of: the most
// operations on one of its addresses times the integer operation time
// (L2OpInt); its lanes' operations times the per-address time (on the
// H200, 32 lanes on 16 addresses of one line, two each, take as long as 32
// lanes on 32 addresses: calibration/evidence/2026-11-30-h200-aggregation-lab.txt,
// bucketAtomic at 16 and 32 keys per warp); and the sum over its 32-byte
// sectors of the most operations on one address there times the
// per-sector time (a line's sectors are served one after another, so lanes
// scattered over a line cost more than lanes on consecutive words:
// calibration/evidence/2026-11-30-h200-microbenchmarks-round2, histshape.csv).
//
// An operation reads, modifies and writes its sector, and the next
// operation on the sector waits for its result: a sector's operations are
// a chain, each taking the type's operation time (L2OpF32 for a float add,
// L2OpInt for the integer ones). A transaction starts when the line has
// issued the one before it and every sector it touches has finished its
// chain. For integers the chain is no longer than the issue, so only the
// issue counts; a float add takes 2.4 times as long as its issue, so float
// adds to one sector run at the float rate while float adds spread over a
// line's sectors overlap (round-2 counters.csv, f32 warp packed: k = 1 to 8
// counters, one sector, 1.766 ns an add; k = 16, two sectors, 1.276;
// k = 32, four sectors, 0.97; the u32 rows 0.74, 0.72, 0.70).
//
// Global atomics run in virtual-time order (they wait for the global
// scheduler), so each line's queue sees its transactions in order.
func (s *atomStats) l2(x *exec, now int64, g *atomGroup, aggregated bool, k cudac.Kind, floatAdd bool) int64 {
	c := &x.m.Costs
	ghz := x.m.ClockGHz
	op := c.L2OpInt
	if floatAdd {
		op = c.L2OpF32
		if k == cudac.Float64 {
			op = c.L2OpF64
		}
	}
	var done [32]bool
	var last int64
	for i := 0; i < g.k; i++ {
		if done[i] {
			continue
		}
		line := g.addrs[i] >> 7
		most, lanes := g.count[i], g.count[i]
		var sectorMost [4]int64 // the most lanes on one address, per sector of the line
		sectorMost[g.addrs[i]>>5&3] = g.count[i]
		for j := i + 1; j < g.k; j++ {
			if !done[j] && g.addrs[j]>>7 == line {
				done[j] = true
				most = max(most, g.count[j])
				lanes += g.count[j]
				sec := g.addrs[j] >> 5 & 3
				sectorMost[sec] = max(sectorMost[sec], g.count[j])
			}
		}
		if aggregated {
			most, lanes = 1, 1
			sectorMost = [4]int64{}
			sectorMost[g.addrs[i]>>5&3] = 1
		}
		sectorOps := sectorMost[0] + sectorMost[1] + sectorMost[2] + sectorMost[3]
		issue := max(float64(lanes)*c.L2Addr, float64(most)*c.L2OpInt, float64(sectorOps)*c.L2Sector)
		ls := s.line(g.addrs[i])
		s.window(x, now, lanes, ls)
		queued := max(float64(now), ls.free)
		start := queued
		var chain *[4]float64
		if ls.chained || op > c.L2OpInt {
			chain = s.chain(ls, line)
			for sec, n := range sectorMost {
				if n > 0 {
					start = max(start, chain[sec])
				}
			}
		}
		end := start + issue*ghz
		if chain != nil {
			for sec, n := range sectorMost {
				if n > 0 {
					chain[sec] = start + float64(n)*op*ghz
					end = max(end, chain[sec])
				}
			}
		}
		stall := (start - queued) / ghz
		ls.busyNs += stall + issue
		s.cur.StallNs += stall
		s.cur.BusyNs += stall + issue
		ls.free = start + issue*ghz
		last = max(last, int64(math.Ceil(end)))
		s.lastIssue = int64(math.Ceil(end - start))
	}
	s.drained = max(s.drained, last)
	return last
}

// chain returns the sector chains of line, the line of ls, adding them.
func (s *atomStats) chain(ls *lineState, line uint64) *[4]float64 {
	if s.chains == nil {
		s.chains = map[uint64]*[4]float64{}
	}
	ch := s.chains[line]
	if ch == nil {
		ch = &[4]float64{}
		s.chains[line] = ch
		ls.chained = true
	}
	return ch
}

func (s *atomStats) l2Profile() L2Profile {
	var p L2Profile
	s.eachLine(func(ls *lineState) {
		p.MaxLineNs = max(p.MaxLineNs, ls.busyNs)
		p.SumNs += ls.busyNs
	})
	p.HotLines = s.nlines
	p.Windows = s.windows
	if s.cur.Lines > 0 {
		p.Windows = append(p.Windows, s.cur)
	}
	return p
}

func (s *atomStats) fill(c *driver.Counters) {
	c.GlobalAtomicAggregated = c.GlobalAtomicOps - c.GlobalAtomicIssued
	c.GlobalAtomicAddresses = s.perAddr.distinct
	c.GlobalAtomicLines = s.nlines
	c.GlobalAtomicMaxChain = s.perAddr.most
	s.eachLine(func(ls *lineState) {
		c.GlobalAtomicMaxLine = max(c.GlobalAtomicMaxLine, ls.ops)
	})
}
