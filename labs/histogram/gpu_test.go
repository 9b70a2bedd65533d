package histogram

import (
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
// per 256 elements on every input). Rows whose prediction is outside
// ±30% of the measurement are logged, not failed: they are the cost
// model's calibration data. With WARPLAB_GPU_REPORT=DIR it writes the
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
	for _, row := range s.Rows {
		if row.Problem != "" {
			t.Errorf("%s on %s, %d bins: %s", row.Kernel, row.Input, row.Bins, row.Problem)
		}
		if q := row.PredictedMs / row.Ms; q < 1/1.3 || q > 1.3 {
			t.Logf("outside ±30%%: %s on %s, %d bins: predicted %.4f ms, measured %.4f ms (%.2fx)", row.Kernel, row.Input, row.Bins, row.PredictedMs, row.Ms, q)
		}
	}
	for _, f := range s.Findings() {
		if f.Question == "launch shape" && f.Ratio <= 1 {
			t.Errorf("launch shape on %s, %d bins: the resident grid is not faster (%.2fx)", f.Input, f.Bins, f.Ratio)
		}
	}
}
