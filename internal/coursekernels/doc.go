// Package coursekernels holds the CUDA kernels of the course documents
// warplab's labs are built from, retyped as compilable .cu files.
//
// The four documents, named in this repository by their short titles (see
// docs/measurements.md for what each one covers and the figures taken
// from it):
//
//   - the counters-and-aggregates course notes, "Atomics and Contention in
//     Counters and Aggregates";
//   - the atomics-vs-warp-shuffle course notes, "Atomic Operations, Warp
//     Shuffle, and the Register Cache: A Deep Dive with Online Softmax";
//   - the Day 26 course page, "Day 26, Module 3: CUDA atomicAdd and what
//     contention costs";
//   - the atomic-operations reference, "Atomic Operations".
//
// Each file starts with a comment naming the document and section it comes
// from. The kernels are as the documents write them; only typography is
// fixed (an en-dash written for a minus), and the few definitions a snippet
// assumes but does not show (kThreadsPerBlock, WARPS_PER_BLOCK, lane_id, a
// kernel that calls a __device__ helper so it can be launched) are added
// and marked with a comment. hist_missing_barrier.cu is the one kernel
// written here: the r/CUDA poster's privatised histogram without its
// barrier, a deliberate data race.
//
// The files are embedded in FS; Source returns one by name.
package coursekernels
