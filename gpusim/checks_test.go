package gpusim_test

import (
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
)

const boundsSrc = `
__global__ void copyUnchecked(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
__global__ void copyChecked(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i];
    }
}
`

func TestOutOfBounds(t *testing.T) {
	d := open(t, "sim:t4")
	in := upload(t, d, make([]float32, 1000))
	out := zeros[float32](t, d, 1000)
	// 4 blocks of 256 = 1024 threads for 1000 elements: threads 1000..1023
	// read past the end of in.
	le := launchErr(t, kernel(t, d, boundsSrc, "copyUnchecked"), gpu.LaunchConfig{Grid: gpu.D1(4), Block: gpu.D1(256)},
		gpu.ErrIllegalAddress, in, out, 1000)
	if !le.HasThread || le.Block.X != 3 || le.Thread.X != 1000-3*256 {
		t.Errorf("fault at block %v thread %v, want block 3 thread %d (the first thread past n)", le.Block, le.Thread, 1000-3*256)
	}
	if le.Pos.Line != 4 {
		t.Errorf("fault at line %d, want 4: %v", le.Pos.Line, le)
	}
	for _, want := range []string{"load of 4 bytes", "past the end of the allocation passed as in", "4000 bytes", "element 1000"} {
		if !strings.Contains(le.Error(), want) {
			t.Errorf("error %q does not say %q", le.Error(), want)
		}
	}

	// The guarded kernel runs clean on the same launch.
	launch(t, kernel(t, d, boundsSrc, "copyChecked"), 4, 256, in, out, 1000)
}

func TestNullAndMisaligned(t *testing.T) {
	d := open(t, "sim:t4")
	src := `
__global__ void deref(int* p, int off) {
    char* c = reinterpret_cast<char*>(p) + off;
    *reinterpret_cast<int*>(c) = 1;
}`
	k := kernel(t, d, src, "deref")
	le := launchErr(t, k, gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(1)}, gpu.ErrIllegalAddress, nil, 0)
	if !strings.Contains(le.Error(), "null pointer") {
		t.Errorf("null dereference: %v", le)
	}
	buf := zeros[int32](t, d, 4)
	le = launchErr(t, k, gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(1)}, gpu.ErrMisaligned, buf, 2)
	if !strings.Contains(le.Error(), "not a multiple of 4") {
		t.Errorf("misaligned store: %v", le)
	}
	launch(t, k, 1, 1, buf, 4)
	if got := download(t, buf); got[1] != 1 {
		t.Errorf("aligned store wrote %v", got)
	}
}

const barrierSrc = `
__global__ void divergentBarrier(float* data) {
    __shared__ float tile[256];
    tile[threadIdx.x] = data[threadIdx.x];
    if (threadIdx.x < 128) {
        __syncthreads();
    }
    data[threadIdx.x] = tile[255 - threadIdx.x];
}
__global__ void uniformBarrier(float* data, int rounds) {
    __shared__ float tile[256];
    for (int r = 0; r < rounds; r++) {
        tile[threadIdx.x] = data[threadIdx.x];
        if (rounds > 0) {
            __syncthreads();
        }
        data[threadIdx.x] = tile[255 - threadIdx.x];
        __syncthreads();
    }
}
__global__ void earlyExit(float* data, int n) {
    __shared__ float tile[256];
    if (threadIdx.x >= n) return;
    tile[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    data[threadIdx.x] = tile[n - 1 - threadIdx.x];
}
`

func TestBarrierDivergence(t *testing.T) {
	d := open(t, "sim:t4")
	data := upload(t, d, make([]float32, 256))
	// Warps 0-3 wait at the barrier inside the branch, warps 4-7 never
	// reach it: on a GPU the block hangs or misbehaves.
	le := launchErr(t, kernel(t, d, barrierSrc, "divergentBarrier"), gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(256)},
		gpu.ErrBarrierDivergence, data)
	if le.Pos.Line == 0 {
		t.Errorf("no position: %v", le)
	}
	// A barrier under a condition that is the same for every thread is fine,
	// and so are threads that have exited before a barrier.
	res := launch(t, kernel(t, d, barrierSrc, "uniformBarrier"), 1, 256, data, 2)
	if res.Counters.Barriers != 4 {
		t.Errorf("barriers = %d, want 4", res.Counters.Barriers)
	}
	launch(t, kernel(t, d, barrierSrc, "earlyExit"), 1, 256, data, 100)
}

