package profiles

import "fmt"

// Limits are from the CUDA C++ Programming Guide's table "Technical
// Specifications per Compute Capability"; sizes, clocks and bandwidths from
// NVIDIA's datasheets; measured figures from calibration/evidence/ (the
// microbenchmarks of calibration/microbench run on the project's H200) and
// docs/measurements.md; calibrated figures were fitted by
// `warplab fidelity` against the Day 26 tables, as its report shows.

const (
	ccTable = Guide + "Technical Specifications per Compute Capability"
	h200Run = "calibration/evidence/2026-11-29-h200-microbenchmarks"
	// h200Gated re-measured the launch, softmax and Day 26 microbenchmarks
	// gated, the labs' and cudarun's method.
	h200Gated = "calibration/evidence/2026-11-30-h200-microbench-gated"
	// h200Round2 is the round-2 run: access patterns, counters, queue, histogram shape.
	h200Round2 = "calibration/evidence/2026-11-30-h200-microbenchmarks-round2"
	// h200Evidence3 is the SASS of the queue, reproducible and CAS kernels,
	// built by NVRTC (warplab sass) and by nvcc, and the queue lab's kernels
	// timed under both.
	h200Evidence3 = "calibration/evidence/2026-11-30-h200-queue-nvrtc-vs-nvcc"
	// h200L1 is the l1reuse run: per-thread walks against the L1's share
	// of the SM, their footprint, and the L2's sector rate.
	h200L1 = "calibration/evidence/2026-11-30-h200-l1reuse"
	// h200Round3 is the run of cas_timeline.cu and sm_issue.cu (block
	// dispatch, dependent FMAs, CAS-loop failures over time).
	h200Round3 = "calibration/evidence/2026-11-30-h200-cas-timeline-sm-issue"
	// h200Gated2 re-measured access, counters, cas, histshape and l1reuse
	// gated: the launch overhead in their cells is the GPU's alone
	// (Cost.LaunchUs), not the host's submission as in h200Round2 and h200L1.
	h200Gated2 = "calibration/evidence/2026-11-30-h200-microbenchmarks-gated2"
	// h200QueueSM is the run of queue_sm.cu: where a work queue's winning
	// warps land, and what sharing an SM costs them.
	h200QueueSM = "calibration/evidence/2026-11-30-h200-queue-sm"
	h200StoreSM = "calibration/evidence/2026-11-30-h200-store-sm"
	// h200QK4 is qk4.cu's run: the queue lab's pop loop with and without
	// its stores, fewer warps, and other warps' traffic.
	h200QK4 = "calibration/evidence/2026-12-01-h200-qk4"
	// h200SharedQ is sharedq.cu's run (a block's shared float queue
	// against the blocks beside it on its SM; shared bins and their merge),
	// timed gated.
	h200SharedQ = "calibration/evidence/2026-11-30-h200-microbench-sharedq"
	// h200HotLines is the run of hotlines.cu: the cas lab's atomicMax and
	// CAS loop over 32 to 65,536 contenders per address, and one thread's
	// L2, DRAM and atomic latencies.
	h200HotLines = "calibration/evidence/2026-11-30-h200-hotlines"
	// h200QueueLoop is the run of queue_loop.cu and ncu-queue-loop.sh: the
	// queue's item loop as the lab compiles it against the constant-cost
	// forms, with and without stores and atomics.
	h200QueueLoop = "calibration/evidence/2026-11-30-h200-queue-loop"
	// h200CASWait is the run of cas_wait.cu: a contended CAS loop's load
	// and CAS latencies per warp, and one CAS lane's L2 time.
	h200CASWait = "calibration/evidence/2026-11-30-h200-cas-wait"
	// h200BlockQ is the run of blockq.cu: each warp's arrival at one
	// block's shared float queue and the queue's mode; bar.sync against the
	// warps a block.
	h200BlockQ = "calibration/evidence/2026-11-30-h200-microbench-blockq"
	// h200L2SM is the run of l2sm.cu: each SM's uncontended atomic and
	// L2-load latency to words in different slices, and which SMs a
	// contended word serves first.
	h200L2SM        = "calibration/evidence/2026-11-30-h200-l2sm"
	h200PrologWarps = "calibration/evidence/2026-12-01-h200-prolog-warps"
	// h200L2Line is the run of l2line.cu: each line's L2 load latency from
	// every SM, and the softmax lab's one-block queue on the same lines.
	h200L2Line = "calibration/evidence/2026-11-30-h200-l2line"
)

