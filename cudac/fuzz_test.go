package cudac

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/internal/coursekernels"
)

var fuzzExtra = []string{
	sumTreeSrc,
	"#define N 4\n#if N > 2\ntemplate <int M> __device__ int f(int x) { return x * M; }\n#endif\n__global__ void k(int* o) { o[0] = f<N>(2); printf(\"%d %5.2f %s\\n\", o[0], 1.0f, \"x\"); }\n",
	"struct S { int a; float b[2]; };\n__global__ void k(S* s, int n) { switch (n) { case 1: s->a++; break; default: s[0].b[1] = -1; } }\n",
	"enum class E : unsigned { A, B = 3 };\ntypedef float real;\nusing I = int;\n__global__ void k(real* r) { I i = (I)E::B; r[i] = sizeof(real) ? 1.0 : 2.0; do { i--; } while (i > 0); }\n",
	"__device__ int g;\n__constant__ float c[2] = {1, 2};\n__global__ void k() { atomicMax(&g, (int)c[1]); __syncwarp(); }\n",
}

func FuzzCompile(f *testing.F) {
	for _, name := range coursekernels.Names() {
		f.Add(coursekernels.Source(name))
	}
	for _, s := range fuzzExtra {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		done := make(chan error, 1)
		go func() { done <- fuzzOne(src) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no result in 10s for %q", src)
		}
	})
}

// FuzzDefine compiles a source with a macro predefined as an option
// (warplab run --define NAME=VALUE): any name and value, valid or not,
// must give a program or diagnostics, never a panic. Its seed corpus is in
// testdata/fuzz/FuzzDefine.
func FuzzDefine(f *testing.F) {
	src := "#ifndef M\n#define M 1\n#endif\n__global__ void k(int* p) { p[0] = N + M; }\n"
	for _, d := range [][2]string{{"N", "1"}, {"N", ""}, {"N", "+"}, {"", "3"}, {"3x", "1"}, {"N", `"abc`}, {"M", "N"}, {"N", "N"}, {"F(x)", "x"}, {"N", "(1 ? 2 : 3"}} {
		f.Add(src, d[0], d[1])
	}
	f.Fuzz(func(t *testing.T, src, name, value string) {
		done := make(chan error, 1)
		go func() { done <- fuzzOne([]byte(src), Define(name, value), DefineFlag("--define")) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no result in 10s for %q with %q=%q", src, name, value)
		}
	})
}

// fuzzOne compiles src, instantiates its kernels and dumps its functions.
func fuzzOne(src []byte, opts ...Option) error {
	p, err := Compile("f.cu", src, opts...)
	if err != nil {
		return diagnosticsError(err)
	}
	for _, name := range p.KernelNames() {
		if i := strings.IndexByte(name, '<'); i >= 0 {
			n := strings.Count(name, ",") + 1
			name = name[:i] + "<" + strings.Repeat("32, ", n-1) + "32>"
		}
		fn, err := p.Kernel(name)
		if err != nil {
			if strings.Contains(err.Error(), "internal compiler error") {
				return fmt.Errorf("Kernel(%q): %v", name, err)
			}
			continue
		}
		_ = Dump(fn)
	}
	for _, fn := range p.Funcs {
		_ = Dump(fn)
	}
	return nil
}

// diagnosticsError checks the shape of a failed compilation's error.
func diagnosticsError(err error) error {
	if strings.Contains(err.Error(), "internal compiler error") {
		return err
	}
	var list ErrorList
	if !errors.As(err, &list) {
		return fmt.Errorf("error is %T, want ErrorList: %v", err, err)
	}
	if len(list) == 0 || len(list) > maxErrors {
		return fmt.Errorf("%d diagnostics", len(list))
	}
	for _, e := range list {
		if e.Msg == "" || e.Pos.File == "" {
			return fmt.Errorf("bad diagnostic %+v", e)
		}
	}
	return nil
}

// TestFuzzCorpusQuick runs mutations of the course kernels (and extra inputs) without the fuzzing
// engine: truncations and single-byte changes must never crash.
func TestFuzzCorpusQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	var corpus [][]byte
	for _, name := range coursekernels.Names() {
		corpus = append(corpus, coursekernels.Source(name))
	}
	for _, s := range fuzzExtra {
		corpus = append(corpus, []byte(s))
	}
	for _, src := range corpus {
		for cut := 0; cut < len(src); cut += 7 {
			compileNoCrash(t, src[:cut])
		}
		for i := 0; i < len(src); i += 11 {
			for _, c := range []byte{'(', '}', ';', '<', '#', '"', '\'', '*', '0', 'x'} {
				mut := append([]byte(nil), src...)
				mut[i] = c
				compileNoCrash(t, mut)
			}
		}
	}
}

func compileNoCrash(t *testing.T, src []byte) {
	t.Helper()
	if err := fuzzOne(src); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
}

func BenchmarkCompileCourseKernels(b *testing.B) {
	var srcs [][]byte
	for _, name := range coursekernels.Names() {
		srcs = append(srcs, coursekernels.Source(name))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			if _, err := Compile("b.cu", src); err != nil {
				b.Fatal(err)
			}
		}
	}
}
