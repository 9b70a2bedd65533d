// Package corpus is warplab's own corpus of realistic CUDA kernels, written
// in the styles that public samples and course material use: a reduction
// family templated on its type and block size with a SharedMemory<T>
// struct, a cooperative-groups histogram and scan, a bitonic sort whose
// compare-and-exchange takes references, a tiled transpose, vector-type
// transposes (float4 records to planes and back, a tile of uchar4 pixels)
// a grid-synchronised reduction under a cooperative launch, and a stream
// compaction whose warps reserve room through a cuda::atomic_ref, with a
// lambda predicate, dim3 values and __reduce_add_sync where the
// architecture has it (testdata/*.cu).
//
// Its tests run every kernel, unmodified, on the simulator (sim:t4 and
// sim:h200, in CI) and on a GPU (TestCorpusGPU, with cudarun; it skips
// without one), and check the results against Go references.
package corpus
