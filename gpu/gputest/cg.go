package gputest

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/warplab/warplab/gpu"
)

const cgSrc = `
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// A generic group: sync, rank and size work on any group.
__device__ int groupInfo(cg::thread_group g) {
    g.sync();
    return (int)g.size() * 1000 + (int)g.thread_rank();
}

__global__ void cgTiles(const int* in, int* out) {
    cg::thread_block block = cg::this_thread_block();
    int n = block.size();
    int t = block.group_index().x * n + block.thread_rank();
    int N = gridDim.x * n;
    int v = in[t];
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(block);
    cg::thread_block_tile<16> h = cg::tiled_partition<16>(block);
    cg::thread_block_tile<8> q = cg::tiled_partition<8>(block);
    cg::thread_block_tile<4> f = cg::tiled_partition<4>(h);
    auto p2 = cg::tiled_partition<2>(block);
    cg::thread_group q8 = cg::tiled_partition(block, 8);
    out[0 * N + t] = block.thread_index().x;
    out[1 * N + t] = w.shfl_down(v, 3);
    out[2 * N + t] = h.shfl_up(v, 2);
    out[3 * N + t] = q.shfl_xor(v, 5);
    out[4 * N + t] = f.shfl(v, 1);
    out[5 * N + t] = h.meta_group_rank() * 10000 + h.meta_group_size() * 100 + h.thread_rank();
    out[6 * N + t] = q.ballot(v & 1);
    out[7 * N + t] = (q.any(v > 40) ? 2 : 0) + (q.all(v > 0) ? 1 : 0);
    out[8 * N + t] = cg::reduce(w, v, cg::plus<int>());
    out[9 * N + t] = cg::reduce(h, v, cg::greater<int>());
    out[10 * N + t] = cg::reduce(q, v, cg::less<int>());
    out[11 * N + t] = (int)(cg::reduce(f, (float)v * 0.5f, cg::plus<float>()) * 2.0f);
    out[12 * N + t] = p2.shfl_xor(v, 1) + p2.size() * 1000;
    cg::coalesced_group lg = cg::labeled_partition(w, v % 3);
    out[13 * N + t] = lg.size() * 100 + lg.thread_rank();
    if (v % 2 == 0) {
        cg::coalesced_group a = cg::coalesced_threads();
        out[14 * N + t] = a.size() * 100 + a.thread_rank();
    } else {
        out[14 * N + t] = -1;
    }
    out[15 * N + t] = groupInfo(q8);
    cg::sync(block);
    out[16 * N + t] = groupInfo(block);
    cg::coalesced_group bp = cg::binary_partition(w, v > 20);
    out[17 * N + t] = bp.size() * 100 + bp.thread_rank();
    out[18 * N + t] = w.match_any(v % 4);
}

// Warp-aggregated increment: the group's first thread adds the group's
// size, and each thread takes one slot.
__device__ int aggInc(int* ctr) {
    cg::coalesced_group g = cg::coalesced_threads();
    int prev = 0;
    if (g.thread_rank() == 0) prev = atomicAdd(ctr, g.size());
    return g.shfl(prev, 0) + g.thread_rank();
}

__global__ void cgAggInc(int* ctr, int* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t % 3 != 0) out[t] = aggInc(ctr);
    else out[t] = -1;
}`

// cgInput is the input of cgTiles: small non-negative values.
func cgInput(n int) []int32 {
	in := make([]int32, n)
	for i := range in {
		in[i] = int32((i*37 + 11) % 97)
	}
	return in
}

// cgTilesWant computes cgTiles' outputs in Go.
func cgTilesWant(in []int32, block int) [][]int32 {
	n := len(in)
	want := make([][]int32, 19)
	for k := range want {
		want[k] = make([]int32, n)
	}
	b2i := func(b bool) int32 {
		if b {
			return 1
		}
		return 0
	}
	for t := 0; t < n; t++ {
		tid := t % block
		lane := tid % 32
		warp := t - lane
		v := func(l int) int32 { return in[warp+l] }
		seg := func(width int) []int { // the lanes of t's tile of width
			lo := lane &^ (width - 1)
			out := make([]int, width)
			for i := range out {
				out[i] = lo + i
			}
			return out
		}
		want[0][t] = int32(tid)
		want[1][t] = shflDown(v, lane, 3, 32)
		want[2][t] = shflUp(v, lane, 2, 16)
		want[3][t] = v(lane ^ 5)
		want[4][t] = shflIdx(v, lane, 1, 4)
		want[5][t] = int32(tid/16*10000 + block/16*100 + tid%16)
		var ballot uint32
		anyBig, allPos := false, true
		for i, l := range seg(8) {
			if v(l)&1 != 0 {
				ballot |= 1 << i
			}
			anyBig = anyBig || v(l) > 40
			allPos = allPos && v(l) > 0
		}
		want[6][t] = int32(ballot)
		want[7][t] = 2*b2i(anyBig) + b2i(allPos)
		var sum, maxv, minv, sum4 int32 = 0, -1 << 31, 1<<31 - 1, 0
		for _, l := range seg(32) {
			sum += v(l)
		}
		for _, l := range seg(16) {
			maxv = max(maxv, v(l))
		}
		for _, l := range seg(8) {
			minv = min(minv, v(l))
		}
		for _, l := range seg(4) {
			sum4 += v(l)
		}
		want[8][t], want[9][t], want[10][t], want[11][t] = sum, maxv, minv, sum4
		want[12][t] = v(lane^1) + 2000
		// Groups by a property within the warp: size*100 + rank.
		sizeRank := func(same func(l int) bool) int32 {
			size, rank := 0, 0
			for l := 0; l < 32; l++ {
				if same(l) {
					size++
					if l < lane {
						rank++
					}
				}
			}
			return int32(size*100 + rank)
		}
		want[13][t] = sizeRank(func(l int) bool { return v(l)%3 == v(lane)%3 })
		want[14][t] = -1
		if v(lane)%2 == 0 {
			want[14][t] = sizeRank(func(l int) bool { return v(l)%2 == 0 })
		}
		want[15][t] = int32(8*1000 + tid%8)
		want[16][t] = int32(block*1000 + tid)
		want[17][t] = sizeRank(func(l int) bool { return (v(l) > 20) == (v(lane) > 20) })
		var match uint32
		for l := 0; l < 32; l++ {
			if v(l)%4 == v(lane)%4 {
				match |= 1 << l
			}
		}
		want[18][t] = int32(match)
	}
	return want
}

