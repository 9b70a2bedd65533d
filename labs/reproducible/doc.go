// Package reproducible is warplab's Day 68 lab: sums that do not change
// from run to run, and what they cost.
//
// Day 26 showed that a float sum built from atomics changes its low bits
// from run to run: float addition is not associative, and the order in
// which atomics to one address land is whatever the hardware did. This
// lab builds the remedies and prices them.
//
// # Experiments
//
// Sums runs five sums (kernels/reproducible.cu, the kernels of the H200
// microbenchmark reproducible.cu) several times over one input,
// 1 + (i mod 1000)/1000 in float32, and reports per sum the distinct
// totals (by their bits), the worst error against a Kahan double
// reference and the median time:
//
//   - atomic_global: one float atomicAdd per element;
//   - tree_atomic: a shared-memory tree per block, one float atomicAdd per
//     block;
//   - two_pass: the tree's partials to a buffer, then one block adds them
//     in a fixed order;
//   - two_pass_kahan: the same with Kahan compensation in the second pass;
//   - fixed_point: each block's partial as a 64-bit integer count of
//     2^-20, added with one integer atomicAdd per block (integer addition
//     is associative, so every order gives the same bits).
//
// On the simulator each run has its own scheduler seed, which draws the
// order of same-address atomics; on a GPU the runs are consecutive
// launches.
//
// Order runs the two atomic sums and the two-pass sum on the simulator
// with its atomics in seeded order and with the spec option
// order=deterministic, beside the H200's distinct counts: the option
// makes the atomic sums reproducible on the simulator only. A GPU has no
// such switch; the fixed-order sums are reproducible there too (the
// H200: 20 runs, one distinct total).
//
// Predict models each sum at 4,194,304 (or 16,777,216) elements on the
// simulator's h200 profile and sets it beside the H200's measured medians
// (H200Rows quotes
// calibration/evidence/2026-11-30-h200-microbench-gated3/csv/reproducible.csv),
// timed as they were: reproducible.cu times the two launches of a
// two-pass sum between one pair of events, so the second, queued behind
// the first, costs the GPU's dispatch of a queued kernel and not a second
// launch overhead (gpu.Device.Queued, which warplab fidelity's cell of the
// same sum uses too). On a GPU it also runs each sum 20 times there, timed
// as Sums times them, each launch by its own events, and sets beside that
// the model of the launches timed apart (PredictRow.PredictedApart).
//
// # Exercise
//
// The student makes a given atomic reduction (AnswerTemplate, one float
// atomicAdd per block) reproducible. Check runs the kernel through
// labs/kernelcheck at several sizes under eight scheduler seeds: it must
// be right, give one distinct result per size (the checker's
// reproducibility part), be free of races, and take at most
// ExerciseMaxSlowdown times the atomic version's modelled time. On a GPU
// the reproducibility part also launches it 20 times there.
package reproducible
