// Package ordering is the ordering lab: publishing data from one block to
// another with a flag, and the memory order and scope that makes it
// correct.
//
// # The experiment
//
// Publish runs message passing between pairs of blocks (kernels/mp.cu):
// the producer writes a payload, then a flag; the consumer spins on the
// flag, then reads the payload, and counts a stale read when the payload
// is older than the flag. Six variants order the accesses with nothing
// (plain or volatile accesses), with __threadfence_block() (block scope,
// too narrow between blocks), with __threadfence() (device scope,
// correct), and with a device-scope cuda::atomic_ref flag: stored and
// loaded with memory_order_relaxed (atomic, but ordering nothing else:
// stale reads allowed) or stored with memory_order_release and loaded
// with memory_order_acquire (correct, no fence needed). The same source,
// <cuda/atomic> included, runs on the simulator and through NVRTC.
//
// On the simulator the lab runs the device under its relaxed memory model
// (gpu.MemoryRelaxed, the spec's memory=relaxed): stores reach other
// blocks late and out of order and loads may return older values, within
// what the PTX memory model allows, seed by seed. Its counts are what the
// model allows, and the first stale seed of each variant replays a stale
// read. On a GPU the counts are what happened, and Lab runs the simulator's
// relaxed model beside them. The table quotes what the project's H200
// measured with the same test (Measured): no stale read in 1,689,600
// trials of the volatile variant, where the model allows them, a stale
// read in every trial of the plain variant, because the compiler loaded the
// payload once before the spin loop, and none in 1,689,600 trials of the
// microbenchmark's release/acquire atomic_ref pair.
//
// Scope runs the scope experiment (kernels/scope.cu): every thread of a
// grid adds to one global counter with atomicAdd (device scope) and with
// atomicAdd_block (block scope). PTX makes atomics atomic with respect to
// each other only when each one's scope includes the other's thread, so
// block-scope atomics of different blocks may lose updates; the relaxed
// model performs them in each block's view and loses some, seed by seed,
// and ScopeTable.ReplaySpec names the spec that replays the first launch
// that did. A GPU's L2 performs every global atomic, so it usually counts
// right: allowed, not promised.
//
// Litmus runs store buffering and load buffering between pairs of blocks
// (kernels/litmus.cu), with and without __threadfence(): on the simulator
// under the relaxed model both weak outcomes appear for some seeds
// without the fence (load buffering from loads satisfied late, after the
// store that follows them) and never with it, as PTX says. See Limits for
// the load-buffering outcomes PTX allows that the simulator does not
// produce.
//
// # The exercise
//
// The student writes the kernel publish (AnswerTemplate is where it
// starts) with the narrowest correct order and scope. Check runs it
// through labs/kernelcheck on the simulator's relaxed model under 24 seeds
// and reports any stale read with the device spec that reproduces it, then
// whether the order is wider than device scope.
//
// # Limits
//
// Load buffering (kernels/litmus.cu's lb: r = other; mine = 1, in two
// blocks; both reading 1) is allowed by PTX whenever nothing orders each
// load before the store after it. The simulator produces it only where
// its loads satisfied late reach (gpusim's late loads): a plain, volatile
// or relaxed atomic_ref global load whose register the thread does not
// use before a later global store, with only straight-line arithmetic and
// stores in between. So it shows the outcome with no fence (the lab's lb
// row), and never with __threadfence() on both sides (lbFence), an
// acquire load or a data dependency, as PTX requires. It does not produce
// these outcomes, which PTX also allows (gpusim's TestRelaxedLoadBuffering
// records each at zero):
//
//   - __threadfence() or __threadfence_block() on one side only: the
//     unfenced side's load is still satisfied late, but the fenced side
//     would have to read the other's store before its own fence and
//     store, and that store then reach the late load, all within the late
//     load's window (at most the store buffer's delay after it issued):
//     none in 4,800 pairs;
//   - __threadfence_block() on both sides between blocks: a fence of any
//     scope ends the window, because a block-scope fence must still order
//     the load before the store for the threads of its own block, and the
//     window does not tell those observers from other blocks';
//   - relaxed atomic read-modify-writes as the loads (atomicAdd(other, 0)):
//     an atomic is performed when it issues, never late;
//   - a branch, a barrier or another load between the load and the store:
//     each ends the window.
//
// Zero weak outcomes in those shapes on the simulator is a limit of the
// model, not a promise of PTX. Message passing and store buffering have
// no such gap in the lab's shapes: each outcome PTX allows there appears
// for some seed.
package ordering
