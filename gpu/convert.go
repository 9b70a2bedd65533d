package gpu

import "github.com/warplab/warplab/gpu/driver"

// The conversions in this file turn what a backend returns (package
// gpu/driver's types) into the types of this package. A field added to
// one side and not the other fails TestConversionsCoverEveryField.

// resultFrom converts a backend's result; Launch adds the kernel, the
// shape and the arguments.
func resultFrom(r *driver.Result) *Result {
	res := &Result{
		Device: r.Device, Seed: r.Seed, Printf: r.Printf,
		Timing:      timingFrom(r.Timing),
		Counters:    countersFrom(r.Counters),
		Diagnostics: make([]Diagnostic, len(r.Diagnostics)),
	}
	for i, d := range r.Diagnostics {
		res.Diagnostics[i] = Diagnostic(d)
	}
	return res
}

func timingFrom(t driver.Timing) Timing {
	out := Timing{Ms: t.Ms, Source: t.Source, Measured: t.Measured}
	for _, c := range t.Breakdown {
		out.Breakdown = append(out.Breakdown, TimeComponent(c))
	}
	return out
}

func countersFrom(c *driver.Counters) *Counters {
	if c == nil {
		return nil
	}
	return &Counters{
		Blocks:                     c.Blocks,
		Warps:                      c.Warps,
		Threads:                    c.Threads,
		ResidentBlocksPerSM:        c.ResidentBlocksPerSM,
		Waves:                      c.Waves,
		WarpInstructions:           c.WarpInstructions,
		ThreadInstructions:         c.ThreadInstructions,
		ByClass:                    InstrMix(c.ByClass),
		GlobalLoadRequests:         c.GlobalLoadRequests,
		GlobalLoadSectors:          c.GlobalLoadSectors,
		GlobalLoadBytes:            c.GlobalLoadBytes,
		GlobalStoreRequests:        c.GlobalStoreRequests,
		GlobalStoreSectors:         c.GlobalStoreSectors,
		GlobalStoreBytes:           c.GlobalStoreBytes,
		DRAMBytes:                  c.DRAMBytes,
		L2Sectors:                  c.L2Sectors,
		L2Hits:                     c.L2Hits,
		L2Slices:                   c.L2Slices,
		L2HotSliceSectors:          c.L2HotSliceSectors,
		SharedLoadRequests:         c.SharedLoadRequests,
		SharedStoreRequests:        c.SharedStoreRequests,
		SharedBankConflicts:        c.SharedBankConflicts,
		LocalLoadRequests:          c.LocalLoadRequests,
		LocalStoreRequests:         c.LocalStoreRequests,
		GlobalAtomicRequests:       c.GlobalAtomicRequests,
		GlobalAtomicOps:            c.GlobalAtomicOps,
		GlobalAtomicIssued:         c.GlobalAtomicIssued,
		GlobalAtomicAggregated:     c.GlobalAtomicAggregated,
		GlobalAtomicAggregatedUsed: c.GlobalAtomicAggregatedUsed,
		GlobalAtomicAddresses:      c.GlobalAtomicAddresses,
		GlobalAtomicLines:          c.GlobalAtomicLines,
		GlobalAtomicMaxChain:       c.GlobalAtomicMaxChain,
		GlobalAtomicMaxLine:        c.GlobalAtomicMaxLine,
		GlobalFloatAtomicOps:       c.GlobalFloatAtomicOps,
		SharedAtomicRequests:       c.SharedAtomicRequests,
		SharedAtomicOps:            c.SharedAtomicOps,
		SharedAtomicConflicts:      c.SharedAtomicConflicts,
		SharedCASRetries:           c.SharedCASRetries,
		CASFailures:                c.CASFailures,
		Shuffles:                   c.Shuffles,
		Votes:                      c.Votes,
		Barriers:                   c.Barriers,
		BarrierWaitCycles:          c.BarrierWaitCycles,
		SyncWarps:                  c.SyncWarps,
		Fences:                     c.Fences,
		Printfs:                    c.Printfs,
	}
}

func timingTo(t Timing) driver.Timing {
	out := driver.Timing{Ms: t.Ms, Source: t.Source, Measured: t.Measured}
	for _, c := range t.Breakdown {
		out.Breakdown = append(out.Breakdown, driver.TimeComponent(c))
	}
	return out
}
