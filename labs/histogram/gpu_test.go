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
	"histContig on hot, 256 bins":  contig256,
	"histContig on runs, 256 bins": contig256,
	"histResident on uniform, 4096 bins": "at the edge: 0.73 to 0.75 in the gated runs of 2026-11-30 (the model 0.033 ms, the H200 0.044 to 0.045); " +
		"the resident grid zeroes and merges 4096 shared bins per block, which the model prices lighter than the H200 runs them; not established",
}

// contig256 is why the contiguous walk at 256 bins misses at the edge.
const contig256 = "at the edge: the contiguous walk at 256 bins was modelled 0.72 to 0.83 of the H200 in the runs at 1108bca and 7dd1e08 " +
	"(0.033 to 0.037 ms against 0.045 to 0.049), about 12% slower there than histshape.cu's gated reference of the same walk; " +
	"Cost.LoadLineCycles, re-derived from the gated l1reuse rows (0.464 to 0.431 cycles a line), prices it lighter still; not established"
