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
	"histResident on uniform, 4096 bins": "at the edge: 0.73 to 0.75 in the gated runs of 2026-11-30 (the model 0.033 ms, the H200 0.044 to 0.045): " + mergeBurst,
	"histResident on hot, 4096 bins": "at the edge: 0.79 in the run of 2026-11-30 15:25, 0.76 at 18:05 (the model 0.0326 ms, the H200 0.0429) once the shared POPC " +
		"and L2 window parameters landed; the merge is the same as on uniform data: " + mergeBurst,
}

// mergeBurst is why the resident grid's 4096-bin cells are slow on the H200.
const mergeBurst = "the resident grid's blocks finish " +
	"their walks together and then merge 4096 bins each, one global atomic per bin, about 4.3 million atomics on 128 lines at once; on the H200 the merge runs after the walk " +
	"and adds 12.4 us (docs/evidence/2026-11-30-h200-microbench-sharedq, walk histResident with and without its merge; 19.1 us alone, part bins), " +
	"where the model prices the L2's work as a throughput beside the blocks' time, not after it, and adds about 1 us"
