package cudac

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestHostCodeSkipped(t *testing.T) {
	src := "#include <vector>\n" +
		"std::vector<int> v;\n" +
		"const int N = 4;\n" +
		"struct alignas(16) P { float x; };\n" +
		"__global__ void k(int* p) { p[0] = N; }\n" +
		"void launch(int* p) { k<<<1, 1>>>(p); }\n" +
		"int main() {\n  launch(nullptr);\n  return 0;\n}\n" +
		"__host__ __device__ int both(int x) { return x; }\n"
	prog, err := Compile("w.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := prog.KernelNames(); len(got) != 1 || got[0] != "k" {
		t.Errorf("kernels %v, want [k]", got)
	}
	if prog.Func("both") == nil {
		t.Errorf("__host__ __device__ function skipped")
	}
	want := []Span{{"w.cu", 2, 1, 2, 20}, {"w.cu", 6, 1, 6, 40}, {"w.cu", 7, 1, 10, 2}}
	if got := prog.HostCode(); len(got) != len(want) {
		t.Fatalf("host code %v, want %v", got, want)
	} else {
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("span %d = %v, want %v", i, got[i], want[i])
			}
		}
	}
	dev := string(prog.DeviceSource())
	if strings.Count(dev, "\n") != strings.Count(src, "\n") || len(dev) != len(src) {
		t.Errorf("device source changed the layout:\n%s", dev)
	}
	for _, gone := range []string{"std::vector", "launch", "main", "<<<"} {
		if strings.Contains(dev, gone) {
			t.Errorf("device source still has %q:\n%s", gone, dev)
		}
	}
	for _, kept := range []string{"const int N = 4;", "__global__ void k", "struct alignas(16) P", "__host__ __device__ int both"} {
		if !strings.Contains(dev, kept) {
			t.Errorf("device source lost %q:\n%s", kept, dev)
		}
	}
}

// TestContextStopsCompiling: a done context stops the compilation with
// its cause, at the point reached.
func TestContextStopsCompiling(t *testing.T) {
	var b strings.Builder
	b.WriteString("__global__ void k(float *out) {\n  float x = 1;\n")
	for i := 0; i < 20000; i++ {
		b.WriteString("  x = x * 2 + 1;\n")
	}
	b.WriteString("  out[0] = x;\n}\n")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("out of time"))
	_, err := Compile("long.cu", []byte(b.String()), Context(ctx))
	if err == nil || !strings.Contains(err.Error(), "long.cu:") || !strings.Contains(err.Error(), ": compilation stopped: out of time") {
		t.Fatalf("got %v, want the compilation stopped with the cause", err)
	}
	if _, err := Compile("long.cu", []byte(b.String()), Context(context.Background())); err != nil {
		t.Fatalf("with a live context: %v", err)
	}
}
