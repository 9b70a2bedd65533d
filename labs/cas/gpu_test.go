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
// misses listed with their reasons (labtest.CheckPredictions) and the
// cells the H200 runs in two modes (labtest.CheckModal). With
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
	labtest.CheckPredictions(t, labtest.CheckModal(t, cells, modal), knownMisses)
	loop, _ := c.Row(MaxCAS, 65536)
	hw, _ := c.Row(MaxIntTrick, 65536)
	if loop.Ms >= hw.Ms {
		t.Errorf("at 65,536 contenders the CAS loop took %.4f ms, atomicMax %.4f ms: want the loop faster, as on the H200", loop.Ms, hw.Ms)
	}
}

// knownMisses are the cells the h200 profile misses by more than 30% on
// the H200 (calibration/evidence), with why: none now. The CAS loop's time
// follows its failed compares. The model compared a CAS when the warp
// issued it and returned its result when the line had served the queue
// ahead of it, so every warp's next trip waited for every other warp's
// and the loop failed 1.45 compares a thread at 4096 contenders (the
// H200: 0.85), 2.1x the time. Now a CAS compares when its line serves it
// and a load of the word waits behind the line's queue and reads it as
// served (Cost.CASServed and Cost.CASOrderedCycles, from
// calibration/evidence/2026-11-30-h200-cas-wait): 0.92, 0.31 and 0.068 failed
// compares a thread at 4096, 65,536 and 4M contenders against the H200's
// 0.85, 0.38 and 0.066, and 1.20, 0.88 and 1.00 of the measured times
// (calibration/evidence/2026-11-30-h200-cas-lab-gpu), the CAS loop faster than
// atomicMax from 4096 contenders on as on the H200.
var knownMisses = map[string]string{}

// modal are the cells the H200 runs in one of two modes, process to
// process. The CAS loop at 4M contenders (one address a whole launch)
// took 0.2106 to 0.2258 ms in four test processes and 0.2982 and 0.3213
// in two, on the same binary and the same data, within an hour
// (calibration/evidence/2026-11-30-h200-cas-modes; cas.csv: 0.1928): every
// failed compare there comes from the first wave's warps, so its time
// follows how the first wave starts, which this lab does not set. The
// model prices the fast mode (0.2249 ms, 0.068 failed compares a thread
// against the H200's 0.066).
var modal = map[string]labtest.Modal{
	"maxCAS at 4194304 contenders": {Ms: []float64{0.215, 0.31}, Priced: 0,
		Why: "the H200 runs one address's CAS loop at 0.21 to 0.23 or 0.30 to 0.32 ms by process; why is not established (calibration/evidence/2026-11-30-h200-cas-modes)"},
}
