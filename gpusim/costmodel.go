package gpusim

import (
	"fmt"
	"math"
	"sort"

	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/internal/engine"
	"github.com/warplab/warplab/gpusim/profiles"
)

// The cost model turns a launch's counters and its virtual-time schedule
// into the time CUDA events around the launch would measure:
//
//	launch + max(blocks, L2 atomic chain, L2 throughput, DRAM, l1/shared, l1 stores, l2 writes, issue, schedulers)
//
//   - launch: the profile's event-measured cost of launching a kernel;
//   - blocks and L2 atomic chain: the engine's virtual-time schedule, in SM
//     cycles at the profile's clock: when the last block finished, and when
//     the L2 served the last atomic. The scheduler places blocks on SMs by
//     occupancy, runs them in waves (past the first, an SM starts one block
//     per dispatch time, so many short blocks are dispatch-bound), charges
//     each instruction its latency (ALU, special functions, shared and
//     global memory, barriers), serialises shared-memory atomics per
//     address (a float add's compare-and-swap loop as a convoy, or about
//     twice as fast once the block's warps reach it far enough apart, and
//     at least its share of the SM's pipeline beside the other resident
//     blocks' loops), releases a barrier later the more warps it waits
//     for, and queues global atomics at their 128-byte line in the L2,
//     one transaction at a time (a compare-and-swap whose result is used
//     compares when its line serves it, and a load of its word waits
//     behind the line's queue: the profile's CASServed; the first wave
//     starts by the block scheduler's measured order):
//     occupancy, waves, tails, block-size
//     effects and atomic chains are in these two terms. Where the profile
//     has a ChainWriteShare, the chain is no shorter than the busiest
//     line's serving time plus that share of the l2 writes term: a queue's
//     head serves its pops more slowly while the L2 takes the launch's
//     stores;
//   - L2 throughput: the L2's atomic work as a throughput bound: the
//     busiest line, and all lines together over the units that serve hot
//     lines side by side, as many as the lines hot in the same window of
//     arrivals allow (a unit hides one line's wait for a sector's previous
//     float add behind the other lines it serves); a window is the
//     operations the L2 holds queued at once (the profile's L2InFlight,
//     in arrival order: a launch whose lines move with its blocks has few
//     hot together), or where the profile has none the arrivals within
//     one global-memory latency. Where the profile times it (L2Timed),
//     the units take each window's work when it arrives, after the
//     windows before it: atomics spread over the launch are served
//     beside its blocks, while a burst that arrives at its end (a
//     privatised histogram's merge after its walk) is served after them;
//   - DRAM: the bytes moved in 64-byte granules (less a lane's reloads of
//     the granule it read last, which the L1 serves), at the profile's
//     achievable bandwidth;
//   - l1/shared: the SM's unified L1 and shared memory, one array behind
//     one pipeline: the shared-memory wavefronts (a request, plus one
//     replay per extra word a bank must serve; a shared atomic, the most
//     words one bank serves, an ATOMS.POPC.INC at least the profile's
//     floor), one per SM cycle, added to the overlap of
//     the global loads' line lookups (the lines the busiest SM's loads
//     touch, at the profile's cycles per line: a warp whose lanes each
//     walk their own chunk touches 32 lines a load, a coalesced one one)
//     and the sectors the L2 returns (all the loads' sectors but a lane's
//     rereads of the granule it loaded last, which the L1 serves while it
//     has room for a line per resident thread, in proportion to the room
//     otherwise; the L1 has the unified cache less the carveout the
//     resident blocks' shared memory takes), at the L2's rate; the two
//     overlap as the profile's p-norm says (the larger when one
//     dominates, more when they are alike). A profile
//     without the L1's parameters has the shared wavefronts alone
//     ("shared");
//   - l1 stores: the line requests the busiest SM's global stores send
//     to the L2 (a warp's store sends one per 128-byte line its lanes
//     touch), at the profile's cycles per request: a store whose lanes
//     scatter over 32 lines holds the SM's store path 32 times as long as
//     a coalesced one;
//   - l2 writes: where the profile prices the SM's store path apart
//     (StorePathLineCycles), the L2's work on every SM's store requests
//     together, a request and each further partly written 32-byte sector
//     in it at the profile's cycles, counted per SM over all the SMs;
//   - issue: the warp instructions the schedulers issue over the SMs'
//     issue rate: the executed instructions less those nvcc compiles to
//     nothing (constants, copies, structure), with an unrolled loop's
//     branch and counter update once per unrolled body (a register-only
//     body once per LoopUnrollALU iterations, as ptxas unrolls it again),
//     and what nvcc's SASS has that the IR has not or lacks what the IR
//     has: a compare and a branch for each conditional branch
//     (BranchSlots), no loop-invariant arithmetic in an innermost loop
//     (HoistInvariants), BSSY/BSYNC around a divergent branch to an
//     atomic in a loop (ConvergenceSlots) and the remainder dispatch of a
//     loop unrolled with a run-time count (UnrollRemainderSlots; the
//     labs' hot loops against the H200's SASS: engine's TestSASSCounts);
//   - schedulers: the warps that share one of an SM's schedulers replayed
//     at its issue rate: where together they ask for more than it issues
//     they slow each other down, and the last warp ends later than the
//     schedule, which ran each at its latencies, says (shown only then).
//     Where the profile charges them in the schedule (SchedulerCharge),
//     a warp reaches each global atomic no earlier than its scheduler
//     could issue its slots since the last, so what a work queue hands
//     each warp follows its scheduler's load, and the replay takes only
//     what no atomic ended.
//
// The terms are resources that work in parallel, so the slowest binds; the
// breakdown lists them all, largest first.

