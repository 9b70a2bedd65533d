package histogram

import (
	"fmt"
	"testing"

	_ "github.com/warplab/warplab/cudarun"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labtest"
)

// TestOnGPU runs the whole lab on a real GPU at the H200 rows' size (16M
// elements, 256 and 4096 bins): every histogram exact, measured times
// after warm-ups, the simulator's prediction beside every row, and the
// launch shape's lesson measured (the resident grid faster than one block
// per 256 elements on every input). Every prediction within ±30% of its
// measurement, save the known misses listed with their reasons
// (labtest.CheckPredictions). With WARPLAB_GPU_REPORT=DIR it writes the
// report there as text and JSON.
func TestOnGPU(t *testing.T) {
	dev := testenv.Open(t, testenv.GPU(t))
	r, err := Lab(dev, Options{
		Shapes:  ShapeOptions{N: H200N, Bins: []int{256, 4096}, Progress: labs.NoProgress()},
		Barrier: BarrierOptions{Seeds: 20, Progress: labs.NoProgress()},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", r)
	labtest.WriteReport(t, "histogram", r)
	s := r.Shapes
	if s.Predicted == "" {
		t.Error("no prediction beside the measurement")
	}
	var cells []labtest.Prediction
	for _, row := range s.Rows {
		if row.Problem != "" {
			t.Errorf("%s on %s, %d bins: %s", row.Kernel, row.Input, row.Bins, row.Problem)
		}
		cells = append(cells, labtest.Prediction{Cell: fmt.Sprintf("%s on %s, %d bins", row.Kernel, row.Input, row.Bins), Predicted: row.PredictedMs, Measured: row.Ms})
	}
	labtest.CheckPredictions(t, cells, knownMisses)
	for _, f := range s.Findings() {
		if f.Question == "launch shape" && f.Ratio <= 1 {
			t.Errorf("launch shape on %s, %d bins: the resident grid is not faster (%.2fx)", f.Input, f.Bins, f.Ratio)
		}
	}
}

// knownMisses are the cells the h200 profile misses by more than 30% on
// the H200 (docs/evidence), with why.
var knownMisses = map[string]string{
	"histContig on hot, 256 bins": "at the edge: 0.72 in the run at 1108bca (0.0335 ms modelled, 0.0463 measured), after Cost.LoadLineCycles was re-derived from the gated l1reuse rows (0.464 to 0.431 cycles a line); " +
		"the other contiguous walks are within ±30%; the hot input's runs of one bin are not what l1reuse measures; not established",
	"histResident on uniform, 4096 bins": "at the edge: 0.73 to 0.75 in the gated runs of 2026-11-30 (the model 0.033 ms, the H200 0.044 to 0.045); " +
		"the resident grid zeroes and merges 4096 shared bins per block, which the model prices lighter than the H200 runs them; not established",
}
