package gpusim_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
)

// The litmus tests of the relaxed memory model (memory=relaxed). Each
// launch runs pairs of blocks, one pair per trial, each pair on its own
// addresses; a shape's outcome is counted over the pairs of many launches
// (launch k of a device seeded N runs with seed N+k).

const litmusPairs = 16

// mpSrc is message passing: block 2p writes the payload then the flag;
// block 2p+1 spins on the flag, then reads the payload and acknowledges
// (the producer waits for that, as the H200 microbenchmark's does). out[2p]
// is the payload read, out[2p+1] whether the flag was seen.
const mpSrc = `
__global__ void mp(int* data, int* flag, int* out) {
    if (threadIdx.x != 0) return;
    int p = blockIdx.x >> 1;
    int* d = data + p * 64;
    int* f = flag + p * 64;
    if ((blockIdx.x & 1) == 0) {
        STORE_PAYLOAD;
        PRODUCER_FENCE;
        PUBLISH;
        int spins = 0;
        while (*(volatile int*)(f + 1) == 0 && ++spins < 4000) {}
    } else {
        int spins = 0;
        while (OBSERVE == 0 && ++spins < 4000) {}
        CONSUMER_FENCE;
        out[2 * p] = *(volatile int*)d;
        out[2 * p + 1] = spins < 4000;
        *(volatile int*)(f + 1) = 1;
    }
}`

// sbSrc is store buffering: each block of a pair writes its variable,
// then reads the other's.
const sbSrc = `
__global__ void sb(int* x, int* y, int* out) {
    if (threadIdx.x != 0) return;
    int p = blockIdx.x >> 1;
    int* mine = ((blockIdx.x & 1) == 0 ? x : y) + p * 64;
    int* other = ((blockIdx.x & 1) == 0 ? y : x) + p * 64;
    *(volatile int*)mine = 1;
    FENCE;
    out[blockIdx.x] = *(volatile int*)other;
}`

// lbSrc is load buffering: each thread of a pair (PAIR sets p and side,
// or returns) reads the other's variable, then writes its own (STORE,
// after FENCE), and only then records what it read.
const lbSrc = `
__global__ void lb(int* x, int* y, int* out) {
    int p, side;
    PAIR;
    int* mine = (side == 0 ? x : y) + p * 64;
    int* other = (side == 0 ? y : x) + p * 64;
    int r = LOAD;
    FENCE;
    STORE;
    out[2 * p + side] = r;
}`

// lbSidedSrc is lbSrc with each side's own LOADn, FENCEn and STOREn. The
// two sides' code is apart, so that a fence on one side puts no branch
// between the other side's load and store (the branch comes before).
const lbSidedSrc = `
__global__ void lb(int* x, int* y, int* out) {
    int p, side;
    PAIR;
    int* mine = (side == 0 ? x : y) + p * 64;
    int* other = (side == 0 ? y : x) + p * 64;
    if (side == 0) {
        int r = LOAD0;
        FENCE0;
        STORE0;
        out[2 * p] = r;
    } else {
        int r = LOAD1;
        FENCE1;
        STORE1;
        out[2 * p + 1] = r;
    }
}`

// pairing is where a litmus kernel's two threads of a trial sit: PAIR's
// code, and the launch's blocks and threads per block.
type pairing struct {
	name, code      string
	blocks, threads int
}

var (
	// betweenBlocks: thread 0 of blocks 2p and 2p+1 (litmus's default).
	betweenBlocks = pairing{"between blocks", "if (threadIdx.x != 0) return; p = blockIdx.x >> 1; side = blockIdx.x & 1", 2 * litmusPairs, 32}
	// betweenWarps: threads 0 and 32 of block p.
	betweenWarps = pairing{"between warps of a block", "if (threadIdx.x != 0 && threadIdx.x != 32) return; p = blockIdx.x; side = threadIdx.x >> 5", litmusPairs, 64}
	// betweenLanes: lanes 0 and 1 of block p's warp.
	betweenLanes = pairing{"between lanes of a warp", "if (threadIdx.x > 1) return; p = blockIdx.x; side = threadIdx.x", litmusPairs, 32}
)

