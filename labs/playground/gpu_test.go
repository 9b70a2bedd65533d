package playground_test

import (
	"strings"
	"testing"

	_ "github.com/warplab/warplab/cudarun"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs/playground"
)

// TestOnGPU runs a kernel through the playground on a real GPU: the
// buffers come back, the time is measured over warm-ups and runs from
// fresh buffers, and there are no counters (nor charts) to show.
func TestOnGPU(t *testing.T) {
	dev, err := gpu.Open(testenv.GPU(t))
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	x := []float32{1, 2, 3, 4, 5}
	l, err := playground.Run(dev, scale, "scale", 1, 32, x, float32(2), len(x), playground.Zeros[int32](1))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := playground.Values[float32](l, "x")
	hits, _ := playground.Values[int32](l, "hits")
	if got[4] != 10 || hits[0] != 5 {
		t.Errorf("x = %v, hits = %v after 13 launches from fresh buffers; want x doubled once and 5 hits", got, hits)
	}
	if !l.Result.Timing.Measured || l.WarmUps != 3 || l.Runs != 10 || l.Ms <= 0 {
		t.Errorf("timing %+v, %d warm-ups, %d runs, %v ms", l.Result.Timing, l.WarmUps, l.Runs, l.Ms)
	}
	if l.Result.Counters != nil || l.BreakdownChart() != nil || l.MixChart() != nil {
		t.Error("a GPU launch has counters or charts")
	}
	if s := l.String(); !strings.Contains(s, "measured") || !strings.Contains(s, "no counters") {
		t.Errorf("String:\n%s", s)
	}
	t.Logf("\n%s", l)
	_, err = playground.Run(dev, `__global__ void oob(int* x) { x[threadIdx.x + (1 << 28)] = 1; }`, "oob", 1, 32, []int32{0})
	t.Logf("an out-of-bounds write on the GPU: %v", err)
	if err == nil {
		t.Error("an out-of-bounds write by 1 GiB did not fail")
	}
}
