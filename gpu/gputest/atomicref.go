package gputest

const atomicRefSrc = `
#include <cuda/atomic>

struct Totals { int add; int sub; int mx; int mn; unsigned band; unsigned bor; unsigned bxor; int cas; };

__device__ int casIncrement(cuda::atomic_ref<int, cuda::thread_scope_device> r) {
    int seen = r.load(cuda::memory_order_relaxed);
    while (!r.compare_exchange_weak(seen, seen + 1, cuda::memory_order_relaxed)) {}
    return seen;
}

__global__ void refs(int* t, unsigned* u, float* f, unsigned long long* big, int* slots, int* blockOut) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> add(t[0]);
    add.fetch_add(1, cuda::memory_order_relaxed);
    cuda::atomic_ref<int, cuda::thread_scope_system>(t[1]).fetch_sub(2);
    cuda::atomic_ref<int, cuda::thread_scope_device>(t[2]).fetch_max(i, cuda::memory_order_acq_rel);
    cuda::atomic_ref<int, cuda::thread_scope_device>(t[3]).fetch_min(-i, cuda::memory_order_release);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(u[0]).fetch_and(~(1u << (i % 32)));
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(u[1]).fetch_or(1u << (i % 32), cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(u[2]).fetch_xor((unsigned)i, cuda::memory_order_seq_cst);
    casIncrement(cuda::atomic_ref<int, cuda::thread_scope_device>(t[4]));
    cuda::atomic_ref<float, cuda::thread_scope_device>(f[0]).fetch_add(0.5f, cuda::memory_order_relaxed);
    cuda::atomic_ref<float, cuda::thread_scope_device>(f[1]).fetch_sub(0.25f);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(big[0]).fetch_add(1ull << 33);

    // Each thread's own slot: exchange and a strong compare-exchange that
    // fails once (the expected value is wrong), then succeeds.
    cuda::atomic_ref<int, cuda::thread_scope_device> slot(slots[i]);
    int old = slot.exchange(3 * i, cuda::memory_order_acq_rel);
    int expected = -1;
    bool first = slot.compare_exchange_strong(expected, 7, cuda::memory_order_acquire, cuda::memory_order_relaxed);
    bool second = slot.compare_exchange_strong(expected, expected + old + 1, cuda::memory_order_seq_cst);
    slot.store(slot.load(cuda::memory_order_acquire) * (first ? 1000 : 1) * (second ? 1 : 100), cuda::memory_order_release);

    // A block-scope counter in shared memory, published with a fence.
    __shared__ int count;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> c(count);
    c.fetch_add(2, cuda::memory_order_relaxed);
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_block);
    __syncthreads();
    if (threadIdx.x == 0) blockOut[blockIdx.x] = c.load(cuda::memory_order_acquire);
}

// publish: block 0 writes a payload and sets the flag with a release
// store; the other blocks spin on an acquire load and copy the payload.
__global__ void publish(int* payload, int* flag, int* out, int n) {
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) {
            for (int k = 0; k < n; k++) payload[k] = 100 + k;
            cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(1, cuda::memory_order_release);
        }
        return;
    }
    if (threadIdx.x == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
        while (f.load(cuda::memory_order_acquire) != 1) {}
    }
    __syncthreads();
    for (int k = threadIdx.x; k < n; k += blockDim.x) out[blockIdx.x * n + k] = payload[k];
}
`

