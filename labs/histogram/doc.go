// Package histogram is warplab's histogram lab: privatisation, the
// missing barrier, launch shape, partitioning and skew.
//
// # Experiments
//
// Shapes runs five kernels (kernels/histogram.cu) on three inputs (uniform
// bins, runs of 64 neighbours sharing a bin, and one hot bin holding 90%
// of the elements) and checks every histogram bin by bin:
//
//   - histGlobal: one global atomicAdd per element;
//   - histPrivate: shared bins per block, one block per 256 elements, one
//     global atomic per non-empty bin per block;
//   - histResident: the same on a grid of the blocks the device holds at
//     once, with a grid-stride (interleaved) loop;
//   - histContig: histResident with a contiguous chunk per thread;
//   - histGlobalContig: histGlobal with a contiguous chunk per thread.
//
// Each row carries the H200's time for the same kernel, input and bins
// (16M elements; H200Rows quotes
// calibration/evidence/2026-11-30-h200-microbenchmarks-gated2/csv/histshape.csv).
// ShapeTable.Findings draws the lab's comparisons from it: the launch
// shape (19x on the H200 for uniform bins), the course notes' rule that
// interleaved partitioning wins when the merge is an atomicAdd (on the
// H200 a tie for the privatised kernels, and contiguous wins for the
// global kernel on runs, where a thread's run hits one bin), and the skew
// (a hot bin slows global atomics, not privatised ones).
//
// MissingBarrier launches histNoBarrier, the course notes' privatised
// kernel without the __syncthreads() between zeroing the shared bins and
// adding to them, under several scheduler seeds: the simulator reports
// the race with both source lines and, run with interleave=fine
// (FineSpec: the block's warps take turns at every shared-memory access),
// loses counts; the table names the first seed that did and the spec that
// replays it (ReplaySpec), beside the H200, where no launch of 20 lost a
// count: a GPU may or may not show it.
//
// # Exercise
//
// The student writes the privatised kernel histogram(bin, n, hist, bins).
// Check runs it on hidden sizes (which also pick the bin counts, see
// ExerciseBins), seeds and inputs: exact counts, no race, and at most one
// global atomic per bin per block.
//
// # Simulator and GPU
//
// On the simulator each kernel runs once (the model is deterministic);
// on a GPU 3 warm-ups and 10 timed launches, the histogram zeroed before
// each. The h200 profile prices a thread's contiguous chunk as the H200
// runs it (the L1's line lookups, and the rereads that go to the L2 when
// the blocks' shared memory leaves the L1 too little room; see
// calibration/evidence/2026-11-30-h200-microbenchmarks-gated2, l1reuse.csv), and
// each warp's shared count (ATOMS.POPC.INC) as at least 5.65 cycles of the
// SM's shared-memory pipeline whatever banks it hits, so uniform, runs and
// hot inputs cost the same there, as on the H200
// (calibration/evidence/2026-11-30-h200-microbench-sharedq); the Turing profiles have no
// such measurement and over-price it, so the partitioning rows are read
// from the H200's column.
package histogram
