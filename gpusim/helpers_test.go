package gpusim_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
)

// open opens a simulated device or fails the test.
func open(t testing.TB, spec string) *gpu.Device {
	t.Helper()
	d, err := gpu.Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// kernel compiles src on d and returns the named kernel.
func kernel(t testing.TB, d *gpu.Device, src, name string) *gpu.Kernel {
	t.Helper()
	m, err := d.Compile(strings.ToLower(name)+".cu", []byte(src))
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	k, err := m.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func upload[T gpu.Scalar](t testing.TB, d *gpu.Device, data []T) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.Upload(d, data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func zeros[T gpu.Scalar](t testing.TB, d *gpu.Device, n int) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.NewBuffer[T](d, n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func download[T gpu.Scalar](t testing.TB, b *gpu.Buffer[T]) []T {
	t.Helper()
	v, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func launch(t testing.TB, k *gpu.Kernel, grid, block int, args ...any) *gpu.Result {
	t.Helper()
	res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(block)}, args...)
	if err != nil {
		t.Fatalf("launch %s: %v", k.Name(), err)
	}
	return res
}

// term returns res's timing term of the named resource, failing the test
// when it has none.
func term(t testing.TB, res *gpu.Result, resource string) gpu.TimeComponent {
	t.Helper()
	for _, c := range res.Timing.Breakdown {
		if c.Resource == resource {
			return c
		}
	}
	t.Fatalf("no %s term in %+v", resource, res.Timing.Breakdown)
	return gpu.TimeComponent{}
}

// launchErr launches and returns the launch error, failing if there is none.
func launchErr(t testing.TB, k *gpu.Kernel, cfg gpu.LaunchConfig, want error, args ...any) *gpu.LaunchError {
	t.Helper()
	_, err := k.Launch(cfg, args...)
	if err == nil {
		t.Fatalf("launch %s: no error, want %v", k.Name(), want)
	}
	if !errors.Is(err, want) {
		t.Fatalf("launch %s: error %v, want %v", k.Name(), err, want)
	}
	var le *gpu.LaunchError
	if !errors.As(err, &le) {
		t.Fatalf("launch %s: error %T is not a *gpu.LaunchError", k.Name(), err)
	}
	return le
}

func diagnostics(res *gpu.Result, kind string) []gpu.Diagnostic {
	var out []gpu.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Kind == kind {
			out = append(out, d)
		}
	}
	return out
}

// queueLab returns the queue lab's kernels (labs/queue/kernels/queue.cu)
// byte for byte, as the lab compiles them: the bytes its recorded SASS
// is keyed by (gpusim/sassorder).
func queueLab(t testing.TB) string {
	t.Helper()
	src, err := os.ReadFile("../labs/queue/kernels/queue.cu")
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}