// testAtomicRef runs cuda::atomic_ref's member functions with each memory
// order and scope, and a release/acquire publication across blocks.
func testAtomicRef(e *env) {
	const blocks, threads = 4, 64
	const n = blocks * threads
	m := e.module(atomicRefSrc)
	t := upload(e, []int32{0, 0, -1, 1, 0})
	u := upload(e, []uint32{0xffffffff, 0, 0})
	f := upload(e, []float32{0, 8})
	big := upload(e, []uint64{5})
	slots := zeros[int32](e, n)
	blockOut := zeros[int32](e, blocks)
	e.launch(kernelOf(e, m, "refs"), blocks, threads, t, u, f, big, slots, blockOut)
	gt, gu, gf, gb := download(e, t), download(e, u), download(e, f), download(e, big)
	xor := uint32(0)
	for i := range n {
		xor ^= uint32(i)
	}
	eq(e, "fetch_add", gt[0], int32(n))
	eq(e, "fetch_sub", gt[1], int32(-2*n))
	eq(e, "fetch_max", gt[2], int32(n-1))
	eq(e, "fetch_min", gt[3], int32(-(n - 1)))
	eq(e, "compare_exchange_weak loop", gt[4], int32(n))
	eq(e, "fetch_and", gu[0], uint32(0))
	eq(e, "fetch_or", gu[1], uint32(0xffffffff))
	eq(e, "fetch_xor", gu[2], xor)
	eq(e, "float fetch_add", gf[0], float32(n)*0.5)
	eq(e, "float fetch_sub", gf[1], 8-float32(n)*0.25)
	eq(e, "unsigned long long fetch_add", gb[0], 5+uint64(n)<<33)
	for i, v := range download(e, slots) {
		// exchange returns 0; the first exchange fails and loads 3i into
		// expected; the second stores 3i + 0 + 1.
		eq(e, "slot", v, int32(3*i+1))
	}
	for b, v := range download(e, blockOut) {
		if v != 2*threads {
			e.Fatalf("block %d: shared counter %d, want %d", b, v, 2*threads)
		}
	}

	const words = 48
	payload, flag := zeros[int32](e, words), zeros[int32](e, 1)
	out := zeros[int32](e, 3*words+words)
	e.launch(kernelOf(e, m, "publish"), 4, 32, payload, flag, out, int32(words))
	got := download(e, out)
	for b := 1; b < 4; b++ {
		for k := range words {
			if got[b*words+k] != int32(100+k) {
				e.Fatalf("block %d read payload[%d] = %d after the acquire, want %d", b, k, got[b*words+k], 100+k)
			}
		}
	}
}

const atomicObjSrc = `
#include <cuda/atomic>
__device__ cuda::atomic<int, cuda::thread_scope_device> counter;
__device__ cuda::atomic<unsigned long long, cuda::thread_scope_device> big{7};
__device__ cuda::atomic<float, cuda::thread_scope_system> total;

__global__ void bump(int* firsts) {
    int old = counter.fetch_add(1, cuda::memory_order_relaxed);
    if (old == 0) firsts[0] += 1;
    big.fetch_add(2);
    total.fetch_add(0.5f, cuda::memory_order_relaxed);
    int seen = counter.load(cuda::memory_order_relaxed);
    while (seen < 1000000 && !counter.compare_exchange_weak(seen, seen, cuda::memory_order_relaxed)) {}
}

__global__ void readBack(long long* out) {
    out[0] = counter.load();
    out[1] = (long long)big.load(cuda::memory_order_acquire);
    out[2] = (long long)total.exchange(0.0f);
    counter.store(0, cuda::memory_order_release);
}
`

// testAtomicObject uses cuda::atomic<T, Scope> __device__ variables: their
// member functions from two kernels of one module.
func testAtomicObject(e *env) {
	m := e.module(atomicObjSrc)
	firsts := zeros[int32](e, 1)
	const blocks, threads = 3, 64
	e.launch(kernelOf(e, m, "bump"), blocks, threads, firsts)
	out := zeros[int64](e, 3)
	e.launch(kernelOf(e, m, "readBack"), 1, 1, out)
	got := download(e, out)
	eq(e, "counter", got[0], int64(blocks*threads))
	eq(e, "big", got[1], int64(7+2*blocks*threads))
	eq(e, "total", got[2], int64(blocks*threads/2))
	eq(e, "threads that saw 0", download(e, firsts)[0], int32(1))
	// readBack reset the counter: a second pass counts from 0 again.
	e.launch(kernelOf(e, m, "bump"), 1, 32, firsts)
	e.launch(kernelOf(e, m, "readBack"), 1, 1, out)
	eq(e, "counter after the reset", download(e, out)[0], int64(32))
}