// litmus runs src (its macros replaced by defs) on spec over launches
// launches and counts the pairs whose two outputs satisfy outcome.
func litmus(t *testing.T, spec, src, name string, defs map[string]string, launches int, outcome func(a, b int32) bool) int {
	t.Helper()
	return litmusOn(t, spec, src, name, defs, betweenBlocks, launches, outcome)
}

// litmusOn is litmus with the trials' threads placed as pair says (its
// code replaces PAIR).
func litmusOn(t *testing.T, spec, src, name string, defs map[string]string, pair pairing, launches int, outcome func(a, b int32) bool) int {
	t.Helper()
	src = strings.ReplaceAll(src, "PAIR", pair.code)
	for k, v := range defs {
		src = strings.ReplaceAll(src, k, v)
	}
	d := open(t, spec)
	kern := kernel(t, d, src, name)
	n := 0
	for range launches {
		a := zeros[int32](t, d, litmusPairs*64)
		b := zeros[int32](t, d, litmusPairs*64)
		out := zeros[int32](t, d, 2*litmusPairs)
		launch(t, kern, pair.blocks, pair.threads, a, b, out)
		got := download(t, out)
		for p := range litmusPairs {
			if outcome(got[2*p], got[2*p+1]) {
				n++
			}
		}
	}
	return n
}

const fence = "__threadfence()"

func mpDefs(payload, pfence, publish, observe, cfence string) map[string]string {
	return map[string]string{"STORE_PAYLOAD": payload, "PRODUCER_FENCE": pfence, "PUBLISH": publish, "OBSERVE": observe, "CONSUMER_FENCE": cfence}
}

const (
	plainPayload = "*d = 42"
	volPublish   = "*(volatile int*)f = 1"
	volObserve   = "*(volatile int*)f"
	atomPublish  = "atomicExch(f, 1)"
	atomObserve  = "atomicAdd(f, 0)"
)

// stale is message passing's forbidden-with-order outcome: the flag seen,
// the payload not.
func stale(payload, saw int32) bool { return saw == 1 && payload != 42 }

func TestRelaxedMessagePassing(t *testing.T) {
	cases := []struct {
		name    string
		defs    map[string]string
		allowed bool
	}{
		{"no order", mpDefs(plainPayload, "", volPublish, volObserve, ""), true},
		{"producer fence only", mpDefs(plainPayload, fence, volPublish, volObserve, ""), true},
		{"consumer fence only", mpDefs(plainPayload, "", volPublish, volObserve, fence), true},
		{"block fences", mpDefs(plainPayload, "__threadfence_block()", volPublish, volObserve, "__threadfence_block()"), true},
		{"relaxed atomics", mpDefs(plainPayload, "", atomPublish, atomObserve, ""), true},
		{"fences", mpDefs(plainPayload, fence, volPublish, volObserve, fence), false},
		{"fences, atomics", mpDefs(plainPayload, fence, atomPublish, atomObserve, fence), false},
		{"system fences", mpDefs(plainPayload, "__threadfence_system()", volPublish, volObserve, "__threadfence_system()"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := litmus(t, "sim:h200?memory=relaxed&seed=1", mpSrc, "mp", c.defs, 60, stale)
			seen := litmus(t, "sim:h200?memory=relaxed&seed=1", mpSrc, "mp", c.defs, 60, func(_, saw int32) bool { return saw == 1 })
			t.Logf("%d stale reads in %d trials (flag seen in %d)", n, 60*litmusPairs, seen)
			if seen == 0 {
				t.Fatalf("the consumer never saw the flag")
			}
			if c.allowed && n == 0 {
				t.Errorf("no stale read in %d trials: the model allows one", 60*litmusPairs)
			}
			if !c.allowed && n > 0 {
				t.Errorf("%d stale reads: the model forbids them", n)
			}
		})
	}
}

func TestSequentialConsistencyByDefault(t *testing.T) {
	for _, spec := range []string{"sim:h200", "sim:h200?memory=sc&seed=9", "sim:t4?order=deterministic"} {
		if n := litmus(t, spec, mpSrc, "mp", mpDefs(plainPayload, "", volPublish, volObserve, ""), 10, stale); n > 0 {
			t.Errorf("%s: %d stale reads under sequential consistency", spec, n)
		}
		if n := litmus(t, spec, sbSrc, "sb", map[string]string{"FENCE": ""}, 10, func(a, b int32) bool { return a == 0 && b == 0 }); n > 0 {
			t.Errorf("%s: store buffering: both reads 0 in %d pairs under sequential consistency", spec, n)
		}
	}
}

