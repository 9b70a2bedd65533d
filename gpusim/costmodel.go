package gpusim

import (
	"fmt"
	"sort"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpusim/internal/engine"
	"github.com/warplab/warplab/gpusim/profiles"
)

// Model turns a launch's counters into a modelled kernel time on profile
// p, with a breakdown by resource.
func Model(p *profiles.Profile, out *engine.Outcome) gpu.Timing {
	c := &out.Counters
	cycleNs := 1e3 / p.ClockMHz
	var parts []gpu.TimeComponent
	add := func(res string, ms float64, detail string) {
		parts = append(parts, gpu.TimeComponent{Resource: res, Ms: ms, Detail: detail})
	}
	bytes := float64(c.GlobalLoadSectors+c.GlobalStoreSectors) * 32
	add("dram", bytes/(p.DRAMGBps*1e9)*1e3, fmt.Sprintf("%.0f bytes at %.0f GB/s", bytes, p.DRAMGBps))
	// Same-address atomics serialise at the L2: about one per 2 ns.
	chain := float64(c.GlobalAtomicMaxChain)
	add("l2 atomics", chain*2e-6, fmt.Sprintf("longest chain %d operations on one address", c.GlobalAtomicMaxChain))
	issue := float64(c.WarpInstructions) / float64(p.SMs*4) * cycleNs * 1e-6
	add("issue", issue, fmt.Sprintf("%d warp instructions on %d SMs", c.WarpInstructions, p.SMs))
	sort.Slice(parts, func(i, j int) bool { return parts[i].Ms > parts[j].Ms })
	total := 0.003 + parts[0].Ms
	return gpu.Timing{Ms: total, Source: "modelled, " + p.Name + " profile", Breakdown: parts}
}
