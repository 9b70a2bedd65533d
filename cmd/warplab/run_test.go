package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/internal/coursekernels"
)

// warplab runs the command line in-process and returns its exit status,
// stdout and stderr.
func warplab(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunText(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	sum := writeFile(t, "sum.cu", string(coursekernels.Source("day26_sums.cu")))
	code, out, errs := warplab(t, "run", sum, "--kernel", "sumTreeAtomic", "--grid", "64", "--block", "256",
		"--buf", "in=f32:16384:mod:4", "--buf", "total=f32:1:zero", "--scalar", "n=u64:16384", "--print", "total",
		"--device", "sim:t4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"total[0:1] = 24576", "modelled, t4 profile", "sumTreeAtomic<<<64, 256>>>", "seed 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestRunJSONRuns(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	sum := writeFile(t, "sum.cu", string(coursekernels.Source("day26_sums.cu")))
	code, out, errs := warplab(t, "run", sum, "--kernel", "sumGlobalAtomic", "--grid", "16", "--block", "256",
		"--buf", "in=f32:4096:uniform:0:1:9", "--buf", "total=f32:1:zero", "--scalar", "n=u64:4096",
		"--print", "total", "--print", "in:3", "--runs", "3", "--seed", "5", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d JSON lines, want 3:\n%s", len(lines), out)
	}
	for i, line := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		for _, key := range []string{"outputs", "counters", "timing", "device", "seed", "diagnostics", "printf"} {
			if _, ok := rec[key]; !ok {
				t.Errorf("run %d: no %q in %s", i+1, key, line)
			}
		}
		if seed := rec["seed"].(float64); seed != float64(5+i) {
			t.Errorf("run %d: seed %v, want %d", i+1, seed, 5+i)
		}
		outputs := rec["outputs"].(map[string]any)
		if n := len(outputs["in"].([]any)); n != 3 {
			t.Errorf("run %d: printed %d values of in, want 3", i+1, n)
		}
		timing := rec["timing"].(map[string]any)
		if !strings.HasPrefix(timing["source"].(string), "modelled") {
			t.Errorf("run %d: timing source %v", i+1, timing["source"])
		}
	}
}

func TestRunErrors(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	bad := writeFile(t, "bad.cu", "__global__ void k(int* p) {\n    p[0] = undefinedThing;\n}\n")
	oob := writeFile(t, "oob.cu", "__global__ void k(int* p) {\n    p[threadIdx.x + 100] = 1;\n}\n")
	spin := writeFile(t, "spin.cu", "__global__ void k(int* p) {\n    while (p[0] == 0) { }\n}\n")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"compile error", []string{"run", bad, "--kernel", "k", "--grid", "1", "--block", "1", "--buf", "p=i32:1:zero"},
			[]string{"bad.cu:2:12:", "undefinedThing", "^"}},
		{"unknown parameter", []string{"run", oob, "--kernel", "k", "--grid", "1", "--block", "1", "--buf", "q=i32:1:zero"},
			[]string{"has no parameter q", "int* p"}},
		{"missing parameter", []string{"run", oob, "--kernel", "k", "--grid", "1", "--block", "1"},
			[]string{"parameter int* p of k is not given", "--buf p="}},
		{"wrong buffer type", []string{"run", oob, "--kernel", "k", "--grid", "1", "--block", "1", "--buf", "p=f32:1:zero"},
			[]string{"got a buffer of float, want int"}},
		{"illegal address", []string{"run", oob, "--kernel", "k", "--grid", "1", "--block", "32", "--buf", "p=i32:4:zero"},
			[]string{"oob.cu:2:", "illegal address", "block (0,0,0) thread (0,0,0)", "past the end of the allocation passed as p"}},
		{"endless loop", []string{"run", spin, "--kernel", "k", "--grid", "1", "--block", "32", "--buf", "p=i32:1:zero", "--max-instructions", "5000"},
			[]string{"instruction budget exceeded", "--max-instructions"}},
		{"bad type", []string{"run", oob, "--kernel", "k", "--grid", "1", "--block", "1", "--buf", "p=q8:1:zero"},
			[]string{"unknown type \"q8\""}},
		{"bad grid", []string{"run", oob, "--kernel", "k", "--grid", "0", "--block", "1", "--buf", "p=i32:1:zero"},
			[]string{"--grid 0"}},
		{"no such kernel", []string{"run", oob, "--kernel", "nope", "--grid", "1", "--block", "1", "--buf", "p=i32:1:zero"},
			[]string{"nope"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := warplab(t, append(tc.args, "--device", "sim:t4")...)
			if code == 0 {
				t.Fatalf("exit 0, want failure")
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
		})
	}
}

func TestRunPrintf(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	src := writeFile(t, "hello.cu", `__global__ void hello(int n) { if (threadIdx.x < n) printf("thread %d of %d\n", threadIdx.x, n); }`)
	code, out, errs := warplab(t, "run", src, "--kernel", "hello", "--grid", "1", "--block", "4", "--scalar", "n=i32:2", "--device", "sim:t4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "thread 0 of 2\n    thread 1 of 2") {
		t.Errorf("printf output missing or out of order:\n%s", out)
	}
}

func TestRunTemplateAndDefine(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	src := writeFile(t, "t.cu", `
#ifndef SCALE
#define SCALE 1
#endif
template <int N>
__global__ void fill(int* out) { out[threadIdx.x] = N * SCALE + threadIdx.x; }`)
	code, out, errs := warplab(t, "run", src, "--kernel", "fill<7>", "--grid", "1", "--block", "3",
		"--buf", "out=i32:3:zero", "--print", "out", "--define", "SCALE=10", "--device", "sim:t4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "out[0:3] = 70 71 72") {
		t.Errorf("output:\n%s", out)
	}
}

func TestRunBoolAndNullBuffers(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	src := writeFile(t, "flags.cu", `
__global__ void flags(const bool* in, bool* out, int* counts, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = !in[i];
    if (counts != nullptr) atomicAdd(counts, in[i] ? 1 : 0);
}`)
	code, out, errs := warplab(t, "run", src, "--kernel", "flags", "--grid", "1", "--block", "32",
		"--buf", "in=bool:8:mod:2", "--buf", "out=bool:8", "--buf", "counts=null", "--scalar", "n=i32:8",
		"--print", "out", "--device", "sim:t4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "out[0:8] = 1 0 1 0 1 0 1 0") {
		t.Errorf("output:\n%s", out)
	}
	for _, tc := range []struct{ buf, want string }{
		{"in=bool:8:iota", "a bool buffer takes zero, const:true|false, mod:2 or randint:0:1:SEED"},
		{"in=bool:8:randint:0:5:1", "HI 5 is out of range for bool (0 to 1)"},
		{"in=bool:8:const:maybe", "invalid syntax"},
	} {
		code, _, errs := warplab(t, "run", src, "--kernel", "flags", "--grid", "1", "--block", "32",
			"--buf", tc.buf, "--buf", "out=bool:8", "--buf", "counts=null", "--scalar", "n=i32:8", "--device", "sim:t4")
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("--buf %s: exit %d, stderr %q, want %q", tc.buf, code, errs, tc.want)
		}
	}
	code, _, errs = warplab(t, "run", src, "--kernel", "flags", "--grid", "1", "--block", "32",
		"--buf", "in=bool:8", "--buf", "out=bool:8", "--buf", "counts=null", "--scalar", "n=i32:8", "--print", "counts", "--device", "sim:t4")
	if code == 0 || !strings.Contains(errs, "counts is a null pointer") {
		t.Errorf("--print of a null buffer: exit %d, %q", code, errs)
	}
}