func TestRelaxedStoreBuffering(t *testing.T) {
	both0 := func(a, b int32) bool { return a == 0 && b == 0 }
	if n := litmus(t, "sim:h200?memory=relaxed", sbSrc, "sb", map[string]string{"FENCE": ""}, 25, both0); n == 0 {
		t.Errorf("store buffering without fences: both reads 0 never seen; the model allows it")
	}
	if n := litmus(t, "sim:h200?memory=relaxed", sbSrc, "sb", map[string]string{"FENCE": fence}, 25, both0); n > 0 {
		t.Errorf("store buffering with fences: both reads 0 in %d pairs; the model forbids it", n)
	}
}

// lbDefs are the macros of lbSrc.
func lbDefs(load, fence, store string) map[string]string {
	return map[string]string{"LOAD": load, "FENCE": fence, "STORE": store}
}

// sided are the macros of lbSidedSrc: both sides as lbDefs, then the
// overrides in more (FENCE0, STORE1, ...).
func sided(load, fence, store string, more ...string) map[string]string {
	d := map[string]string{}
	for _, side := range []string{"0", "1"} {
		d["LOAD"+side], d["FENCE"+side], d["STORE"+side] = load, fence, store
	}
	for i := 0; i+1 < len(more); i += 2 {
		d[more[i]] = more[i+1]
	}
	return d
}

const (
	volLoad    = "*(volatile int*)other"
	volStore   = "*(volatile int*)mine = 1"
	blockFence = "__threadfence_block()"
	atomicRef  = "cuda::atomic_ref<int, cuda::thread_scope_device>"
)

