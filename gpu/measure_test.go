package gpu_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
)

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want gpu.Stats
	}{
		{nil, gpu.Stats{}},
		{[]float64{2}, gpu.Stats{N: 1, Median: 2, Mean: 2, Min: 2, Max: 2}},
		{[]float64{3, 1, 2}, gpu.Stats{N: 3, Median: 2, Mean: 2, Min: 1, Max: 3, Stdev: 1}},
		{[]float64{4, 1, 3, 2}, gpu.Stats{N: 4, Median: 2.5, Mean: 2.5, Min: 1, Max: 4, Stdev: math.Sqrt(5.0 / 3)}},
		{[]float64{1, 1, 1, 9}, gpu.Stats{N: 4, Median: 1, Mean: 3, Min: 1, Max: 9, Stdev: 4}},
	} {
		got := gpu.Summarize(tc.in)
		if got.N != tc.want.N || got.Median != tc.want.Median || got.Mean != tc.want.Mean ||
			got.Min != tc.want.Min || got.Max != tc.want.Max || math.Abs(got.Stdev-tc.want.Stdev) > 1e-12 {
			t.Errorf("Summarize(%v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
	in := []float64{3, 1, 2}
	gpu.Summarize(in)
	if fmt.Sprint(in) != "[3 1 2]" {
		t.Errorf("Summarize reordered its input: %v", in)
	}
}

func TestMethod(t *testing.T) {
	gpuCaps := gpu.Capabilities{MeasuredTiming: true}
	gatedCaps := gpu.Capabilities{MeasuredTiming: true, GatedTiming: true}
	simCaps := gpu.Capabilities{ModelledTiming: true}
	for _, tc := range []struct {
		caps        gpu.Capabilities
		warm, reps  int
		stat        string
		wantW, want int
		text        string
	}{
		{gpuCaps, 0, 0, gpu.StatMedian, 3, 10, "median of 10 launches after 3 warm-ups, CUDA events around each launch"},
		{gpuCaps, 0, 0, gpu.StatMean, 3, 10, "mean of 10 launches after 3 warm-ups, CUDA events around each launch"},
		{gpuCaps, -1, 1, gpu.StatMedian, 0, 1, "one cold launch, no warm-up, CUDA events around each launch"},
		{gpuCaps, 1, 1, gpu.StatMedian, 1, 1, "one launch after 1 warm-up, CUDA events around each launch"},
		{gpuCaps, -1, 5, gpu.StatMedian, 0, 5, "median of 5 launches, CUDA events around each launch"},
		{gatedCaps, 0, 0, gpu.StatMedian, 3, 10, "median of 10 launches after 3 warm-ups, " + gpu.TimerGated},
		{gatedCaps, -1, 5, gpu.StatMedian, 0, 5, "median of 5 launches, " + gpu.TimerGated + ", except a kernel's first launch in the process"},
		{gatedCaps, -1, 1, gpu.StatMedian, 0, 1, "one cold launch, no warm-up, CUDA events around it, gated unless it is the kernel's first launch in the process"},
		{simCaps, 0, 0, gpu.StatMedian, 0, 1, "one launch, the cost model: the model is deterministic, so one launch suffices"},
		{simCaps, 2, 4, gpu.StatMean, 2, 4, "mean of 4 launches after 2 warm-ups, the cost model"},
	} {
		m, err := gpu.NewMethod(tc.caps, tc.warm, tc.reps, tc.stat)
		if err != nil {
			t.Fatal(err)
		}
		if m.WarmUps != tc.wantW || m.Reps != tc.want || m.String() != tc.text || m.Measured != tc.caps.MeasuredTiming {
			t.Errorf("NewMethod(%+v, %d, %d, %s) = %+v %q; want %d warm-ups, %d reps, %q", tc.caps, tc.warm, tc.reps, tc.stat, m, m, tc.wantW, tc.want, tc.text)
		}
	}
	if _, err := gpu.NewMethod(gpuCaps, 0, -1, gpu.StatMedian); err == nil || !strings.Contains(err.Error(), "-1 timed repetitions") {
		t.Errorf("negative reps: %v", err)
	}
	if _, err := gpu.NewMethod(gpuCaps, 0, 0, "mode"); err == nil || !strings.Contains(err.Error(), `statistic "mode"`) {
		t.Errorf("bad statistic: %v", err)
	}
	if d := gpu.DefaultMethod(gpuCaps); d.WarmUps != gpu.DefaultWarmUps || d.Reps != gpu.DefaultReps || d.Statistic != gpu.StatMedian {
		t.Errorf("DefaultMethod = %+v", d)
	}
	if c := gpu.Cold(gpuCaps); c.WarmUps != 0 || c.Reps != 1 {
		t.Errorf("Cold = %+v", c)
	}
}

// TestMeasureFreshArgs checks that Measure makes warm-ups + reps launches,
// each with the arguments made for it, and times only the reps.
func TestMeasureFreshArgs(t *testing.T) {
	dev, err := gpu.Open("sim:t4?order=deterministic")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	m, err := dev.Compile("add.cu", []byte(`__global__ void add(int *acc, int v) { atomicAdd(acc, v); }`))
	if err != nil {
		t.Fatal(err)
	}
	k, _ := m.Kernel("add")
	acc, _ := gpu.NewBuffer[int32](dev, 1)
	var calls []int
	meth, _ := gpu.NewMethod(dev.Capabilities(), 2, 3, gpu.StatMedian)
	cfg := gpu.LaunchConfig{Grid: gpu.D1(4), Block: gpu.D1(32)}
	got, err := k.Measure(cfg, meth, func(i int) ([]any, error) {
		calls = append(calls, i)
		return []any{acc, int32(1)}, acc.Write([]int32{0}) // re-initialised before each launch
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(calls) != "[0 1 2 3 4]" {
		t.Errorf("args called for launches %v, want [0 1 2 3 4]", calls)
	}
	if v, _ := acc.Download(); v[0] != 128 {
		t.Errorf("acc = %d after the last launch, want 128 (re-initialised before it)", v[0])
	}
	if len(got.Times) != 3 || got.Stats.N != 3 || got.Ms != got.Stats.Median || got.Last == nil || got.Last.Kernel != "add" {
		t.Errorf("measurement %+v", got)
	}
	if _, err := k.Measure(cfg, gpu.Method{Reps: 0}, nil); err == nil {
		t.Error("Measure with 0 reps succeeded")
	}
	wantErr := fmt.Errorf("no buffer")
	if _, err := k.Measure(cfg, meth, func(int) ([]any, error) { return nil, wantErr }); err != wantErr {
		t.Errorf("Measure returned %v, want the args function's error", err)
	}
}

// ExampleKernel_Measure times a kernel that accumulates into its output,
// re-initialising the output before every launch so that each does the
// same work; on the simulator the default method is one launch.
func ExampleKernel_Measure() {
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	m, _ := dev.Compile("add.cu", []byte(`__global__ void add(int *acc) { atomicAdd(acc, 1); }`))
	k, _ := m.Kernel("add")
	acc, _ := gpu.NewBuffer[int32](dev, 1)
	meth := gpu.DefaultMethod(dev.Capabilities())
	got, err := k.Measure(gpu.LaunchConfig{Grid: gpu.D1(8), Block: gpu.D1(256)}, meth, func(int) ([]any, error) {
		return []any{acc}, acc.Write([]int32{0})
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	total, _ := acc.Download()
	fmt.Println(meth)
	fmt.Println(len(got.Times), total[0], got.Ms > 0)
	// Output:
	// one launch, the cost model: the model is deterministic, so one launch suffices
	// 1 2048 true
}
