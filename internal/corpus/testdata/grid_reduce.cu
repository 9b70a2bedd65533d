// A grid-synchronised reduction in one cooperative launch: blocks reduce
// their share, the grid synchronises, block 0 reduces the partial sums.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ float blockReduce(cg::thread_block block, float v, float* scratch) {
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0) scratch[warp.meta_group_rank()] = v;
    block.sync();
    v = warp.thread_rank() < warp.meta_group_size() ? scratch[warp.thread_rank()] : 0.0f;
    if (warp.meta_group_rank() == 0) v = cg::reduce(warp, v, cg::plus<float>());
    block.sync();
    return v;
}

__global__ void gridReduce(const float* in, float* partial, float* result, int n) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ float scratch[32];
    float v = 0.0f;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) v += in[i];
    v = blockReduce(block, v, scratch);
    if (block.thread_rank() == 0) partial[grid.block_rank()] = v;
    grid.sync();
    if (grid.block_rank() == 0) {
        float w = 0.0f;
        for (int b = block.thread_rank(); b < grid.num_blocks(); b += block.size()) w += partial[b];
        w = blockReduce(block, w, scratch);
        if (block.thread_rank() == 0) *result = w;
    }
}
