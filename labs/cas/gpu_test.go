package cas

import (
	"fmt"
	"testing"

	_ "github.com/warplab/warplab/cudarun"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labtest"
)

// TestOnGPU runs the whole lab on a real GPU at the H200 rows' size (4M
// threads, 1 to 4M contenders per address): the int trick wrong exactly
// where the simulator said, the other kernels right, measured times after
// warm-ups with the simulator's prediction and retry counts beside them,
// and the CAS loop faster than atomicMax at 65,536 contenders as on the
// H200. Every prediction within ±30% of its measurement, save the known
// misses listed with their reasons (labtest.CheckPredictions). With
// WARPLAB_GPU_REPORT=DIR it writes the report there as text and JSON.
func TestOnGPU(t *testing.T) {
	dev := testenv.Open(t, testenv.GPU(t))
	r, err := Lab(dev, Options{Contention: ContentionOptions{N: H200Threads,
		Contenders: []int{1, 32, 256, 4096, 65536, H200Threads}, Progress: labs.NoProgress()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", r)
	labtest.WriteReport(t, "cas", r)
	for _, k := range Kernels() {
		row, _ := r.Correctness.Row(k)
		if (row.Wrong > 0) != (k == MaxIntTrick) {
			t.Errorf("%s: %d wrong groups on the GPU (first %v)", k, row.Wrong, row.First)
		}
	}
	c := r.Contention
	if c.Predicted == "" {
		t.Error("no prediction beside the measurement")
	}
	var cells []labtest.Prediction
	for _, row := range c.Rows {
		if wantWrong := row.Kernel == MaxIntTrick && row.Contenders == 1; (row.Wrong > 0) != wantWrong {
			t.Errorf("%s at %d contenders: %d wrong groups", row.Kernel, row.Contenders, row.Wrong)
		}
		cells = append(cells, labtest.Prediction{Cell: fmt.Sprintf("%s at %d contenders", row.Kernel, row.Contenders), Predicted: row.PredictedMs, Measured: row.Ms})
	}
	labtest.CheckPredictions(t, cells, knownMisses)
	loop, _ := c.Row(MaxCAS, 65536)
	hw, _ := c.Row(MaxIntTrick, 65536)
	if loop.Ms >= hw.Ms {
		t.Errorf("at 65,536 contenders the CAS loop took %.4f ms, atomicMax %.4f ms: want the loop faster, as on the H200", loop.Ms, hw.Ms)
	}
}

// knownMisses are the cells the h200 profile misses by more than 30% on
// the H200 (docs/evidence), with why. The CAS loop's time follows its
// failed compares, which depend on how late each warp's first load sees
// the other warps' stores. The model loads the contended word at a global
// load's latency (700 cycles); the H200's L2 serves it in 279
// (docs/evidence/2026-11-30-h200-hotlines, chase_l2). At 279 the model
// fails 1.00 compares a thread at 4096 contenders but 0.20 to 0.25 at
// 65,536, and warplab fidelity's cas.cu cell there falls to 0.56, so the
// profile keeps 700: the load's latency is not the whole mechanism.
var knownMisses = map[string]string{
	"maxCAS at 4096 contenders": "1.45 failed compares a thread modelled against 0.85 to 0.87 on the H200 (cas.csv, hotlines.csv), about 2x the time, " +
		"and the CAS loop ranked slower than atomicMax where the H200 ranks it faster; not established (see above)",
	"maxCAS at 65536 contenders": "0.52 failed compares a thread modelled against 0.37 to 0.38 on the H200 (hotlines.csv, cas.csv), about 1.5x the time; " +
		"warplab fidelity's cell for cas.cu's loop here is within 30% at its own seed, and the model's count moves by a quarter from seed to seed; not established",
	"maxCAS at 4194304 contenders": "0.13 failed compares a thread modelled against 0.04 to 0.07 on the H200 (cas.csv 0.066 and 0.041, cas_timeline.csv 0.069), about 1.6x the time: " +
		"on one address every failure comes from the first wave's warps, and how many of them read -infinity depends on their start spread; not established",
}
