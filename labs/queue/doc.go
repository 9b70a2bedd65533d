// Package queue is the queue lab: a global work queue whose head is one
// counter, popped with atomicAdd(head, k) for batches of k items, on items
// of even and uneven cost.
//
// The course notes say that batching makes the atomic rate fall by k. The
// H200 (calibration/evidence/2026-11-30-h200-microbench-gated3, queue.csv:
// 4M items, 1056 blocks of 256) says more: with even costs the time falls
// from k = 1 (0.107 ms) to k = 4..8 (0.035 ms) and then rises again (0.93
// ms at k = 4096), because the batches become too few to keep the threads
// busy and the last ones form a tail; with uneven costs (one item in 64
// costing 128 times the rest) it rises from k = 1 on, since a batch that
// holds heavy items keeps its thread long after the others are done. And
// k = 1 is not one atomic per thread: nvcc folds a warp's atomicAdd to one
// address into one (VOTEU.ANY + UPOPC + one ATOMG in the run's
// sass_atomics.txt) even though every lane uses its own start, which the
// simulator's counters show (lane atomicAdds against atomics to the L2).
//
// # Experiments
//
//   - Sweep runs the queue at every k on each cost distribution and checks
//     every item's output. On a GPU each time is the mean of timed launches
//     after warm-ups, with the simulator's prediction beside it.
//   - Fidelity runs the simulator's H200 profile on the H200's own cells
//     and sets each beside the committed median (H200Measurements).
//
// # Exercise
//
// Given a cost distribution, pick k, read its time and say why (Answer);
// Check re-runs every power of two up to a bound and compares.
//
// Lab runs everything as notebooks/queue.ipynb does; the package registers
// the lab as "queue" for `warplab lab queue`.
package queue