// sectorsDetail says what a store term charged for further sectors:
// partial partly written ones at partialCycles and whole ones at
// wholeCycles, each where both are non-zero.
func sectorsDetail(partial int64, partialCycles float64, whole int64, wholeCycles float64) string {
	var s string
	if partial > 0 && partialCycles > 0 {
		s += fmt.Sprintf(", with %d further partly written sectors in them at %g cycles each", partial, partialCycles)
	}
	if whole > 0 && wholeCycles > 0 {
		s += fmt.Sprintf(", %d further whole sectors at %g cycles each", whole, wholeCycles)
	}
	return s
}

// model returns the modelled time of a launch on profile p at an SM clock
// of clockMHz.
func model(p *profiles.Profile, clockMHz float64, out *engine.Outcome) driver.Timing {
	c := &out.Counters
	cost := &p.Cost
	ghz := clockMHz / 1000
	ms := func(ns float64) float64 { return ns / 1e6 }
	var parts []driver.TimeComponent
	add := func(res string, ns float64, detail string) {
		parts = append(parts, driver.TimeComponent{Resource: res, Ms: ms(ns), Detail: detail})
	}

	add("blocks", float64(out.BlocksEnd)/ghz, fmt.Sprintf("%d blocks in %d waves of %d, %d SM cycles at %.0f MHz",
		c.Blocks, c.Waves, int64(out.ResidentBlocks)*int64(p.SMs), out.BlocksEnd, clockMHz))
	if out.L2Drain > 0 {
		chain := float64(out.L2Drain) / ghz
		detail := fmt.Sprintf("the L2 served the last atomic at cycle %d; the longest chain on one address is %d operations",
			out.L2Drain, c.GlobalAtomicMaxChain)
		if share, writes := cost.ChainWriteShare, l2WritesNs(p, ghz, out); share > 0 && writes > 0 && out.L2.MaxLineNs > 0 {
			// The busiest line serves its chain the slower for the
			// stores the L2 takes beside it.
			if slowed := out.L2.MaxLineNs + share*writes; slowed > chain {
				chain = slowed
				detail += fmt.Sprintf("; the busiest line's %.4f ms of serving, slowed by %g of the L2's %.4f ms of store work",
					ms(out.L2.MaxLineNs), share, ms(writes))
			}
		}
		add("l2 atomic chain", chain, detail)
	}
	l2, detail := l2Throughput(cost, ghz, out)
	add("l2 throughput", l2, detail)

	bytes := float64(c.DRAMBytes)
	bw := p.DRAMGBps * cost.DRAMEfficiency
	dramDetail := fmt.Sprintf("%.0f bytes in 64-byte granules at %.0f GB/s", bytes, bw)
	if f := cost.DRAMLoneGranuleFactor; f > 1 && out.DRAMLoneBytes > 0 {
		// A granule read without its line-mate costs a DRAM access of
		// its own.
		dramDetail += fmt.Sprintf(", %d of them read without the other half of their 128-byte line, at %.3g times the time", out.DRAMLoneBytes, f)
		bytes += float64(out.DRAMLoneBytes) * (f - 1)
	}
	add("dram", bytes/bw, dramDetail)

	// Shared memory serves one wavefront per SM cycle; a request whose
	// lanes hit k distinct words of one bank takes k, a shared atomic as
	// many as the most words one bank serves.
	wavefronts := float64(c.SharedLoadRequests+c.SharedStoreRequests+c.SharedBankConflicts) + out.SharedAtomicWavefronts
	sharedNs := wavefronts / (float64(p.SMs) * cost.SharedWavefrontsPerCycle) / ghz
	sharedDetail := fmt.Sprintf("%.0f shared wavefronts (%d of them bank-conflict replays, %.0f of shared atomics) at %g per cycle on %d SMs",
		wavefronts, c.SharedBankConflicts, out.SharedAtomicWavefronts, cost.SharedWavefrontsPerCycle, p.SMs)
	if cost.LoadLineCycles > 0 || cost.L2ReadGBps > 0 {
		// Shared memory and the L1 are one array behind one pipeline: its
		// shared wavefronts add to the global loads' work there, the
		// lines they look up or, when more of them miss, the sectors the
		// L2 returns into it.
		loadsNs := float64(out.MaxSMLoadLines) * cost.LoadLineCycles / ghz
		var missNs, miss, share float64
		if cost.L2ReadGBps > 0 {
			share = l1Share(p, out)
			miss = float64(c.GlobalLoadSectors) - share*float64(out.L1HitSectors)
			missNs = miss * 32 / cost.L2ReadGBps
		}
		both := max(loadsNs, missNs)
		if q := cost.L1OverlapPower; q > 0 && both > 0 {
			both = math.Pow(math.Pow(loadsNs, q)+math.Pow(missNs, q), 1/q)
		}
		if total := sharedNs + both; total > 0 {
			add("l1/shared", total, fmt.Sprintf(
				"%s; and, overlapped, the busiest SM's %d global load line lookups at %g cycles (%.4f ms) and %.0f of the %d sectors loaded that miss the L1, which holds %.0f%% of the resident lanes' lines, at the L2's %g GB/s (%.4f ms)",
				sharedDetail, out.MaxSMLoadLines, cost.LoadLineCycles, ms(loadsNs), miss, c.GlobalLoadSectors, 100*share, cost.L2ReadGBps, ms(missNs)))
		}
	} else if wavefronts > 0 {
		add("shared", sharedNs, sharedDetail)
	}

	if path := cost.StorePathLineCycles; path > 0 && out.MaxSMStoreLines > 0 {
		// The SM's own store path takes its line requests one at a
		// time, their further sectors the longer; the L2 takes every
		// SM's, counted per SM over all the SMs.
		cycles := float64(out.MaxSMStoreLines)*path + float64(out.MaxSMStoreSectors)*cost.StorePathSectorCycles +
			float64(out.MaxSMStoreWhole)*cost.StorePathWholeSectorCycles
		detail := fmt.Sprintf("the busiest SM's global stores sent %d line requests at %g cycles each", out.MaxSMStoreLines, path)
		detail += sectorsDetail(out.MaxSMStoreSectors, cost.StorePathSectorCycles, out.MaxSMStoreWhole, cost.StorePathWholeSectorCycles)
		add("l1 stores", cycles/ghz, detail)
		if writes := l2WritesNs(p, ghz, out); writes > 0 {
			detail := fmt.Sprintf("the L2 took the launch's %d store line requests at %g cycles each", out.StoreLines, cost.StoreLineCycles)
			detail += sectorsDetail(out.StoreSectors, cost.StoreSectorCycles, out.StoreWhole, cost.StoreWholeSectorCycles)
			add("l2 writes", writes, detail+fmt.Sprintf(", over %d SMs", p.SMs))
		}
	} else if out.MaxSMStoreLines > 0 && cost.StoreLineCycles > 0 {
		cycles := float64(out.MaxSMStoreLines)*cost.StoreLineCycles + float64(out.MaxSMStoreSectors)*cost.StoreSectorCycles
		detail := fmt.Sprintf("the busiest SM's global stores wrote %d line requests at %g cycles each", out.MaxSMStoreLines, cost.StoreLineCycles)
		detail += sectorsDetail(out.MaxSMStoreSectors, cost.StoreSectorCycles, 0, 0)
		add("l1 stores", cycles/ghz, detail)
	}

	if s := out.Schedulers; s.End > out.BlocksEnd {
		add("schedulers", float64(s.End)/ghz, fmt.Sprintf(
			"warps that share a scheduler slow each other: the last ends at cycle %d, on SM %d, whose busiest scheduler issued %.0f slots for %d warps at %g a cycle (the schedule alone: cycle %d)",
			s.End, s.SM, s.Slots, s.Warps, cost.SchedulerIPC, out.BlocksEnd))
	}

	issue := out.IssueSlots / (float64(p.SMs) * cost.IssueIPC) / ghz
	add("issue", issue, fmt.Sprintf("%.0f issue slots for %d warp instructions at %.1f per cycle on %d SMs",
		out.IssueSlots, c.WarpInstructions, cost.IssueIPC, p.SMs))

	sort.SliceStable(parts, func(i, j int) bool { return parts[i].Ms > parts[j].Ms })
	launch := driver.TimeComponent{Resource: "launch", Ms: cost.LaunchUs / 1e3, Detail: "launch overhead as CUDA events see it"}
	total := launch.Ms + parts[0].Ms
	parts = append(parts, launch)
	src := fmt.Sprintf("modelled, %s profile", p.Label())
	if clockMHz != p.ClockMHz {
		src += fmt.Sprintf(" at %.0f MHz", clockMHz)
	}
	return driver.Timing{Ms: total, Source: src, Breakdown: parts}
}

