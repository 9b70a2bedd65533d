package gpu_test

import (
	"slices"
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

// TestWriteAtAndZero checks WriteAt's placement and bounds, and that Zero
// clears a buffer larger than its one-megabyte host slice.
func TestWriteAtAndZero(t *testing.T) {
	d, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	b, err := gpu.NewBuffer[int32](d, 6)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.WriteAt(2, []int32{7, 8}); err != nil {
		t.Fatal(err)
	}
	got, _ := b.Download()
	if want := []int32{0, 0, 7, 8, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("after WriteAt(2, {7, 8}): %v, want %v", got, want)
	}
	for _, c := range []struct {
		i int
		n int
	}{{-1, 1}, {5, 2}, {7, 0}} {
		if err := b.WriteAt(c.i, make([]int32, c.n)); err == nil {
			t.Errorf("WriteAt(%d, %d elements) of a 6-element buffer: no error", c.i, c.n)
		}
	}
	big, err := gpu.NewBuffer[uint8](d, 3<<20+5)
	if err != nil {
		t.Fatal(err)
	}
	ones := make([]uint8, big.Len())
	for i := range ones {
		ones[i] = 1
	}
	if err := big.Write(ones); err != nil {
		t.Fatal(err)
	}
	if err := big.Zero(); err != nil {
		t.Fatal(err)
	}
	got8, _ := big.Download()
	if i := slices.IndexFunc(got8, func(v uint8) bool { return v != 0 }); i >= 0 {
		t.Errorf("after Zero, element %d of %d is %d", i, len(got8), got8[i])
	}
}

// TestBufferTooLarge checks that a buffer larger than the device, or whose
// size overflows, is an error that names the device's memory, before
// anything is allocated.
func TestBufferTooLarge(t *testing.T) {
	d, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	_, err = gpu.NewBuffer[float32](d, 1_000_000_000_000)
	if err == nil || !strings.Contains(err.Error(), "out of device memory") || !strings.Contains(err.Error(), "16 GiB") {
		t.Errorf("a 4 TB buffer on a T4: %v, want out of device memory naming its 16 GiB", err)
	}
	_, err = gpu.NewBuffer[float64](d, 1<<61)
	if err == nil || !strings.Contains(err.Error(), "overflows") {
		t.Errorf("a buffer of 2^61 float64: %v, want an overflow error", err)
	}
}

// TestArgumentTypeNames checks that a launch argument of the wrong type is
// named as CUDA spells types, not as Go does.
func TestArgumentTypeNames(t *testing.T) {
	d, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	m, err := d.Compile("k.cu", []byte(`__global__ void k(int* p, int n) {}`))
	if err != nil {
		t.Fatal(err)
	}
	k, err := m.Kernel("k")
	if err != nil {
		t.Fatal(err)
	}
	u64, _ := gpu.NewBuffer[uint64](d, 1)
	i32, _ := gpu.NewBuffer[int32](d, 1)
	cfg := gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(1)}
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{i32, u64}, "argument 2 (int n): got unsigned long long*, want int"},
		{[]any{int32(1), 1}, "argument 1 (int* p): got int, want a buffer (int*)"},
		{[]any{u64, 1}, "argument 1 (int* p): got a buffer of unsigned long long, want int"},
		{[]any{i32, "x"}, "argument 2 (int n): got a Go string, which is no CUDA type, want int"},
		{[]any{i32, float32(1.5)}, "argument 2 (int n): got float 1.5, want int"},
	} {
		_, err := k.Launch(cfg, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "gpu.Buffer") {
			t.Errorf("%v: got %v, want %q", tc.args, err, tc.want)
		}
	}
}
