package gpusim_test

import (
	"strings"
	"testing"
)

// The litmus tests of cuda::atomic_ref under the relaxed memory model:
// message passing whose flag is published and observed through an
// atomic_ref with each memory order and scope.

// refStore and refLoad publish and observe the flag f through an
// atomic_ref of scope with order.
func refStore(scope, order string) string {
	return "cuda::atomic_ref<int, cuda::thread_scope_" + scope + ">(*f).store(1, cuda::memory_order_" + order + ")"
}

func refLoad(scope, order string) string {
	return "cuda::atomic_ref<int, cuda::thread_scope_" + scope + ">(*f).load(cuda::memory_order_" + order + ")"
}

func TestAtomicRefMessagePassing(t *testing.T) {
	const launches = 60
	cases := []struct {
		name    string
		defs    map[string]string
		allowed bool
	}{
		{"relaxed", mpDefs(plainPayload, "", refStore("device", "relaxed"), refLoad("device", "relaxed"), ""), true},
		{"release only", mpDefs(plainPayload, "", refStore("device", "release"), refLoad("device", "relaxed"), ""), true},
		{"acquire only", mpDefs(plainPayload, "", refStore("device", "relaxed"), refLoad("device", "acquire"), ""), true},
		{"block scope", mpDefs(plainPayload, "", refStore("block", "release"), refLoad("block", "acquire"), ""), true},
		{"release acquire", mpDefs(plainPayload, "", refStore("device", "release"), refLoad("device", "acquire"), ""), false},
		{"seq_cst", mpDefs(plainPayload, "", refStore("device", "seq_cst"), refLoad("device", "seq_cst"), ""), false},
		{"system scope", mpDefs(plainPayload, "", refStore("system", "release"), refLoad("system", "acquire"), ""), false},
		{"read-modify-writes", mpDefs(plainPayload, "",
			"cuda::atomic_ref<int, cuda::thread_scope_device>(*f).exchange(1, cuda::memory_order_release)",
			"cuda::atomic_ref<int, cuda::thread_scope_device>(*f).fetch_add(0, cuda::memory_order_acquire)", ""), false},
		{"relaxed with fences", mpDefs(plainPayload, "cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device)",
			refStore("device", "relaxed"), refLoad("device", "relaxed"),
			"cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device)"), false},
		{"block-scope fences", mpDefs(plainPayload, "cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_block)",
			refStore("device", "relaxed"), refLoad("device", "relaxed"),
			"cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block)"), true},
	}
	src := "#include <cuda/atomic>\n" + mpSrc
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := litmus(t, "sim:h200?memory=relaxed&seed=1", src, "mp", c.defs, launches, stale)
			seen := litmus(t, "sim:h200?memory=relaxed&seed=1", src, "mp", c.defs, launches, func(_, saw int32) bool { return saw == 1 })
			t.Logf("%d stale reads in %d trials (flag seen in %d)", n, launches*litmusPairs, seen)
			if seen == 0 {
				t.Fatalf("the consumer never saw the flag")
			}
			if c.allowed && n == 0 {
				t.Errorf("no stale read in %d trials: the model allows one", launches*litmusPairs)
			}
			if !c.allowed && n > 0 {
				t.Errorf("%d stale reads: the model forbids them", n)
			}
		})
	}
}

// TestAtomicRefSequentialConsistency: the default model never shows a
// stale read, whatever the orders.
func TestAtomicRefSequentialConsistency(t *testing.T) {
	src := "#include <cuda/atomic>\n" + mpSrc
	defs := mpDefs(plainPayload, "", refStore("device", "relaxed"), refLoad("device", "relaxed"), "")
	if n := litmus(t, "sim:h200?seed=3", src, "mp", defs, 10, stale); n > 0 {
		t.Errorf("%d stale reads under sequential consistency", n)
	}
}

// TestAtomicRefSharedNoRace: atomic_ref stores to shared memory are
// atomic, not plain writes, to the race check.
func TestAtomicRefSharedNoRace(t *testing.T) {
	const src = `#include <cuda/atomic>
__global__ void k(int* out) {
    __shared__ int s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> r(s);
    r.store(threadIdx.x, cuda::memory_order_relaxed);
    r.fetch_max(threadIdx.x, cuda::memory_order_relaxed);
    __syncthreads();
    if (threadIdx.x == 0) out[0] = r.load(cuda::memory_order_relaxed);
}`
	d := open(t, "sim:h200")
	out := zeros[int32](t, d, 1)
	res := launch(t, kernel(t, d, src, "k"), 1, 64, out)
	if races := diagnostics(res, "race"); len(races) != 0 {
		t.Errorf("races reported for atomic_ref stores: %v", races)
	}
	if got := download(t, out)[0]; got != 63 {
		t.Errorf("out = %d, want 63", got)
	}
	// The same with a plain store is a race.
	plain := strings.Replace(src, "r.store(threadIdx.x, cuda::memory_order_relaxed)", "s = threadIdx.x", 1)
	res = launch(t, kernel(t, d, plain, "k"), 1, 64, out)
	if races := diagnostics(res, "race"); len(races) == 0 {
		t.Errorf("no race reported for plain stores")
	}
}
