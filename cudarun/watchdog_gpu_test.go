//go:build linux && cgo

package cudarun

import (
	_ "embed"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/gpu"
)

//go:embed testdata/endless.cu
var endlessSource []byte

// TestWatchdogOnGPU launches a kernel that never ends on a device with a
// 2 s limit: the launch must fail with gpu.ErrTimeout, naming the kernel
// and the limit, between the limit and a few seconds after it; a buffer
// from before must be reported lost; and the next launch, of an ordinary
// kernel in the same process, must give the right result.
func TestWatchdogOnGPU(t *testing.T) {
	const limit = 2 * time.Second
	d := openGPU(t, "cuda?timeout=2s")
	if got := d.Spec().Timeout(); got != limit {
		t.Fatalf("Spec().Timeout() = %v, want %v", got, limit)
	}
	m, err := d.Compile("endless.cu", endlessSource)
	if err != nil {
		t.Fatal(err)
	}
	endless, err := m.Kernel("endless")
	if err != nil {
		t.Fatal(err)
	}
	twice, err := m.Kernel("twice")
	if err != nil {
		t.Fatal(err)
	}
	stop, err := gpu.NewBuffer[int32](d, 1)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = endless.Launch(gpu.LaunchConfig{Grid: gpu.D1(d.Info().SMs), Block: gpu.D1(256)}, stop)
	took := time.Since(start)
	t.Logf("endless launch on %s with a %v limit: failed after %v: %v", d.Info().Name, limit, took.Round(time.Millisecond), err)
	if !errors.Is(err, gpu.ErrTimeout) {
		t.Fatalf("endless launch: %v, want gpu.ErrTimeout", err)
	}
	for _, want := range []string{"time limit exceeded in kernel endless", "2s", "timeout="} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if took < limit || took >= limit+3*time.Second {
		t.Errorf("the launch failed after %v; want between the limit, %v, and %v", took, limit, limit+3*time.Second)
	}
	if _, err := stop.Download(); err == nil || !strings.Contains(err.Error(), "lost when the context was reset after kernel endless ran past its 2s time limit") {
		t.Errorf("reading a buffer from before the limit: %v, want an error naming what lost it", err)
	}

	const n = 1000
	out, err := gpu.NewBuffer[float32](d, n)
	if err != nil {
		t.Fatalf("alloc after the limit: %v", err)
	}
	start = time.Now()
	res, err := twice.Launch(gpu.LaunchConfig{Grid: gpu.D1((n + 255) / 256), Block: gpu.D1(256)}, out, n)
	if err != nil {
		t.Fatalf("launch after the limit: %v", err)
	}
	t.Logf("next launch (a fresh helper process, the module reloaded) returned after %v; kernel time %.4f ms (%s)",
		time.Since(start).Round(time.Millisecond), res.Timing.Ms, res.Timing.Source)
	got, err := out.Download()
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != 2*float32(i) {
			t.Fatalf("after the limit: out[%d] = %v, want %v", i, v, 2*float32(i))
		}
	}
}

// TestDefaultTimeout checks that a plain "cuda" device has the default
// limit and still runs an ordinary kernel.
func TestDefaultTimeout(t *testing.T) {
	d := openGPU(t, "cuda")
	if got := d.Spec().Timeout(); got != gpu.DefaultTimeout {
		t.Errorf("Spec().Timeout() = %v, want %v", got, gpu.DefaultTimeout)
	}
	k := compileKernel(t, d, "endless.cu", endlessSource, "twice")
	out, _ := gpu.NewBuffer[float32](d, 4)
	if _, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32)}, out, 4); err != nil {
		t.Fatal(err)
	}
	if got, _ := out.Download(); got[3] != 6 {
		t.Errorf("out = %v, want [0 2 4 6]", got)
	}
}
