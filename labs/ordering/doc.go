// Package ordering is the ordering lab: publishing data from one block to
// another with a flag, and the memory order and scope that makes it
// correct.
//
// # The experiment
//
// Publish runs message passing between pairs of blocks (kernels/mp.cu):
// the producer writes a payload, then a flag; the consumer spins on the
// flag, then reads the payload, and counts a stale read when the payload
// is older than the flag. Four variants order the accesses with nothing
// (plain or volatile accesses), with __threadfence_block() (block scope,
// too narrow between blocks) and with __threadfence() (device scope,
// correct).
//
// On the simulator the lab runs the device under its relaxed memory model
// (gpu.MemoryRelaxed, the spec's memory=relaxed): stores reach other
// blocks late and out of order and loads may return older values, within
// what the PTX memory model allows, seed by seed. Its counts are what the
// model allows, and the first stale seed of each variant replays a stale
// read. On a GPU the counts are what happened, and Lab runs the simulator's
// relaxed model beside them. The table quotes what the project's H200
// measured with the same test (Measured): no stale read in 1,689,600
// trials of the volatile variant, where the model allows them, and a stale
// read in every trial of the plain variant, because the compiler loaded the
// payload once before the spin loop.
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
// store that follows them) and never with it, as PTX says.
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
// The simulator's CUDA subset has no cuda::atomic_ref yet, so the lab's
// kernels order with fences; the H200 figure for a release/acquire
// atomic_ref pair is quoted from the microbenchmark.
package ordering
