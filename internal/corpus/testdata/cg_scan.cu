// An inclusive block scan with cooperative groups: each warp scans with
// shfl_up, the warp totals are scanned by the first warp, and each warp
// adds the total of the warps before it.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <typename T>
__device__ T warpInclusiveScan(cg::thread_block_tile<32> warp, T v) {
    for (int d = 1; d < 32; d <<= 1) {
        T other = warp.shfl_up(v, d);
        if (warp.thread_rank() >= d) v += other;
    }
    return v;
}

__global__ void blockScan(const int* in, int* out, int* blockTotals, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ int warpTotals[32];
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    int s = warpInclusiveScan(warp, v);
    if (warp.thread_rank() == warp.size() - 1) warpTotals[warp.meta_group_rank()] = s;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        int t = warp.thread_rank() < warp.meta_group_size() ? warpTotals[warp.thread_rank()] : 0;
        warpTotals[warp.thread_rank()] = warpInclusiveScan(warp, t);
    }
    block.sync();
    if (warp.meta_group_rank() > 0) s += warpTotals[warp.meta_group_rank() - 1];
    if (i < n) out[i] = s;
    if (block.thread_rank() == block.size() - 1) blockTotals[block.group_index().x] = s;
}
