package engine

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// The memory orders and scopes the IR records (Inst.Order, Inst.Scope), as
// the relaxed model honours them. The front end gives the plain CUDA
// atomics relaxed order; a lowering of cuda::atomic_ref sets the others,
// which these tests set by hand on a lowered message-passing kernel.

// orderMP is message passing between the blocks of each pair: PUBLISH and
// OBSERVE are the flag's accesses, PFENCE and CFENCE the fences of the
// producer and the consumer, whose orders the tests set. The producer
// waits for an acknowledgement, so that its exit does not publish the
// payload for it.
const orderMP = `
__global__ void mp(int* data, int* out) {
    if (threadIdx.x != 0) return;
    int p = blockIdx.x >> 1;
    int* d = data + p * 64;
    int* f = d + 32;
    if ((blockIdx.x & 1) == 0) {
        *d = 42;
        PFENCE;
        PUBLISH;
        int spins = 0;
        while (*(volatile int*)(f + 1) == 0 && ++spins < 2000) {}
    } else {
        int spins = 0;
        while (OBSERVE == 0 && ++spins < 2000) {}
        CFENCE;
        out[2 * p] = *d;
        out[2 * p + 1] = spins < 2000;
        *(volatile int*)(f + 1) = 1;
    }
}`

func testMachine() *Machine {
	return &Machine{Name: "test", SMs: 8, MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32,
		MaxWarpsPerSM: 64, SharedPerSM: 228 << 10, SharedPerBlock: 48 << 10, RegsPerSM: 65536, ClockGHz: 1.98, Jitter: 400,
		Costs: Costs{ALU: 4, SFU: 16, Shared: 30, Global: 700, Atomic: 700, Barrier: 30, Launch: 600, Stagger: 75,
			Refill: 150, Local: 16, Store: 8, SharedJitterDivisor: 8, SharedFloatA: 60, SharedFloatB: 116, SharedInt: 8,
			L2Addr: 0.073, L2OpF32: 1.755, L2OpF64: 1.755, L2OpInt: 0.731, L2Sector: 0.585}}
}

// lowerMP lowers orderMP with the flag accessed by publish and observe
// and fence on both sides (or none), then lets set change the
// instructions.
func lowerMP(t *testing.T, publish, observe, fence string, set func(k *ir.Kernel)) *ir.Kernel {
	t.Helper()
	src := strings.NewReplacer("PUBLISH", publish, "OBSERVE", observe, "PFENCE", fence, "CFENCE", fence).Replace(orderMP)
	k := lower(t, "mp.cu", src, "mp")
	set(k)
	return k
}

// staleReads runs k under the relaxed model with seeds 1..seeds and counts
// the consumers that saw the flag and read a stale payload.
func staleReads(t *testing.T, k *ir.Kernel, seeds int) (stale, seen int) {
	t.Helper()
	const pairs = 16
	for seed := 1; seed <= seeds; seed++ {
		mem := NewMemory(1<<30, 0)
		data, _ := mem.Alloc(pairs * 64 * 4)
		out, _ := mem.Alloc(2 * pairs * 4)
		_, err := Run(testMachine(), &Config{Kernel: k, Grid: driver.Dim3{X: 2 * pairs, Y: 1, Z: 1}, Block: driver.Dim3{X: 32, Y: 1, Z: 1},
			Params: []uint64{data.Base, out.Base}, Memory: mem, Seed: uint64(seed), Relaxed: true})
		if err != nil {
			t.Fatal(err)
		}
		for p := range pairs {
			v := int32(binary.LittleEndian.Uint32(out.Data[8*p:]))
			saw := binary.LittleEndian.Uint32(out.Data[8*p+4:])
			if saw == 1 {
				seen++
				if v != 42 {
					stale++
				}
			}
		}
	}
	return stale, seen
}

// setAtoms sets the order and scope of the kernel's atomics on the flag:
// the first atomic is the publication, the second the observation.
func setAtoms(pub, obs cudac.MemoryOrder, scope cudac.Scope) func(*ir.Kernel) {
	return func(k *ir.Kernel) {
		n := 0
		for i := range k.Code {
			if in := &k.Code[i]; in.Op == ir.Atom {
				in.Order, in.Scope = pub, scope
				if n > 0 {
					in.Order = obs
				}
				n++
			}
		}
	}
}

