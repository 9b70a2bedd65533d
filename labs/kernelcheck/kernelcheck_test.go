package kernelcheck_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
)

// sumHarness checks a kernel sum(const float* x, float* out, int n) that
// adds x into *out, launched with 256 threads per block.
func sumHarness() kernelcheck.Harness {
	return kernelcheck.Harness{
		Exercise: "sum exercise",
		File:     "answer.cu",
		Kernel:   "sum",
		Prepare: func(dev *gpu.Device, n int, seed uint64) (*kernelcheck.Case, error) {
			r := rand.New(rand.NewPCG(seed, 99))
			x := make([]float32, n)
			var want float64
			for i := range x {
				x[i] = float32(r.Float64()*2 - 1)
				want += float64(x[i]) + 2
				x[i] += 2
			}
			in, err := gpu.Upload(dev, x)
			if err != nil {
				return nil, err
			}
			out, err := gpu.NewBuffer[float32](dev, 1)
			if err != nil {
				return nil, err
			}
			return &kernelcheck.Case{
				Launch: gpu.LaunchConfig{Grid: gpu.D1((n + 255) / 256), Block: gpu.D1(256)},
				Args:   []any{in, out, n},
				Judge: func(res *gpu.Result, tol float64) error {
					got, err := res.Arg("out").(*gpu.Buffer[float32]).Download()
					if err != nil {
						return err
					}
					if rel := math.Abs(float64(got[0])-want) / want; rel > tol {
						return fmt.Errorf("sum %g, reference %.6f (relative error %.2g)", got[0], want, rel)
					}
					return nil
				},
			}, nil
		},
		Reference:       []byte(shuffleSum),
		ReferenceFile:   "reference.cu",
		ReferenceKernel: "sum",
		Hints:           map[string]int{kernelcheck.PartContention: 2},
	}
}

const shuffleSum = `__global__ void sum(const float* x, float* out, int n) {
    __shared__ float part[8];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    float v = (i < n) ? x[i] : 0.0f;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffff, v, d);
    if (lane == 0) part[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (lane < 8) ? part[lane] : 0.0f;
        for (int d = 4; d > 0; d /= 2) v += __shfl_down_sync(0xffffffff, v, d);
        if (lane == 0) atomicAdd(out, v);
    }
}`

// fast is a configuration small enough for unit tests.
func fast() kernelcheck.Config {
	c := kernelcheck.DefaultConfig()
	c.Sizes = []int{1000, 4133}
	c.Seeds = []uint64{1, 2}
	c.Budget = 200_000
	return c
}

func check(t *testing.T, src string, cfg kernelcheck.Config) labs.Feedback {
	t.Helper()
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	f := kernelcheck.CheckConfig(dev, sumHarness(), src, cfg)
	t.Logf("%s", f)
	return f
}

// want checks that part has verdict v and a message holding every one of
// subs.
func want(t *testing.T, f labs.Feedback, part string, v labs.Verdict, subs ...string) {
	t.Helper()
	p, ok := f.Part(part)
	if !ok {
		t.Errorf("no part %q", part)
		return
	}
	if p.Verdict != v {
		t.Errorf("%s: verdict %s, want %s (%s)", part, p.Verdict, v, p.Message)
	}
	for _, s := range subs {
		if !strings.Contains(p.Message, s) {
			t.Errorf("%s: message %q does not hold %q", part, p.Message, s)
		}
	}
}

func TestCorrectKernelPasses(t *testing.T) {
	f := check(t, shuffleSum, fast())
	if !f.OK() {
		t.Fatalf("a correct kernel fails:\n%s", f)
	}
	for _, name := range kernelcheck.Parts() {
		if _, ok := f.Part(name); !ok {
			t.Errorf("no part %q", name)
		}
	}
	want(t, f, kernelcheck.PartTime, labs.Note, "1.00x")
	// ScoredParts lists what a right kernel passes: the time is a note
	// here (no slowdown limit), so it is not one.
	var passed []string
	for _, p := range f.Parts {
		if p.Verdict == labs.Pass {
			passed = append(passed, p.Name)
		}
	}
	if got := kernelcheck.ScoredParts(sumHarness(), fast()); strings.Join(got, "|") != strings.Join(passed, "|") {
		t.Errorf("ScoredParts %q, a right kernel passes %q", got, passed)
	}
	if f.Timing != "modelled, t4 profile" {
		t.Errorf("timing %q", f.Timing)
	}
}

