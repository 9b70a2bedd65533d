package atomics

import (
	"strings"
	"testing"

	_ "github.com/warplab/warplab/cudarun"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labtest"
)

// openGPU opens the first usable GPU, or skips the test (fails it under
// WARPLAB_REQUIRE_GPU=1).
func openGPU(t *testing.T) *gpu.Device {
	t.Helper()
	dev, err := gpu.Open(testenv.GPU(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	return dev
}

// TestOnGPU runs the lab's three experiments on a real GPU: measured
// times, every sum exact, the prediction beside the measurement, and an
// answer taken from one block-size run passing the check of another.
func TestOnGPU(t *testing.T) {
	dev := openGPU(t)
	sizes := DefaultSizes()
	if testing.Short() {
		sizes = smallSizes
	}
	s, err := Sweep(dev, SweepOptions{Sizes: sizes, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Measured || !strings.HasPrefix(s.Timing, "measured, ") || s.WarmUps != 3 || s.Runs != 10 {
		t.Errorf("timing %q, %d warm-ups, %d runs", s.Timing, s.WarmUps, s.Runs)
	}
	if !s.OK() {
		t.Errorf("sums not exact on the GPU:\n%s", s.Table())
	}
	if s.Predicted == nil {
		t.Error("no prediction beside the measurement")
	}
	t.Logf("\n%s\n%s", s.Table(), s.PredictedTable())

	d, err := Determinism(dev, DeterminismOptions{Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", d.Table())

	bt, err := BlockSizes(dev, BlockSizeOptions{Sizes: sizes, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if !bt.OK() {
		t.Errorf("sums not exact:\n%s", bt.Table())
	}
	t.Logf("\n%s", bt.Table())
	if testing.Short() {
		// Check re-runs the exercise's own sweep (up to n = 4194304): an
		// answer from the short sizes would not be an answer to it.
		t.Log("the answer check needs the full sizes; skipped with -short")
	} else {
		f := Check(dev, rightAnswer(bt))
		t.Logf("\n%s", f)
		if !f.OK() {
			t.Errorf("an answer copied from one run fails the re-run's check")
		}
	}
	labtest.WriteReport(t, "day26", &Day26Report{Device: dev.Info(), Capabilities: dev.Capabilities(), Sweep: s, Determinism: d, BlockSizes: bt})
}