// sources merges source maps.
func sources(maps ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range maps {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// limits are the sources of the launch limits of compute capability cc,
// whose shared memory per SM is sharedKB.
func limits(cc string, sharedKB int) map[string]string {
	reserved := Guide + "Compute Capability " + cc + ": 1 KB of shared memory is reserved for system use per block (from 8.0 on)"
	carve := Guide + "Compute Capability " + cc + ", shared memory: the sizes the unified data cache's shared-memory carveout can take"
	if cc < "8.0" {
		reserved = Guide + "Compute Capability " + cc + ": no shared memory reserved per block before 8.0"
	}
	return map[string]string{
		"SharedReservedPerBlock": reserved,
		"SharedCarveoutsKB":      carve,
		"MaxThreadsPerBlock":     ccTable + ", " + cc,
		"MaxThreadsPerSM":        ccTable + ", " + cc,
		"MaxBlocksPerSM":         ccTable + ", " + cc,
		"MaxWarpsPerSM":          ccTable + ", " + cc,
		"SharedPerSM":            fmt.Sprintf("%s, %s (%d KB)", ccTable, cc, sharedKB),
		"SharedPerBlock":         ccTable + ", 48 KB without opt-in",
		"RegsPerSM":              ccTable + ", " + cc,
	}
}

func init() {
	register(&Profile{
		Name: "t4", Device: "Tesla T4", Arch: "sm_75",
		Provenance: "measured: the Day 26 course page's T4 sums; many mechanisms not modelled",
		SMs:        40, MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 1024, MaxBlocksPerSM: 16, MaxWarpsPerSM: 32,
		SharedPerSM: 64 << 10, SharedPerBlock: 48 << 10, RegsPerSM: 65536,
		L1SharedPerSM: 96 << 10, SharedCarveoutsKB: []int{32, 64},
		ClockMHz: 1590, MemoryBytes: 16 << 30, DRAMGBps: 320, L2Bytes: 4 << 20, L2Slices: 16, L2Partitions: 1, L2HashBytes: 128,
		Cost: Cost{
			BaseClockMHz: 585, LaunchUs: 2.0, DRAMEfficiency: 0.75, IssueIPC: 2, SharedWavefrontsPerCycle: 1,
			ALUCycles: 4, SFUCycles: 16, SharedCycles: 30, GlobalCycles: 500, AtomicCycles: 600,
			BarrierCycles: 30, BlockStartCycles: 600,
			SharedFloatA: 85, SharedFloatB: 116, SharedInt: 8,
			L2AddrNs: 0.137, L2SectorNs: 1.10, L2OpF32Ns: 3.3, L2OpF64Ns: 3.3, L2OpIntNs: 1.4, L2LinesAtOnce: h200LinesAtOnce, L2MaxParallelLines: 64,
			JitterCycles: 400, SharedJitterDivisor: 8,
			BlockStaggerCycles: 75, BlockRefillCycles: 150, LocalCycles: 16, StoreCycles: 8,
		},
		Sources: sources(limits("7.5", 64), assumedScheduling("as for the H200"), map[string]string{
			"SMs":                             Datasheet + "NVIDIA T4 (TU104, 40 SMs, 2560 CUDA cores); the Day 26 course page prints SMs: 40",
			"ClockMHz":                        Datasheet + "NVIDIA T4 boost clock 1590 MHz",
			"MemoryBytes":                     Datasheet + "NVIDIA T4, 16 GB GDDR6",
			"DRAMGBps":                        Datasheet + "NVIDIA T4, 320 GB/s",
			"L2Bytes":                         Datasheet + "Turing TU104, 4 MB L2",
			"L2Slices":                        Calibrated + "assumed: two slices of 128 KB per 32-bit memory controller, eight on TU104's 256-bit bus (NVIDIA does not document Turing's L2 slices)",
			"L2Partitions":                    Calibrated + "assumed: one (the split L2 is documented from the A100 on)",
			"L2HashBytes":                     Calibrated + "assumed: a 128-byte line per slice (not measured on Turing)",
			"L1SharedPerSM":                   Datasheet + "NVIDIA Turing architecture whitepaper: 96 KB of unified L1 and shared memory per SM",
			"Cost.LoadLineCycles":             Calibrated + "not modelled: no Turing load measurement",
			"Cost.L1OverlapPower":             Calibrated + "not modelled: no Turing load measurement",
			"Cost.L2ReadGBps":                 Calibrated + "not modelled: no Turing L2 measurement",
			"Cost.BaseClockMHz":               Datasheet + "NVIDIA T4 base clock 585 MHz",
			"Cost.LaunchUs":                   Calibrated + "the Day 26 course page's tree sum at n = 4096",
			"Cost.QueuedLaunchUs":             Calibrated + "not modelled: no Turing measurement of queued launches",
			"Cost.DRAMEfficiency":             Calibrated + "the Day 26 course page's tree sum at n = 4194304",
			"Cost.IssueIPC":                   Calibrated + "assumed: the H200's first value, kept (Turing's four schedulers issue one warp instruction a cycle each, but its 64 FP32 lanes take two cycles a warp FMA; no T4 issue-bound measurement)",
			"Cost.LoopUnroll":                 Calibrated + "not modelled: no Turing SASS or loop measurement",
			"Cost.DRAMLoneGranuleFactor":      Calibrated + "not modelled: no Turing measurement of strided reads",
			"Cost.Scoreboard":                 Calibrated + "not modelled: no Turing SASS was read, and the T4's latencies were fitted with every IR instruction costing its whole latency",
			"Cost.StoreLineCycles":            Calibrated + "not modelled: no Turing store measurement",
			"Cost.StoreSectorCycles":          Calibrated + "not modelled: no Turing store measurement",
			"Cost.StorePathLineCycles":        Calibrated + "not modelled: no Turing store measurement",
			"Cost.StorePathSectorCycles":      Calibrated + "not modelled: no Turing store measurement",
			"Cost.StorePathWholeSectorCycles": Calibrated + "not modelled: no Turing store measurement",
			"Cost.StoreWholeSectorCycles":     Calibrated + "not modelled: no Turing store measurement",
			"Cost.ChainWriteShare":            Calibrated + "not modelled: no Turing measurement of atomics beside stores",
			"Cost.LoopUnrollALU":              Calibrated + "not modelled: no Turing SASS or loop measurement",
			"Cost.HoistInvariants":            Calibrated + "not modelled: no Turing SASS was read",
			"Cost.ConvergenceSlots":           Calibrated + "not modelled: no Turing SASS was read",
			"Cost.UnrollRemainderSlots":       Calibrated + "not modelled: no Turing SASS was read",
			"Cost.BranchSlots":                Calibrated + "not modelled: no Turing SASS was read",
			"Cost.AggregationSlots":           Calibrated + "not modelled: no Turing SASS was read",
			"Cost.Schedulers":                 Calibrated + "not modelled: no Turing measurement of warps sharing a scheduler",
			"Cost.SchedulerIPC":               Calibrated + "not modelled (Schedulers is 0)",
			"Cost.SchedulerCharge":            Calibrated + "not modelled (Schedulers is 0)",
			"Cost.BlockDispatchCycles":        Calibrated + "not modelled: no Turing block-dispatch measurement (BlockStaggerCycles spaces the first blocks)",
			"Cost.L2InFlight":                 Calibrated + "not modelled: no Turing measurement of hot lines moving with the blocks (the lines hot within GlobalCycles)",
			"Cost.L2Timed":                    Calibrated + "not modelled: no Turing measurement of atomics that arrive at a launch's end",
			"Cost.WarpDispatchCycles":         Calibrated + "not modelled: no Turing block-dispatch measurement",
			"Cost.SharedWavefrontsPerCycle":   Calibrated + "assumed as for the H200 (one wavefront per cycle, 32 banks)",
			"Cost.ALUCycles":                  Calibrated + "dependent-issue latency of Turing's ALU pipes (4 cycles), as for the H200",
			"Cost.SFUCycles":                  Calibrated + "as for the H200",
			"Cost.SharedCycles":               Calibrated + "as for the H200",
			"Cost.GlobalCycles":               Calibrated + "the Day 26 course page's tree sum, latency-bound at every size",
			"Cost.AtomicCycles":               Calibrated + "as for the H200",
			"Cost.BarrierCycles":              Calibrated + "as for the H200",
			"Cost.BlockStartCycles":           Calibrated + "as for the H200",
			"Cost.SharedFloatA":               Calibrated + "the H200's value in cycles raised from 60 to 85 when the engine began to count a block's warps from its first lane (they had been counted as they arrived, so a block's first warps paid more): with B = 116, 85 + 116/8 cycles a lane is what 256-lane blocks averaged before (60 + 116 x H(8)/8), which keeps the Day 26 course page's shared-atomic sums, whose 800 MHz rows fitted the clock, where they were",
			"Cost.SharedFloatB":               Calibrated + "H200 value in cycles; the Day 26 course page's shared-atomic sum checks it",
			"Cost.SharedInt":                  Calibrated + "H200 value in cycles",
			"Cost.SharedFloatPipeCycles":      Calibrated + "not modelled (0): no Turing measurement of shared float queues side by side on an SM",
			"Cost.SharedCASConvoyCycles":      Calibrated + "not modelled (0, and the other two 0): no Turing measurement of a shared float queue against its warps' arrival",
			"Cost.SharedCASPhasesCycles":      Calibrated + "not modelled (0): see Cost.SharedCASConvoyCycles",
			"Cost.SharedCASWindowCycles":      Calibrated + "not modelled (0): see Cost.SharedCASConvoyCycles",
			"Cost.LoadSpreadCycles":           Calibrated + "not modelled (nil): no Turing measurement of a load's latency by SM and line",
			"Cost.SharedCASPhasesMaxWarps":    Calibrated + "not modelled (0): see Cost.SharedCASConvoyCycles",
			"Cost.BarrierStaggerCycles":       Calibrated + "not modelled (0): no Turing measurement of the order in which a barrier's warps leave it",
			"Cost.BarrierBaseCycles":          Calibrated + "not modelled (0, and Cost.BarrierWarpCycles 0): no Turing measurement of a barrier against the warps a block; the release costs Cost.BarrierCycles",
			"Cost.BarrierWarpCycles":          Calibrated + "not modelled (0): see Cost.BarrierBaseCycles",
			"Cost.SharedPopcWavefronts":       Calibrated + "not modelled (0): no Turing measurement of ATOMS.POPC.INC against its banks",
			"Cost.L2AddrNs":                   Calibrated + "the H200's ratio of per-address to float-operation time",
			"Cost.L2SectorNs":                 Calibrated + "the H200's value scaled as L2AddrNs is",
			"Cost.L2MaxParallelLines":         Calibrated + "assumed as for the H200",
			"Cost.L2OpF32Ns":                  Measured + "the Day 26 course page's global-atomic sum: 3.1 to 3.5 ns per atomic at every size",
			"Cost.L2OpF64Ns":                  Calibrated + "assumed equal to float",
			"Cost.L2OpIntNs":                  Calibrated + "the H200's ratio of integer to float same-address throughput",
			"Cost.L2LinesAtOnce":              Calibrated + "assumed as for the H200",
			"Cost.JitterCycles":               Calibrated + "the Day 26 course page's determinism table",
			"Cost.CASServed":                  Calibrated + "not modelled: no Turing measurement of a contended CAS loop (a CAS compares at its issue)",
			"Cost.CASOrderedCycles":           Calibrated + "not modelled (CASServed is off)",
			"Cost.FirstWaveStartCycles":       Calibrated + "not modelled: every SM's first block at once (not measured on Turing)",
			"Cost.FirstWaveJitterCycles":      Calibrated + "not modelled (FirstWaveStartCycles is not)",
		}),
	})
	register(&Profile{
		Name: "h200", Device: "NVIDIA H200", Arch: "sm_90",
		Provenance: "measured: the project's H200 microbenchmarks (calibration/evidence)",
		SMs:        132, MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32, MaxWarpsPerSM: 64,
		SharedPerSM: 228 << 10, SharedPerBlock: 48 << 10, RegsPerSM: 65536,
		L1SharedPerSM: 256 << 10, SharedCarveoutsKB: sm90Carveouts, SharedReservedPerBlock: 1 << 10,
		ClockMHz: 1980, MemoryBytes: 141 << 30, DRAMGBps: 4800, L2Bytes: 60 << 20, L2Slices: 94, L2Partitions: 2, L2HashBytes: 512,
		Cost: Cost{
			LaunchUs: 2.69, DRAMEfficiency: 0.89, IssueIPC: 4, LoopUnroll: 4, StoreLineCycles: 4, StoreSectorCycles: 2, StorePathLineCycles: 2.02, SharedWavefrontsPerCycle: 1,
			StorePathSectorCycles: 0.99, StorePathWholeSectorCycles: 0.63, StoreWholeSectorCycles: 1.55, ChainWriteShare: 0.47,
			LoadLineCycles: 0.431, L2ReadGBps: 9170, L1OverlapPower: 3, QueuedLaunchUs: 1.364, Scoreboard: true, DRAMLoneGranuleFactor: 1.147,
			ALUCycles: 4, SFUCycles: 16, SharedCycles: 30, GlobalCycles: 700, AtomicCycles: 700,
			BarrierCycles: 30, BlockStartCycles: 600, BarrierBaseCycles: 13.6, BarrierWarpCycles: 2.015, BarrierStaggerCycles: 2.1,
			SharedFloatA: 60, SharedFloatB: 116, SharedInt: 8, SharedFloatPipeCycles: 12.45, SharedPopcWavefronts: 5.65,
			SharedCASConvoyCycles: 83.8, SharedCASPhasesCycles: 43.5, SharedCASWindowCycles: 39, SharedCASPhasesMaxWarps: 8, LoadSpreadCycles: h200LoadSpread,
			L2AddrNs: 0.073, L2SectorNs: 0.585, L2OpF32Ns: 1.755, L2OpF64Ns: 1.755, L2OpIntNs: 0.731, L2LinesAtOnce: h200LinesAtOnce, L2MaxParallelLines: 64,
			JitterCycles: 400, SharedJitterDivisor: 8,
			BlockStaggerCycles: 17, BlockRefillCycles: 150, LocalCycles: 16, StoreCycles: 8, FirstWaveStartCycles: h200FirstWave, FirstWaveJitterCycles: 30,
			BlockDispatchCycles: 156, WarpDispatchCycles: 7.06, L2InFlight: 489000, L2Timed: true,
			Schedulers: 4, SchedulerIPC: 1, SchedulerCharge: true, LoopUnrollALU: 16, HoistInvariants: true, ConvergenceSlots: 2, UnrollRemainderSlots: 15, BranchSlots: 2, AggregationSlots: 11,
			CASServed: true, CASOrderedCycles: 8000,
		},
		// Where a source cites evidence beside what the parameter was
		// fitted to, its fitting sources alone (Profile.FittingSources).
		Fits: map[string][]string{
			"Cost.StoreLineCycles":          {h200QueueLoop + "/csv/queue_loop.csv: grid,lab,st,static"},
			"Cost.SharedWavefrontsPerCycle": {h200Gated2 + "/csv/access.csv: banks,shared_banks", h200Round2 + "/csv/access.csv: banks,shared_banks"},
			"Cost.LoadLineCycles":           {h200Gated2 + "/csv/l1reuse.csv: occupancy,seq_sum"},
			"Cost.L1OverlapPower":           {h200Gated2 + "/csv/l1reuse.csv: pad,seq_sum"},
			"Cost.L2ReadGBps":               {h200Gated2 + "/csv/l1reuse.csv: l2,l2_stride"},
			"Cost.L2LinesAtOnce": {h200Run + "/csv/sliced.csv", h200Gated2 + "/csv/counters.csv: u32,thread_warp,packed,8192",
				h200Gated2 + "/csv/counters.csv: u32,thread_warp,packed,16384"},
			"Cost.BarrierCycles": {h200Run + "/csv/day26_blocksize.csv: tree"},
			// ptxas's code, read from SASS, not from timed cells.
			"Cost.LoopUnroll": {"calibration/evidence/2026-11-30-h200-queue-nvrtc-vs-nvcc/sass"},
			"Cost.LoopUnrollALU": {"calibration/evidence/2026-11-30-h200-microbench-gated3/sass/queue.sm_90.sass",
				"calibration/evidence/2026-11-30-h200-cas-timeline-sm-issue/sm_issue.sm_90.sass", "calibration/evidence/2026-11-30-h200-queue-nvrtc-vs-nvcc/sass"},
			"Cost.SharedFloatA": {h200Run + "/csv/day26_blocksize.csv: shared", "calibration/evidence/2026-11-30-h200-microbench-softmax-small"},
			"Cost.SharedFloatB": {h200Run + "/csv/day26_blocksize.csv: shared", h200Run + "/csv/atomics_shared.csv"},
		},
		Sources: sources(limits("9.0", 228), assumedScheduling("the simulator's first cost model's constants"), map[string]string{
			"SMs":                             Measured + "132 multiprocessors reported on the project's H200 (docs/measurements.md)",
			"ClockMHz":                        Measured + "1980 MHz under load (docs/measurements.md)",
			"MemoryBytes":                     Datasheet + "NVIDIA H200, 141 GB HBM3e",
			"DRAMGBps":                        Datasheet + "NVIDIA H200, 4.8 TB/s",
			"L2Bytes":                         Measured + "60 MiB L2 reported (docs/measurements.md)",
			"L2Slices":                        Measured + "calibration/evidence/2026-11-30-h200-ncu-l2: lts__t_sectors.sum / .avg is 94.0 for all 24 launches (the lts unit's instances)",
			"L2Partitions":                    Datasheet + "NVIDIA H100 Tensor Core GPU architecture whitepaper: the L2 is divided into two partitions, each caching data for the SMs of the GPCs attached to it (the H200 is GH100); calibration/evidence/2026-11-30-h200-ncu-l2 shows the second lookup: 98,304 red sectors for 65,536 float atomics to one address, and the lts__t_sectors_srcunit_ltcfabric traffic",
			"L2HashBytes":                     Calibrated + "calibration/evidence/2026-11-30-h200-ncu-l2 hot_lines: float atomics over k lines 128 bytes apart load one slice with all of them at k = 1 and 2, half at k = 8 and an eighth at k = 32 (lts__t_sectors_op_red.max): 512 bytes go to one slice. The hot_lines rows are calibration for it",
			"L1SharedPerSM":                   Datasheet + "NVIDIA H100 Tensor Core GPU architecture whitepaper: 256 KB of combined L1 data cache and shared memory per SM (the H200 is the same GH100 SM)",
			"Cost.LoadLineCycles":             Measured + h200Gated2 + "/csv/l1reuse.csv occupancy seq_sum at 8 blocks per SM, timed gated: a per-thread walk over 16M words, 129,024 lines per SM (32 a warp load) in 0.03078 ms less the launch (Cost.LaunchUs, 2.69 us), 0.431 cycles a line; 4 blocks per SM agree (0.03114 ms, 0.437). Ungated (" + h200L1 + ": 0.03597 ms less 5.7 us) it was 0.464",
			"Cost.L1OverlapPower":             Calibrated + h200Gated2 + "/csv/l1reuse.csv pad seq_sum at 0 to 20 KB of padding, timed gated (an L1 of 248 to 60 KB for 256 KB of lanes' lines): with LoadLineCycles and L2ReadGBps from the same run, p = 3 gives a geometric-mean error of 1.060 over the seven rows (2: 1.100, 4: 1.067; the larger alone misses the middle rows by up to 16%, the 20 KB row by 19 to 22% at any p); the 24 KB row (an L1 of 28 KB, 0.158 ms) thrashes beyond any p. The ungated rows (" + h200L1 + ") chose p = 3 too (1.056)",
			"Cost.L2ReadGBps":                 Measured + h200Gated2 + "/csv/l1reuse.csv l2 l2_stride s = 8, timed gated: 17,301,504 loads of one word per 32-byte sector of an L2-resident 16 MB buffer in 0.06306 ms less the launch (Cost.LaunchUs, 2.69 us): 553.6 MB of sectors at 9170 GB/s. Ungated (" + h200L1 + ": 0.06910 ms less 5.7 us) it was 8730",
			"Cost.LaunchUs":                   Measured + h200Gated + "/csv/launch.csv event_single: CUDA events around one launch of an empty kernel, gated as the labs and cudarun time a launch, median 2.688 us (mean 2.685) over 500; back to back 1.36 us. Ungated (" + h200Run + "/csv/launch.csv) it was 5.712 us, the host's submission included",
			"Cost.QueuedLaunchUs":             Measured + h200Gated + "/csv/launch.csv event_back2back: 1000 launches of an empty kernel queued in one stream behind the gate, between one pair of events, 1.364 us each (median of 10): the GPU's cost of starting a kernel of a stream after the one before it, as reproducible.cu's two-pass sum queues its second launch (the 0.503 us of graph_replay is a CUDA graph's, which no lab or microbenchmark sum uses)",
			"Cost.DRAMEfficiency":             Measured + h200Run + "/csv/bandwidth.csv: device-to-device copy of 1 GiB, 4.27 TB/s",
			"Cost.DRAMLoneGranuleFactor":      Measured + "calibration/evidence/2026-11-30-h200-ncu-sums-stride (ncu-stride-1.csv, ncu-stride-2.csv): access.cu's read_stride with lanes 64 and 128 bytes apart reads the same 8.39M DRAM sectors (268 MB; a lane's 32-byte sector pulls its 64-byte granule), at 89.6% of the DRAM's peak with both granules of every line read and at 78.1% with one granule a line (twice the L1's requests to the L2, 4.19M against 2.10M): 89.6/78.1 = 1.147 times the DRAM time for a granule read alone. Fitted from the stride-32 launch's counters: the fidelity cell of stride 32 is calibration",
			"Cost.IssueIPC":                   Guide + "Compute Capability 9.0: an SM has four warp schedulers, each issuing one warp instruction per cycle; counted in issue slots (gpusim/internal/engine/issue.go), the queue microbenchmark's FMA loops (" + h200Round2 + "/csv/queue.csv, uneven k = 1) agree",
			"Cost.StoreLineCycles":            Calibrated + h200QueueLoop + "/csv/queue_loop.csv grid lab st static, fitted with StoreSectorCycles (see there): the L2's work on a store line request, counted per SM over all the SMs' requests. With every SM storing alike these rows cannot say whether the SM or the L2 takes the time; queue_sm.csv (StorePathLineCycles) says the SM's own path takes a one-sector request in 2.02 cycles, about half of the 4 this fit gives it, so the fit's price is the L2's. ncu of the same loop at k = 8 with atomic pops (" + h200QueueLoop + "/ncu/ncu-lab-st.txt) puts the L2 at 68.7% of its peak throughput and the L1 at 60.8%, the L2 taking 6.31 million write sectors in 1.055 million requests where the L1 received 4.20 million sectors. Before the SM's path was priced apart, this was the SM's, fitted to " + h200Evidence3 + "/csv/queue_lab.csv (the queue lab's even k = 64: thread pops 0.0897 ms, warp pops 0.1067 ms) while the simulator spread the queue's winners evenly",
			"Cost.StoreSectorCycles":          Measured + h200QueueLoop + "/csv/queue_loop.csv grid lab st static (the queue lab's item loop with fixed batches, no atomics; 993 warp stores per SM, lanes k words apart, every SM alike) at k = 4, 8 and 16: 0.02310, 0.04291 and 0.05062 ms less the launch (Cost.LaunchUs), 40,392, 79,636 and 94,842 SM cycles over 3,972, 7,944 and 15,888 line requests per SM of 4, 4 and 2 partly written sectors (11,916, 23,832 and 15,888 further ones): k = 16 against k = 8 (as many sectors, twice the requests) gives 1.91 cycles a request and 2.03 a partly written sector, 3.94 a request with its first sector and 2.03 a further one; the profile keeps 4 (StoreLineCycles) and 2 (10.0, 10.0 and 6.0 cycles a request against 10.2, 10.0 and 5.97). These three rows are calibration; the queue lab's atomic-pop cells and queue_loop's atomic rows are not. Whole sectors cost nothing more (lab coal static, one line of four whole sectors a store: 0.01446 ms against 0.01376 without stores). The L2's work, counted per SM over all the SMs' requests (StorePathLineCycles is the SM's own)",
			"Cost.StorePathLineCycles":        Measured + h200QueueSM + "/csv/queue_sm.csv, even costs, k = 1024 (the busiest SM holds 16 to 23 of the 128 winning warps, whose lanes store 4 KiB apart: one line request of one partly written sector each, while the rest of the GPU hardly stores): its 524,288 to 753,664 line requests in 1.06 to 1.52 M SM cycles, 2.02 cycles a request in every launch; at k = 64 (31 to 37 winners on the busiest SM) 2.3 to 2.7 with the launch's start included. This row is calibration; queue.cu's even k = 64 and k = 1024 fidelity cells, the same kernel without the recording, are not fitted to it (they were the source of no parameter). The L2's price of the same requests (StoreLineCycles + StoreSectorCycles' per-SM share) binds only where every SM stores alike: queue_loop.csv's static rows need 10 cycles a four-sector request, which one SM's path at 2.02 cannot take alone. calibration/evidence/2026-11-30-h200-store-sm/csv/store_sm.csv (validation, nothing fitted): one store loop on 1, 2 or 8 SMs alone takes 2.00 cycles a one-sector request; with every SM storing, a four-sector request takes 9.2 to 9.8 (the L2's term: 10). calibration/evidence/2026-12-01-h200-store-merge (validation, nothing fitted): one SM alone, 2.00 a one-sector request whether a warp's four back-to-back stores write the same sectors or distinct lines (no merging), and queue.cu's pop_thread and the lab's popThread at even k = 1024 each 2.02 to 2.04 on their busiest SM, their L2 write requests equal to their L1 store sectors under ncu: the stores are priced unmerged, as the H200 sends them. The same store_sm rows price one SM's further sectors (StorePathSectorCycles, StorePathWholeSectorCycles: a request of four partly written sectors 5.0 cycles, a whole line 3.9) and the L2's whole sectors (StoreWholeSectorCycles: every SM together, a whole line 8.6)",
			"Cost.StorePathSectorCycles":      Calibrated + h200StoreSM + "/csv/store_sm.csv, one SM storing (active_sms 1), lanes 4 and 8 words apart (line requests of four partly written sectors): 4.977 and 4.988 SM cycles a request, less StorePathLineCycles' 2.02 for the request and its first sector, 0.99 a further sector (0.986, 0.989). These two rows are calibration; the 2- and 8-SM rows (4.979 to 4.994) are the same loop on more SMs, each SM's own path",
			"Cost.StorePathWholeSectorCycles": Calibrated + h200StoreSM + "/csv/store_sm.csv, one SM storing (active_sms 1), lanes one word apart (a line of four whole sectors a request): 3.898 SM cycles a request, less StorePathLineCycles' 2.02, 0.63 a further whole sector. This row is calibration; the 2- and 8-SM rows (3.917, 3.937) are the same loop on more SMs",
			"Cost.StoreWholeSectorCycles":     Calibrated + h200StoreSM + "/csv/store_sm.csv, every SM storing (active_sms 132), lanes one word apart (a line of four whole sectors a request, L2-resident): 8.639 SM cycles a request, less StoreLineCycles' 4, 1.55 a further whole sector (the model gave 4 before: whole sectors added nothing). This row is calibration; the same rows at 4 and 8 words apart (four partly written sectors: 9.798 and 9.220, the model 10) are validation of StoreLineCycles and StoreSectorCycles",
			"Cost.ChainWriteShare":            Calibrated + h200QK4 + "/csv/qk4.csv (the queue lab's pop loop, even costs, 4M items, every warp popping): the simulator's time without the share against the H200's, over the l2 writes term, on six rows: sweep lab st k = 2 (0.0616 ms against 0.0571, writes 0.0100: 0.445), coal at k = 2, 4 and 8 (0.0591, 0.0351, 0.0232 against 0.0571, 0.0332, 0.0212, writes 0.0043: 0.452, 0.442, 0.465) and bps lab st k = 4 with 4 and 2 blocks an SM (0.0397, 0.0393 against 0.0301, 0.0286: 0.481, 0.536); their mean 0.47. These six rows are calibration; the lab's own shape (sweep lab st k = 4, 8 blocks an SM, 0.0438: the model 0.0423) and the queue lab's cells are not. The same rows show what slows the chain: without stores the H200 serves a pop in the simulator's time at 8, 4 and 2 blocks an SM (0.0337, 0.0306, 0.0290 ms; the model 0.0332, 0.0301, 0.0286), with the lab's stores it takes 1.97 to 2.08 cycles a pop at every one of them where it took 1.49 (the head's serving slowed, not too few warps at it); other SMs' stores alone (noise halfsm, the popping SMs storing nothing) slow it 17 to 25%, loads 50%, and the same SMs' stores (halfw) more (not modelled apart: the share lumps the L2's part and the SM's)",
			"Cost.BlockStaggerCycles":         Measured + h200L2SM + "/csv/l2sm.csv, first and firstsync start_ns and start_p50_ns (10 launches of 8 blocks of 256 on each SM): an SM's median block starts 30.4 ns (median over the SMs) after its first, 3.5 block starts later: 8.7 ns, 17 cycles, apart",
			"Cost.FirstWaveStartCycles":       Measured + h200L2SM + "/csv/l2sm.csv, first and firstsync start_ns: each SM's first block's start on the global timer after the launch's first (the mean of 10 launches, 32 ns ticks) at 1.98 cycles a ns, 0 to 158 cycles. The block scheduler hands consecutive blocks to the two SMs of a TPC, and the odd-numbered SM starts 32 ns (median) after its pair: in part first (queue.cu's first pop), its warps almost never win the head, where with every warp released at one global-timer tick (firstsync) the pair wins alike",
			"Cost.FirstWaveJitterCycles":      Calibrated + h200L2SM + "/csv/l2sm.csv part first (queue.cu's first pop alone, launches 1 to 4): the first 2,048 warps the head served sit on 103 to 107 SMs, up to 39 to 41 on one, 1,787 to 1,803 on even SMs; the first 128 on 27 to 34 SMs, up to 12 to 14 on one; the H200's launches repeat the order (the first 128 per SM correlate 0.74 to 0.95 between launches). With the full JitterCycles (400, more than the first wave's whole 0 to 158 cycles of start times) at the first atomic the simulator put the first 2,048 on 132 SMs, up to 31 to 35, 1,346 to 1,370 on even SMs, and the first 128 on 47 to 51 SMs, up to 7 to 9; at 60 (seeds 1 to 3) 99 to 100 SMs, up to 48, 1,727 to 1,752 on even SMs, and 29 to 32 SMs, up to 9 to 11; at 30 89 to 91 SMs, up to 47 or 48, 1,753 to 1,776 on even SMs, and 24 or 25 SMs, up to 11 or 12 (gpusim/placement_test.go). 30 is the value whose first 128 come nearest the H200's (the busiest SM's share of them sets a batched queue's time at k = 1024), its first 2,048 on somewhat fewer SMs than the H200's, the busiest with about 8 more. Fitted to these rows, which are calibration; JitterCycles stays at every later atomic and at the first of later waves' warps, so the float sums' run-to-run spread (determinism.csv) is not this parameter's. Those rows read the global timer (ordered) before the atomic, which gathers the first pops: calibration/evidence/2026-12-01-h200-firstpop/csv/firstpop.csv (validation, nothing fitted) has the same first pop with nothing before the atomic, as the labs' kernels, on 32 to 38 SMs, up to 9 to 11 (the simulator's busiest SM holds 11 or 12), and the first 2,048 on 130 to 132 SMs, up to 28 to 30, a third on odd SMs (the simulator: 89 to 91, up to 47 or 48, gpusim/placement_test.go TestQueueWinnersPlacementBare)",
			"Cost.Scoreboard":                 Measured + h200Evidence3 + "/sass/nvcc-reproducible.sass, tree_partials: each level of the block tree issues its two LDS back to back before the FADD that waits for both, then the STS and the BAR without waiting for the store, with the index arithmetic hoisted out of the unrolled levels; the simulator's IR charged both loads' and the store's latencies and its copies and markers, and priced the reproducible lab's tree kernels 1.3x the H200 (calibration/evidence/2026-11-30-h200-gpu-evidence-final-labs-2.txt); ncu finds the warps of tree_partials waiting on shared loads (short scoreboard, 9.8 of the 26.7 cycles between a warp's issues: calibration/evidence/2026-11-30-h200-ncu-sums-stride)",
			"Cost.LoopUnrollALU":              Measured + "calibration/evidence/2026-11-30-h200-microbench-gated3/sass/queue.sm_90.sass and " + h200Round3 + "/sm_issue.sm_90.sass: ptxas unrolls a loop whose body is register arithmetic alone again, to 16 FFMA a branch (" + h200Evidence3 + ": the lab's runtime FMA loop too)",
			"Cost.HoistInvariants":            Measured + "calibration/evidence/2026-11-30-h200-l1reuse/sass/l1reuse.sm_90.sass, grid_sum: the grid-stride loop's gridDim.x * blockDim.x is one IMAD above the loop, one IADD3 a trip steps i; calibration/evidence/2026-11-30-h200-microbenchmarks-gated2/sass/histshape.sm_90.sass, priv_small: the zero loop is 5 SASS a trip (IMAD, IMAD.IADD with blockDim.x from a register, STS, ISETP, BRA), no S2R or constant load in it",
			"Cost.ConvergenceSlots":           Measured + "calibration/evidence/2026-11-30-h200-microbenchmarks-gated2/sass/histshape.sm_90.sass, priv_small's merge loop: BSSY B0 before the LDS and its ISETP/BRA, BSYNC B0 after the REDG, every trip (9 SASS a trip for an empty bin, 11 for a full one); the same in priv_resident and priv_contig",
			"Cost.BranchSlots":                Measured + "every loop and branch of the SASS read for gpusim/internal/engine/sass_test.go (histshape priv_small's zero and merge loops, priv_resident's walk, l1reuse grid_sum, the queue lab's item and FMA loops) compares with an ISETP and branches with a predicated BRA: two instructions where the IR has one; with one slot the zero, merge and walk loops were 1 to 2 SASS a trip short",
			"Cost.AggregationSlots":           Measured + h200Evidence3 + "/sass/nvrtc-lab-popThread.sass (0x7a0 to 0x870) and nvrtc-lab-popWarp.sass (0xf0 to 0x1b0): the warp-aggregated atomicAdd whose result the lanes use is the ATOMG and 11 beside it (S2R SR_LANEID, VOTEU.ANY, FLO, UPOPC or POPC, IMAD for the warp's total, ISETP for the leader; S2R SR_LTMASK, LOP3, POPC, SHFL.IDX, IMAD for each lane's start), the parameters' LDC aside; the lab's pop at k = 1 is 23 SASS beside its item, the model 19 with them (gpusim/internal/engine/sass_test.go)",
			"Cost.UnrollRemainderSlots":       Measured + h200Evidence3 + "/sass/nvrtc-lab-popThread.sass, the even path (0x970 to 0xcd0): the FMA loop with a run-time count enters through 17 SASS beside its FFMAs and its 16-FFMA body's bottom tests (ISETP/BRA on count >= 1, a BRA on count - 1 >= 3, ISETP/BRA on the unrolled part > 0, > 12, > 4, != 0 and on the remainder, a MOV, two PLOP3, an HFMA2 for the constant): 15 beside the first test (ISETP/BRA, the IR's looptest at Cost.BranchSlots); the uneven path adds BSSY/BSYNC pairs and the remainder's setup (27 to 29 in all). The lab's item is 63 SASS at 32 FMAs (the model 45 without this and BranchSlots, 64 with them: gpusim/internal/engine/sass_test.go)",
			"Cost.Schedulers":                 Guide + "Compute Capability 9.0: an SM has four warp schedulers; a warp's slot decides its scheduler",
			"Cost.SchedulerIPC":               Guide + "Compute Capability 9.0: each warp scheduler issues one warp instruction per cycle; " + h200Round3 + "/csv/sm_issue.csv agrees: a dependent FMA chain takes 4.44 cycles an FMA with up to four warps a scheduler (19 issue slots per 16 FMAs: under one a cycle), 9.43 with eight (two slots asked per cycle: halved)",
			"Cost.SchedulerCharge":            Measured + "calibration/evidence/2026-11-30-h200-queue-sm/csv/queue_sm.csv, bysched: a winning warp's cycles an FMA grow with the winners that share its scheduler (4.8 to 5.0 alone, 5.3 to 5.7 with four, 8.6 to 9.3 with nine to twelve), so a warp pops its next batch only once its scheduler has issued its last one's work; the lab's uneven queue at one item a pop (every warp working, 16 a scheduler) runs 0.146 ms on the H200 (-s7-final-backend.txt), 13% over its issue slots' 0.129 ms, where charging after the schedule alone keeps the items each warp got at its latencies (0.155 ms; charged in the schedule 0.144). Not moved: a warp's first atomic (the first wave's arrival is FirstWaveJitterCycles, fitted) and a served compare-and-swap (CASOrderedCycles, fitted to cas_wait.csv with the loops' issue in it)",
			"Cost.LoopUnroll":                 Measured + h200Evidence3 + ": NVRTC and nvcc (CUDA 13.0, sm_90) unroll an innermost counted loop by 4 (reduce_partials: four LDG in flight per trip; popThread's FMA loop: remainder j & 3, then ptxas unrolls the FMA-only body again to 16)",
			"Cost.SharedWavefrontsPerCycle":   Measured + h200Gated2 + "/csv/access.csv (as in " + h200Round2 + ", ungated): shared loads with a 2- to 32-way bank conflict take 2 to 32 times one cycle per warp request per SM",
			"Cost.ALUCycles":                  Calibrated + "dependent-issue latency of the ALU pipes",
			"Cost.SFUCycles":                  Calibrated + "the softmax denominators of the atomics-vs-warp-shuffle course notes",
			"Cost.SharedCycles":               Calibrated + "the Day 26 tree sum at small n",
			"Cost.GlobalCycles":               Calibrated + "the Day 26 tree and shuffle sums at small n",
			"Cost.AtomicCycles":               Calibrated + "assumed equal to a global load",
			"Cost.BarrierCycles":              Calibrated + "the Day 26 tree sum at block sizes 256 to 1024 (" + h200Run + "/csv/day26_blocksize.csv): what each arriving warp pays; the release after the last one is Cost.BarrierBaseCycles + Cost.BarrierWarpCycles a warp (measured), 30 at 8 warps as the calibration had it",
			"Cost.BarrierBaseCycles":          Measured + h200BlockQ + "/csv/blockq.csv bar loop at one block: __syncthreads back to back (ptxas unrolls the loop to 16 BAR.SYNC in a row) take 15.64, 17.64, 21.66, 29.71, 45.78 and 78.11 SM cycles each in a block of 1, 2, 4, 8, 16 and 32 warps, 13.6 + 2.015 a warp (least squares; every row within 0.1 cycle of the line)",
			"Cost.BarrierWarpCycles":          Measured + h200BlockQ + "/csv/blockq.csv bar loop at one block: 2.015 cycles a warp of the block (see Cost.BarrierBaseCycles); full grids (2048 threads an SM) agree on the rate, 2.1 to 2.3 cycles per warp arrival per SM at 2 to 64 warps a block (the event times less Cost.LaunchUs)",
			"Cost.BlockStartCycles":           Measured + h200Run + "/csv/waves.csv: each extra wave of blocks adds about 0.7 us",
			"Cost.SharedFloatA":               Calibrated + h200Run + "/csv/day26_blocksize.csv, shared-atomic sum at 256, 512 and 1024 threads (with A + B/W for a block of W warps, every lane alike: calibration/evidence/2026-11-30-h200-microbench-softmax-small has 256 lanes on one shared float at a flat 42 ns each at 1 to 132 blocks)",
			"Cost.BlockDispatchCycles":        Measured + h200Round3 + "/csv/sm_issue.csv, dispatch: 65,536 almost empty blocks of 64 to 512 threads take 0.0446 to 0.0449 ms, 156 cycles a block per SM past the launch (timed ungated: 5.7 us); consecutive block starts on one SM past the first wave 139 to 153 cycles apart (median)",
			"Cost.WarpDispatchCycles":         Measured + h200Round3 + "/csv/sm_issue.csv, dispatch: 65,536 blocks of 1024 threads take 0.0623 ms, 226 cycles a block per SM, 7.06 a warp (blocks of 512 and fewer threads: BlockDispatchCycles)",
			"Cost.SharedFloatB":               Calibrated + h200Run + "/csv/day26_blocksize.csv and atomics_shared.csv",
			"Cost.SharedInt":                  Measured + h200Run + "/csv/atomics_shared.csv: u32 per-lane atomics to one address, 0.52 ns per op per SM",
			"Cost.SharedFloatPipeCycles":      Measured + h200SharedQ + "/csv/sharedq.csv queue const at 1056 blocks (8 an SM, one wave): 256 lanes a block add 1.0f into one shared float, the SM's 2048 lanes in a median span of 25,499 SM cycles (first block start to last block end on the SM, clock64), 12.45 a lane; at 1, 2 and 4 blocks an SM the blocks run side by side at their latency (20,685 to 22,762 cycles)",
			"Cost.SharedCASConvoyCycles":      Measured + h200BlockQ + "/csv/blockq.csv queue const aligned and lab natural: one block's 256 lanes whose warps reach the loop within 28 cycles of each other take 83.8 cycles a lane from the first entry to the last exit (83.1 to 84.7 over 1,290 launches): one success an interval, the warps in turn",
			"Cost.SharedCASPhasesCycles":      Measured + h200BlockQ + "/csv/blockq.csv queue const asc 32 and lab natural at x + 256 b for b = 1, 5, 8, 12: warps reaching the loop 30 to 60 cycles apart take 43.5 cycles a lane (43.2 to 46.5 over 500 launches)",
			"Cost.SharedCASWindowCycles":      Calibrated + h200BlockQ + "/csv/blockq.csv and " + h200BlockQ + "-2/csv/blockq.csv queue rows with the warps' arrival set (aligned, staggered, permuted, halves, pairs, a leader, random; 7,800 launches in two runs): a queue that switches to the two-phase rate once its warps' arrivals (modulo 83.8) spread over W gets 74.5% of their modes at W = 39 (73.6% at 31, 74.3% at 35, 74.3% at 41; mean span error 15% at any W from 33 to 41; the phase model needs 83.8/3 < W < 83.8/2). Those rows are its calibration; the lab-shape rows (lab natural, 3,200 launches, arrivals from the kernel's own load and expf) and part fma (a kernel the fit never saw) are its validation: 3,197 of 3,200 modes right, spans within 1% of the measured on average",
			"Cost.BarrierStaggerCycles":       Measured + h200L2Line + "/csv/l2line.csv lab rows (the softmax lab's one-block kernel, 1,280 launches on 128 blocks' worth of x): each warp's entry to the queue less its line's L2 latency from the same SM (line rows) puts the 8 warps 0, 3, 5, 8, 8, 11, 12 and 15 cycles apart (medians: warps 4, 6, 5, 0 and 7, 2, 1, 3), 15 cycles over 8 warps, 2.1 a warp, whatever their lines (the order is not modelled: the engine releases them in warp order). The blockq rows' entries with their lines alike agree (spreads 13 to 25). With it the simulator runs 32 of 128 placements of that kernel fast (Cost.LoadSpreadCycles), the H200 41 of 128 (without it 8)",
			"Cost.SharedCASPhasesMaxWarps":    Calibrated + h200BlockQ + "/csv/blockq.csv and " + h200L2Line + "/csv/l2line.csv measured the two-phase rate in blocks of 8 warps (256 threads) only, so larger blocks keep the convoy however their warps arrive. The Day 26 lab's block-size sweep checks it at 32 warps: its shared-atomic sum at 1024 threads and n = 4,194,304 took 0.5077 ms on the H200 (calibration/evidence/2026-11-30-h200-gpu-evidence-s6-final-backend.txt; the model's convoy 0.540, its two-phase rate 0.362), though each block's 32 loads land on 8 of the 256-byte units whose latencies differ by up to 77 cycles (Cost.LoadSpreadCycles); 16 warps was not measured",
			"Cost.LoadSpreadCycles":           Measured + h200L2SM + "/csv/l2sm.csv lat rows: the cycles of one step of a dependent chain of __ldcg loads that hit the L2, from each of the 132 SMs to each of 73 words (9,636 pairs), less the SM's mean over the words: 259 to 342 cycles in all, -40.0 to +36.7 about the SM's mean, two humps at about -20 and +15; the two SMs of a TPC within 1.4 cycles of each other (median 0.1). The ventiles of those 9,636 deviations. The unit that shares a latency (256 bytes, bit 9 left out) is from the same rows (a word and the word 512 bytes on: the same latency from every SM, within 0.1 cycle) and " + h200BlockQ + "/csv/blockq.csv lab natural (the warps 512 bytes apart reach the queue together). Validation, not fitted: " + h200L2Line + "/csv/l2line.csv, 1,024 lines from every SM: ventiles within 1 cycle of these; lines that differ in address bit 7 or 9 alike (median 0.1 cycle), in bit 8 or 10 to 14 apart (17 to 21); the two halves of a 1 KB block 26 cycles or more apart in 37.5% of blocks (two draws from these ventiles: 36.3%)",
			"Cost.SharedPopcWavefronts":       Measured + h200SharedQ + "/csv/sharedq.csv walk histContig at 256 bins, 1056 blocks: with its ATOMS.POPC.INC 0.04296 ms, with a register sum in its place 0.03162 (hot input 0.04277 and 0.03123: the same whatever the banks), 11.3 us for 524,288 warp instructions over 132 SMs, 5.65 SM cycles each",
			"Cost.L2AddrNs":                   Measured + h200Run + "/csv/atomics_global.csv: 32 addresses in one line, 2.34 ns per warp transaction, 0.073 ns an address",
			"Cost.L2SectorNs":                 Measured + h200Run + "/csv/atomics_global.csv: 32 addresses in one line (4 sectors) and 8 to 16 addresses with 2 to 4 lanes each take 2.34 ns per warp transaction: 0.585 ns a sector",
			"Cost.L2MaxParallelLines":         Measured + h200Run + "/csv/atomics_global.csv: one atomic per line over 512 to 4096 lines runs 50 to 70 lines' worth of operations at once",
			"Cost.L2OpF32Ns":                  Measured + h200Run + "/csv/atomics_global.csv: float atomicAdd to one address, 1.755 ns each (docs/measurements.md: 0.570 G/s)",
			"Cost.L2OpF64Ns":                  Calibrated + "assumed equal to float",
			"Cost.L2OpIntNs":                  Measured + h200Run + "/csv/atomics_global.csv: u32 atomicAdd to one address without warp aggregation (one_rt), 0.731 ns each",
			"Cost.L2LinesAtOnce":              Measured + h200Run + "/csv/sliced.csv, thread_lanes padded: 16,777,216 atomics spread over 1 to 128 padded slices, one line each, take 12.29 ms on 1 line and 14.29, 7.16, 6.37, 3.20, 1.61, 1.06 and 0.536 ms on 2 to 128: the operation time (0.731 ns) times the atomics over the time, 0.86 to 22.9 lines at once; 256 and 512 lines from " + h200Gated2 + "/csv/counters.csv, u32 thread_warp packed, k = 8192 and 16384 counters (256 and 512 lines, every one hot together): 0.49760 and 0.28518 ms less the launch, 24.6 and 43.0 lines at once (its 4 to 128 lines agree with sliced.csv within 23%)",
			"Cost.L2Timed":                    Measured + "calibration/evidence/2026-11-30-h200-mergeburst/csv/mergeburst.csv: a privatised histogram's merge (one global atomic per bin per block) after the lab's resident walk, whose blocks end their walks within 5 us of each other, adds 5.3, 6.0 and 9.6 us at 256, 1024 and 4096 bins (10.0 on hot input), against 8.8, 9.1 and 15.4 us for the merge alone (drain rows, 1056 blocks), and the launch ends within about 1 us of the last block's merge issue; after the contiguous walk, whose blocks end over 50 us, it adds 2.6 and 3.3 us (also " + "calibration/evidence/2026-11-30-h200-microbench-sharedq/csv/sharedq.csv, walk rows: 5.7 and 12.4 us, 2.1 and 3.2)",
			"Cost.L2InFlight":                 Calibrated + h200HotLines + "/csv/hotlines.csv sweep max_padded at C = 1024 to 65536 threads per address, one group per line (7 rows): the lines at once each implies (4,194,304 atomics at L2OpIntNs over the time less the launch, read back through L2LinesAtOnce) times the operations a line receives, C, is 430k to 636k operations, median 489k; its max_packed rows (32 groups a line, 32 to 4096 threads per address) imply 434k to 714k and are validation, as are the cas lab's cells",
			"Cost.JitterCycles":               Calibrated + h200Run + "/csv/determinism.csv",
			"Cost.CASServed":                  Measured + h200CASWait + "/csv/cas_wait.csv: in a contended CAS loop the load of the word waits a median 11,393 cycles at 4096 threads per word and 18,633 at 65,536 (pct load_cycles), and the warps that start microseconds after their group's first still read -infinity (since_first; and " + h200Round3 + "/csv/cas_timeline.csv): a CAS compares when its line serves it, and a load reads the word without the CAS still queued; a CAS lane takes the line 0.731 ns failing or not (lane cas_fail, cas_match)",
			"Cost.CASOrderedCycles":           Calibrated + h200CASWait + "/csv/cas_wait.csv total: the CAS loop's failed compares a warp, 27.36 at 4096 threads per word and 10.48 at 65,536, modelled 29.0 and 10.6 with 8000 cycles (6000: 26.9 and 9.2; 0, arrival order always: 61.8 and 48.8): those two rows are calibration; its 256 and 4M rows (modelled 62.3 and 1.68 a warp, measured 61.9 and 2.13) and the cas lab's cells are validation",
		}),
	})
	register(&Profile{
		Name: "gtx1650", Device: "GeForce GTX 1650", Arch: "sm_75",
		Provenance: "measured: one float-atomic rate of the course notes; the rest the T4's",
		SMs:        14, MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 1024, MaxBlocksPerSM: 16, MaxWarpsPerSM: 32,
		SharedPerSM: 64 << 10, SharedPerBlock: 48 << 10, RegsPerSM: 65536,
		L1SharedPerSM: 96 << 10, SharedCarveoutsKB: []int{32, 64},
		ClockMHz: 1665, MemoryBytes: 4 << 30, DRAMGBps: 128, L2Bytes: 1 << 20, L2Slices: 8, L2Partitions: 1, L2HashBytes: 128,
		Cost: Cost{
			BaseClockMHz: 1485, LaunchUs: 2.0, DRAMEfficiency: 0.75, IssueIPC: 2, SharedWavefrontsPerCycle: 1,
			ALUCycles: 4, SFUCycles: 16, SharedCycles: 30, GlobalCycles: 500, AtomicCycles: 600,
			BarrierCycles: 30, BlockStartCycles: 600,
			SharedFloatA: 85, SharedFloatB: 116, SharedInt: 8,
			L2AddrNs: 0.087, L2SectorNs: 0.697, L2OpF32Ns: 2.08, L2OpF64Ns: 2.08, L2OpIntNs: 0.9, L2LinesAtOnce: h200LinesAtOnce, L2MaxParallelLines: 64,
			JitterCycles: 400, SharedJitterDivisor: 8,
			BlockStaggerCycles: 75, BlockRefillCycles: 150, LocalCycles: 16, StoreCycles: 8,
		},
		Sources: sources(limits("7.5", 64), turingAssumed, assumedScheduling("the T4's values"), map[string]string{
			"SMs":               Datasheet + "GeForce GTX 1650 (TU117, 14 SMs, 896 CUDA cores): the 14-SM Turing part of the atomics-vs-warp-shuffle course notes",
			"ClockMHz":          Datasheet + "GeForce GTX 1650 boost clock 1665 MHz",
			"MemoryBytes":       Datasheet + "GeForce GTX 1650, 4 GB",
			"DRAMGBps":          Datasheet + "GeForce GTX 1650, 128 GB/s GDDR5",
			"L2Bytes":           Datasheet + "TU117, 1 MB L2",
			"L2Slices":          Calibrated + "assumed: two slices of 128 KB per 32-bit memory controller, four on TU117's 128-bit bus (NVIDIA does not document Turing's L2 slices)",
			"L2Partitions":      Calibrated + "assumed: one (the split L2 is documented from the A100 on)",
			"L2HashBytes":       Calibrated + "assumed: a 128-byte line per slice (not measured on Turing)",
			"L1SharedPerSM":     Datasheet + "NVIDIA Turing architecture whitepaper: 96 KB of unified L1 and shared memory per SM",
			"Cost.BaseClockMHz": Datasheet + "GeForce GTX 1650 base clock 1485 MHz",
			"Cost.L2OpF32Ns":    Measured + "the atomics-vs-warp-shuffle course notes: 16,777,216 float atomicAdds to one address in 34.95 ms, 2.08 ns each",
		}),
	})
	for _, p := range []*Profile{
		{
			Name: "a100", Device: "NVIDIA A100-SXM4-80GB", Arch: "sm_80",
			SMs: 108, MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32, MaxWarpsPerSM: 64,
			SharedPerSM: 164 << 10, SharedPerBlock: 48 << 10, RegsPerSM: 65536,
			L1SharedPerSM: 192 << 10, SharedCarveoutsKB: []int{0, 8, 16, 32, 64, 100, 132, 164}, SharedReservedPerBlock: 1 << 10,
			ClockMHz: 1410, MemoryBytes: 80 << 30, DRAMGBps: 2039, L2Bytes: 40 << 20, L2Slices: 80, L2Partitions: 2, L2HashBytes: 512,
			Sources: sources(limits("8.0", 164), map[string]string{
				"SMs": Datasheet + "NVIDIA A100 Tensor Core GPU architecture whitepaper: 108 SMs", "ClockMHz": Datasheet + "A100 boost clock 1410 MHz",
				"MemoryBytes": Datasheet + "A100 80GB SXM", "DRAMGBps": Datasheet + "A100 80GB SXM, 2039 GB/s",
				"L2Bytes": Datasheet + "A100 whitepaper, 40 MB L2", "L2Slices": Calibrated + "assumed: 512 KB slices, 80 in all (not measured here)", "L2Partitions": Datasheet + "A100 whitepaper: the L2 is divided into two partitions", "L2HashBytes": Calibrated + "assumed: the H200's 512 bytes (not measured here)", "L1SharedPerSM": Datasheet + "A100 whitepaper: 192 KB of combined L1 data cache and shared memory per SM",
			}),
		},
		{
			Name: "l4", Device: "NVIDIA L4", Arch: "sm_89",
			SMs: 58, MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 1536, MaxBlocksPerSM: 24, MaxWarpsPerSM: 48,
			SharedPerSM: 100 << 10, SharedPerBlock: 48 << 10, RegsPerSM: 65536,
			L1SharedPerSM: 128 << 10, SharedCarveoutsKB: []int{0, 8, 16, 32, 64, 100}, SharedReservedPerBlock: 1 << 10,
			ClockMHz: 2040, MemoryBytes: 24 << 30, DRAMGBps: 300, L2Bytes: 48 << 20, L2Slices: 48, L2Partitions: 1, L2HashBytes: 512,
			Sources: sources(limits("8.9", 100), map[string]string{
				"SMs": Datasheet + "NVIDIA L4 (AD104, 58 SMs, 7424 CUDA cores)", "ClockMHz": Datasheet + "NVIDIA L4 boost clock 2040 MHz",
				"MemoryBytes": Datasheet + "NVIDIA L4, 24 GB GDDR6", "DRAMGBps": Datasheet + "NVIDIA L4, 300 GB/s",
				"L2Bytes": Datasheet + "NVIDIA Ada whitepaper, AD104 48 MB L2", "L2Slices": Calibrated + "assumed: 1 MB slices (NVIDIA does not document Ada's L2 slices)", "L2Partitions": Calibrated + "assumed: one (not documented for Ada)", "L2HashBytes": Calibrated + "assumed: the H200's 512 bytes (not measured here)", "L1SharedPerSM": Datasheet + "NVIDIA Ada whitepaper: 128 KB of L1 and shared memory per SM",
			}),
		},
	} {
		// No measurements of these GPUs: their cost parameters are the
		// H200's (the same L2 atomic design since sm_80), said so per field
		// and in the profile's provenance, which a user sees beside its
		// name.
		h := all["h200"]
		p.Provenance = UnmeasuredH200
		p.Cost = h.Cost
		p.Cost.BaseClockMHz = 0
		p.Cost.FirstWaveStartCycles, p.Cost.FirstWaveJitterCycles = nil, 0
		for k := range h.Sources {
			if len(k) > 5 && k[:5] == "Cost." {
				p.Sources[k] = Calibrated + "assumed: the H200's value (" + h.Sources[k] + "); no measurement of this GPU"
			}
		}
		p.Sources["Cost.FirstWaveStartCycles"] = Calibrated + "not modelled: every SM's first block at once (the H200's table is by its SM ids; no measurement of this GPU)"
		p.Sources["Cost.FirstWaveJitterCycles"] = Calibrated + "not modelled (FirstWaveStartCycles is not)"
		register(p)
	}
}

// UnmeasuredH200 is the provenance of the profiles whose cost
// parameters are the H200's, with no measurement of their own GPU.
const UnmeasuredH200 = "unmeasured: H200 parameters"

// h200LinesAtOnce is Cost.L2LinesAtOnce of the H200 (its source says
// where each point comes from): how many lines' worth the L2 serves at
// once does not follow the number of hot lines smoothly (2 lines are
// served more slowly than 1, 8 hardly faster than 4).
var sm90Carveouts = []int{0, 8, 16, 32, 64, 100, 132, 164, 196, 228}

// h200LoadSpread is Cost.LoadSpreadCycles of the H200 (its source says
// how it was read from l2sm.csv): the ventiles of an L2 load's latency
// about its SM's mean, in SM cycles.
var h200LoadSpread = []float64{
	-40.0, -24.6, -22.3, -19.6, -17.4, -15.9, -14.1, -12.3, -9.3, -6.4, -0.8,
	5.5, 8.5, 11.5, 13.8, 16.2, 18.1, 20.4, 22.6, 25.6, 36.7,
}

// h200FirstWave is Cost.FirstWaveStartCycles of the H200 (its source
// says where it comes from), by SM id.
var h200FirstWave = []int32{
	13, 76, 51, 146, 70, 146, 63, 127, 19, 82, 19, 108, 19, 120, 63, 146, 13, 101, 76, 146, 89, 146,
	57, 139, 19, 89, 19, 108, 32, 127, 70, 146, 44, 114, 89, 146, 82, 152, 82, 158, 32, 127, 38, 127,
	51, 127, 89, 158, 6, 63, 32, 95, 44, 108, 44, 101, 0, 63, 6, 70, 13, 95, 44, 108, 57, 139,
	70, 146, 44, 146, 19, 89, 19, 95, 13, 95, 63, 146, 76, 146, 76, 152, 76, 152, 32, 114, 38, 120,
	51, 127, 95, 158, 38, 70, 38, 70, 44, 82, 0, 25, 6, 25, 6, 44, 32, 82, 57, 101, 70, 108,
	51, 108, 6, 70, 6, 70, 6, 70, 44, 108, 25, 120, 82, 158, 6, 70, 32, 120, 0, 57, 19, 108,
}

var h200LinesAtOnce = []LinesAtOnce{
	{1, 1}, {2, 0.86}, {4, 1.71}, {8, 1.92}, {16, 3.84}, {32, 7.64}, {64, 11.6}, {128, 22.9}, {256, 24.6}, {512, 43.0},
}

// assumedScheduling are the sources of the scheduling and latency
// parameters no measurement isolates: they were constants of the
// simulator's first cost model, chosen by hand (an eighth and a quarter of
// BlockStartCycles, four and two ALU latencies, an eighth of the jitter)
// and never fitted separately; how is the profile's own note.
func assumedScheduling(how string) map[string]string {
	what := map[string]string{
		"Cost.SharedJitterDivisor": "the jitter at a shared atomic, an eighth of JitterCycles",
		"Cost.BlockStaggerCycles":  "the stagger of a launch's first blocks on an SM, an eighth of BlockStartCycles",
		"Cost.BlockRefillCycles":   "the delay before a freed slot's next block, a quarter of BlockStartCycles",
		"Cost.LocalCycles":         "a local-memory access, four ALU latencies",
		"Cost.StoreCycles":         "a store or reduction the warp does not wait for, two ALU latencies",
	}
	out := map[string]string{}
	for k, v := range what {
		out[k] = Calibrated + "assumed, not measured or fitted: " + v + " (" + how + ")"
	}
	return out
}

// turingAssumed are the sources of the Turing parameters the GTX 1650
// profile takes from the T4's.
var turingAssumed = map[string]string{
	"Cost.LaunchUs":                   Calibrated + "assumed: the T4's value",
	"Cost.QueuedLaunchUs":             Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.DRAMEfficiency":             Calibrated + "assumed: the T4's value",
	"Cost.IssueIPC":                   Calibrated + "assumed: the T4's value",
	"Cost.LoopUnroll":                 Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.DRAMLoneGranuleFactor":      Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.Scoreboard":                 Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.StoreLineCycles":            Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.StoreSectorCycles":          Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.StorePathLineCycles":        Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.StorePathSectorCycles":      Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.StorePathWholeSectorCycles": Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.StoreWholeSectorCycles":     Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.ChainWriteShare":            Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.LoopUnrollALU":              Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.HoistInvariants":            Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.ConvergenceSlots":           Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.UnrollRemainderSlots":       Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.BranchSlots":                Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.AggregationSlots":           Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.Schedulers":                 Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.SchedulerIPC":               Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.SchedulerCharge":            Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.LoadLineCycles":             Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.L1OverlapPower":             Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.L2ReadGBps":                 Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.BlockDispatchCycles":        Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.L2InFlight":                 Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.L2Timed":                    Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.WarpDispatchCycles":         Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.SharedWavefrontsPerCycle":   Calibrated + "assumed: the T4's value",
	"Cost.ALUCycles":                  Calibrated + "assumed: the T4's value",
	"Cost.SFUCycles":                  Calibrated + "assumed: the T4's value",
	"Cost.SharedCycles":               Calibrated + "assumed: the T4's value",
	"Cost.GlobalCycles":               Calibrated + "assumed: the T4's value",
	"Cost.AtomicCycles":               Calibrated + "assumed: the T4's value",
	"Cost.BarrierCycles":              Calibrated + "assumed: the T4's value",
	"Cost.BlockStartCycles":           Calibrated + "assumed: the T4's value",
	"Cost.SharedFloatA":               Calibrated + "assumed: the T4's value",
	"Cost.SharedFloatB":               Calibrated + "assumed: the T4's value",
	"Cost.SharedInt":                  Calibrated + "assumed: the T4's value",
	"Cost.SharedFloatPipeCycles":      Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.BarrierBaseCycles":          Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.SharedCASConvoyCycles":      Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.SharedCASPhasesCycles":      Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.SharedCASWindowCycles":      Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.LoadSpreadCycles":           Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.SharedCASPhasesMaxWarps":    Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.BarrierStaggerCycles":       Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.BarrierWarpCycles":          Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.SharedPopcWavefronts":       Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.L2AddrNs":                   Calibrated + "assumed: the T4's ratio to the float operation time",
	"Cost.L2SectorNs":                 Calibrated + "assumed: the T4's ratio to the float operation time",
	"Cost.L2MaxParallelLines":         Calibrated + "assumed: the T4's value",
	"Cost.L2OpF64Ns":                  Calibrated + "assumed equal to float",
	"Cost.L2OpIntNs":                  Calibrated + "assumed: the T4's ratio to the float operation time",
	"Cost.L2LinesAtOnce":              Calibrated + "assumed: the T4's value",
	"Cost.JitterCycles":               Calibrated + "assumed: the T4's value",
	"Cost.CASServed":                  Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.CASOrderedCycles":           Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.FirstWaveStartCycles":       Calibrated + "assumed: the T4's value (not modelled)",
	"Cost.FirstWaveJitterCycles":      Calibrated + "assumed: the T4's value (not modelled)",
}
