package gpusim_test

import (
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
)

// hostMemSrc touches every byte of a __device__ array and of a buffer, so
// a launch that kept per-byte bookkeeping beside device memory would show
// it.
const hostMemSrc = `
#define N (1 << 22)
__device__ float scratch[N];
__global__ void touch(float* out, float* total) {
    float s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x) {
        scratch[i] = i;
        out[i] = scratch[i] * 2;
        s += out[i];
    }
    atomicAdd(total, s);
}
`

// hostMemBound is the stated bound on the host memory a launch costs: the
// device memory it uses, plus 5%, plus 4 MiB for the launch's own state
// (blocks, warps, counters), which depends on the grid and not on memory.
func hostMemBound(deviceBytes uint64) uint64 { return deviceBytes + deviceBytes/20 + 4<<20 }

// heapAllocs returns the bytes the Go heap has allocated so far: the
// difference across a piece of code bounds that code's peak heap growth
// from above, whatever the collector did meanwhile.
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// hostMemLaunch compiles hostMemSrc, allocates its buffers and launches it
// once, returning the device bytes it used and the host bytes allocated.
func hostMemLaunch(t testing.TB) (device, host uint64) {
	runtime.GC()
	before := heapAllocs()
	d := open(t, "sim:t4")
	k := kernel(t, d, hostMemSrc, "touch")
	out := zeros[float32](t, d, 1<<22)
	total := zeros[float32](t, d, 1)
	if _, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(16), Block: gpu.D1(256)}, out, total); err != nil {
		t.Fatal(err)
	}
	host = heapAllocs() - before
	device = 2*4<<22 + 4 // scratch, out and total
	if got := download(t, out); got[12345] != 2*12345 {
		t.Fatalf("out[12345] = %v, want %v", got[12345], 2*12345)
	}
	return device, host
}

// TestLaunchHostMemory checks that the host memory a launch costs stays
// within hostMemBound of the device memory it uses: a __device__ array
// and a buffer of 16 MiB each, every byte touched.
func TestLaunchHostMemory(t *testing.T) {
	device, host := hostMemLaunch(t)
	if bound := hostMemBound(device); host > bound {
		t.Errorf("a launch using %d bytes of device memory allocated %d bytes of host memory (%.2fx), more than the bound %d",
			device, host, float64(host)/float64(device), bound)
	}
}

// TestDeviceArrayIsLazy checks that a large __device__ array the kernel
// never touches costs no host time or memory beyond its allocation: no
// per-element work happens at compile time.
func TestDeviceArrayIsLazy(t *testing.T) {
	runtime.GC()
	before := heapAllocs()
	d := open(t, "sim:t4")
	kernel(t, d, `__device__ float g[1 << 26]; __device__ int h[4] = {1, 2};
__global__ void k(float* out) { out[0] = g[0] + h[1]; }`, "k")
	if host, bound := heapAllocs()-before, hostMemBound(4<<26+16); host > bound {
		t.Errorf("compiling a 256 MiB __device__ array allocated %d bytes of host memory, more than the bound %d", host, bound)
	}
}

// TestDeviceArrayTooLarge checks that a __device__ array larger than the
// device is refused at compile time, naming the variable, its position
// and the device's memory.
func TestDeviceArrayTooLarge(t *testing.T) {
	d := open(t, "sim:t4")
	_, err := d.Compile("big.cu", []byte("__device__ float g[1LL << 36];\n__global__ void k(float* out) { out[0] = g[0]; }\n"))
	if err == nil {
		t.Fatal("a 256 GiB __device__ array on a T4 compiled")
	}
	for _, want := range []string{"big.cu:1:", "module variable g", "out of device memory", "256 GiB requested", "16 GiB"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// BenchmarkLaunchHostMemory reports the host bytes a launch allocates per
// byte of device memory it uses (the figure TestLaunchHostMemory bounds).
func BenchmarkLaunchHostMemory(b *testing.B) {
	var device, host uint64
	for i := 0; i < b.N; i++ {
		device, host = hostMemLaunch(b)
	}
	b.ReportMetric(float64(host)/float64(device), "host-bytes/device-byte")
	b.ReportMetric(float64(host), "host-bytes/op")
}

// TestAtomicsHostMemory checks the host memory of a launch whose atomics
// hit every word of a 16 MiB buffer: the per-address bookkeeping of the
// atomics counters (distinct addresses, the longest chain) and the L2's
// per-line queues cost at most the device memory again, plus 4 MiB, where
// a map entry per address cost nine times it.
func TestAtomicsHostMemory(t *testing.T) {
	d := open(t, "sim:t4")
	k := kernel(t, d, `__global__ void bump(unsigned* c, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&c[i], 1u);
}`, "bump")
	const n = 1 << 22
	c := zeros[uint32](t, d, n)
	runtime.GC()
	before := heapAllocs()
	res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(16), Block: gpu.D1(256)}, c, n)
	if err != nil {
		t.Fatal(err)
	}
	host, device := heapAllocs()-before, uint64(4*n)
	if bound := 2*device + 4<<20; host > bound {
		t.Errorf("atomics on every word of %d bytes allocated %d bytes of host memory (%.2fx), more than %d", device, host, float64(host)/float64(device), bound)
	}
	if got := res.Counters.GlobalAtomicAddresses; got != n {
		t.Errorf("%d distinct atomic addresses, want %d", got, n)
	}
	if got := res.Counters.GlobalAtomicMaxChain; got != 1 {
		t.Errorf("longest chain %d, want 1", got)
	}
}
