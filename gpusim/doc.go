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
//
// gpu.ParseSpec checks the syntax and the values; opening the device checks
// that the profile exists and, for clock=base, that it has a base clock.
//
// A launch's results and counters are a pure function of the source, the
// inputs, the launch, the profile and the seed.
//
// # Memory models
//
// By default global memory is sequentially consistent: a store is visible
// to every block once it executes. Under memory=relaxed each block's plain
// and volatile global stores wait in a store buffer and reach other blocks
// after a seeded delay, out of order across addresses, and a global load
// may return any value its address held since the block's last acquire:
// the weak behaviours PTX allows between blocks, such as a consumer that
// sees a flag but reads the payload from before it. __threadfence() (a
// release and an acquire at device scope), atomics (coherent per address),
// grid_group::sync() and a warp's exit restore order as the PTX model says;
// __threadfence_block() orders nothing another block observes. Inside a
// block the model stays stronger than PTX (a block sees its own stores at
// once), and load buffering is never produced. The litmus tests in
// weak_test.go (message passing, store buffering, load buffering, with and
// without fences) pin each outcome down. The relaxed model runs a launch's
// blocks on one goroutine and takes every global access through the
// checked path: it is for small kernels about ordering, not for speed.
package gpusim
