package gputest

import (
	"fmt"
	"math/bits"
)

// The reference semantics of the shuffles, for a warp whose lane l holds
// v(l): width splits the warp into segments of width lanes.
func shflIdx(v func(int) int32, lane, src, width int) int32 {
	return v(lane&^(width-1) + src%width)
}

func shflUp(v func(int) int32, lane, delta, width int) int32 {
	if lane&(width-1) >= delta {
		return v(lane - delta)
	}
	return v(lane)
}

func shflDown(v func(int) int32, lane, delta, width int) int32 {
	if lane&(width-1)+delta < width {
		return v(lane + delta)
	}
	return v(lane)
}

const shufflesSrc = `
__global__ void shuffles(const int* in, int* out) {
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    int n = blockDim.x;
    int t = threadIdx.x;
    out[0 * n + t] = __shfl_sync(0xffffffff, v, 3);
    out[1 * n + t] = __shfl_sync(0xffffffff, v, lane + 1, 8);
    out[2 * n + t] = __shfl_sync(0xffffffff, v, 31 - lane);
    out[3 * n + t] = __shfl_sync(0xffffffff, v, 5, 16);
    out[4 * n + t] = __shfl_up_sync(0xffffffff, v, 2);
    out[5 * n + t] = __shfl_up_sync(0xffffffff, v, 3, 8);
    out[6 * n + t] = __shfl_down_sync(0xffffffff, v, 5);
    out[7 * n + t] = __shfl_down_sync(0xffffffff, v, 5, 16);
    out[8 * n + t] = __shfl_xor_sync(0xffffffff, v, 1);
    out[9 * n + t] = __shfl_xor_sync(0xffffffff, v, 16);
    out[10 * n + t] = __shfl_xor_sync(0xffffffff, v, 6, 8);
    float f = (float)v * 0.5f;
    out[11 * n + t] = (int)(__shfl_down_sync(0xffffffff, f, 1) * 2.0f);
    unsigned u = (unsigned)v * 3u;
    out[12 * n + t] = (int)__shfl_xor_sync(0xffffffff, u, 4);
    // A warp-shuffle reduction, the labs' pattern.
    int s = v;
    for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffff, s, off);
    out[13 * n + t] = __shfl_sync(0xffffffff, s, 0);
}`

func testShuffles(e *env) {
	const n = 64
	in := make([]int32, n)
	for i := range in {
		in[i] = int32(i*5+1) * int32(1-2*(i%3&1))
	}
	out := zeros[int32](e, 14*n)
	e.launch(e.kernel(shufflesSrc, "shuffles"), 1, n, upload(e, in), out)
	got := download(e, out)
	for t := 0; t < n; t++ {
		w, lane := t/32*32, t%32
		v := func(l int) int32 { return in[w+l] }
		var sum int32
		for l := 0; l < 32; l++ {
			sum += v(l)
		}
		want := []int32{
			shflIdx(v, lane, 3, 32),
			shflIdx(v, lane, lane+1, 8),
			shflIdx(v, lane, 31-lane, 32),
			shflIdx(v, lane, 5, 16),
			shflUp(v, lane, 2, 32),
			shflUp(v, lane, 3, 8),
			shflDown(v, lane, 5, 32),
			shflDown(v, lane, 5, 16),
			v(lane ^ 1),
			v(lane ^ 16),
			v(lane ^ 6),
			shflDown(v, lane, 1, 32),
			int32(uint32(v(lane^4)) * 3),
			sum,
		}
		names := []string{"shfl 3", "shfl lane+1 width 8", "shfl 31-lane", "shfl 5 width 16", "shfl_up 2",
			"shfl_up 3 width 8", "shfl_down 5", "shfl_down 5 width 16", "shfl_xor 1", "shfl_xor 16",
			"shfl_xor 6 width 8", "float shfl_down 1", "unsigned shfl_xor 4", "shfl_down reduction"}
		for r := range want {
			if got[r*n+t] != want[r] {
				e.Errorf("%s: thread %d got %d, want %d", names[r], t, got[r*n+t], want[r])
			}
		}
	}
}

const shuffles64Src = `
__global__ void shuffles64(const double* in, double* outD, long long* outL, unsigned long long* outU) {
    int lane = threadIdx.x & 31;
    double v = in[lane];
    long long l = (long long)(v * 4.0) - (1LL << 40);
    unsigned long long u = (unsigned long long)l * 0x100000001ull;
    outD[lane] = __shfl_sync(0xffffffff, v, 31 - lane);
    outL[lane] = __shfl_up_sync(0xffffffff, l, 1);
    outU[lane] = __shfl_xor_sync(0xffffffff, u, 8);
}`