// TestRelaxedLoadBuffering: both reads 1, each load reading the store
// the other thread makes after its own load. PTX allows it for plain,
// volatile and relaxed accesses (relaxed read-modify-writes included)
// unless something orders each thread's load before its store: a fence
// whose scope includes the other thread (so __threadfence_block() between
// blocks does not, and a fence on one side only orders one side), an
// acquire load, or a dependency of the store on the value loaded (the
// No Thin Air axiom). The relaxed model produces each allowed outcome
// within launchesAllowed launches of seed 1 on, and no forbidden one in
// launchesForbidden.
func TestRelaxedLoadBuffering(t *testing.T) {
	const launchesAllowed, launchesForbidden = 40, 150
	both1 := func(a, b int32) bool { return a == 1 && b == 1 }
	cases := []struct {
		name    string
		pair    pairing
		defs    map[string]string
		allowed bool
	}{
		{"no fences", betweenBlocks, lbDefs(volLoad, "", volStore), true},
		{"plain loads", betweenBlocks, lbDefs("*other", "", volStore), true},
		{"plain loads and stores", betweenBlocks, lbDefs("*other", "", "*mine = 1"), true},
		{"relaxed atomic_ref loads", betweenBlocks, lbDefs(atomicRef+"(*other).load(cuda::memory_order_relaxed)", "", volStore), true},
		{"relaxed atomic_ref stores", betweenBlocks, lbDefs(volLoad, "", atomicRef+"(*mine).store(1, cuda::memory_order_relaxed)"), true},
		{"atomicAdd(other, 0) loads", betweenBlocks, lbDefs("atomicAdd(other, 0)", "", volStore), true},
		{"atomicCAS loads", betweenBlocks, lbDefs("atomicCAS(other, 5, 6)", "", volStore), true},
		{"relaxed fetch_add loads", betweenBlocks, lbDefs(atomicRef+"(*other).fetch_add(0, cuda::memory_order_relaxed)", "", volStore), true},
		{"block fences between blocks", betweenBlocks, lbDefs(volLoad, blockFence, volStore), true},
		{"block fences, atomic loads", betweenBlocks, lbDefs("atomicAdd(other, 0)", blockFence, volStore), true},
		{"device fence on side 0 only", betweenBlocks, sided(volLoad, "", volStore, "FENCE0", fence), true},
		{"device fence on side 1 only", betweenBlocks, sided(volLoad, "", volStore, "FENCE1", fence), true},
		{"block fence on one side", betweenBlocks, sided(volLoad, "", volStore, "FENCE1", blockFence), true},
		{"acquire load on one side", betweenBlocks, sided(volLoad, "", volStore, "LOAD1", atomicRef+"(*other).load(cuda::memory_order_acquire)"), true},
		{"data dependency on one side", betweenBlocks, sided(volLoad, "", volStore, "STORE1", "*(volatile int*)mine = r"), true},
		{"device fence on one side, no fence between warps", betweenWarps, sided(volLoad, "", volStore, "FENCE1", fence), true},
		{"no fences, between warps", betweenWarps, lbDefs(volLoad, "", volStore), true},
		{"no fences, between lanes", betweenLanes, lbDefs(volLoad, "", volStore), true},

		{"device fences", betweenBlocks, lbDefs(volLoad, fence, volStore), false},
		{"system fences", betweenBlocks, lbDefs(volLoad, "__threadfence_system()", volStore), false},
		{"device fences, atomic loads", betweenBlocks, lbDefs("atomicAdd(other, 0)", fence, volStore), false},
		{"acquire atomic_ref loads", betweenBlocks, lbDefs(atomicRef+"(*other).load(cuda::memory_order_acquire)", "", volStore), false},
		{"acquire fetch_add loads", betweenBlocks, lbDefs(atomicRef+"(*other).fetch_add(0, cuda::memory_order_acquire)", "", volStore), false},
		{"acquire fences", betweenBlocks, lbDefs(volLoad, "cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device)", volStore), false},
		{"data dependency", betweenBlocks, lbDefs(volLoad, "", "*(volatile int*)mine = r"), false},
		{"data dependency, atomic loads", betweenBlocks, lbDefs("atomicAdd(other, 0)", "", "*(volatile int*)mine = r"), false},
		{"data dependency through a copy", betweenBlocks, lbDefs(volLoad, "int s = r", "*(volatile int*)mine = s"), false},
		{"address dependency", betweenBlocks, lbDefs(volLoad, "", "*(volatile int*)(mine + (r & 64)) = 1"), false},
		{"control dependency", betweenBlocks, lbDefs(volLoad, "", "if (r) *(volatile int*)mine = 1"), false},
		{"block fences between warps", betweenWarps, lbDefs(volLoad, blockFence, volStore), false},
		{"block fences between lanes", betweenLanes, lbDefs(volLoad, blockFence, volStore), false},
		{"block fences between warps, atomic loads", betweenWarps, lbDefs("atomicAdd(other, 0)", blockFence, volStore), false},
		{"block fences between warps, plain accesses", betweenWarps, lbDefs("*other", blockFence, "*mine = 1"), false},
		{"device fence on one side, block fence on the other, between warps", betweenWarps, sided(volLoad, blockFence, volStore, "FENCE1", fence), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			launches := launchesAllowed
			if !c.allowed {
				launches = launchesForbidden
			}
			src := "#include <cuda/atomic>\n" + lbSrc
			if _, ok := c.defs["LOAD0"]; ok {
				src = "#include <cuda/atomic>\n" + lbSidedSrc
			}
			n := litmusOn(t, "sim:h200?memory=relaxed&seed=1", src, "lb", c.defs, c.pair, launches, both1)
			t.Logf("%s: %d of %d pairs read both stores", c.pair.name, n, launches*litmusPairs)
			if c.allowed && n == 0 {
				t.Errorf("load buffering never seen in %d pairs; PTX allows it", launches*litmusPairs)
			}
			if !c.allowed && n > 0 {
				t.Errorf("load buffering in %d pairs; PTX forbids it", n)
			}
		})
	}
	// r1 = r2 + 1 and r2 = r1 + 1, both nonzero: out of thin air.
	if n := litmus(t, "sim:h200?memory=relaxed&seed=1", lbSrc, "lb", lbDefs(volLoad, "", "*(volatile int*)mine = r + 1"), launchesForbidden,
		func(a, b int32) bool { return a != 0 && b != 0 }); n > 0 {
		t.Errorf("values out of thin air in %d pairs", n)
	}
	// Under sequential consistency, never.
	for _, pair := range []pairing{betweenBlocks, betweenWarps, betweenLanes} {
		if n := litmusOn(t, "sim:h200?seed=1", lbSrc, "lb", lbDefs(volLoad, "", volStore), pair, 10, both1); n > 0 {
			t.Errorf("%s: load buffering in %d pairs under sequential consistency", pair.name, n)
		}
	}
}