func TestBarrierDivergenceInWarp(t *testing.T) {
	d := open(t, "sim:t4")
	src := `
__global__ void k(int* out) {
    if (threadIdx.x % 2 == 0) {
        __syncthreads();
    }
    out[threadIdx.x] = 1;
}`
	le := launchErr(t, kernel(t, d, src, "k"), gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(64)},
		gpu.ErrBarrierDivergence, zeros[int32](t, d, 64))
	if !le.HasThread || le.Thread.X%2 != 1 {
		t.Errorf("want an odd thread named as the one that skipped the barrier: %v", le)
	}
}

// The histogram of the r/CUDA question on the Day 26 course page, with and without the
// barrier between zeroing the shared bins and adding into them.
const histSrc = `
__global__ void histNoBarrier(const int* data, int n, int* hist, int nBins) {
    extern __shared__ int bins[];
    for (int b = threadIdx.x; b < nBins; b += blockDim.x) bins[b] = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i]], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < nBins; b += blockDim.x) atomicAdd(&hist[b], bins[b]);
}
__global__ void histBarrier(const int* data, int n, int* hist, int nBins) {
    extern __shared__ int bins[];
    for (int b = threadIdx.x; b < nBins; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i]], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < nBins; b += blockDim.x) atomicAdd(&hist[b], bins[b]);
}
`

func TestSharedRace(t *testing.T) {
	d := open(t, "sim:t4")
	const n, bins = 4096, 64
	data := make([]int32, n)
	for i := range data {
		data[i] = int32(i*7) % bins
	}
	in := upload(t, d, data)
	cfg := gpu.LaunchConfig{Grid: gpu.D1(4), Block: gpu.D1(128), SharedBytes: bins * 4}

	k := kernel(t, d, histSrc, "histNoBarrier")
	hist := zeros[int32](t, d, bins)
	res, err := k.Launch(cfg, in, n, hist, bins)
	if err != nil {
		t.Fatal(err)
	}
	races := diagnostics(res, "race")
	if len(races) == 0 {
		t.Fatalf("no race reported for the missing barrier; diagnostics: %v", res.Diagnostics)
	}
	r := races[0]
	// Both sides: the zeroing store (line 4) and the atomicAdd (line 6).
	lines := map[int]bool{r.Pos.Line: true, r.Other.Line: true}
	if !lines[4] || !lines[6] {
		t.Errorf("race between lines %d and %d, want 4 and 6: %s", r.Pos.Line, r.Other.Line, r.Msg)
	}
	if !strings.Contains(r.Msg, "bins[") || !strings.Contains(r.Msg, "__syncthreads()") {
		t.Errorf("race message does not name the variable and the missing barrier: %s", r.Msg)
	}

	k = kernel(t, d, histSrc, "histBarrier")
	hist = zeros[int32](t, d, bins)
	res, err = k.Launch(cfg, in, n, hist, bins)
	if err != nil {
		t.Fatal(err)
	}
	if races := diagnostics(res, "race"); len(races) != 0 {
		t.Errorf("races reported with the barrier in place: %v", races)
	}
	got := download(t, hist)
	for b, c := range got {
		if c != n/bins {
			t.Fatalf("bin %d = %d, want %d", b, c, n/bins)
		}
	}
}

func TestWarpRace(t *testing.T) {
	d := open(t, "sim:t4")
	// The warp-synchronous tail of an old reduction: without __syncwarp
	// the lanes of one warp race on Volta and later.
	src := `
__global__ void tail(float* out, int sync) {
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x;
    s[threadIdx.x + 32] = 0.0f;
    if (sync) __syncwarp();
    s[threadIdx.x] += s[threadIdx.x + 16];
    if (sync) __syncwarp();
    if (threadIdx.x == 0) out[0] = s[0];
}`
	k := kernel(t, d, src, "tail")
	out := zeros[float32](t, d, 1)
	res := launch(t, k, 1, 32, out, 0)
	if len(diagnostics(res, "race")) == 0 {
		t.Errorf("no race reported within a warp without __syncwarp")
	}
	res = launch(t, k, 1, 32, out, 1)
	if races := diagnostics(res, "race"); len(races) != 0 {
		t.Errorf("race reported with __syncwarp: %v", races)
	}
}

