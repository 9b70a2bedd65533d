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
// (kernels/litmus.cu), with and without __threadfence(), and load
// buffering with __threadfence_block() on both sides, __threadfence() on
// one side only, relaxed atomic read-modify-writes as the loads (with and
// without the fence) and a store of the value read. On the simulator
// under the relaxed model each outcome PTX allows appears for some seed
// (load buffering from loads satisfied late, after the stores that follow
// them have reached the other block) and each it forbids never does.
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
// The relaxed model is a subset of PTX: what it shows is allowed, and
// what PTX allows it may not show. Load buffering (kernels/litmus.cu's
// lb: r = other; mine = 1, in two blocks; both reading 1) comes from
// gpusim's loads satisfied late: a global load or relaxed atomic whose
// result the thread does not use before a later global store, with only
// straight-line arithmetic, stores and block-scope fences in between. A
// branch, a barrier, another load or atomic, or a release store between
// the load and the store ends that window, so the simulator never shows
// load buffering across them, though PTX allows some of those (a branch
// that does not depend on the value orders nothing). Inside a block the model is stronger than PTX
// (a block sees its own stores at once). Zero weak outcomes in such a
// shape on the simulator is a limit of the model, not a promise of PTX;
// the lab's forbidden rows are zero because PTX forbids them.
package ordering
