// A histogram with cooperative groups: each block privatises the bins in
// shared memory; within a warp, the threads that hold the same bin form a
// labeled partition, and only its first thread adds the partition's size.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BINS 64
#define BIN_OF(v) ((v) & (BINS - 1))

__global__ void histogramCG(const unsigned int* data, unsigned int* bins, int n) {
    cg::thread_block block = cg::this_thread_block();
    __shared__ unsigned int local[BINS];
    for (int b = block.thread_rank(); b < BINS; b += block.size()) local[b] = 0;
    block.sync();

    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int stride = gridDim.x * block.size();
    // Every thread of the warp runs the same number of rounds, so the
    // partition below always sees whole warps.
    int rounds = (n + stride - 1) / stride;
    for (int r = 0; r < rounds; r++) {
        int i = r * stride + block.group_index().x * block.size() + block.thread_rank();
        unsigned int bin = i < n ? BIN_OF(data[i]) : BINS; // BINS: no bin
        cg::coalesced_group same = cg::labeled_partition(warp, bin);
        if (bin < BINS && same.thread_rank() == 0) atomicAdd(&local[bin], same.size());
    }
    block.sync();
    for (int b = block.thread_rank(); b < BINS; b += block.size())
        if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}
