// Package cas is warplab's compare-and-swap lab: a float maximum by
// atomics, right and fast.
//
// CUDA has no atomicMax for floats. The lab's kernels (kernels/cas.cu)
// fold v[i] into m[i / C], C threads contending per address:
//
//   - maxCAS: a compare-and-swap loop that compares as floats and leaves
//     as soon as the stored value is not smaller (so a NaN is never
//     stored, and a thread that reads a larger value sends no atomic);
//   - maxIntTrick: one hardware atomicMax on the float's bits read as an
//     int, wrong whenever the right answer is negative: a negative float's
//     bits are a negative int that grows as the float shrinks;
//   - maxSignAware: atomicMax on the int bits of a float whose sign bit is
//     clear, atomicMin on the unsigned bits of one whose sign bit is set:
//     right for every non-NaN float;
//   - maxDocLoop: the shape of the course notes' loop. The notes warn that
//     their atomicMaxFloat is only right for non-negative floats; the loop
//     compares as floats, so it is right for negatives too. What the
//     warning describes is maxIntTrick.
//
// Correctness runs them on every pair of special values (signs, both
// zeros, infinities, extremes, a subnormal) and random pairs, and reports
// each kernel's first counterexample. Contention times them against the
// threads per address and counts the CAS loop's retries (the simulator's
// gpu.Counters.CASFailures: an atomicCAS whose compare failed), beside the
// H200's rows (H200Rows, from
// calibration/evidence/2026-11-30-h200-microbenchmarks-gated2/csv/cas.csv). On
// the H200 the CAS loop is faster than the hardware atomicMax from 4,096
// contenders per address (65,536: 1.14 vs 3.05 ms).
//
// # Exercise
//
// The student writes atomicMaxFloat; Check runs foldMax on hidden sizes
// (which pick the group size, see ExerciseContenders) with negatives,
// -0.0, both infinities and NaNs. NaNPolicy states the rule for NaN.
package cas
