package gpu_test

import (
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
)

// TestUseAfterFree checks that every use of a freed buffer is an error
// that says so, never a panic, and that freeing twice is harmless: the
// second Free does nothing and returns nil.
func TestUseAfterFree(t *testing.T) {
	d, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	b, err := gpu.Upload(d, []int32{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Free(); err != nil {
		t.Fatalf("free: %v", err)
	}
	if err := b.Free(); err != nil {
		t.Errorf("second free: %v, want nil", err)
	}
	m, err := d.Compile("k.cu", []byte(`__global__ void k(int* p) { p[0] = 1; }`))
	if err != nil {
		t.Fatal(err)
	}
	k, err := m.Kernel("k")
	if err != nil {
		t.Fatal(err)
	}
	for what, use := range map[string]func() error{
		"Download": func() error { _, err := b.Download(); return err },
		"Read":     func() error { return b.Read(make([]int32, 1)) },
		"Write":    func() error { return b.Write([]int32{9}) },
		"Zero":     func() error { return b.Zero() },
		"Launch": func() error {
			_, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(1)}, b)
			return err
		},
		"Launch with At": func() error {
			_, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(1)}, b.At(1))
			return err
		},
	} {
		err := func() (err error) {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s of a freed buffer panics: %v", what, p)
				}
			}()
			return use()
		}()
		if err == nil || !strings.Contains(err.Error(), "freed") {
			t.Errorf("%s of a freed buffer: %v, want an error that says it was freed", what, err)
		}
	}
	if n := b.Len(); n != 4 {
		t.Errorf("Len of a freed buffer: %d, want 4", n)
	}
}