func TestEndlessLoop(t *testing.T) {
	d := open(t, "sim:t4")
	src := `
__global__ void spin(int* flag, int limit) {
    int i = 0;
    while (flag[0] == 0) {
        i++;
        if (limit > 0 && i >= limit) break;
    }
    flag[1] = i;
}`
	k := kernel(t, d, src, "spin")
	flag := zeros[int32](t, d, 2)
	le := launchErr(t, k, gpu.LaunchConfig{Grid: gpu.D1(2), Block: gpu.D1(64), MaxInstructions: 100000}, gpu.ErrBudget, flag, 0)
	if le.Pos.Line < 3 || le.Pos.Line > 6 {
		t.Errorf("budget error at line %d, want inside the loop: %v", le.Pos.Line, le)
	}
	if !strings.Contains(le.Error(), "endless loop") {
		t.Errorf("error does not suggest an endless loop: %v", le)
	}
	launch(t, k, 2, 64, flag, 1000)
	if got := download(t, flag); got[1] != 1000 {
		t.Errorf("bounded loop ran %d times, want 1000", got[1])
	}
}

func TestLaunchLimits(t *testing.T) {
	d := open(t, "sim:t4")
	src := `
__global__ void big(float* out) {
    __shared__ float s[12000];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
__global__ void dyn(float* out) {
    extern __shared__ float s[];
    s[threadIdx.x] = 1.0f;
    out[threadIdx.x] = s[threadIdx.x];
}`
	out := zeros[float32](t, d, 2048)
	launchErr(t, kernel(t, d, src, "dyn"), gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(2048), SharedBytes: 8192},
		gpu.ErrInvalidConfig, out)
	// 48,000 bytes of static shared memory and 4,096 of dynamic: over the 48 KiB a block gets.
	launchErr(t, kernel(t, d, src, "big"), gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(256), SharedBytes: 4096},
		gpu.ErrOutOfResources, out)
	launch(t, kernel(t, d, src, "big"), 1, 256, out)
	launchErr(t, kernel(t, d, src, "dyn"), gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(256), SharedBytes: 64 << 10},
		gpu.ErrOutOfResources, out)
	launchErr(t, kernel(t, d, src, "dyn"), gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(256)},
		gpu.ErrInvalidConfig, out)
	// Dynamic shared memory smaller than the threads index: out of bounds.
	le := launchErr(t, kernel(t, d, src, "dyn"), gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(256), SharedBytes: 512},
		gpu.ErrIllegalAddress, out)
	if !strings.Contains(le.Error(), "shared") {
		t.Errorf("error does not say shared memory: %v", le)
	}
}

func TestBarrierDivergenceLowWarpsSkip(t *testing.T) {
	d := open(t, "sim:t4")
	// Here the warps that skip the barrier run (and finish) first.
	src := `
__global__ void k(float* data) {
    __shared__ float tile[256];
    tile[threadIdx.x] = data[threadIdx.x];
    if (threadIdx.x >= 128) {
        __syncthreads();
    }
    data[threadIdx.x] = tile[255 - threadIdx.x];
}
__global__ void loopy(float* data, int rounds) {
    __shared__ float tile[256];
    for (int r = 0; r < rounds + (int)(threadIdx.x / 128); r++) {
        tile[threadIdx.x] = data[threadIdx.x];
        __syncthreads();
    }
}`
	data := upload(t, d, make([]float32, 256))
	le := launchErr(t, kernel(t, d, src, "k"), gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(256)}, gpu.ErrBarrierDivergence, data)
	if le.Pos.Line != 6 || !strings.Contains(le.Error(), "if on line 5") {
		t.Errorf("want the barrier at line 6 and the if at line 5 named: %v", le)
	}
	le = launchErr(t, kernel(t, d, src, "loopy"), gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(256)}, gpu.ErrBarrierDivergence, data, 2)
	if !strings.Contains(le.Error(), "loop on line 12") {
		t.Errorf("want the loop named: %v", le)
	}
}