// setFlagAccesses sets the order of the kernel's volatile flag store and load.
func setFlagAccesses(pub, obs cudac.MemoryOrder) func(*ir.Kernel) {
	return func(k *ir.Kernel) {
		for i := range k.Code {
			in := &k.Code[i]
			if in.Flags&ir.FlagVolatile == 0 {
				continue
			}
			switch in.Op {
			case ir.St:
				in.Order = pub
			case ir.Ld:
				in.Order = obs
			}
		}
	}
}

func TestRelaxedMemoryOrders(t *testing.T) {
	const (
		exch = "atomicExch(f, 1)"
		add0 = "atomicAdd(f, 0)"
		vst  = "*(volatile int*)f = 1"
		vld  = "*(volatile int*)f"
	)
	rel, acq, rlx := cudac.OrderRelease, cudac.OrderAcquire, cudac.OrderRelaxed
	cases := []struct {
		name             string
		publish, observe string
		set              func(*ir.Kernel)
		allowed          bool
	}{
		{"relaxed atomics", exch, add0, setAtoms(rlx, rlx, cudac.ScopeDevice), true},
		{"release, relaxed", exch, add0, setAtoms(rel, rlx, cudac.ScopeDevice), true},
		{"relaxed, acquire", exch, add0, setAtoms(rlx, acq, cudac.ScopeDevice), true},
		{"release, acquire", exch, add0, setAtoms(rel, acq, cudac.ScopeDevice), false},
		{"acq_rel, acq_rel", exch, add0, setAtoms(cudac.OrderAcqRel, cudac.OrderAcqRel, cudac.ScopeDevice), false},
		{"seq_cst, system scope", exch, add0, setAtoms(cudac.OrderSeqCst, cudac.OrderSeqCst, cudac.ScopeSystem), false},
		{"release, acquire at block scope", exch, add0, setAtoms(rel, acq, cudac.ScopeBlock), true},
		{"store release, load acquire", vst, vld, setFlagAccesses(rel, acq), false},
		{"store release, load relaxed", vst, vld, setFlagAccesses(rel, rlx), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := lowerMP(t, c.publish, c.observe, "", c.set)
			stale, seen := staleReads(t, k, 30)
			t.Logf("%d stale of %d", stale, seen)
			if seen == 0 {
				t.Fatal("no consumer saw the flag")
			}
			if c.allowed && stale == 0 {
				t.Errorf("no stale read in %d; the model allows one", seen)
			}
			if !c.allowed && stale > 0 {
				t.Errorf("%d stale reads of %d; the order forbids them", stale, seen)
			}
		})
	}
}

// TestFenceOrders: an acquire-only or release-only fence
// (cuda::atomic_thread_fence) orders one side only.
func TestFenceOrders(t *testing.T) {
	setFences := func(prod, cons cudac.MemoryOrder) func(*ir.Kernel) {
		return func(k *ir.Kernel) {
			n := 0
			for i := range k.Code {
				if in := &k.Code[i]; in.Op == ir.Fence {
					in.Order = prod
					if n > 0 {
						in.Order = cons
					}
					n++
				}
			}
		}
	}
	for _, c := range []struct {
		name       string
		prod, cons cudac.MemoryOrder
		allowed    bool
	}{
		{"release, acquire", cudac.OrderRelease, cudac.OrderAcquire, false},
		{"acquire, release (backwards)", cudac.OrderAcquire, cudac.OrderRelease, true},
		{"seq_cst both", cudac.OrderSeqCst, cudac.OrderSeqCst, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := lowerMP(t, "*(volatile int*)f = 1", "*(volatile int*)f", "__threadfence()", setFences(c.prod, c.cons))
			stale, seen := staleReads(t, k, 30)
			t.Logf("%d stale of %d", stale, seen)
			if c.allowed && stale == 0 {
				t.Errorf("no stale read in %d; the model allows one", seen)
			}
			if !c.allowed && stale > 0 {
				t.Errorf("%d stale reads of %d; the fences forbid them", stale, seen)
			}
		})
	}
}