// TestRelaxedLoadBufferingRelease: a release store orders the loads
// before it, for observers that acquire; the model goes further and never
// lets a load pass a release store, so load buffering with release stores
// on both sides never shows (a subset of what PTX allows where the loads
// are relaxed).
func TestRelaxedLoadBufferingRelease(t *testing.T) {
	defs := lbDefs(volLoad, "", atomicRef+"(*mine).store(1, cuda::memory_order_release)")
	if n := litmus(t, "sim:h200?memory=relaxed&seed=1", "#include <cuda/atomic>\n"+lbSrc, "lb", defs, 60, func(a, b int32) bool { return a == 1 && b == 1 }); n > 0 {
		t.Errorf("release stores: load buffering in %d pairs", n)
	}
}

// lb3Src is load buffering around three threads: in block 2p, warp 0
// (T1) reads x, fences at block scope and writes y; warp 1 (T2) waits a
// while for y, fences with FENCE and writes z; in block 2p+1, T3 waits a
// while for z, fences at device scope and writes x. Each records what it
// read (T2 and T3: whether the wait saw the store).
const lb3Src = `
__global__ void lb3(int* x, int* y, int* z, int* out) {
    int t = threadIdx.x;
    if (t != 0 && t != 32) return;
    int p = blockIdx.x >> 1;
    x += p * 64; y += p * 64; z += p * 64;
    if ((blockIdx.x & 1) == 0) {
        if (t == 0) {
            int r = *(volatile int*)x;
            __threadfence_block();
            *(volatile int*)y = 1;
            out[3 * p] = r;
        } else {
            int spins = 0;
            while (*(volatile int*)y == 0 && ++spins < 64) {}
            FENCE;
            *(volatile int*)z = 1;
            out[3 * p + 1] = spins < 64;
        }
    } else if (t == 0) {
        int spins = 0;
        while (*(volatile int*)z == 0 && ++spins < 64) {}
        __threadfence();
        *(volatile int*)x = 1;
        out[3 * p + 2] = spins < 64;
    }
}`

// TestRelaxedLoadBufferingCumulative: T1's block fence orders its load
// before its store for T2, in its block; T2's device fence then orders
// both for T3 (base causality is transitive), so all three reading 1 is
// forbidden. With no fence in T2, nothing orders T2's load before its
// store, and the outcome is allowed.
func TestRelaxedLoadBufferingCumulative(t *testing.T) {
	count := func(f string, launches int) int {
		d := open(t, "sim:h200?memory=relaxed&seed=1")
		k := kernel(t, d, strings.ReplaceAll(lb3Src, "FENCE", f), "lb3")
		n := 0
		for range launches {
			x, y, z := zeros[int32](t, d, litmusPairs*64), zeros[int32](t, d, litmusPairs*64), zeros[int32](t, d, litmusPairs*64)
			out := zeros[int32](t, d, 3*litmusPairs)
			launch(t, k, 2*litmusPairs, 64, x, y, z, out)
			got := download(t, out)
			for p := range litmusPairs {
				if got[3*p] == 1 && got[3*p+1] == 1 && got[3*p+2] == 1 {
					n++
				}
			}
		}
		return n
	}
	if n := count("", 60); n == 0 {
		t.Errorf("no fence in T2: all three read 1 never seen in %d trials; PTX allows it", 60*litmusPairs)
	}
	if n := count(fence, 150); n > 0 {
		t.Errorf("device fence in T2: all three read 1 in %d trials; PTX forbids it", n)
	}
}

