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
// every sum's prediction must be within ±30% of the committed H200
// reference, and on an H200 the model of the launches timed apart must be
// within ±30% of this run's times but for the misses listed with their
// reasons (labtest.CheckPredictions), and the fixed-point sum must beat
// the atomic tree. The exercise's
// fixed-order answer must pass, its reproducibility part now launching it
// 20 times on the GPU. With WARPLAB_GPU_REPORT=DIR it writes the report
// there as text and JSON.
func TestOnGPU(t *testing.T) {
	dev := testenv.Open(t, testenv.GPU(t))
	r, err := Lab(dev, Options{
		Sums:    SumOptions{N: H200SmallN, Runs: 20, Progress: labs.NoProgress()},
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
	var cells []labtest.Prediction
	for _, row := range p.Rows {
		if row.Measured <= 0 || row.Distinct < 1 {
			t.Errorf("%s: measured %v ms, %d distinct", row.Method, row.Measured, row.Distinct)
		}
		if row.Method.FixedOrder() && row.Distinct != 1 {
			t.Errorf("%s: %d distinct totals on the GPU, want 1", row.Method, row.Distinct)
		}
		// Against the committed H200 figures, timed as the prediction
		// models them: every sum.
		if q := row.Ratio(); q < 1/labtest.Tolerance || q > labtest.Tolerance {
			t.Errorf("%s: predicted %.4f ms, H200 reference %.4f ms (%.2fx): outside ±30%%", row.Method, row.Predicted, row.H200, q)
		}
		cells = append(cells, labtest.Prediction{Cell: string(row.Method), Predicted: row.PredictedApart, Measured: row.Measured})
	}
	if h200 {
		labtest.CheckPredictions(t, cells, knownMisses)
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

// knownMisses are the sums the h200 profile misses by more than 30% on
// the H200 when each launch is timed by its own events, as the lab times
// them, with the reason. None now: the gated run
// (calibration/evidence/2026-11-30-h200-gpu-evidence-final-labs-2.txt) measured
// the two-pass sums at 0.0251 and 0.0256 ms and the fixed-point sum at
// 0.0202, where the h200 profile modelled 1.35, 1.34 and 1.31 times
// those; with the engine's scoreboard (Cost.Scoreboard: a block tree's
// level pays one shared latency, not three, as nvcc's SASS issues it) it
// models about 1.18, 1.17 and 1.10. What is left of the two-pass sums'
// excess is the second pass, one block's loads of partials the first pass
// left in the L2, priced at Cost.GlobalCycles a round trip where ncu saw
// about 230 SM cycles of scoreboard wait a trip
// (calibration/evidence/2026-11-30-h200-ncu-sums-stride).
var knownMisses = map[string]string{}
