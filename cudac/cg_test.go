package cudac

import (
	"strings"
	"testing"
)

const cgHead = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"

// TestCooperativeGroupsCompile checks the spellings that real kernels use.
func TestCooperativeGroupsCompile(t *testing.T) {
	srcs := map[string]string{
		"alias": cgHead + `__global__ void k(int* p) {
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
    p[b.thread_rank()] = w.shfl_down((int)w.thread_rank(), 1) + w.meta_group_rank() + w.meta_group_size();
    b.sync(); cg::sync(b);
}`,
		"using namespace": "#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n" + `
__device__ float reduce(thread_group g, float* tmp, float v) {
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) { tmp[lane] = v; g.sync(); if (lane < i) v += tmp[lane + i]; g.sync(); }
    return v;
}
__global__ void k(float* p) {
    __shared__ float tmp[256];
    thread_block block = this_thread_block();
    p[0] = reduce(block, tmp, 1.0f);
    thread_block_tile<16> t = tiled_partition<16>(block);
    p[1] = t.any(1) + t.all(0) + t.ballot(1);
}`,
		"qualified": "#include <cooperative_groups.h>\n" + `__global__ void k(int* p) {
    auto g = cooperative_groups::coalesced_threads();
    if (g.thread_rank() == 0) p[0] = g.size();
    auto l = cooperative_groups::labeled_partition(cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block()), p[1]);
    p[2] = l.size();
}`,
		"reduce": cgHead + "#include <cooperative_groups/reduce.h>\n" + `__global__ void k(const float* in, float* out, int* m) {
    auto t = cg::tiled_partition<32>(cg::this_thread_block());
    float s = cg::reduce(t, in[threadIdx.x], cg::plus<float>());
    int hi = cg::reduce(t, (int)threadIdx.x, cg::greater<int>());
    unsigned x = cg::reduce(t, threadIdx.x, cg::bit_xor<unsigned>());
    if (t.thread_rank() == 0) { out[t.meta_group_rank()] = s; m[0] = hi + x; }
}`,
		"dim3 members": cgHead + `__global__ void k(int* p) {
    cg::thread_block b = cg::this_thread_block();
    p[b.group_index().x * b.group_dim().x + b.thread_index().x] = b.dim_threads().y + b.group_index().z;
}`,
	}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			if _, err := Compile("cg.cu", []byte(src)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestCooperativeGroupsErrors checks misuse, with its position.
func TestCooperativeGroupsErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"tile too big", cgHead + "__global__ void k() {\n  auto t = cg::tiled_partition<64>(cg::this_thread_block());\n}",
			"cg.cu:4:32: tiles larger than a warp (64 threads) are not supported"},
		{"tile not power of two", cgHead + "__global__ void k() {\n  cg::thread_block_tile<12> t = cg::tiled_partition<12>(cg::this_thread_block());\n}",
			"cg.cu:4:25: a tile size must be a power of two from 1 to 32, not 12"},
		{"shfl on block", cgHead + "__global__ void k(int v) {\n  cg::thread_block b = cg::this_thread_block();\n  b.shfl(v, 0);\n}",
			"cg.cu:5:5: no member function 'shfl' in 'cooperative_groups::thread_block'"},
		{"group to int", cgHead + "__global__ void k(int* p) {\n  p[0] = cg::this_thread_block();\n}",
			"cg.cu:4:10: cannot convert 'cooperative_groups::thread_block' to 'int'"},
		{"group arithmetic", cgHead + "__global__ void k(int* p) {\n  auto b = cg::this_thread_block();\n  p[0] = b + 1;\n}",
			"cg.cu:5:12: invalid operands"},
		{"unknown name", cgHead + "__global__ void k() {\n  cg::memcpy_async();\n}",
			"cg.cu:4:3: 'cg::memcpy_async' is not supported"},
		{"reduce on block", cgHead + "__global__ void k(int* p) {\n  p[0] = cg::reduce(cg::this_thread_block(), 1, cg::plus<int>());\n}",
			"cg.cu:4:21: the group of 'cooperative_groups::reduce' must be a thread_block_tile<N>"},
		{"reduce bad op", cgHead + "__global__ void k(int* p) {\n  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n  p[0] = cg::reduce(t, 1, 3);\n}",
			"cg.cu:5:27: the operator of 'cooperative_groups::reduce' must be"},
		{"reduce bit float", cgHead + "__global__ void k(float* p) {\n  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n  p[0] = cg::reduce(t, 1.0f, cg::bit_or<float>());\n}",
			"cg.cu:5:30: 'cooperative_groups::bit_or' needs an integer type, not 'float'"},
		{"coalesced shfl rank", cgHead + "__global__ void k(int* p, int r) {\n  auto g = cg::coalesced_threads();\n  p[0] = g.shfl(1, r);\n}",
			"cg.cu:5:20: coalesced_group::shfl is supported only from rank 0"},
		{"grid as thread_group", cgHead + "__device__ void f(cg::thread_group g) {}\n__global__ void k() {\n  f(cg::this_grid());\n}",
			"cg.cu:5:5: cannot convert 'cooperative_groups::grid_group' to 'cooperative_groups::thread_group'"},
		{"dim3 alone", cgHead + "__global__ void k() {\n  auto b = cg::this_thread_block();\n  b.group_index();\n}",
			"cg.cu:5:5: 'group_index()' returns a dim3: use its .x, .y or .z"},
		{"method on int", "__global__ void k(int x) {\n  x.sync();\n}",
			"cg.cu:2:4: called object is not a function (member functions are supported only on cooperative groups and cuda::atomic_ref)"},
		{"partition of coalesced", cgHead + "__global__ void k() {\n  auto g = cg::tiled_partition<4>(cg::coalesced_threads());\n}",
			"cg.cu:4:35: 'cooperative_groups::tiled_partition' of a 'cooperative_groups::coalesced_group' is not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile("cg.cu", []byte(tt.src))
			if err == nil {
				t.Fatalf("Compile succeeded, want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error:\n%v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func TestUsesGridSync(t *testing.T) {
	src := cgHead + `
__device__ void barrier() { cg::this_grid().sync(); }
__device__ int twice(int x) { return 2 * x; }
__global__ void viaCall(int* p) { p[0] = twice(1); barrier(); }
__global__ void direct(int* p) { cg::grid_group g = cg::this_grid(); g.sync(); }
__global__ void none(int* p) { cg::this_thread_block().sync(); p[0] = twice(2); }
`
	prog, err := Compile("g.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"viaCall": true, "direct": true, "none": false} {
		k, err := prog.Kernel(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := UsesGridSync(k); got != want {
			t.Errorf("UsesGridSync(%s) = %v, want %v", name, got, want)
		}
	}
}
