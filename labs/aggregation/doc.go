// Package aggregation is warplab's lab on warp-aggregated atomics: one
// atomic per warp instead of one per lane, what nvcc already does by
// itself, and where only a hand-written atomicAggInc helps.
//
// # The lesson
//
// A ticket counter hands every lane a slot: stream compaction through one
// global counter, or a per-bucket append where each element asks its own
// bucket's counter. Aggregating inside the warp turns 32 atomics into one,
// and the lab measures when that pays:
//
//   - One counter. compactAtomic lets every kept lane call
//     atomicAdd(count, 1u) and use the ticket it returns. nvcc already
//     aggregates it: the address is one the compiler can prove is the
//     same for the whole warp, so it emits a vote, a popc, one atomic for
//     the warp and a shuffle of the old value plus each lane's rank (the
//     SASS is in calibration/evidence/2026-11-30-h200-nvcc-atomics-sass.txt, and `warplab sass`
//     shows it on a machine with the CUDA toolkit). compactBallot (a
//     ballot and popc by hand) and compactAggInc (atomicAggInc) therefore
//     gain nothing; compactHidden, the same kernel with the counter's
//     address read from memory, shows what the compiler saved.
//   - Many counters. bucketAtomic's address depends on the data, so the
//     compiler aggregates nothing, even when every lane of a warp has the
//     same key. bucketAggInc groups the lanes by address with
//     __match_any_sync and sends one atomic per group: a large gain at one
//     key per warp, none at 32.
//   - Correctness. The tickets must be a permutation: every kept element
//     lands in one slot, every slot is written once. Which warp reaches the
//     counter first is up to the scheduler, so the order of the output
//     changes from run to run, the same non-determinism as a float sum
//     built from atomics; on the simulator each seed replays one order.
//
// The simulator's compiler model (gpusim) applies nvcc's rule, so its
// counters say how many lane operations the compiler folded and how many
// atomics reach the L2.
//
// # Experiments
//
// Ladder runs every kernel once (on the simulator) or after warm-ups, ten
// times (on a GPU), checks every launch's tickets and returns a
// LadderTable: the atomics the lanes ask for and those that reach the L2,
// the time and the speed-up over the case's per-lane atomicAdd. On a GPU
// it also runs the same ladder on the simulator profile that predicts the
// GPU, so PredictedTable shows measured beside predicted for every kernel.
// Order runs a compaction several times and compares the outputs.
//
// # Exercise
//
// The student writes atomicAggInc for the per-bucket append
// (bucketAppend, in the notebook's answer cell, starting from
// AnswerTemplate). Check runs it through labs/kernelcheck on the simulator
// at sizes that are not multiples of 32 and under several scheduler seeds,
// and reports part by part: it compiles; every launch's buckets hold each
// of their elements once; no race or warp-synchronous misuse; the global
// atomics stay within one per distinct key in each warp; its time beside
// the lab's bucketAggInc.
//
// The package registers the lab as "aggregation" (see package labs).
package aggregation
