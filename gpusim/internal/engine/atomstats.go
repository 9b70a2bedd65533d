package engine

import (
	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
)

// atomGroup collects one atomic instruction's lanes by address.
type atomGroup struct {
	space uint8
	n     int
	addrs [32]uint64
	count [32]int64
	k     int // distinct addresses
}

func (g *atomGroup) add(sp uint8, addr uint64) {
	if g.n == 0 {
		g.space = sp
	}
	g.n++
	for i := 0; i < g.k; i++ {
		if g.addrs[i] == addr {
			g.count[i]++
			return
		}
	}
	g.addrs[g.k] = addr
	g.count[g.k] = 1
	g.k++
}

// atomStats accumulates the launch's atomic traffic.
type atomStats struct {
	perAddr     map[uint64]int64
	perLine     map[uint64]int64
	sharedPerSM []int64
	lastAddr    uint64
	lastCount   *int64
}

func (s *atomStats) init(sms int) {
	s.perAddr = map[uint64]int64{}
	s.perLine = map[uint64]int64{}
	s.sharedPerSM = make([]int64, sms)
}

// record counts one atomic instruction. agg says the compiler aggregates
// it per warp when its address is uniform (an integer add whose result is
// unused); floatAdd that it is a float or double add.
func (s *atomStats) record(x *exec, w *warp, g *atomGroup, agg, floatAdd bool, k cudac.Kind) {
	c := &x.count
	if g.n == 0 {
		return
	}
	switch g.space {
	case spGlobal:
		c.GlobalAtomicRequests++
		c.GlobalAtomicOps += int64(g.n)
		if floatAdd {
			c.GlobalFloatAtomicOps += int64(g.n)
		}
		aggregated := agg && g.k == 1
		for i := 0; i < g.k; i++ {
			issued := g.count[i]
			if aggregated {
				issued = 1
			}
			c.GlobalAtomicIssued += issued
			addr := g.addrs[i]
			s.perAddr[addr] += issued
			s.perLine[addr>>7] += issued
		}
	case spShared:
		c.SharedAtomicRequests++
		c.SharedAtomicOps += int64(g.n)
		c.SharedAtomicConflicts += int64(g.n - g.k)
		if floatAdd {
			// A shared float add is a compare-and-swap loop: k lanes on one
			// address take k trips, the i-th losing i-1 times.
			for i := 0; i < g.k; i++ {
				n := g.count[i]
				c.SharedCASRetries += n * (n - 1) / 2
			}
		}
		s.sharedPerSM[w.blk.sm] += int64(g.n)
	}
}

func (s *atomStats) fill(c *gpu.Counters) {
	c.GlobalAtomicAggregated = c.GlobalAtomicOps - c.GlobalAtomicIssued
	c.GlobalAtomicAddresses = int64(len(s.perAddr))
	c.GlobalAtomicLines = int64(len(s.perLine))
	for _, n := range s.perAddr {
		c.GlobalAtomicMaxChain = max(c.GlobalAtomicMaxChain, n)
	}
	for _, n := range s.perLine {
		c.GlobalAtomicMaxLine = max(c.GlobalAtomicMaxLine, n)
	}
}

func (s *atomStats) profile() AtomicProfile {
	return AtomicProfile{PerAddress: s.perAddr, PerLine: s.perLine, SharedPerSM: s.sharedPerSM}
}
