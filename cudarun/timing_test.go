//go:build linux && cgo

package cudarun

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/internal/coursekernels"
)

// h200Day26 is the H200 table of docs/measurements.md: the
// Day 26 sums at 256 threads per block, mean ms of 10 timed runs after 3
// warm-ups, CUDA events around each launch, a fresh accumulator per launch,
// built with nvcc -O3 -arch=sm_90 (CUDA 13.0, driver 580.159.04).
var h200Day26 = []struct {
	n                    int
	global, shared, tree float64
}{
	{4096, 0.0137, 0.0152, 0.0072},
	{65536, 0.1216, 0.0162, 0.0073},
	{262144, 0.4665, 0.0206, 0.0094},
	{1048576, 1.8470, 0.0546, 0.0144},
	{4194304, 7.3758, 0.1745, 0.0367},
	{16777216, 29.4762, 0.7833, 0.1231},
}

// h200Day26Microbench is the same measurement from the project's
// microbenchmarks, another nvcc build timed on this machine kind
// (calibration/evidence/2026-11-29-h200-microbenchmarks/summary.txt, "block 256", the
// average of three passes of the same method). The two nvcc runs differ
// by up to 22% (sumSharedAtomic at 16M: 0.7833 and 0.6552 ms; sumTreeAtomic
// at 4096: 0.0072 and 0.0056 ms).
var h200Day26Microbench = map[int][3]float64{
	4096:     {0.0120, 0.0136, 0.0056},
	65536:    {0.1202, 0.0150, 0.0066},
	262144:   {0.4653, 0.0200, 0.0077},
	1048576:  {1.8456, 0.0520, 0.0134},
	4194304:  {7.3646, 0.1717, 0.0350},
	16777216: {29.4500, 0.6552, 0.1217},
}

// The bound on each cell: cudarun's mean within ±10% of the nvcc build's,
// the figure, or within timingFloor where that is larger. The
// floor is launch jitter: a small kernel's event time is mostly the
// launch, which jitters by about 2 us on this machine kind in an nvcc
// build too (launch.csv's event_single row beside summary.txt: standard
// deviation 1.904 us, max 41 us), and the two nvcc runs above differ by
// 1.6 to 1.7 us on the 4096-element cells. A cell passes against
// docs/measurements.md's figure or, failing that, the microbenchmark run's:
// cudarun cannot be held closer to nvcc than nvcc is to itself.
const (
	timingTolerance = 0.10
	timingFloor     = 0.002 // ms
	// timingPasses passes over the table; a cell's figure is the median of
	// its passes' means, so that one pass disturbed by something else on
	// the machine (sumSharedAtomic at 65536, pass means 0.0166, 0.0165 and
	// 0.0226 ms: calibration/evidence/
	// 2026-11-30-h200-gpu-evidence-counters-queue.txt) cannot move it,
	// while the bound stays ±10% for every cell. The reference averaged three passes; the
	// median of five agrees with that average when no pass is disturbed.
	timingPasses = 5
)

// median returns the median of xs (the mean of the middle two for an even
// count); xs is not changed.
func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// withinTiming reports whether mean is within the bound of ref.
func withinTiming(mean, ref float64) bool {
	return math.Abs(mean-ref) <= max(timingTolerance*ref, timingFloor)
}

