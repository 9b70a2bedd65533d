// Package counters is the counters lab: one global count that every
// thread adds 1 to, spread over k slices of an array of counters, the
// slices packed (neighbouring words, 32 to a 128-byte line) or padded (a
// line each), and the aggregation ladder from one atomic per thread to
// one per warp, one per block and one add per grid.
//
// The course notes claim that slices sharing a 128-byte line serialise
// like one counter, so that padding each slice to its own line is what
// buys the speed-up. The H200 (calibration/evidence/2026-11-30-h200-
// microbenchmarks-gated2, counters.csv) says that holds when the 32 lanes
// of a warp all add to one slice (Rung ByWarp: k = 32 packed 11.64 ms,
// padded 1.59 ms), and fails when a warp's lanes spread over the slices of
// one line (ByLane: packed 1.23 ms, padded 1.60 ms): the warp's request to
// one line is served by the L2 as one operation. The lab shows both, with
// the simulator's counters (distinct addresses and lines, the longest
// chain on one address and on one line, the L2 time of the busiest line)
// beside the times.
//
// # Experiments
//
//   - Sweep runs every rung at every k, packed and padded, and checks that
//     every launch counted every thread. On a GPU each time is the mean of
//     timed launches after warm-ups, and the simulator's prediction of the
//     same GPU goes beside it (PredictedTable).
//   - Fidelity runs the simulator's H200 profile on the H200's own cells
//     (16,777,216 threads) and sets each beside the committed H200 median
//     (H200Measurements), with the faster layout by each.
//
// # Exercise
//
// Given a byte budget for the slices and threads that pick their slice by
// warp, choose k and the layout, read its time and say why (Answer). The
// check (Check) re-runs every choice that fits and compares.
//
// Lab runs everything as the notebook notebooks/counters.ipynb does; the
// package registers the lab as "counters" for `warplab lab counters`.
package counters