// TestRelaxedReadWriteCoherence: a thread's load never reads the store it
// makes after it (CoRW), even when the load is satisfied late; it may
// read another block's store.
func TestRelaxedReadWriteCoherence(t *testing.T) {
	const src = `
__global__ void corw(int* x, int* y, int* out) {
    if (threadIdx.x != 0) return;
    int p = blockIdx.x >> 1;
    int* v = x + p * 64;
    if ((blockIdx.x & 1) == 0) {
        int r = *(volatile int*)v;
        *(volatile int*)v = 1;
        *(volatile int*)(y + p * 64) = 1;
        out[2 * p] = r;
    } else {
        *(volatile int*)v = 2;
        out[2 * p + 1] = 0;
    }
}`
	if n := litmus(t, "sim:h200?memory=relaxed&seed=1", src, "corw", nil, 150, func(a, _ int32) bool { return a == 1 }); n > 0 {
		t.Errorf("a load read its own later store in %d pairs", n)
	}
	if n := litmus(t, "sim:h200?memory=relaxed&seed=1", src, "corw", nil, 40, func(a, _ int32) bool { return a == 2 }); n == 0 {
		t.Errorf("the late load never read the other block's store")
	}
}

// TestRelaxedLateAtomics: relaxed atomics satisfied late stay atomic and
// use the operands they issued with (the lowering reuses the value's
// register before the result is used): every old value from 0 to
// 3(n-1) once, and the counter at 3n, for every seed.
func TestRelaxedLateAtomics(t *testing.T) {
	const src = `
__global__ void add(int* c, int* mine, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int r = atomicAdd(c, 3);
    mine[i] = 1;
    out[i] = r;
}`
	const blocks, threads = 8, 64
	for seed := 1; seed <= 5; seed++ {
		d := open(t, fmt.Sprintf("sim:h200?memory=relaxed&seed=%d", seed))
		k := kernel(t, d, src, "add")
		c, mine, out := zeros[int32](t, d, 1), zeros[int32](t, d, blocks*threads), zeros[int32](t, d, blocks*threads)
		launch(t, k, blocks, threads, c, mine, out)
		if got := download(t, c)[0]; got != 3*blocks*threads {
			t.Fatalf("seed %d: counter %d, want %d", seed, got, 3*blocks*threads)
		}
		seen := make([]bool, blocks*threads)
		for i, r := range download(t, out) {
			if r%3 != 0 || r < 0 || int(r/3) >= len(seen) || seen[r/3] {
				t.Fatalf("seed %d: thread %d read %d: not a fresh multiple of 3 below %d", seed, i, r, 3*blocks*threads)
			}
			seen[r/3] = true
		}
	}
}

// TestRelaxedReproducible: one seed, one outcome.
func TestRelaxedReproducible(t *testing.T) {
	run := func() string {
		d := open(t, "sim:h200?memory=relaxed&seed=5")
		src := strings.NewReplacer("STORE_PAYLOAD", plainPayload, "PRODUCER_FENCE", "", "PUBLISH", volPublish, "OBSERVE", volObserve, "CONSUMER_FENCE", "").Replace(mpSrc)
		k := kernel(t, d, src, "mp")
		var sb strings.Builder
		for range 5 {
			a, b, out := zeros[int32](t, d, litmusPairs*64), zeros[int32](t, d, litmusPairs*64), zeros[int32](t, d, 2*litmusPairs)
			res := launch(t, k, 2*litmusPairs, 32, a, b, out)
			fmt.Fprint(&sb, download(t, out), res.Counters.WarpInstructions)
		}
		return sb.String()
	}
	if a, b := run(), run(); a != b {
		t.Errorf("two runs of seed 5 differ:\n%s\n%s", a, b)
	}
}

var _ = gpu.D1

// TestRelaxedOwnStores: a block sees its own global stores at once, at
// any size, and other warps of the block see them after __syncthreads.
func TestRelaxedOwnStores(t *testing.T) {
	const src = `
__global__ void own(int* x, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = i * 3 + 1;
    out[3 * i] = x[i];
    x[i] = 0x04030201;
    out[3 * i + 1] = ((volatile unsigned char*)x)[4 * i + 1];
    __syncthreads();
    int j = blockIdx.x * blockDim.x + (threadIdx.x + 32) % blockDim.x;
    out[3 * i + 2] = x[j];
}`
	for seed := range 5 {
		d := open(t, fmt.Sprintf("sim:h200?memory=relaxed&seed=%d", seed))
		k := kernel(t, d, src, "own")
		x := zeros[int32](t, d, 256)
		out := zeros[int32](t, d, 3*256)
		launch(t, k, 2, 128, x, out)
		got := download(t, out)
		for i := range 256 {
			if got[3*i] != int32(i*3+1) || got[3*i+1] != 2 || got[3*i+2] != 0x04030201 {
				t.Fatalf("seed %d thread %d: read %d, byte %d, neighbour %#x; want %d, 2, 0x04030201",
					seed, i, got[3*i], got[3*i+1], got[3*i+2], i*3+1)
			}
		}
	}
}

