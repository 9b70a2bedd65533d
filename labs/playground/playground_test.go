package playground_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs/playground"
)

func open(t *testing.T) *gpu.Device {
	t.Helper()
	d, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

const scale = `__global__ void scale(float* x, float a, int n, int* hits) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { x[i] *= a; atomicAdd(hits, 1); }
}`

func TestRun(t *testing.T) {
	d := open(t)
	x := []float32{1, 2, 3, 4, 5}
	l, err := playground.Run(d, scale, "scale", 1, 32, x, float32(2), len(x), playground.Zeros[int32](1))
	if err != nil {
		t.Fatal(err)
	}
	got, err := playground.Values[float32](l, "x")
	if err != nil {
		t.Fatal(err)
	}
	for i := range x {
		if got[i] != 2*x[i] {
			t.Fatalf("x = %v, want each doubled", got)
		}
	}
	if x[0] != 1 {
		t.Error("Run wrote into the caller's slice")
	}
	hits, _ := playground.Values[int32](l, "hits")
	if hits[0] != 5 {
		t.Errorf("hits = %v, want 5", hits)
	}
	if _, err := playground.Values[int32](l, "x"); err == nil {
		t.Error("Values read a float buffer as ints")
	}
	if _, err := playground.Values[int32](l, "nope"); err == nil || !strings.Contains(err.Error(), "buffers: x, hits") {
		t.Errorf("Values of a missing buffer: %v", err)
	}
	s := l.String()
	for _, want := range []string{"scale<<<1, 32>>>", "modelled, t4 profile", "Buffers after the launch", "2 4 6 8 10", "issued to the L2"} {
		if !strings.Contains(s, want) {
			t.Errorf("String lacks %q:\n%s", want, s)
		}
	}
	if h := l.HTML(); !strings.Contains(h, `class="warplab-playground"`) || !strings.Contains(h, `class="warplab-counters"`) {
		t.Errorf("HTML lacks the outputs or counters")
	}
	if l.BreakdownChart().Validate() != nil || l.MixChart().Validate() != nil {
		t.Error("a chart does not validate")
	}
}

func TestRunRepeatsFromFreshBuffers(t *testing.T) {
	d := open(t)
	l, err := playground.RunWith(d, scale, "scale", playground.Options{Grid: gpu.D1(1), Block: gpu.D1(32), WarmUps: 2, Runs: 3},
		[]float32{1}, float32(3), 1, playground.Zeros[int32](1))
	if err != nil {
		t.Fatal(err)
	}
	x, _ := playground.Values[float32](l, "x")
	if x[0] != 3 || l.Runs != 3 || l.WarmUps != 2 {
		t.Errorf("after 5 launches x = %v (want 3: each launch starts from the input), %d runs, %d warm-ups", x, l.Runs, l.WarmUps)
	}
}

func TestRunErrors(t *testing.T) {
	d := open(t)
	_, err := playground.Run(d, "__global__ void k(int* x) { x[0] = y; }", "k", 1, 1, []int32{0})
	var list cudac.ErrorList
	if !errors.As(err, &list) || !strings.Contains(err.Error(), "cell.cu:1:") {
		t.Errorf("a compile error: %v", err)
	}
	if _, err := playground.Run(d, scale, "scal", 1, 1); err == nil || !strings.Contains(err.Error(), "defines scale") {
		t.Errorf("a wrong kernel name: %v", err)
	}
	if _, err := playground.Run(d, scale, "scale", 1, 1, []float32{1}); err == nil || !strings.Contains(err.Error(), "takes 4 arguments (float* x, float a, int n, int* hits), got 1") {
		t.Errorf("too few arguments: %v", err)
	}
	_, err = playground.Run(d, `__global__ void oob(int* x) { x[threadIdx.x + 100] = 1; }`, "oob", 1, 32, []int32{0})
	var le *gpu.LaunchError
	if !errors.As(err, &le) || !errors.Is(err, gpu.ErrIllegalAddress) || !strings.Contains(err.Error(), "cell.cu:1:") {
		t.Errorf("an out-of-bounds write: %v", err)
	}
	_, err = playground.RunWith(d, `__global__ void spin(int* x) { while (x[0] == 0) {} }`, "spin",
		playground.Options{Grid: gpu.D1(1), Block: gpu.D1(32), MaxInstructions: 10000}, []int32{0})
	if !errors.Is(err, gpu.ErrBudget) {
		t.Errorf("an endless loop: %v", err)
	}
	if _, err := playground.Run(d, scale, "scale", 1, 32, []float32{1}, float32(2), 1, playground.Zeros[int32](-1)); err == nil {
		t.Error("a negative Zeros ran")
	}
	if _, err := playground.Run(nil, scale, "scale", 1, 1); err == nil {
		t.Error("a nil device ran")
	}
}

func TestRunReportsRaces(t *testing.T) {
	const race = `__global__ void shift(const int* in, int* out) {
    __shared__ int s[64];
    s[threadIdx.x] = in[threadIdx.x];
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}`
	l, err := playground.Run(open(t), race, "shift", 1, 64, make([]int32, 64), playground.Zeros[int32](64))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Result.Diagnostics) == 0 || !strings.Contains(l.String(), "race") || !strings.Contains(l.HTML(), "diagnostic") {
		t.Errorf("the missing barrier is not reported:\n%s", l)
	}
}