// l2WritesNs returns the L2's work on every SM's store requests, in ns:
// where the profile prices the SM's store path apart
// (StorePathLineCycles) and the L2's requests (StoreLineCycles), a
// request and its further sectors at the profile's cycles, counted per
// SM over all the SMs, at ghz; 0 otherwise.
func l2WritesNs(p *profiles.Profile, ghz float64, out *engine.Outcome) float64 {
	cost := &p.Cost
	if cost.StorePathLineCycles <= 0 || cost.StoreLineCycles <= 0 || out.MaxSMStoreLines <= 0 {
		return 0
	}
	cycles := (float64(out.StoreLines)*cost.StoreLineCycles + float64(out.StoreSectors)*cost.StoreSectorCycles +
		float64(out.StoreWhole)*cost.StoreWholeSectorCycles) / float64(p.SMs)
	return cycles / ghz
}

// l2Throughput returns the L2's atomic work as a throughput bound, in ns,
// and its detail.
func l2Throughput(cost *profiles.Cost, ghz float64, out *engine.Outcome) (float64, string) {
	c := &out.Counters
	l2 := out.L2.MaxLineNs
	hot := float64(out.L2.HotLines)
	if hot == 0 {
		return l2, "no global atomics"
	}
	// How many lines the units serve at once depends on the lines hot
	// together: each window of arrivals is served at its own lines' rate,
	// one window after another. The units that serve hot lines side by
	// side each take several lines' transactions in one stream; while a
	// line's transaction waits for its sector's previous operation, the
	// unit serves the other lines' (the first-order term of a random
	// interleaving of lines/par lines: the transaction before it is from
	// its own line one time in lines/par).
	//
	// Timed (Cost.L2Timed), the units take a window's work as it arrives,
	// spread over its first to its last arrival, once they have served
	// the windows before it: they finish it at the later of its last
	// arrival and its first arrival (or the end of the window before)
	// plus its work. Atomics spread over the launch are served as they
	// come; a burst at the end is served after it.
	var work, peak, drain float64
	for _, w := range out.L2.Windows {
		lines := float64(w.Lines)
		par := cost.ParallelLines(lines)
		ns := (w.BusyNs - w.StallNs + w.StallNs/max(1, lines/par)) / par
		work += ns
		peak = max(peak, par)
		first, last := float64(w.First)/ghz, float64(w.Last)/ghz
		drain = max(last, max(drain, first)+ns)
	}
	detail := fmt.Sprintf("%d hot lines, up to %.1f at once; the busiest line serves %d operations on one address (longest chain)",
		out.L2.HotLines, peak, c.GlobalAtomicMaxChain)
	if !cost.L2Timed {
		return max(l2, work), detail
	}
	blocks := float64(out.BlocksEnd) / ghz
	detail += fmt.Sprintf("; served as it arrives: %.4f ms of work, the last served at %.4f ms", work/1e6, drain/1e6)
	if drain > blocks {
		detail += fmt.Sprintf(", %.4f ms after the last block ended", (drain-blocks)/1e6)
	}
	return max(l2, drain), detail
}

