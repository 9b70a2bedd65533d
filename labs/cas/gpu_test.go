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
// the H200 (docs/evidence), with why.
var knownMisses = map[string]string{
	"maxIntTrick at 256 contenders":   hotLines,
	"maxSignAware at 256 contenders":  hotLines,
	"maxIntTrick at 4096 contenders":  hotLines,
	"maxSignAware at 4096 contenders": hotLines,
	"maxCAS at 4096 contenders": "too many failed compares: the model counts 1.45 a thread where the H200 counted 0.87 (cas.cu), " +
		"and the time follows (about 2.8x)",
	"maxCAS at 65536 contenders": "0.52 failed compares a thread modelled against 0.38 on the H200 (about 1.4x); " +
		"warplab fidelity's cell for cas.cu's loop at the same contention is within 1%, so the lab's kernel and the microbenchmark's differ in the model; not established",
	"maxCAS at 4194304 contenders": "0.13 failed compares a thread modelled against 0.10 on the H200; about 2x the time; not established",
}

// hotLines is why atomicMax at 256 and 4096 contenders misses: 16,384 and
// 1,024 hot addresses.
const hotLines = "atomicMax from 256 or 4096 threads per address (16,384 or 1,024 hot addresses): the model's L2 throughput over many hot lines " +
	"prices it 1.65 to 2x the H200; no fidelity cell measures these contentions, and nothing was fitted to them"