// The scopes of atomics and fences under the relaxed model (scope.go).
const scopeSrc = `
__global__ void count(int* c, int adds) {
    for (int i = 0; i < adds; ++i) ADD(c, 1);
}`

// countLost launches count (ADD replaced by add) on spec over launches
// launches of blocks x threads and returns the launches that lost updates,
// the first one's seed, and the results.
func countLost(t *testing.T, spec, add string, blocks, threads, launches int) (short int, first uint64, got []int32) {
	t.Helper()
	d := open(t, spec)
	k := kernel(t, d, strings.ReplaceAll(scopeSrc, "ADD", add), "count")
	const adds = 4
	for range launches {
		c := zeros[int32](t, d, 1)
		res := launch(t, k, blocks, threads, c, int32(adds))
		v := download(t, c)[0]
		got = append(got, v)
		if v != int32(blocks*threads*adds) {
			if v > int32(blocks*threads*adds) || v <= 0 {
				t.Fatalf("%s %s: count %d, want at most %d", spec, add, v, blocks*threads*adds)
			}
			if short == 0 {
				first = res.Seed
			}
			short++
		}
	}
	return short, first, got
}

func TestRelaxedScopedAtomics(t *testing.T) {
	const relaxed = "sim:h200?memory=relaxed&seed=1"
	// Block scope between blocks: PTX does not make them atomic with
	// respect to each other, and the model loses updates for some seeds.
	short, first, got := countLost(t, relaxed, "atomicAdd_block", 16, 32, 8)
	if short == 0 {
		t.Errorf("atomicAdd_block from 16 blocks never lost an update under memory=relaxed: %v", got)
	}
	// The first short launch replays from its seed.
	if first != 0 {
		replay := fmt.Sprintf("sim:h200?memory=relaxed&seed=%d", first)
		if n, _, again := countLost(t, replay, "atomicAdd_block", 16, 32, 1); n != 1 || again[0] != got[first-1] {
			t.Errorf("%s: replay counted %v, want %d", replay, again, got[first-1])
		}
	}
	for _, c := range []struct {
		spec, add      string
		blocks, thread int
	}{
		{relaxed, "atomicAdd", 16, 32},                 // device scope
		{relaxed, "atomicAdd_system", 16, 32},          // system scope
		{relaxed, "atomicAdd_block", 1, 256},           // one block: atomic among its threads
		{"sim:h200?seed=1", "atomicAdd_block", 16, 32}, // sequential consistency
		{"sim:h200?seed=1&order=deterministic", "atomicAdd_block", 16, 32},
	} {
		if n, _, got := countLost(t, c.spec, c.add, c.blocks, c.thread, 8); n > 0 {
			t.Errorf("%s %s on %d blocks of %d: %d launches lost updates: %v", c.spec, c.add, c.blocks, c.thread, n, got)
		}
	}
}

// TestRelaxedScopedPublication: a flag published and read with
// block-scope atomics and block-scope fences gives stale payloads; with
// device-scope fences it does not.
func TestRelaxedScopedPublication(t *testing.T) {
	pub, obs := "atomicExch_block(f, 1)", "atomicAdd_block(f, 0)"
	if n := litmus(t, "sim:h200?memory=relaxed&seed=1", mpSrc, "mp",
		mpDefs(plainPayload, "__threadfence_block()", pub, obs, "__threadfence_block()"), 60, stale); n == 0 {
		t.Errorf("block-scope flag and fences: no stale read; PTX allows them")
	}
	if n := litmus(t, "sim:h200?memory=relaxed&seed=1", mpSrc, "mp",
		mpDefs(plainPayload, fence, atomPublish, atomObserve, fence), 60, stale); n > 0 {
		t.Errorf("device-scope flag and fences: %d stale reads", n)
	}
}