// TestRunMethod checks the timing method's flags on the simulator: every
// launch starts from the buffers' initial contents (an accumulating
// kernel's total is one launch's), and the method, the spread and the
// times are in the text and the JSON.
func TestRunMethod(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	sum := writeFile(t, "sum.cu", string(coursekernels.Source("day26_sums.cu")))
	base := []string{"run", sum, "--kernel", "sumGlobalAtomic", "--grid", "16", "--block", "256",
		"--buf", "in=f32:4096:mod:4", "--buf", "total=f32:1:zero", "--scalar", "n=u64:4096", "--print", "total", "--device", "sim:t4"}
	code, out, errs := warplab(t, append(base, "--warmup", "2", "--reps", "3", "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rec struct {
		Outputs    map[string][]float64 `json:"outputs"`
		Seed       uint64               `json:"seed"`
		Timing     gpu.Timing           `json:"timing"`
		Method     gpu.Method           `json:"method"`
		MethodText string               `json:"method_text"`
		Stats      gpu.Stats            `json:"stats"`
		TimesMs    []float64            `json:"times_ms"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if got := rec.Outputs["total"]; len(got) != 1 || got[0] != 6144 {
		t.Errorf("total = %v after 5 launches, want [6144], one launch's sum (the output re-initialised before each)", got)
	}
	if rec.Seed != 5 {
		t.Errorf("seed %d, want 5 (the last of launches 1 to 5)", rec.Seed)
	}
	want := gpu.Method{WarmUps: 2, Reps: 3, Statistic: "median", Timer: "the cost model"}
	if rec.Method != want || rec.MethodText != "median of 3 launches after 2 warm-ups, the cost model" {
		t.Errorf("method %+v %q, want %+v", rec.Method, rec.MethodText, want)
	}
	if rec.Stats.N != 3 || len(rec.TimesMs) != 3 || rec.Timing.Ms != rec.Stats.Median || rec.Stats.Min > rec.Stats.Max {
		t.Errorf("stats %+v, times %v, timing %v", rec.Stats, rec.TimesMs, rec.Timing.Ms)
	}

	code, out, errs = warplab(t, base...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "(modelled, t4 profile: one launch, the cost model: the model is deterministic, so one launch suffices)") {
		t.Errorf("the default method on the simulator is not stated:\n%s", out)
	}
	code, out, errs = warplab(t, append(base, "--reps", "2")...)
	if code != 0 || !strings.Contains(out, "median of 2 launches, the cost model") || !strings.Contains(out, "spread of the 2 timed launches: min") {
		t.Errorf("--reps 2: exit %d, output lacks the method or the spread:\n%s%s", code, out, errs)
	}
	code, out, errs = warplab(t, append(base, "--cold", "--timeout", "30s")...)
	if code != 0 || !strings.Contains(out, "total[0:1] = 6144") {
		t.Errorf("--cold on the simulator: exit %d:\n%s%s", code, out, errs)
	}
}

func TestRunMethodErrors(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	sum := writeFile(t, "sum.cu", string(coursekernels.Source("day26_sums.cu")))
	base := []string{"run", sum, "--kernel", "sumGlobalAtomic", "--grid", "16", "--block", "256",
		"--buf", "in=f32:4096:mod:4", "--buf", "total=f32:1:zero", "--scalar", "n=u64:4096", "--device", "sim:t4"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--cold", "--reps", "3"}, "--cold is --warmup 0 --reps 1"},
		{[]string{"--cold", "--warmup", "0"}, "--cold is --warmup 0 --reps 1"},
		{[]string{"--reps", "0"}, "--reps 0: want 1 to"},
		{[]string{"--warmup", "-2"}, "--warmup -2: want 0 to"},
		{[]string{"--timeout", "-1s"}, "--timeout -1s: want a positive duration"},
		{[]string{"--device", "cuda", "--timeout", "5ms"}, "--timeout: gpu: time limit 5ms: want 100ms to"},
	} {
		code, _, errs := warplab(t, append(base, tc.args...)...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want a failure saying %q", tc.args, code, errs, tc.want)
		}
	}
}

func TestRunDefaultArguments(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	src := writeFile(t, "def.cu", `
__global__ void fill(int* out, int n, int value = 7, float scale = 0.5f) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value + (int)(scale * 4.0f);
}`)
	code, out, errs := warplab(t, "run", src, "--kernel", "fill", "--grid", "1", "--block", "32",
		"--buf", "out=i32:4", "--scalar", "n=i32:4", "--print", "out", "--device", "sim:t4")
	if code != 0 || !strings.Contains(out, "out[0:4] = 9 9 9 9") {
		t.Errorf("defaults: exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
	code, out, errs = warplab(t, "run", src, "--kernel", "fill", "--grid", "1", "--block", "32",
		"--buf", "out=i32:4", "--scalar", "n=i32:4", "--scalar", "value=i32:-3", "--print", "out", "--device", "sim:t4")
	if code != 0 || !strings.Contains(out, "out[0:4] = -1 -1 -1 -1") {
		t.Errorf("one default: exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
	code, _, errs = warplab(t, "run", src, "--kernel", "fill", "--grid", "1", "--block", "32",
		"--buf", "out=i32:4", "--scalar", "scale=f32:1", "--device", "sim:t4")
	if code == 0 || !strings.Contains(errs, "parameter int n of fill is not given") {
		t.Errorf("missing n: exit %d, stderr %q", code, errs)
	}
}

func TestRunIncludes(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	dir := t.TempDir()
	for name, text := range map[string]string{
		"src/k.cu":       "#include \"near.cuh\"\n#include \"far.cuh\"\n__global__ void fill(int* out) { out[threadIdx.x] = NEAR + FAR; }\n",
		"src/near.cuh":   "#pragma once\n#define NEAR 5\n",
		"inc/far.cuh":    "#pragma once\n#define FAR 30\n",
		"bad/k.cu":       "#include \"broken.cuh\"\n__global__ void fill(int* out) {}\n",
		"bad/broken.cuh": "#define X\n__device__ int f() { return nope; }\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, flag := range []string{"-I", "--include-dir"} {
		code, out, errs := warplab(t, "run", filepath.Join(dir, "src", "k.cu"), "--kernel", "fill", "--grid", "1", "--block", "2",
			"--buf", "out=i32:2:zero", "--print", "out", flag, filepath.Join(dir, "inc"), "--device", "sim:t4")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", flag, code, errs)
		}
		if !strings.Contains(out, "out[0:2] = 35 35") {
			t.Errorf("%s: output:\n%s", flag, out)
		}
	}
	code, _, errs := warplab(t, "run", filepath.Join(dir, "src", "k.cu"), "--kernel", "fill", "--grid", "1", "--block", "2",
		"--buf", "out=i32:2:zero", "--device", "sim:t4")
	if code == 0 || !strings.Contains(errs, "k.cu:2:10: cannot find include file \"far.cuh\"") {
		t.Errorf("without -I: exit %d: %s", code, errs)
	}
	code, _, errs = warplab(t, "run", filepath.Join(dir, "bad", "k.cu"), "--kernel", "fill", "--grid", "1", "--block", "1",
		"--buf", "out=i32:1:zero", "--device", "sim:t4")
	if code == 0 || !strings.Contains(errs, "broken.cuh:2:29: undeclared identifier 'nope'") || !strings.Contains(errs, "included from") {
		t.Errorf("error in a header: exit %d: %s", code, errs)
	}
}

// TestRunIncludeConfined: warplab run reads #include files from the
// source's own tree and refuses ways out of it, quoting none of their
// text.
func TestRunIncludeConfined(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	const secret = "SECRET_TOKEN_51c2"
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	for name, text := range map[string]string{
		"src/local.h": "#define LOCAL 7\n",
		"secret.toml": "token = \"" + secret + "\"\n",
		"src/good.cu": "#include \"local.h\"\n__global__ void fill(int* out) { out[threadIdx.x] = LOCAL; }\n",
		"src/up.cu":   "#include \"../secret.toml\"\n__global__ void fill(int* out) {}\n",
		"src/abs.cu":  "#include \"" + filepath.Join(dir, "secret.toml") + "\"\n__global__ void fill(int* out) {}\n",
		"src/proc.cu": "#include \"/proc/self/environ\"\n__global__ void fill(int* out) {}\n",
		"src/link.cu": "#include \"link.h\"\n__global__ void fill(int* out) {}\n",
		"src/etc.cu":  "#include \"/etc\"\n__global__ void fill(int* out) {}\n",
		"src/dir.cu":  "#include \"sub\"\n__global__ void fill(int* out) {}\n",
		"src/sub/x.h": "\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "secret.toml"), filepath.Join(src, "link.h")); err != nil {
		t.Fatal(err)
	}
	args := func(file string) []string {
		return []string{"run", filepath.Join(src, file), "--kernel", "fill", "--grid", "1", "--block", "2",
			"--buf", "out=i32:2:zero", "--print", "out", "--device", "sim:t4"}
	}
	code, out, errs := warplab(t, args("good.cu")...)
	if code != 0 || !strings.Contains(out, "out[0:2] = 7 7") {
		t.Errorf("local include: exit %d: %s%s", code, out, errs)
	}
	for file, want := range map[string]string{
		"up.cu":   "outside the directories #include may read",
		"abs.cu":  "an absolute path",
		"proc.cu": "an absolute path",
		"link.cu": "outside the directories #include may read",
		"etc.cu":  "#include \"/etc\": an absolute path",
		"dir.cu":  "a directory, not a file",
	} {
		code, out, errs := warplab(t, args(file)...)
		if code == 0 || !strings.Contains(errs, want) || strings.Contains(out+errs, secret) {
			t.Errorf("%s: exit %d, stderr %q, want %q and no file text", file, code, errs, want)
		}
	}
}

// TestRunJSONInfinities: --json writes infinities and NaN as strings.
func TestRunJSONInfinities(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	src := writeFile(t, "inf.cu", "__global__ void k(float *out) {\n  int i = threadIdx.x;\n"+
		"  out[i] = i == 0 ? -INFINITY : i == 1 ? NAN : i == 2 ? INFINITY : 1.5f;\n}\n")
	code, out, errs := warplab(t, "run", src, "--kernel", "k", "--grid", "1", "--block", "4",
		"--buf", "out=f32:4:zero", "--print", "out", "--device", "sim:t4", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rec struct {
		Outputs map[string][]any `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	want := []any{"-Inf", "NaN", "Inf", 1.5}
	if got := rec.Outputs["out"]; !reflect.DeepEqual(got, want) {
		t.Errorf("outputs %v, want %v", got, want)
	}
}

// TestRunTimeoutCoversCompiling: a long straight-line kernel is stopped
// in the front end by --timeout, with the cause named.
func TestRunTimeoutCoversCompiling(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	var b strings.Builder
	b.WriteString("__global__ void k(float *out) {\n  float x = threadIdx.x;\n")
	for i := 0; i < 150000; i++ {
		b.WriteString("x=x*2+1;\n")
	}
	b.WriteString("  out[threadIdx.x] = x;\n}\n")
	src := writeFile(t, "long.cu", b.String())
	code, _, errs := warplab(t, "run", src, "--kernel", "k", "--grid", "1", "--block", "32",
		"--buf", "out=f32:32:zero", "--device", "sim:t4", "--timeout", "100ms")
	if code == 0 || !strings.Contains(errs, "compilation stopped: ran past the time limit of 100ms, compiling included (raise it with --timeout") {
		t.Errorf("exit %d, stderr %q; want compilation stopped by --timeout", code, errs)
	}
}
