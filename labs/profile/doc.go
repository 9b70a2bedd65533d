// Package profile is warplab's profile view: a table in the spirit of
// Nsight Compute's details page, built from what the simulator counts and
// models for a launch (gpu.Counters and the cost model's breakdown in
// gpu.Result.Timing), with a measured time beside it when the same launch
// ran on a GPU. Every lab can show its kernels this way:
//
//	v := profile.New(dev.Info(),
//		profile.Launch{Name: "atomic", Block: 256, Timing: res1.Timing, Counters: res1.Counters},
//		profile.Launch{Name: "shuffle", Block: 256, Timing: res2.Timing, Counters: res2.Counters})
//	charts.Show(v, v.MixChart())
//
// # What it shows, and where each figure comes from
//
// Each row of the table says how its figure was obtained:
//
//   - counted: an event count of the simulator's run of the launch
//     (instructions by class, memory requests and sectors, atomics,
//     shuffles, barriers). The simulator executes the kernel, so these
//     are what the kernel does, not estimates; a GPU's profiler would
//     count the same events, up to what the compiler emits.
//   - modelled: a figure of the cost model (the time, which resource
//     bounds it, throughputs derived from the modelled time, occupancy
//     from the profile's limits, the warp-cycles spent waiting at
//     barriers).
//   - measured: the time CUDA events measured on a GPU, with its warm-ups
//     and repetitions.
//
// The sections: duration (and what bounds it), memory (bytes moved and
// the throughput they make over the modelled time), the L2 (its hit rate,
// its sector accesses, the busiest slice's share of them and the DRAM
// traffic of its load misses and the stores, all modelled, with Nsight
// Compute's figures beside them where a lab has them as evidence:
// "profiled"), L2 atomics (issued operations, their throughput, and the
// busiest 128-byte line), instructions by class, occupancy (resident
// blocks, theoretical occupancy, waves) and barrier waits.
//
// # The L2 model, and what it leaves out
//
// The simulator's L2 starts each launch empty, as Nsight Compute's does
// (it flushes the caches before each profiled launch): a 64-byte granule's
// first touch misses, later touches hit while it is resident, least
// recently used within the profile's L2 size. Lines go to the profile's
// slices by a hash, since the devices' own hashes are not documented: the
// busiest slice is right when a few hot lines load it (one hot address
// makes its slice the bottleneck) and only statistical otherwise. The
// simulator does not model achieved occupancy over time or per-pipeline
// utilisation; the table's notes list these, so that nobody reads a
// figure the simulator does not have into one it does.
package profile