// BenchmarkDay26Timing checks that cudarun's CUDA-event times are honest:
// the same kernels, launched the same way as the nvcc-built reference,
// take the same time. Both references were timed ungated (the events
// recorded as the host submits the launch, with nothing else queued, so
// that an idle GPU also times the submission: about 2.3 us on the H200,
// calibration/evidence/2026-11-30-h200-queue-timing-gated), so the device here
// is ungated too (timing=ungated), not the default gated one. On an H200 each cell must be within the bound of one
// of the two nvcc runs; on another GPU it reports the table, with the
// H200's figures beside it, and compares nothing. It is a benchmark, not a
// test, so that it runs in a process of its own, where no earlier test has
// faulted on purpose (a fault moves the GPU work to a helper process that
// waits on a pipe between launches):
//
//	cudarun.test -test.run '^$' -test.bench Day26Timing -test.benchtime 1x -test.v
func BenchmarkDay26Timing(b *testing.B) {
	d := openGPU(b, "cuda?timing=ungated")
	if helperMode(0) {
		b.Fatal("a fault earlier in this process moved the GPU work to a helper process, which waits on a pipe " +
			"between launches: run the benchmark in a process of its own (-test.run '^$' -test.bench Day26Timing)")
	}
	name := d.Info().Name
	reference := strings.Contains(name, "H200")
	m, err := d.Compile("day26_sums.cu", coursekernels.Source("day26_sums.cu"))
	if err != nil {
		b.Fatal(err)
	}
	const maxN, warm, reps, block = 16777216, 3, 10, 256
	in := make([]float32, maxN)
	for i := range in {
		in[i] = float32(i % 4)
	}
	dIn, err := gpu.Upload(d, in)
	if err != nil {
		b.Fatal(err)
	}
	acc, err := gpu.NewBuffer[float32](d, warm+reps)
	if err != nil {
		b.Fatal(err)
	}
	kernels := []string{"sumGlobalAtomic", "sumSharedAtomic", "sumTreeAtomic"}
	ks := make([]*gpu.Kernel, len(kernels))
	for i, k := range kernels {
		if ks[i], err = m.Kernel(k); err != nil {
			b.Fatal(err)
		}
	}
	launch := func(k *gpu.Kernel, n, slot int) float64 {
		res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1((n + block - 1) / block), Block: gpu.D1(block)}, dIn, acc.At(slot), uint64(n))
		if err != nil {
			b.Fatal(err)
		}
		return res.Timing.Ms
	}
	// Let the clocks ramp up first, as the reference did (0.3 s busy).
	for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
		launch(ks[0], maxN, 0)
	}

	// As the microbenchmarks did: passes over the whole table, each cell 3
	// warm-ups and 10 timed launches into fresh accumulator slots; a
	// cell's figure is the median of its passes' means (timingPasses).
	// One benchmark iteration is timingPasses passes.
	means := make([][3][]float64, len(h200Day26))
	for b.Loop() {
		for pass := 0; pass < timingPasses; pass++ {
			for ri, row := range h200Day26 {
				for ki, k := range ks {
					if err := acc.Zero(); err != nil {
						b.Fatal(err)
					}
					var sum float64
					for r := 0; r < warm+reps; r++ {
						ms := launch(k, row.n, r)
						if r >= warm {
							sum += ms
						}
					}
					means[ri][ki] = append(means[ri][ki], sum/reps)
					sums, err := acc.Download()
					if err != nil {
						b.Fatal(err)
					}
					want := float32(1.5 * float64(row.n))
					for slot, s := range sums {
						// The global sum of 16M elements passes 2^24 and may round.
						if s != want && !(ki == 0 && row.n > 1<<23) {
							b.Errorf("%s n=%d launch %d: sum %v, want %v", kernels[ki], row.n, slot, s, want)
						}
					}
				}
			}
		}
	}

	var tb strings.Builder
	fmt.Fprintf(&tb, "%10s %-16s %10s %10s %8s %14s  %s\n", "n", "kernel", "median ms", "H200 ms", "ratio", "microbench ms", "pass means")
	outside, worst := 0, 0.0
	for ri, row := range h200Day26 {
		refs := []float64{row.global, row.shared, row.tree}
		for ki := range ks {
			mean := median(means[ri][ki])
			passes := ""
			for _, m := range means[ri][ki] {
				passes += fmt.Sprintf(" %.4f", m)
			}
			ratio := mean / refs[ki]
			worst = max(worst, math.Abs(ratio-1))
			other := h200Day26Microbench[row.n][ki]
			mark := ""
			switch {
			case !reference:
			case withinTiming(mean, refs[ki]):
			case withinTiming(mean, other):
				mark = fmt.Sprintf("  outside the bound of docs/measurements.md, within it of the microbenchmark run (ratio %.3f)", mean/other)
			default:
				outside++
				mark = "  OUTSIDE the bound of both nvcc runs"
				b.Errorf("%s n=%d: median of the passes %.4f ms, reference %.4f ms (ratio %.3f), microbenchmark run %.4f ms (ratio %.3f): outside ±10%% (or ±%.0f us) of both",
					kernels[ki], row.n, mean, refs[ki], ratio, other, mean/other, timingFloor*1000)
			}
			fmt.Fprintf(&tb, "%10d %-16s %10.4f %10.4f %8.3f %14.4f %s%s\n", row.n, kernels[ki], mean, refs[ki], ratio, other, passes, mark)
		}
	}
	verdict := fmt.Sprintf("%d of %d cells outside the bound (±10%% or ±%.0f us) of both nvcc runs", outside, 3*len(h200Day26), timingFloor*1000)
	if !reference {
		verdict = "the reference figures are an H200's and this GPU is " + name + ": reported beside them, not compared"
	}
	b.Logf("Day 26 sums on %s, 256 threads per block, the median of %d passes' means of %d timed launches after %d warm-ups; %s:\n%s",
		name, len(means[0][0]), reps, warm, verdict, tb.String())
	b.ReportMetric(100*worst, "max-dev-%")
}

// TestMedianOfPasses: one disturbed pass (timingPasses' run) does not
// move a cell's figure; the mean of the same passes was outside the bound.
func TestMedianOfPasses(t *testing.T) {
	passes := []float64{0.0166, 0.0165, 0.0226, 0.0164, 0.0167}
	if got := median(passes); got != 0.0166 {
		t.Errorf("median(%v) = %v, want 0.0166", passes, got)
	}
	if !withinTiming(median(passes), 0.0162) {
		t.Errorf("median %v not within the bound of 0.0162", median(passes))
	}
	if got, want := median([]float64{3, 1, 2, 4}), 2.5; got != want {
		t.Errorf("median of an even count = %v, want %v", got, want)
	}
	if passes[2] != 0.0226 {
		t.Errorf("median reordered its argument: %v", passes)
	}
	if !math.IsNaN(median(nil)) {
		t.Errorf("median(nil) = %v, want NaN", median(nil))
	}
}
