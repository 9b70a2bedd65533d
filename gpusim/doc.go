// Package gpusim is warplab's simulator backend: it runs the CUDA C that
// cudac checks on a SIMT interpreter with a seeded scheduler, checks what
// real hardware would fault on (illegal and misaligned addresses, barrier
// divergence, resource limits) and what a sanitizer would report
// (shared-memory races, undefined warp-synchronous calls), counts what a
// profiler would count, and models the kernel's time on a device profile.
//
// Import it for its side effect of registering the "sim" backend:
//
//	import _ "github.com/warplab/warplab/gpusim"
//
//	dev, err := gpu.Open("sim:t4?seed=7")
//
// # Device specs
//
// "sim:PROFILE[?OPTIONS]" where PROFILE is one of profiles.Names() and
// OPTIONS are
//
//	seed=N                the seed of the first launch; launch k uses N+k (default 1)
//	order=deterministic   fix the order of atomics (no jitter; default seeded)
//	fmad=false            do not contract a*b+c into fused multiply-adds
//	racecheck=false       skip the shared-memory race check (faster)
//	budget=N              the default warp-instruction budget per launch (N > 0)
//	clock=MHZ|base|boost  run the profile's SMs at another clock (default boost)
//	memory=relaxed        a weak memory model instead of sequential consistency (default sc)
//	timeout=DURATION      the wall-clock limit of one launch, such as 30s; 0 for none (default 1m)
//
// gpu.ParseSpec checks the syntax and the values; opening the device checks
// that the profile exists and, for clock=base, that it has a base clock.
//
// A launch's results and counters are a pure function of the source, the
// inputs, the launch, the profile and the seed.
//
// # Limits
//
// Every byte of simulated device memory is a byte of host memory, held
// in a Go slice that the operating system maps lazily: an allocation (a
// buffer or a __device__ array) costs its size plus a small constant, and
// pages a kernel never touches cost nothing. An allocation past the
// profile's memory, or past what the host lends the simulator (the
// smallest of half its memory, three quarters of the memory cgroup's
// limit, half of RLIMIT_AS and GOMEMLIMIT: hostmem.go), fails before
// anything is allocated.
//
// A launch stops, with a *gpu.LaunchError that names the kernel, the warp
// and the source line, when it runs past any of
//
//   - its instruction budget, shared by all warps (budget=, or
//     LaunchConfig.MaxInstructions; by default max(2e8, 4096 per warp));
//   - one warp's own budget, when the launch sets none: at least 2^24 warp
//     instructions, more when the memory in use per thread is large, so a
//     single warp spinning in an endless loop is caught after its own
//     instructions (about a second), whatever the grid's size;
//   - the device's time limit (timeout=, a minute by default; ErrTimeout),
//     or the deadline or cancellation of its context
//     (Kernel.LaunchContext, gpu.OpenContext).
//
// The engine looks at the clock and the context between a few thousand
// warp instructions, never per instruction. A launch that runs longer than
// two seconds reports the blocks it has finished to LaunchConfig.Progress.
//
// # The L2
//
// Counters.L2Sectors, L2Hits, L2Slices and L2HotSliceSectors come from an
// L2 model (internal/engine's l2cache.go): the L2 starts each launch empty,
// as Nsight Compute's does; a 64-byte granule misses on its first touch and
// hits while resident (least recently used in the profile's L2Bytes); stores
// hit; lines go to the profile's L2Slices by a hash in units of
// L2HashBytes, in L2Partitions partitions, an SM's access to a line homed
// in the far partition being looked up in both. DRAMBytes is the loads'
// misses and the granules every store touches. On the H200 the SMs' sector count
// matches the profiler's exactly, and the hit rate and the busiest slice's
// share agree within a few points where the SMs' traffic dominates
// (l2ncu_test.go, calibration/evidence/2026-11-30-h200-ncu-l2).
//
// # What a prediction depends on
//
// A launch's prediction is a function of what the kernel does (cudac's IR
// of it), its inputs, the launch, the profile and the seed: never of the
// kernel's name, its file, its source bytes or the lab it comes from, so
// that a neutral edit (a comment, a blank line, a renamed identifier, two
// independent statements swapped) predicts the same, bit for bit
// (neutraledit_test.go). One property of ptxas's machine code that the IR
// cannot show matters on the H200: whether a kernel parameter is loaded on
// the uniform path (ULDC) before the address of the first global atomic,
// which gathers a work queue's first pops on fewer SMs
// (calibration/evidence/2026-12-01-h200-prolog). NVRTC gives every lab kernel
// with a global atomic that order, nvcc's build of the same loop in the
// microbenchmarks the other; the simulator models neither apart and
// starts every kernel in the block scheduler's measured order. Recorded
// SASS (package sassorder) is evidence and a test of the parser, not read
// by a launch.
//
// # Memory models
//
// By default global memory is sequentially consistent: a store is visible
// to every block once it executes. A plain global load reads memory when
// its warp runs, which the scheduler keeps close to, not exactly at, its
// place in virtual time; in a kernel that uses what its global atomics
// return, a warp's load of one word (every active lane on the same
// address) waits its turn like an atomic and sees every atomic before it,
// as a GPU's load sees what the L2 holds when it arrives: a CAS loop's
// failures depend on it. Under memory=relaxed each block's plain
// and volatile global stores wait in a store buffer and reach other blocks
// after a seeded delay, out of order across addresses, and a global load
// may return any value its address held since the block's last acquire:
// the weak behaviours PTX allows between blocks, such as a consumer that
// sees a flag but reads the payload from before it. __threadfence() (a
// release and an acquire at device scope), atomics (coherent per address),
// grid_group::sync() and a warp's exit restore order as the PTX model says;
// __threadfence_block() orders nothing another block observes. Inside a
// block the model stays stronger than PTX (a block sees its own stores at
// once). Load buffering comes from loads satisfied late: a global load or
// a relaxed atomic read-modify-write whose result is not yet used may be
// satisfied after the stores that follow it have reached other blocks,
// unless a device-scope fence, an acquire, a release store, a barrier, a
// branch or a dependency on the value comes first (a block-scope fence
// orders it only for its own block). The litmus tests in weak_test.go
// (message passing, store buffering, load buffering with and without
// fences, dependencies, atomics, between blocks, warps and lanes) pin each
// outcome down: each forbidden one never appears, each allowed one does
// for some seed. The relaxed model runs a launch's
// blocks on one goroutine and takes every global access through the
// checked path: it is for small kernels about ordering, not for speed.
package gpusim