// TestChecked: a harness whose Judge is no float comparison says what it
// checked in a passing correct part, and a failing one still lists the
// Judge's errors.
func TestChecked(t *testing.T) {
	want(t, check(t, shuffleSum, fast()), kernelcheck.PartCorrect, labs.Pass, "within 0.0001 (relative) of the double reference")
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	h := sumHarness()
	h.Checked = "the sum matches"
	f := kernelcheck.CheckConfig(dev, h, shuffleSum, fast())
	want(t, f, kernelcheck.PartCorrect, labs.Pass, "the sum matches, at every size and seed.")
	if p, _ := f.Part(kernelcheck.PartCorrect); strings.Contains(p.Message, "double reference") {
		t.Errorf("the correct part still quotes the tolerance: %q", p.Message)
	}
	f = kernelcheck.CheckConfig(dev, h, strings.Replace(shuffleSum, "(i < n)", "(i < n - 1)", 1), fast())
	want(t, f, kernelcheck.PartCorrect, labs.Fail, "n = 1000, seed 1: sum")
}

func TestWrongSum(t *testing.T) {
	// Drops the last element.
	src := strings.Replace(shuffleSum, "(i < n)", "(i < n - 1)", 1)
	f := check(t, src, fast())
	want(t, f, kernelcheck.PartCorrect, labs.Fail, "n = 1000, seed 1: sum", "reference")
	want(t, f, kernelcheck.PartRuns, labs.Pass)
	// A wrong kernel earns none of the parts after correct.
	want(t, f, kernelcheck.PartRaces, labs.Fail, "not checked: needs a correct kernel")
	want(t, f, kernelcheck.PartContention, labs.Fail, "not checked: needs a correct kernel")
}

// An empty kernel compiles and runs, but earns no race, contention or
// speed part; a serial one-thread kernel is correct but fails the
// lesson's margin over the baseline.
func TestEmptyAndSerialKernels(t *testing.T) {
	cfg := fast()
	cfg.MinSpeedup = 2
	cfg.Sizes = []int{kernelcheck.SpeedupMinSize + 7}
	cfg.Budget = 4_000_000
	h := sumHarness()
	h.Baseline = []byte("__global__ void sum(const float* x, float* out, int n) {\n int i = blockIdx.x * blockDim.x + threadIdx.x;\n if (i < n) atomicAdd(out, x[i]);\n}\n")
	h.BaselineKernel = "sum"
	h.BaselineName = "one atomic per element"
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	f := kernelcheck.CheckConfig(dev, h, "__global__ void sum(const float* x, float* out, int n) {}", cfg)
	want(t, f, kernelcheck.PartRuns, labs.Pass)
	for _, p := range []string{kernelcheck.PartCorrect, kernelcheck.PartRaces, kernelcheck.PartContention, kernelcheck.PartSpeedup} {
		want(t, f, p, labs.Fail)
	}
	serial := "__global__ void sum(const float* x, float* out, int n) {\n if (blockIdx.x == 0 && threadIdx.x == 0) { float s = 0; for (int i = 0; i < n; i++) s += x[i]; *out = s; }\n}\n"
	f = kernelcheck.CheckConfig(dev, h, serial, cfg)
	want(t, f, kernelcheck.PartCorrect, labs.Pass)
	want(t, f, kernelcheck.PartSpeedup, labs.Fail, "as fast as one atomic per element", "the lesson's margin is 2x")
	f = kernelcheck.CheckConfig(dev, h, shuffleSum, cfg)
	want(t, f, kernelcheck.PartSpeedup, labs.Pass, "the lesson's margin is 2x")
}

func TestSimilarity(t *testing.T) {
	renamed := strings.NewReplacer("sum", "total", "part", "acc", "lane", "l", "warp", "w").Replace(shuffleSum)
	if x := kernelcheck.Similarity("// my own comment\n"+renamed, shuffleSum); x < kernelcheck.SimilarityFlag {
		t.Errorf("a renamed copy is %.2f similar, want at least %g", x, kernelcheck.SimilarityFlag)
	}
	other := "__global__ void sum(const float* x, float* out, int n) {\n if (blockIdx.x == 0 && threadIdx.x == 0) { float s = 0; for (int i = 0; i < n; i++) s += x[i]; *out = s; }\n}\n"
	if x := kernelcheck.Similarity(other, shuffleSum); x >= kernelcheck.SimilarityFlag {
		t.Errorf("another kernel is %.2f similar, want below %g", x, kernelcheck.SimilarityFlag)
	}
}

func TestMissingBarrierRace(t *testing.T) {
	src := strings.Replace(shuffleSum, "__syncthreads();", "", 1)
	f := check(t, src, fast())
	// Both accesses, at the student's lines, with the line's text.
	want(t, f, kernelcheck.PartRaces, labs.Fail, "race at answer.cu:", "part[warp] = v;", "part[lane]")
}

