package engine

import (
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

const issueSrc = `
__global__ void counted(const float* in, float* out, unsigned n, int c) {
    float s = 0.0f;
    for (unsigned j = threadIdx.x; j < n; j += 256) s += in[j];
    float x = s;
    for (int k = 0; k < c; ++k) x = fmaf(x, 0.999f, 0.5f);
    out[threadIdx.x] = x;
}
__global__ void notCounted(unsigned* p, unsigned n, int c) {
    __shared__ unsigned s[256];
    unsigned v = p[threadIdx.x];
    while (v < n) v = atomicAdd(p, 1u);            // the bound test's variable comes from memory
    for (int k = 0; k < c; ++k) { s[threadIdx.x] = v + k; __syncthreads(); } // a barrier
    for (int i = 0; i < c; ++i)                     // not innermost (the inner loop is)
        for (int k = 0; k < c; ++k) v += k;
    for (int k = 0; k < c; ++k) { if (v == 7u) break; v += 3u; } // an early exit
    p[threadIdx.x] = v + s[0];
}
`

func lowerKernel(t *testing.T, name string) *ir.Kernel {
	t.Helper()
	return lower(t, "issue.cu", issueSrc, name)
}

// lower compiles src as file and lowers its kernel name, failing t on any
// error.
func lower(t *testing.T, file, src, name string) *ir.Kernel {
	t.Helper()
	prog, err := cudac.Compile(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fn, err := prog.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ir.Lower(prog, fn, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestIssueWeights: the two counted loops of one kernel are unrolled (a
// bottom test and a counter update at 1/unroll, the body's loads marked),
// constants and copies issue nothing, and none of the loops nvcc would not
// unroll by a runtime count (a data-dependent exit, a barrier inside, an
// outer loop, an early exit) is.
func TestIssueWeights(t *testing.T) {
	k := lowerKernel(t, "counted")
	w, unrolled := issueWeights(k.Code, issueModel{unroll: 4})
	var backs, loads int
	for pc, in := range k.Code {
		switch in.Op {
		case ir.LoopBack:
			backs++
			if w[pc] != 0.25 || !unrolled[pc] {
				t.Errorf("%d %v: weight %v, unrolled %v; want 0.25, true", pc, &in, w[pc], unrolled[pc])
			}
			if ind, ok := countedLoop(k.Code, pc); !ok || w[ind] != 0.25 || k.Code[ind].Dst != in.A {
				t.Errorf("%d %v: induction update %d (ok %v) weight %v", pc, &in, ind, ok, w[ind])
			}
		case ir.MovI, ir.Mov, ir.Func, ir.EndFunc, ir.Loop, ir.EndLoop:
			if w[pc] != 0 {
				t.Errorf("%d %v: weight %v, want 0", pc, &in, w[pc])
			}
		case ir.Ld:
			loads++
			if !unrolled[pc] {
				t.Errorf("%d %v: the load of a counted loop is not marked", pc, &in)
			}
		case ir.St, ir.Fma:
			if w[pc] != 1 {
				t.Errorf("%d %v: weight %v, want 1", pc, &in, w[pc])
			}
		}
	}
	if backs != 2 || loads != 1 {
		t.Fatalf("%d loop bottoms and %d loads in\n%s", backs, loads, k)
	}
	if w1, u1 := issueWeights(k.Code, issueModel{unroll: 1}); slices.Contains(u1, true) || slices.Contains(w1, 0.25) {
		t.Errorf("unroll 1 unrolled something")
	}

	// Of notCounted's loops only the inner one of the nested pair is
	// counted and innermost: its three instructions (the add of k, the
	// counter update, the bottom test) are all that is unrolled.
	k = lowerKernel(t, "notCounted")
	w, unrolled = issueWeights(k.Code, issueModel{unroll: 4})
	var marked []string
	for pc, in := range k.Code {
		if unrolled[pc] {
			marked = append(marked, in.String())
		}
	}
	want := []string{"add.u32 r3, r3, r9", "add.s32 r9, r9, #0x1", "loopback.lt.s32.uni r9, r2, ->27"}
	if !slices.Equal(marked, want) {
		t.Errorf("unrolled %q, want %q in\n%s", marked, want, k)
	}
}

// TestLines checks lines against a count of distinct 128-byte lines, on
// lanes in address order and shuffled.
func TestLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 2000; trial++ {
		var offs [32]uint64
		stride := uint64(rng.IntN(300)) * 4
		for l := range offs {
			offs[l] = uint64(l) * stride
			if trial%2 == 1 {
				offs[l] = uint64(rng.IntN(8192)) * 4
			}
		}
		mask := rng.Uint32() | 1
		base := uint64(rng.IntN(64)) * 4
		want := map[uint64]bool{}
		for l := range 32 {
			if mask&(1<<l) != 0 {
				want[(base+offs[l])>>7] = true
			}
		}
		if got := lines(base, &offs, mask); got != int64(len(want)) {
			t.Fatalf("trial %d: lines = %d, want %d", trial, got, len(want))
		}
	}
}

// TestRuntimeStepNotUnrolled: nvcc unrolls a loop of constant step and
// not one whose step is known only at run time, loop-invariant or not
// (grid_sum and seq_sum in calibration/evidence/2026-11-30-h200-l1reuse/sass):
// a grid-stride loop is one iteration a trip however its stride is
// written.
func TestRuntimeStepNotUnrolled(t *testing.T) {
	src, err := os.ReadFile("testdata/stride.cu")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want bool
	}{{"inline_stride", false}, {"local_stride", false}, {"const_stride", true}} {
		k := lower(t, "stride.cu", string(src), c.name)
		_, unrolled := issueWeights(k.Code, issueModel{unroll: 4})
		for pc, in := range k.Code {
			if in.Op == ir.Ld && unrolled[pc] != c.want {
				t.Errorf("%s: the loop's load unrolled %v, want %v in\n%s", c.name, unrolled[pc], c.want, k)
			}
		}
	}
}

// TestHoist: in a grid-stride loop nvcc issues the stride's product above
// the loop (one IADD3 a trip steps i: grid_sum in
// calibration/evidence/2026-11-30-h200-l1reuse/sass), so the loop body's reads
// of gridDim and blockDim and their product issue nothing, and the
// in-step and local forms issue the same per trip; the induction update,
// the load and the sum still issue.
func TestHoist(t *testing.T) {
	src, err := os.ReadFile("testdata/stride.cu")
	if err != nil {
		t.Fatal(err)
	}
	perTrip := func(name string) (sum float64, k *ir.Kernel, w []float64) {
		k = lower(t, "stride.cu", string(src), name)
		w, _ = issueWeights(k.Code, issueModel{unroll: 4, hoist: true})
		for p, in := range k.Code {
			if in.Op == ir.LoopBack {
				for pc := int(in.Target); pc <= p; pc++ {
					sum += w[pc]
				}
			}
		}
		return sum, k, w
	}
	in, k, w := perTrip("inline_stride")
	local, _, _ := perTrip("local_stride")
	if in != local {
		t.Errorf("per trip: %v issued with the stride in the step, %v with it in a local, want the same", in, local)
	}
	lo, hi := -1, -1
	for p, c := range k.Code {
		if c.Op == ir.LoopBack {
			lo, hi = int(c.Target), p
		}
	}
	for pc, c := range k.Code {
		switch c.Op {
		case ir.S2R, ir.Mul:
			if c.Op == ir.S2R && cudac.Builtin(c.Aux) != cudac.GridDimX && cudac.Builtin(c.Aux) != cudac.BlockDimX {
				continue
			}
			if pc >= lo && pc <= hi && w[pc] != 0 {
				t.Errorf("%d %v in the loop: weight %v, want 0 (hoisted)", pc, &c, w[pc])
			}
		case ir.Ld, ir.LoopBack:
			if w[pc] != 1 {
				t.Errorf("%d %v: weight %v, want 1", pc, &c, w[pc])
			}
		}
	}
}
