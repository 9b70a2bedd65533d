// Package seeds holds the CUDA kernels of warplab's four source documents
// (shared/seeds/*.txt), retyped as compilable .cu files.
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
package seeds