// l2Reloads adds to the L2's counters the loads of a granule a lane
// loaded last that the L1 cannot hold (1 - l1Share of them): they reach
// the L2 and hit there. Their slices are taken as even.
func l2Reloads(p *profiles.Profile, out *engine.Outcome) {
	c := &out.Counters
	extra := int64(math.Round((1 - l1Share(p, out)) * float64(out.L1HitSectors)))
	c.L2Sectors += extra
	c.L2Hits += extra
	if c.L2Slices > 0 {
		c.L2HotSliceSectors += extra / int64(c.L2Slices)
	}
}

// l1Share is the fraction of the resident lanes' lines the L1 holds: a
// lane that rereads the granule it loaded last finds it there when the L1
// has room for a 128-byte line per resident thread, and in proportion to
// the room otherwise.
func l1Share(p *profiles.Profile, out *engine.Outcome) float64 {
	need := float64(out.SMBlocks*out.BlockThreads) * 128
	if need == 0 {
		return 1
	}
	return min(1, float64(p.L1Bytes(out.SMBlocks, out.BlockShared))/need)
}

// machine describes a profile to the engine.
func machine(p *profiles.Profile, clockMHz float64) *engine.Machine {
	c := &p.Cost
	return &engine.Machine{
		Name: p.Device, SMs: p.SMs, MaxThreadsPerBlock: p.MaxThreadsPerBlock, MaxThreadsPerSM: p.MaxThreadsPerSM,
		MaxBlocksPerSM: p.MaxBlocksPerSM, MaxWarpsPerSM: p.MaxWarpsPerSM, SharedPerSM: p.SharedPerSM,
		SharedPerBlock: p.SharedPerBlock, RegsPerSM: p.RegsPerSM, L2Bytes: p.L2Bytes, L2Slices: p.L2Slices,
		L2Partitions: p.L2Partitions, L2HashBytes: p.L2HashBytes,
		Costs: engine.Costs{
			ALU: c.ALUCycles, SFU: c.SFUCycles, Shared: c.SharedCycles, Global: c.GlobalCycles,
			Atomic: c.AtomicCycles, Barrier: c.BarrierCycles, Launch: c.BlockStartCycles,
			BarrierBase: c.BarrierBaseCycles, BarrierWarp: c.BarrierWarpCycles, BarrierStagger: c.BarrierStaggerCycles,
			Stagger: c.BlockStaggerCycles, Refill: c.BlockRefillCycles,
			Dispatch: c.BlockDispatchCycles, DispatchWarp: c.WarpDispatchCycles,
			Local: c.LocalCycles, Store: c.StoreCycles, L2InFlight: c.L2InFlight,
			CASServed: c.CASServed, CASOrdered: c.CASOrderedCycles,
			SharedJitterDivisor: c.SharedJitterDivisor,
			SharedFloatA:        c.SharedFloatA, SharedFloatB: c.SharedFloatB, SharedInt: c.SharedInt,
			SharedFloatPipe: c.SharedFloatPipeCycles, SharedPopc: c.SharedPopcWavefronts,
			SharedCASConvoy: c.SharedCASConvoyCycles, SharedCASPhases: c.SharedCASPhasesCycles, SharedCASWindow: c.SharedCASWindowCycles,
			LoadSpread: c.LoadSpreadCycles, SharedCASPhasesWarps: c.SharedCASPhasesMaxWarps,
			L2Addr: c.L2AddrNs, L2OpF32: c.L2OpF32Ns, L2OpF64: c.L2OpF64Ns, L2OpInt: c.L2OpIntNs, L2Sector: c.L2SectorNs,
			Unroll: c.LoopUnroll, Scoreboard: c.Scoreboard, UnrollALU: c.LoopUnrollALU,
			Hoist: c.HoistInvariants, ConvergeSlots: c.ConvergenceSlots, UnrollRemainderSlots: c.UnrollRemainderSlots, BranchSlots: c.BranchSlots, AggregateSlots: c.AggregationSlots,
			Schedulers: c.Schedulers, SchedulerIPC: c.SchedulerIPC, SchedulerCharge: c.SchedulerCharge,
			StoreLine: c.StoreLineCycles, StoreSector: c.StoreSectorCycles, StorePath: c.StorePathLineCycles,
			StoreWhole: c.StoreWholeSectorCycles, StorePathSector: c.StorePathSectorCycles, StorePathWhole: c.StorePathWholeSectorCycles,
		},
		ClockGHz:        clockMHz / 1000,
		Jitter:          c.JitterCycles,
		FirstWave:       c.FirstWaveStartCycles,
		FirstWaveJitter: c.FirstWaveJitterCycles,
	}
}