func testShuffles64(e *env) {
	in := make([]float64, 32)
	for i := range in {
		in[i] = float64(i)*1e9 + 0.25
	}
	od, ol, ou := zeros[float64](e, 32), zeros[int64](e, 32), zeros[uint64](e, 32)
	e.launch(e.kernel(shuffles64Src, "shuffles64"), 1, 32, upload(e, in), od, ol, ou)
	gd, gl, gu := download(e, od), download(e, ol), download(e, ou)
	lv := func(l int) int64 { return int64(in[l]*4) - 1<<40 }
	for lane := 0; lane < 32; lane++ {
		eq(e, fmt.Sprintf("double shfl 31-lane, lane %d", lane), gd[lane], in[31-lane])
		src := lane
		if lane >= 1 {
			src = lane - 1
		}
		eq(e, fmt.Sprintf("long long shfl_up 1, lane %d", lane), gl[lane], lv(src))
		eq(e, fmt.Sprintf("unsigned long long shfl_xor 8, lane %d", lane), gu[lane], uint64(lv(lane^8))*0x100000001)
	}
}

const votesSrc = `
__global__ void votes(const int* in, unsigned* out) {
    int t = threadIdx.x;
    int n = blockDim.x;
    int lane = t & 31;
    int v = in[t];
    out[0 * n + t] = __ballot_sync(0xffffffff, v % 3 == 0);
    out[1 * n + t] = __any_sync(0xffffffff, v == 70);
    out[2 * n + t] = __all_sync(0xffffffff, v >= 0);
    out[3 * n + t] = __all_sync(0xffffffff, v != 16);
    out[4 * n + t] = __match_any_sync(0xffffffff, v % 4);
    int pred = 0;
    out[5 * n + t] = __match_all_sync(0xffffffff, v / 1000, &pred);
    out[6 * n + t] = pred;
    unsigned active = 0;
    if (lane < 10) active = __activemask();
    out[7 * n + t] = active;
    unsigned partial = 0;
    if (lane % 2 == 0) partial = __ballot_sync(0x55555555, v % 4 == 1);
    out[8 * n + t] = partial;
    out[9 * n + t] = __popc(v) + 100 * __ffs(v) + 10000 * __clz(v);
    out[10 * n + t] = __brev(v);
    out[11 * n + t] = __match_any_sync(0xffffffff, (unsigned long long)(v / 8) << 40);
}`

func testVotes(e *env) {
	const n = 64
	in := make([]int32, n)
	for i := range in {
		in[i] = int32(i*5 + 1)
	}
	out := zeros[uint32](e, 12*n)
	e.launch(e.kernel(votesSrc, "votes"), 1, n, upload(e, in), out)
	got := download(e, out)
	b2u := func(b bool) uint32 {
		if b {
			return 1
		}
		return 0
	}
	for t := 0; t < n; t++ {
		w, lane := t/32*32, t%32
		v := func(l int) int32 { return in[w+l] }
		ballot := func(mask uint32, p func(int32) bool) uint32 {
			var b uint32
			for l := 0; l < 32; l++ {
				if mask&(1<<l) != 0 && p(v(l)) {
					b |= 1 << l
				}
			}
			return b
		}
		all := ^uint32(0)
		matchAll := ballot(all, func(x int32) bool { return x/1000 == v(lane)/1000 }) == all
		want := []uint32{
			ballot(all, func(x int32) bool { return x%3 == 0 }),
			b2u(ballot(all, func(x int32) bool { return x == 70 }) != 0),
			b2u(ballot(all, func(x int32) bool { return x >= 0 }) == all),
			b2u(ballot(all, func(x int32) bool { return x != 16 }) == all),
			ballot(all, func(x int32) bool { return x%4 == v(lane)%4 }),
			0, b2u(matchAll),
			0,
			0,
			uint32(bits.OnesCount32(uint32(v(lane))) + 100*(bits.TrailingZeros32(uint32(v(lane)))+1) + 10000*bits.LeadingZeros32(uint32(v(lane)))),
			bits.Reverse32(uint32(v(lane))),
			ballot(all, func(x int32) bool { return x/8 == v(lane)/8 }),
		}
		if matchAll {
			want[5] = all
		}
		if lane < 10 {
			want[7] = 1<<10 - 1
		}
		if lane%2 == 0 {
			want[8] = ballot(0x55555555, func(x int32) bool { return x%4 == 1 })
		}
		names := []string{"ballot", "any", "all", "all (false)", "match_any", "match_all", "match_all pred",
			"activemask in a branch", "ballot with a partial mask", "popc/ffs/clz", "brev", "match_any 64-bit"}
		for r := range want {
			if got[r*n+t] != want[r] {
				e.Errorf("%s: thread %d got %#x, want %#x", names[r], t, got[r*n+t], want[r])
			}
		}
	}
}
