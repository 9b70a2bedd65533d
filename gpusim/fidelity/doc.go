// Package fidelity holds the simulator to measured GPU figures: it runs the
// reference kernels (the Day 26 course page's sums, the H200 table
// measured for this project, the softmax denominators of the
// atomics-vs-warp-shuffle course notes, the Day 26 course page's
// determinism table; all in docs/measurements.md) on gpusim's profiles and reports, per table cell, the predicted
// and measured times and their ratio, the fastest kernel per size, the
// ratios the lessons quote, and whether each is within Tolerance.
//
// `warplab fidelity` prints the report; its test fails when a target is
// missed, so a change to the simulator or the cost model cannot silently
// make the labs teach something the hardware does not do.
package fidelity