// TestEndlessLoopManyBlocks: an endless loop in every block of a large grid
// must stop after the launch's budget, not after a budget per block.
func TestEndlessLoopManyBlocks(t *testing.T) {
	d := open(t, "sim:t4")
	src := `
__global__ void spinAll(int* flag) {
    while (flag[0] == 0) { }
}`
	le := launchErr(t, kernel(t, d, src, "spinAll"), gpu.LaunchConfig{Grid: gpu.D1(4096), Block: gpu.D1(256), MaxInstructions: 2_000_000},
		gpu.ErrBudget, zeros[int32](t, d, 1))
	if le.Pos.Line != 3 {
		t.Errorf("budget error at line %d, want the loop at line 3: %v", le.Pos.Line, le)
	}
}

// TestGridSyncHang checks the grid barrier's own faults: a block that ends
// without reaching grid.sync() while others wait, a divergent grid.sync()
// and warps split between __syncthreads() and grid.sync().
func TestGridSyncHang(t *testing.T) {
	d := open(t, "sim:t4")
	src := `#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void early(int* p) {
    if (blockIdx.x == 1) return;
    cg::this_grid().sync();
    p[blockIdx.x] = 1;
}
__global__ void divergent(int* p) {
    if (threadIdx.x < 16) cg::this_grid().sync();
    p[threadIdx.x] = 1;
}
__global__ void split(int* p) {
    if (threadIdx.x < 32) __syncthreads(); else cg::this_grid().sync();
    p[threadIdx.x] = 1;
}`
	p := zeros[int32](t, d, 64)
	cfg := gpu.LaunchConfig{Grid: gpu.D1(4), Block: gpu.D1(64), Cooperative: true}
	for name, want := range map[string]string{
		"early":     "without reaching grid_group::sync()",
		"divergent": "grid_group::sync() reached by 16 of the 32 running threads",
		"split":     "wait at __syncthreads() while the others wait at grid_group::sync()",
	} {
		le := launchErr(t, kernel(t, d, src, name), cfg, gpu.ErrBarrierDivergence, p)
		if !strings.Contains(le.Msg, want) {
			t.Errorf("%s: %q, want it to contain %q", name, le.Msg, want)
		}
	}
}

// TestCUDAArchPerProfile checks __CUDA_ARCH__ on every profile's compute
// capability.
func TestCUDAArchPerProfile(t *testing.T) {
	src := "__global__ void arch(int* out) { out[0] = __CUDA_ARCH__; }"
	for spec, want := range map[string]int32{"sim:t4": 750, "sim:gtx1650": 750, "sim:a100": 800, "sim:l4": 890, "sim:h200": 900} {
		d := open(t, spec)
		out := zeros[int32](t, d, 1)
		launch(t, kernel(t, d, src, "arch"), 1, 1, out)
		if got := download(t, out)[0]; got != want {
			t.Errorf("%s: __CUDA_ARCH__ = %d, want %d", spec, got, want)
		}
	}
}

// TestPrintfCut checks that printf output past the device's buffer is
// dropped, as on a GPU, and that the result says so.
func TestPrintfCut(t *testing.T) {
	d := open(t, "sim:t4")
	k := kernel(t, d, `__global__ void p(int n) { for (int i = 0; i < n; i++) printf("thread %d line %d of a long printf\n", threadIdx.x, i); }`, "p")
	small := launch(t, k, 1, 32, 2)
	if strings.Count(small.Printf, "\n") != 64 || len(small.Diagnostics) != 0 {
		t.Errorf("64 lines: got %d lines, diagnostics %v", strings.Count(small.Printf, "\n"), small.Diagnostics)
	}
	res := launch(t, k, 1, 64, 1000) // 64000 lines of about 40 bytes: over 1 MiB
	if len(res.Printf) > 1<<20 || len(res.Printf) < 1<<20-100 {
		t.Errorf("printf output is %d bytes, want just under 1 MiB", len(res.Printf))
	}
	text := gpu.FormatDiagnostics(res.Diagnostics)
	if !strings.Contains(text, "printf-cut: printf output cut at 1048576 bytes") || !strings.Contains(text, "printf calls is missing") {
		t.Errorf("diagnostics %q do not say that the output was cut", text)
	}
}
