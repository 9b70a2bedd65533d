package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpusim/internal/ir"
)

// lateKernel is one thread's load, MID, then a store and a use of the
// value: the window planLate finds for the load.
const lateKernel = `#include <cuda/atomic>
__global__ void k(int* other, int* mine, int* out) {
    int r = LOAD;
    MID;
    STORE;
    out[threadIdx.x] = r;
}`

// planOf lowers lateKernel with its macros replaced and plans its late
// loads.
func planOf(t *testing.T, load, mid, store string) (*exec, []ir.Inst) {
	t.Helper()
	src := strings.NewReplacer("LOAD", load, "MID", mid, "STORE", store).Replace(lateKernel)
	k := lower(t, "k.cu", src, "k")
	x := &exec{k: k}
	x.planLate()
	return x, k.Code
}

// TestPlanLate: which loads may be satisfied late, where they settle, and
// which registers get the value.
func TestPlanLate(t *testing.T) {
	deferred := func(x *exec, code []ir.Inst, op ir.Op) (pc, end int) {
		for pc := range code {
			if code[pc].Op == op && x.lateEnd[pc] >= 0 {
				return pc, int(x.lateEnd[pc])
			}
		}
		return -1, -1
	}
	cases := []struct {
		name, load, mid, store string
		op                     ir.Op // the deferred instruction, or Nop for none
	}{
		{"plain load", "*other", "", "*mine = 1", ir.Ld},
		{"volatile load, block fence", "*(volatile int*)other", "__threadfence_block()", "*(volatile int*)mine = 1", ir.Ld},
		{"relaxed atomic", "atomicAdd(other, 0)", "", "*mine = 1", ir.Atom},
		{"relaxed atomic, block fence", "atomicAdd(other, 0)", "__threadfence_block()", "*mine = 1", ir.Atom},
		{"device fence", "*other", "__threadfence()", "*mine = 1", ir.Nop},
		{"data dependency", "*other", "", "*mine = r", ir.Nop},
		{"address dependency", "*other", "", "mine[r & 1] = 1", ir.Nop},
		{"control dependency", "*other", "", "if (r) *mine = 1", ir.Nop},
		{"acquire load", "cuda::atomic_ref<int, cuda::thread_scope_device>(*other).load(cuda::memory_order_acquire)", "", "*mine = 1", ir.Nop},
		{"release store", "*other", "", "cuda::atomic_ref<int, cuda::thread_scope_device>(*mine).store(1, cuda::memory_order_release)", ir.Nop},
		{"block-scope atomic", "atomicAdd_block(other, 0)", "", "*mine = 1", ir.Nop},
		{"no store", "*other", "", "", ir.Nop},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, code := planOf(t, c.load, c.mid, c.store)
			pc, end := deferred(x, code, c.op)
			if c.op == ir.Nop {
				for i, e := range x.lateEnd {
					if e >= 0 {
						t.Fatalf("%s at %d deferred to %d; want none", &code[i], i, e)
					}
				}
				return
			}
			if pc < 0 {
				t.Fatalf("no %s deferred", c.op)
			}
			// It settles at the store of r to out, which reads the value
			// from one of the registers meant for it.
			st := &code[end]
			if st.Op != ir.St || !slices.Contains(x.lateLive[end], st.B) {
				t.Errorf("settles at %s, registers %v; want the store of r", st, x.lateLive[end])
			}
			// Each register meant for the value is the result or a copy
			// of it, and none is overwritten between the copy and the end.
			for _, r := range x.lateLive[end] {
				if r == code[pc].Dst {
					continue
				}
				copied := false
				for i := pc + 1; i < end; i++ {
					if code[i].Dst == r {
						copied = code[i].Op == ir.Mov
					}
				}
				if !copied {
					t.Errorf("register %s at the end is not a copy of the result", r)
				}
			}
			fences := 0
			for i := pc + 1; i < end; i++ {
				if x.lateGuard[i]&guardFence != 0 {
					fences++
				}
			}
			if want := strings.Count(c.mid, "fence"); fences != want {
				t.Errorf("%d guarded fences in the window, want %d", fences, want)
			}
		})
	}
}