func testCooperativeGroups(e *env) {
	const grid, block = 2, 64
	const n = grid * block
	in := cgInput(n)
	out := zeros[int32](e, 19*n)
	e.launch(e.kernel(cgSrc, "cgTiles"), grid, block, upload(e, in), out)
	got := download(e, out)
	want := cgTilesWant(in, block)
	names := []string{"thread_index", "shfl_down", "shfl_up", "shfl_xor", "shfl", "meta_group",
		"ballot", "any/all", "reduce plus", "reduce greater", "reduce less", "reduce float", "tile of 2",
		"labeled_partition", "coalesced_threads", "thread_group of a tile", "thread_group of a block",
		"binary_partition", "match_any"}
	for k, name := range names {
		sameSlice(e, name, got[k*n:(k+1)*n], want[k])
	}
	if bits.OnesCount32(uint32(got[18*n])) == 0 {
		e.Errorf("match_any gave an empty mask")
	}
}

func testCooperativeAggregation(e *env) {
	const grid, block = 3, 96
	ctr := zeros[int32](e, 1)
	out := zeros[int32](e, grid*block)
	e.launch(e.kernel(cgSrc, "cgAggInc"), grid, block, ctr, out)
	got := download(e, out)
	var slots []int32
	for t, x := range got {
		if t%3 == 0 {
			eq(e, "out of a thread that does not call aggInc", x, -1)
			continue
		}
		slots = append(slots, x)
	}
	slices.Sort(slots)
	for i, s := range slots {
		if s != int32(i) {
			e.Fatalf("the slots taken are not 0..%d: sorted, slot %d is %d", len(slots)-1, i, s)
		}
	}
	eq(e, "counter", download(e, ctr)[0], int32(len(slots)))
}

const gridSyncSrc = `
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A grid-synchronised sum: each block reduces its share into partial[],
// the grid synchronises, one thread adds the partial sums, the grid
// synchronises again and every block reads the total.
__global__ void gridSum(const int* in, int* partial, int* total, int* seen, int n) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int s[128];
    int t = block.thread_rank();
    int sum = 0;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) sum += in[i];
    s[t] = sum;
    block.sync();
    for (int o = block.size() / 2; o > 0; o /= 2) {
        if (t < o) s[t] += s[t + o];
        block.sync();
    }
    if (t == 0) partial[grid.block_rank()] = s[0];
    grid.sync();
    if (grid.thread_rank() == 0) {
        int all = 0;
        for (int b = 0; b < grid.num_blocks(); b++) all += partial[b];
        *total = all;
    }
    cg::sync(grid);
    if (t == 0) seen[blockIdx.x] = *total;
}`

func testGridSync(e *env) {
	const grid, block, n = 8, 128, 10000
	in := make([]int32, n)
	var want int32
	for i := range in {
		in[i] = int32(i%13 - 4)
		want += in[i]
	}
	k := e.kernel(gridSyncSrc, "gridSum")
	inB, partial, total, seen := upload(e, in), zeros[int32](e, grid), zeros[int32](e, 1), zeros[int32](e, grid)
	cfg := gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(block), Cooperative: true}
	e.launchCfg(k, cfg, inB, partial, total, seen, int32(n))
	eq(e, "total", download(e, total)[0], want)
	for b, s := range download(e, seen) {
		if s != want {
			e.Errorf("block %d read the total %d after grid.sync(), want %d", b, s, want)
		}
	}
	var sum int32
	for _, p := range download(e, partial) {
		sum += p
	}
	eq(e, "sum of the partial sums", sum, want)

	// Without a cooperative launch grid.sync() is refused before anything
	// runs; a grid larger than the device holds at once is refused too.
	le := e.launchErr(k, gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(block)}, []error{gpu.ErrInvalidConfig},
		inB, partial, total, seen, int32(n))
	if !strings.Contains(le.Msg, "cooperative launch") {
		e.Errorf("non-cooperative launch error %q does not say it needs a cooperative launch", le.Msg)
	}
	e.launchErr(k, gpu.LaunchConfig{Grid: gpu.D1(1 << 20), Block: gpu.D1(block), Cooperative: true},
		[]error{gpu.ErrInvalidConfig}, inB, partial, total, seen, int32(n))
}
