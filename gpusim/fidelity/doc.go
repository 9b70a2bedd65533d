// Package fidelity holds the simulator to measured GPU figures: it runs the
// reference kernels (the Day 26 course page's sums, the H200 table
// measured for this project, the softmax denominators of the
// atomics-vs-warp-shuffle course notes, the Day 26 course page's
// determinism table; all in docs/measurements.md) on gpusim's profiles and
// reports, per table cell, the predicted and measured times and their
// ratio, the fastest kernel per size, the ratios the lessons quote, and
// whether each is within Tolerance.
//
// # Validation and calibration
//
// Some of these measurements were used to fit the profiles' parameters;
// a cell that fitted a parameter cannot also test it. Each Cell therefore
// names what it fitted (Cell.Fits: profile parameters, or the clock a
// table's rows ran at), and the report keeps the two kinds apart:
// validation cells, which fitted nothing, come first; calibration cells
// follow with what each fitted. A ratio or a fastest-kernel ranking is a
// validation target only when every cell behind it is. A test checks the
// Fits lists against the profiles' own sources, in both directions.
//
// Where two runs measured a cell (another toolkit, or another build on the
// same machine), the cell holds both, named by Table.Runs, and is scored
// against their mean, with their spread reported.
//
// `warplab fidelity` prints the report and exits 1 when any target, of
// either kind, is missed; its test fails then too, so a change to the
// simulator or the cost model cannot silently make the labs teach
// something the hardware does not do.
package fidelity
