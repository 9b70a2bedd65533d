package gpusim_test

import "testing"

// TestCASFailures counts the atomicCAS lanes whose compare failed: the
// retries of a user's CAS loop, global and shared.
func TestCASFailures(t *testing.T) {
	d := open(t, "sim:t4")
	src := `
__global__ void once(int* flag) {
    atomicCAS(flag, 0, 1 + (int)threadIdx.x);
}
__device__ void incr(int* p) {
    int old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, assumed + 1);
    } while (old != assumed);
}
__global__ void loopGlobal(int* count) { incr(count); }
__global__ void loopShared(int* count) {
    __shared__ int s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    incr(&s);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(count, s);
}
__global__ void spread(int* slot) {
    // Every lane on its own address, each compare right: no failure.
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicCAS(&slot[i], 0, i + 1);
}
`
	// One warp, one address, compare 0: the first lane swaps, 31 fail.
	flag := zeros[int32](t, d, 1)
	res := launch(t, kernel(t, d, src, "once"), 1, 32, flag)
	if got := res.Counters.CASFailures; got != 31 {
		t.Errorf("once: %d failed CAS, want 31", got)
	}
	if got := download(t, flag)[0]; got != 1 {
		t.Errorf("once: flag %d, want 1 (lane 0 first)", got)
	}
	// A CAS-loop increment is exact, and every lane of a warp but one
	// fails at least once when a warp's lanes all read the same old value.
	for _, name := range []string{"loopGlobal", "loopShared"} {
		count := zeros[int32](t, d, 1)
		res := launch(t, kernel(t, d, src, name), 4, 64, count)
		if got := download(t, count)[0]; got != 256 {
			t.Errorf("%s: count %d, want 256", name, got)
		}
		if got := res.Counters.CASFailures; got < 4*2*31 {
			t.Errorf("%s: %d failed CAS, want at least %d (31 per warp)", name, got, 4*2*31)
		}
	}
	slot := zeros[int32](t, d, 256)
	if res := launch(t, kernel(t, d, src, "spread"), 4, 64, slot); res.Counters.CASFailures != 0 {
		t.Errorf("spread: %d failed CAS, want 0", res.Counters.CASFailures)
	}
}