func TestBarrierDivergence(t *testing.T) {
	src := strings.Replace(shuffleSum, "__syncthreads();", "if (warp < 4) __syncthreads();", 1)
	f := check(t, src, fast())
	want(t, f, kernelcheck.PartRaces, labs.Fail, "barrier divergence", "answer.cu:8:")
	want(t, f, kernelcheck.PartRuns, labs.Fail)
	want(t, f, kernelcheck.PartCorrect, labs.Fail, "not checked")
}

func TestTooManyAtomics(t *testing.T) {
	src := `__global__ void sum(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, x[i]);
}`
	f := check(t, src, fast())
	want(t, f, kernelcheck.PartCorrect, labs.Pass)
	want(t, f, kernelcheck.PartContention, labs.Fail, "n = 4133", "4133 global atomics", "ceil(n / 32) = 130")
	if p, _ := f.Part(kernelcheck.PartContention); p.Hint != 2 {
		t.Errorf("contention hint %d, want 2", p.Hint)
	}
}

func TestCompileError(t *testing.T) {
	src := strings.Replace(shuffleSum, "int lane = threadIdx.x & 31", "int lane = threadIdx.x & 31 +", 1)
	f := check(t, src, fast())
	want(t, f, kernelcheck.PartCompiles, labs.Fail, "answer.cu:4:")
	want(t, f, kernelcheck.PartRuns, labs.Fail, "not checked")
	want(t, f, kernelcheck.PartTime, labs.Fail, "not checked")
}

func TestWrongKernelName(t *testing.T) {
	src := strings.Replace(shuffleSum, "void sum(", "void total(", 1)
	f := check(t, src, fast())
	want(t, f, kernelcheck.PartCompiles, labs.Fail, "no kernel named sum", "total")
}

func TestWrongParameters(t *testing.T) {
	src := strings.Replace(shuffleSum, "const float* x", "const int* x", 1)
	f := check(t, src, fast())
	want(t, f, kernelcheck.PartRuns, labs.Fail, "parameters do not match", "int* x")
}

func TestEndlessLoop(t *testing.T) {
	src := strings.Replace(shuffleSum, "for (int d = 16; d > 0; d /= 2)", "for (int d = 16; d > 0; d += 0)", 1)
	f := check(t, src, fast())
	want(t, f, kernelcheck.PartRuns, labs.Fail, "budget of 200000 warp instructions", "answer.cu:6:")
}

func TestWallClock(t *testing.T) {
	src := strings.Replace(shuffleSum, "for (int d = 16; d > 0; d /= 2)", "for (int d = 16; d > 0; d += 0)", 1)
	cfg := fast()
	cfg.Budget = 1 << 30
	cfg.TimeLimit = 50 * time.Millisecond
	f := check(t, src, cfg)
	want(t, f, kernelcheck.PartRuns, labs.Fail, "wall-clock limit of 50ms")
}

func TestOutOfBounds(t *testing.T) {
	src := strings.Replace(shuffleSum, "float v = (i < n) ? x[i] : 0.0f;", "float v = x[i];", 1)
	f := check(t, src, fast())
	want(t, f, kernelcheck.PartRuns, labs.Fail, "illegal address", "answer.cu:5:", "x[i]")
}

func TestUnanswered(t *testing.T) {
	f := check(t, "  \n// __global__ void sum(...) {\n/* your code */\n", fast())
	for _, p := range f.Parts {
		if p.Verdict != labs.Unanswered {
			t.Errorf("%s: %s, want unanswered", p.Name, p.Verdict)
		}
	}
	if len(f.Parts) != len(kernelcheck.Parts()) {
		t.Errorf("%d parts, want %d", len(f.Parts), len(kernelcheck.Parts()))
	}
}

func TestHarnessPanicIsReported(t *testing.T) {
	h := sumHarness()
	prep := h.Prepare
	h.Prepare = func(dev *gpu.Device, n int, seed uint64) (*kernelcheck.Case, error) {
		c, err := prep(dev, n, seed)
		if err == nil {
			c.Judge = func(*gpu.Result, float64) error { panic("boom") }
		}
		return c, err
	}
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	f := kernelcheck.CheckConfig(dev, h, shuffleSum, fast())
	want(t, f, kernelcheck.PartRuns, labs.Fail, "internal error: boom")
}

func TestSlowdownLimit(t *testing.T) {
	src := `__global__ void sum(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, x[i]);
}`
	cfg := fast()
	cfg.MaxSlowdown = 1.5
	f := check(t, src, cfg)
	want(t, f, kernelcheck.PartTime, labs.Fail, "The limit is 1.5x")
}

