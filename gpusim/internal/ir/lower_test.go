package ir_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpusim/internal/ir"
	"github.com/warplab/warplab/internal/coursekernels"
	"github.com/warplab/warplab/internal/golden"
)

// TestLowerGolden compares the disassembly of the Day 26 kernels with
// golden files: a change to the lowering shows up as a diff to review.
func TestLowerGolden(t *testing.T) {
	src := coursekernels.Source("day26_sums.cu")
	prog, err := cudac.Compile("day26_sums.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sumGlobalAtomic", "sumSharedAtomic", "sumTreeAtomic"} {
		fn, err := prog.Kernel(name)
		if err != nil {
			t.Fatal(err)
		}
		k, err := ir.Lower(prog, fn, ir.Options{})
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", name+".ir"), []byte(k.String()))
	}
}

func lower(t *testing.T, src, name string, opts ir.Options) *ir.Kernel {
	t.Helper()
	prog, err := cudac.Compile("t.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fn, err := prog.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ir.Lower(prog, fn, opts)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func count(k *ir.Kernel, op ir.Op) int {
	n := 0
	for _, in := range k.Code {
		if in.Op == op {
			n++
		}
	}
	return n
}

func TestContraction(t *testing.T) {
	src := `__global__ void k(float* x, float a, float b) {
    x[0] = a * x[1] + b;
    x[2] -= a * b;
    x[3] = __fadd_rn(__fmul_rn(a, b), x[4]);
}`
	if n := count(lower(t, src, "k", ir.Options{}), ir.Fma); n != 2 {
		t.Errorf("%d fused multiply-adds, want 2 (a*x+b and x -= a*b; __fadd_rn never fuses)", n)
	}
	if n := count(lower(t, src, "k", ir.Options{NoFMA: true}), ir.Fma); n != 0 {
		t.Errorf("%d fused multiply-adds with NoFMA", n)
	}
}

func TestAggregation(t *testing.T) {
	// nvcc's rule, as the SASS of CUDA 13.0 shows it on sm_75 and sm_90
	// (calibration/evidence/2026-11-30-h200-nvcc-atomics-sass.txt): an integer atomic to an
	// address the compiler can prove uniform is aggregated per warp when it
	// is an add or sub (result used or not; a per-lane value with the result
	// used only in a full warp), or a bitwise or min/max op whose result is
	// unused. Data-dependent addresses, atomicInc and floats never are.
	src := `__global__ void k(unsigned* c, const int* idx, float* f, unsigned* v) {
    atomicAdd(c, 1u);
    atomicAdd(&c[blockIdx.x], 2u);
    atomicAdd(&c[idx[threadIdx.x]], 1u);
    unsigned old = atomicAdd(c, 1u);
    atomicAdd(f, 1.0f);
    old += atomicSub(&c[blockIdx.x % 8], 1u);
    old += atomicAdd(c, v[threadIdx.x]);
    atomicAdd(c, v[threadIdx.x]);
    old += atomicInc(c, 100u);
    atomicOr(c, 1u << threadIdx.x);
    old += atomicMax(c, threadIdx.x);
    old += atomicAdd(&c[idx[threadIdx.x]], 1u);
    if (idx[threadIdx.x] > 0) old += atomicAdd(c, 1u);
    c[1] = old;
}`
	k := lower(t, src, "k", ir.Options{})
	const no, any, full = 0, 1, 2
	var got []int
	for _, in := range k.Code {
		if in.Op == ir.Atom {
			g := no
			if in.Flags&ir.FlagAggregatable != 0 {
				g = any
				if in.Flags&ir.FlagAggFullWarp != 0 {
					g = full
				}
			}
			got = append(got, g)
		}
	}
	want := []int{any, any, no, any, no, any, full, any, no, any, no, no, any}
	if len(got) != len(want) {
		t.Fatalf("%d atomics, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("atomic %d: aggregation %d, want %d (0 none, 1 any warp, 2 full warps)\n%s", i, got[i], want[i], k)
		}
	}
}

func TestUniformBranches(t *testing.T) {
	src := `__global__ void k(int* x, int n) {
    for (int i = 0; i < n; i++) {        // uniform: n is a parameter
        if (threadIdx.x < i) x[i] += 1;  // divergent
    }
}`
	k := lower(t, src, "k", ir.Options{})
	var uni, div int
	for _, in := range k.Code {
		if in.Op == ir.If || in.Op == ir.LoopTest || in.Op == ir.LoopBack {
			if in.Flags&ir.FlagUniform != 0 {
				uni++
			} else {
				div++
			}
		}
	}
	if uni != 2 || div != 1 {
		t.Errorf("uniform branches %d, divergent %d; want 2 and 1:\n%s", uni, div, k)
	}
	if !strings.Contains(k.String(), "loopback") {
		t.Errorf("loop not rotated:\n%s", k)
	}
}

// TestScopes checks that every atomic and fence carries its scope and
// order: the relaxed memory model reads them.
func TestScopes(t *testing.T) {
	k := lower(t, `__global__ void k(int *p, float *f) {
	atomicAdd(p, 1);
	atomicAdd_block(p + 1, 2);
	atomicMax_system(p + 2, 3);
	atomicAdd_block(f, 1.0f);
	atomicCAS_block(p + 3, 0, 1);
	__threadfence();
	__threadfence_block();
	__threadfence_system();
}`, "k", ir.Options{})
	type so struct {
		op    ir.Op
		scope cudac.Scope
		order cudac.MemoryOrder
	}
	want := []so{
		{ir.Atom, cudac.ScopeDevice, cudac.OrderDefault},
		{ir.Atom, cudac.ScopeBlock, cudac.OrderDefault},
		{ir.Atom, cudac.ScopeSystem, cudac.OrderDefault},
		{ir.Atom, cudac.ScopeBlock, cudac.OrderDefault},
		{ir.Atom, cudac.ScopeBlock, cudac.OrderDefault},
		{ir.Fence, cudac.ScopeDevice, cudac.OrderSeqCst},
		{ir.Fence, cudac.ScopeBlock, cudac.OrderSeqCst},
		{ir.Fence, cudac.ScopeSystem, cudac.OrderSeqCst},
	}
	var got []so
	for _, in := range k.Code {
		if in.Op == ir.Atom || in.Op == ir.Fence {
			got = append(got, so{in.Op, in.Scope, in.Order})
		}
	}
	if len(got) != len(want) {
		t.Fatalf("got %d atomics and fences, want %d:\n%s", len(got), len(want), k)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("instruction %d: got %s %s %s, want %s %s %s", i, got[i].op, got[i].scope, got[i].order,
				want[i].op, want[i].scope, want[i].order)
		}
	}
	if s := k.String(); !strings.Contains(s, "atom.atomicAdd.s32.global.block") || !strings.Contains(s, "fence.__threadfence_block.seq_cst.block") {
		t.Errorf("the disassembly does not show the scopes:\n%s", s)
	}
}
