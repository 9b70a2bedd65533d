package cudarun

import (
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/internal/testenv"
)

// requireGPU skips the test, with the reason, unless a GPU can be used;
// under WARPLAB_REQUIRE_GPU=1 it fails it instead.
func requireGPU(t testing.TB) {
	t.Helper()
	var why []string
	for _, a := range (backend{}).Probe() {
		if a.Usable {
			return
		}
		why = append(why, a.Spec+": "+a.Reason)
	}
	testenv.NoGPU(t, why...)
}

// openGPU opens spec, closing it when the test ends.
func openGPU(t testing.TB, spec string) *gpu.Device {
	t.Helper()
	requireGPU(t)
	d, err := gpu.Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// compileKernel compiles src, named file, on d and returns its kernel name.
func compileKernel(t testing.TB, d *gpu.Device, file string, src []byte, name string) *gpu.Kernel {
	t.Helper()
	m, err := d.Compile(file, src)
	if err != nil {
		t.Fatalf("%s: compile %s: %v", d.Info().Backend, file, err)
	}
	k, err := m.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