func TestSettings(t *testing.T) {
	s, err := labs.Resolve("sum exercise", kernelcheck.Options(), map[string]string{"sizes": "77,999", "seeds": "5", "tolerance": "0.001"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := kernelcheck.ConfigFrom(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Sizes) != 2 || c.Sizes[1] != 999 || len(c.Seeds) != 1 || c.Seeds[0] != 5 || c.Tolerance != 0.001 {
		t.Errorf("config %+v", c)
	}
	if _, err := labs.Resolve("x", kernelcheck.Options(), map[string]string{"sizes": "100000000"}); err == nil {
		t.Error("a size past MaxSize resolves")
	}
	s, _ = labs.Resolve("x", kernelcheck.Options(), map[string]string{"tolerance": "-1"})
	if _, err := kernelcheck.ConfigFrom(s); err == nil {
		t.Error("a negative tolerance is accepted")
	}
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	f := kernelcheck.Check(dev, sumHarness(), shuffleSum, s)
	want(t, f, kernelcheck.PartCompiles, labs.Fail, "settings are wrong", "tolerance")
}

// reproducibleHarness is sumHarness with the reproducibility part: the
// inputs no longer change with the seed, and each case reads its total's
// bits.
func reproducibleHarness() kernelcheck.Harness {
	h := sumHarness()
	prepare := h.Prepare
	h.Reproducible = true
	h.Prepare = func(dev *gpu.Device, n int, _ uint64) (*kernelcheck.Case, error) {
		cs, err := prepare(dev, n, 1)
		if err != nil {
			return nil, err
		}
		out := cs.Args[1].(*gpu.Buffer[float32])
		cs.Fingerprint = func() (string, error) {
			got, err := out.Download()
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%08x", math.Float32bits(got[0])), nil
		}
		return cs, nil
	}
	return h
}

// oneBlockSum adds in a fixed order: block 0 does everything.
const oneBlockSum = `__global__ void sum(const float* x, float* out, int n) {
    __shared__ float s[256];
    if (blockIdx.x != 0) return;
    float v = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) v += x[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int h = 128; h > 0; h >>= 1) {
        if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = s[0];
}`

func TestReproduciblePart(t *testing.T) {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	cfg := fast()
	cfg.Sizes = []int{4133, 20000}
	cfg.Seeds = []uint64{1, 2, 3, 4, 5, 6}
	cfg.ElementsPerAtomic = 0

	f := kernelcheck.CheckConfig(dev, reproducibleHarness(), shuffleSum, cfg)
	t.Logf("%s", f)
	want(t, f, kernelcheck.PartCorrect, labs.Pass)
	want(t, f, kernelcheck.PartReproducible, labs.Fail, "distinct results", "under seeds")
	if f.Parts[3].Name != kernelcheck.PartReproducible {
		t.Errorf("part 4 is %q, want %q after %q", f.Parts[3].Name, kernelcheck.PartReproducible, kernelcheck.PartCorrect)
	}

	cfg.Budget = 4_000_000
	f = kernelcheck.CheckConfig(dev, reproducibleHarness(), oneBlockSum, cfg)
	t.Logf("%s", f)
	want(t, f, kernelcheck.PartReproducible, labs.Pass, "one distinct result per size over 6 scheduler seeds")

	// A kernel that does not compile leaves the part unjudged, not out.
	f = kernelcheck.CheckConfig(dev, reproducibleHarness(), "__global__ void sum(", cfg)
	want(t, f, kernelcheck.PartReproducible, labs.Fail, "not checked")

	// Without the option the part is not reported.
	f = kernelcheck.CheckConfig(dev, sumHarness(), oneBlockSum, cfg)
	if _, ok := f.Part(kernelcheck.PartReproducible); ok {
		t.Error("a harness without Reproducible reports the part")
	}
}

// TestIncludeReadsNoFile: a student's kernel that includes a file (the
// key, an absolute path, the environment) fails to compile, and the
// feedback quotes none of the file.
func TestIncludeReadsNoFile(t *testing.T) {
	dir := t.TempDir()
	key := dir + "/key.toml"
	const secret = "SECRET_TOKEN_c0ffee"
	if err := os.WriteFile(key, []byte("# "+secret+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"source/key.toml", key, "/proc/self/environ", "../key.toml", "/etc"} {
		f := check(t, "#include \""+name+"\"\n"+shuffleSum, fast())
		want(t, f, kernelcheck.PartCompiles, labs.Fail, "#include \""+name+"\"")
		if strings.Contains(f.String(), secret) {
			t.Errorf("%s: the feedback quotes the file", name)
		}
	}
}
