package reproducible

import (
	"strings"
	"testing"

	_ "github.com/warplab/warplab/cudarun"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labtest"
	"github.com/warplab/warplab/labs/kernelcheck"
)

// TestOnGPU runs the lab on a real GPU at the H200's size and count (4M
// elements, 20 runs per sum): every fixed-order sum must give one
// distinct total there, the prediction must sit beside this GPU's times,
// and on an H200 the model must be within ±30% where the package
// documentation says it is (the atomic sums and the fixed-point sum) and
// the fixed-point sum must beat the atomic tree. The exercise's
// fixed-order answer must pass, its reproducibility part now launching it
// 20 times on the GPU. With WARPLAB_GPU_REPORT=DIR it writes the report
// there as text and JSON.
func TestOnGPU(t *testing.T) {
	dev := testenv.Open(t, testenv.GPU(t))
	r, err := Lab(dev, Options{
		Sums:    SumOptions{N: H200N[0], Runs: 20, Progress: labs.NoProgress()},
		Order:   OrderOptions{Progress: labs.NoProgress()},
		Predict: PredictOptions{Progress: labs.NoProgress()},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", r)
	labtest.WriteReport(t, "reproducible", r)
	if !r.Sums.Measured {
		t.Errorf("timing %q, want measured", r.Sums.Timing)
	}
	for _, row := range r.Sums.Rows {
		if row.Method.FixedOrder() && row.Distinct != 1 {
			t.Errorf("%s: %d distinct totals in 20 runs on the GPU, want 1: %v", row.Method, row.Distinct, row.Sums)
		}
		if rel := row.WorstError / r.Sums.Ref; row.Method.FixedOrder() && rel > 1e-6 {
			t.Errorf("%s: worst error %g (relative %g)", row.Method, row.WorstError, rel)
		}
	}
	p := r.Predict
	if p.Device == "" {
		t.Fatal("the prediction has no GPU column")
	}
	h200 := strings.Contains(dev.Info().Name, "H200")
	for _, row := range p.Rows {
		if row.Measured <= 0 || row.Distinct < 1 {
			t.Errorf("%s: measured %v ms, %d distinct", row.Method, row.Measured, row.Distinct)
		}
		if row.Method.FixedOrder() && row.Distinct != 1 {
			t.Errorf("%s: %d distinct totals on the GPU, want 1", row.Method, row.Distinct)
		}
		if q := row.Predicted / row.Measured; h200 && (!row.Method.FixedOrder() || row.Method == FixedPoint) && (q < 1/1.3 || q > 1.3) {
			t.Errorf("%s: predicted %.4f ms, measured %.4f ms (%.2fx): outside ±30%%", row.Method, row.Predicted, row.Measured, q)
		}
	}
	if fp, ok := r.Sums.Row(FixedPoint); h200 && ok {
		if tree, _ := r.Sums.Row(TreeAtomic); fp.Ms >= tree.Ms {
			t.Errorf("fixed point %.4f ms, atomic tree %.4f ms: the H200 had the fixed-point sum faster", fp.Ms, tree.Ms)
		}
	}

	f := Check(dev, Answer{Source: lastBlock})
	t.Logf("%s", f)
	part(t, f, kernelcheck.PartReproducible, labs.Pass, "launches at n = 200003 gave one distinct result too")
}
