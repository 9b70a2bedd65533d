package cas

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
)

func TestCorrectness(t *testing.T) {
	tab, err := Correctness(testenv.Open(t, "sim:t4"), 256, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []Kernel{MaxCAS, MaxSignAware, MaxDocLoop} {
		if r, _ := tab.Row(k); r.Wrong != 0 {
			t.Errorf("%s: %d wrong groups, first %v", k, r.Wrong, r.First)
		}
	}
	r, _ := tab.Row(MaxIntTrick)
	if r.Wrong == 0 || r.First == nil {
		t.Fatalf("the int trick found no counterexample")
	}
	if r.Wrong != r.WrongNegative {
		t.Errorf("int trick: %d wrong groups, %d all negative; want every wrong group negative", r.Wrong, r.WrongNegative)
	}
	if !(r.First.Want < 0 || math.Signbit(float64(r.First.Want))) {
		t.Errorf("counterexample %v: want a negative maximum", r.First)
	}
	if s := tab.Table().String(); !strings.Contains(s, r.First.String()) {
		t.Errorf("table lacks the counterexample:\n%s", s)
	}
	// The counterexamples hold -Inf and -0: the lab's --json must carry them.
	b, err := json.Marshal(tab)
	if err != nil {
		t.Fatalf("the table as JSON: %v", err)
	}
	if !strings.Contains(string(b), `"got":"-Inf"`) {
		t.Errorf("the JSON lacks the int trick's -Inf maximum: %s", b)
	}
}

func TestCounterexampleJSON(t *testing.T) {
	c := Counterexample{Inputs: []float32{-1, float32(math.Copysign(0, -1))}, Got: float32(math.Inf(-1)), Want: -1}
	b, err := json.Marshal(c)
	if want := `{"inputs":[-1,-0],"got":"-Inf","want":-1}`; err != nil || string(b) != want {
		t.Errorf("got %s, %v; want %s", b, err, want)
	}
}

func TestContentionCountsRetries(t *testing.T) {
	tab, err := Contention(testenv.Open(t, "sim:h200"), ContentionOptions{N: 1 << 14, Contenders: []int{1, 32, 256}})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(tab.Table())
	for _, r := range tab.Rows {
		wantWrong := r.Kernel == MaxIntTrick && r.Contenders == 1
		if (r.Wrong > 0) != wantWrong {
			t.Errorf("%s C=%d: %d wrong groups", r.Kernel, r.Contenders, r.Wrong)
		}
		switch {
		case r.Kernel != MaxCAS && r.CASFailures != 0:
			t.Errorf("%s: %d CAS failures, want 0", r.Kernel, r.CASFailures)
		case r.Kernel == MaxCAS && r.Contenders == 1 && r.CASFailures != 0:
			t.Errorf("CAS loop alone on its address: %d retries", r.CASFailures)
		case r.Kernel == MaxCAS && r.Contenders == 32 && r.CASFailures == 0:
			t.Error("CAS loop at 32 per address: no retries counted")
		}
		if r.H200Ms <= 0 {
			t.Errorf("%s C=%d: no H200 row", r.Kernel, r.Contenders)
		}
	}
	if _, err := Contention(testenv.Open(t, "sim:t4"), ContentionOptions{N: 100, Contenders: []int{200}}); err == nil || !strings.HasPrefix(err.Error(), "cas: ") {
		t.Errorf("200 contenders of 100 threads: %v", err)
	}
}

const correctAnswer = `
__device__ float atomicMaxFloat(float* addr, float value) {
    int* a = (int*)addr;
    int old = *a;
    while (__int_as_float(old) < value) {
        int assumed = old;
        old = atomicCAS(a, assumed, __float_as_int(value));
        if (old == assumed) break;
    }
    return __int_as_float(old);
}
__global__ void foldMax(const float* v, int n, int C, float* m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicMaxFloat(&m[i / C], v[i]);
}
`

func TestExercise(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	f := Check(dev, Answer{Source: correctAnswer})
	if !f.OK() {
		t.Fatalf("the CAS loop fails:\n%s", f)
	}
	// The pass says what was compared, not a float tolerance.
	if p, _ := f.Part(kernelcheck.PartCorrect); !strings.Contains(p.Message, "-0 and +0") {
		t.Errorf("the correct part does not say how maxima were compared: %q", p.Message)
	}
	if f := Check(dev, Answer{Source: AnswerTemplate}); f.OK() {
		t.Fatal("the template passes")
	}
	intTrick := strings.Replace(AnswerTemplate, "// TODO", "// mine", 1)
	f = Check(dev, Answer{Source: intTrick})
	if p, _ := f.Part(kernelcheck.PartCorrect); p.Verdict != labs.Fail {
		t.Errorf("the int trick is correct:\n%s", f)
	}
	// The course notes' loop shape stores NaN: against the NaN policy.
	docLoop := strings.Replace(correctAnswer, "while (__int_as_float(old) < value) {", "while (!(__int_as_float(old) >= value)) {", 1)
	f = Check(dev, Answer{Source: docLoop})
	if p, _ := f.Part(kernelcheck.PartCorrect); p.Verdict != labs.Fail || !strings.Contains(p.Message, "NaN") {
		t.Errorf("a loop that stores NaN passes:\n%s", f)
	}
}

func TestRegistered(t *testing.T) {
	l, err := labs.Lookup("cas")
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Info().Exercise.AnswerType(); got != "cas.Answer" {
		t.Errorf("answer type %q", got)
	}
	for _, o := range l.Options() {
		if o.Usage == "" || o.Max == 0 {
			t.Errorf("option %s: usage %q, max %d", o.Name, o.Usage, o.Max)
		}
	}
}

// The model's note names the cells more than 30% off the H200 from the
// rows at the H200's size, and only points elsewhere at another size.
func TestModelNote(t *testing.T) {
	rows := []ContentionRow{
		{Kernel: MaxCAS, Contenders: 32, Ms: 0.10, H200Ms: 0.20},
		{Kernel: MaxIntTrick, Contenders: 32, Ms: 0.21, H200Ms: 0.20},
		{Kernel: MaxCAS, Contenders: 4096, Ms: 3.0, H200Ms: 1.0},
	}
	got := (&ContentionTable{N: H200Threads, Rows: rows}).modelNote()
	for _, want := range []string{string(MaxCAS) + " at 32 (0.50x)", string(MaxCAS) + " at 4096 (3.00x)"} {
		if !strings.Contains(got, want) {
			t.Errorf("note %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, string(MaxIntTrick)) {
		t.Errorf("note %q names a cell within 30%%", got)
	}
	if got := (&ContentionTable{N: H200Threads, Rows: rows[1:2]}).modelNote(); !strings.Contains(got, "Every modelled time is within 30%") {
		t.Errorf("note %q, want every time within 30%%", got)
	}
	// On a GPU the predicted times are the model's.
	gpuRows := []ContentionRow{{Kernel: MaxCAS, Contenders: 32, Ms: 0.20, PredictedMs: 0.30, H200Ms: 0.20}}
	if got := (&ContentionTable{N: H200Threads, Predicted: "modelled, h200 profile", Rows: gpuRows}).modelNote(); !strings.Contains(got, "(1.50x)") {
		t.Errorf("note %q, want the predicted time's ratio", got)
	}
	if got := (&ContentionTable{N: 1024, Rows: rows}).modelNote(); !strings.Contains(got, "--set n=4194304") {
		t.Errorf("note %q at another size, want where to compare", got)
	}
}

// TestH200RowsAreEvidence holds every H200 row to its row of the
// committed cas.csv it quotes (a copy of
// calibration/evidence/2026-11-30-h200-microbenchmarks-gated2/csv/cas.csv),
// and the CSV's rows to the lab's.
func TestH200RowsAreEvidence(t *testing.T) {
	const path = "testdata/cas.csv"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	names := map[Kernel]string{MaxCAS: "cas_loop", MaxIntTrick: "int_trick", MaxSignAware: "signaware", casCount: "cas_count"}
	measured := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Split(l, ",")
		if strings.HasPrefix(l, "#") || len(f) < 12 || f[0] == "kernel" {
			continue
		}
		measured[strings.Join(f[:3], ",")] = strings.Join([]string{f[4], f[9], f[11]}, ",")
	}
	for _, r := range H200Rows() {
		key := fmt.Sprintf("%s,%d,%d", names[r.Kernel], r.Contenders, r.Groups)
		got, ok := measured[key]
		if !ok {
			t.Errorf("%s: no row %s in %s", r.Kernel, key, path)
			continue
		}
		if want := fmt.Sprintf("%s,%d,%d", strconv.FormatFloat(r.Ms, 'f', 5, 64), r.Retries, r.WrongGroup); got != want {
			t.Errorf("%s: the lab says %s (ms, retries, wrong groups), %s says %s", key, want, path, got)
		}
		delete(measured, key)
	}
	for key := range measured {
		t.Errorf("%s: row %s is not among the lab's H200 rows", path, key)
	}
}
