package grade

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
)

// TestTimeLimitStopsTheLaunch checks that the submission's time limit is
// wired through to the simulator: a check whose kernel spins in every warp
// of a huge grid fails at the limit, and its launch stops then too (with
// ErrTimeout), instead of simulating on beside the next submission.
func TestTimeLimitStopsTheLaunch(t *testing.T) {
	ended := make(chan error, 1)
	ex := &labs.Exercise{Title: "fake", Variable: "answer", New: func() any { return new(fakeAnswer) },
		Check: func(dev *gpu.Device, _ any, _ labs.Settings) labs.Feedback {
			var f labs.Feedback
			m, err := dev.Compile("spin.cu", []byte("__global__ void spin(int* p) { while (atomicAdd(p, 0) == 0) { } }\n"))
			if err != nil {
				ended <- err
				return f
			}
			k, _ := m.Kernel("spin")
			p, _ := gpu.NewBuffer[int32](dev, 1)
			_, err = k.Launch(gpu.LaunchConfig{Grid: gpu.D1(65536), Block: gpu.D1(1024)}, p)
			ended <- err
			return f
		}}
	k := fakeKey(t, 300*time.Millisecond, nil)
	k.ex, k.lab = ex, fakeLab{ex}
	start := time.Now()
	r := Grade(k, fakeSubmission(t))
	if r.Score != 0 || len(r.Tests) == 0 || !strings.Contains(r.Tests[0].Detail, "time limit") {
		t.Errorf("a spinning kernel: %+v, want a failed test naming the time limit", r)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, gpu.ErrTimeout) {
			t.Errorf("the check's launch ended with %v, want ErrTimeout", err)
		}
		if el := time.Since(start); el > 3*time.Second {
			t.Errorf("the launch ended %v after the grading began, with a 300ms limit", el)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the check's launch was still running 5s after a 300ms limit")
	}
}
