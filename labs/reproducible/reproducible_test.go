package reproducible

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/gpusim/profiles"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labtest"
	"github.com/warplab/warplab/labs/kernelcheck"
)

// lastBlock is the exercise's answer the way cuda-samples'
// threadFenceReduction does it: each block writes its partial, the last
// block to finish adds them in index order (testdata/lastblock.cu, which
// the grader's tests read too).
var lastBlock = readTestdata("lastblock.cu")

// readTestdata returns testdata/name; the tests cannot run without it.
func readTestdata(name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return string(b)
}

// oneBlock is reproducible and slow: block 0 sums everything.
const oneBlock = `__global__ void sum(const float* in, int n, float* out, float* partials, unsigned* done) {
    __shared__ float s[256];
    if (blockIdx.x != 0) return;
    float v = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = s[0];
}
`

func part(t *testing.T, f labs.Feedback, name string, v labs.Verdict, subs ...string) {
	t.Helper()
	p, ok := f.Part(name)
	if !ok {
		t.Fatalf("no part %q in\n%s", name, f)
	}
	if p.Verdict != v {
		t.Errorf("%s: %s, want %s: %s", name, p.Verdict, v, p.Message)
	}
	for _, s := range subs {
		if !strings.Contains(p.Message, s) {
			t.Errorf("%s: %q does not hold %q", name, p.Message, s)
		}
	}
}

func TestExercise(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	t.Run("template", func(t *testing.T) {
		f := Check(dev, Answer{Source: AnswerTemplate})
		part(t, f, "answer", labs.Unanswered)
	})
	t.Run("atomic", func(t *testing.T) {
		// The template without its TODO: answered, and not reproducible.
		src := strings.Replace(AnswerTemplate, "// TODO: the order of these adds changes run to run", "", 1)
		f := Check(dev, Answer{Source: src})
		t.Logf("%s", f)
		part(t, f, kernelcheck.PartCorrect, labs.Pass)
		part(t, f, kernelcheck.PartReproducible, labs.Fail, "distinct results", "n = 200003")
		if f.OK() {
			t.Error("the atomic sum passes")
		}
	})
	t.Run("last block", func(t *testing.T) {
		f := Check(dev, Answer{Source: lastBlock})
		t.Logf("%s", f)
		if !f.OK() {
			t.Errorf("the fixed-order answer fails:\n%s", f)
		}
		part(t, f, kernelcheck.PartReproducible, labs.Pass, "one distinct result per size over 8 scheduler seeds")
	})
	t.Run("one block", func(t *testing.T) {
		f := Check(dev, Answer{Source: oneBlock})
		t.Logf("%s", f)
		part(t, f, kernelcheck.PartReproducible, labs.Pass)
		part(t, f, kernelcheck.PartTime, labs.Fail, "The limit is 1.5x")
	})
}

func TestSums(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	st, err := Sums(dev, SumOptions{N: 1 << 14, Runs: 6})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", st.Table())
	if len(st.Rows) != len(Methods()) {
		t.Fatalf("%d rows, want %d", len(st.Rows), len(Methods()))
	}
	if want := Reference(1 << 14); st.Ref != want {
		t.Errorf("reference %v, want %v", st.Ref, want)
	}
	for _, r := range st.Rows {
		switch {
		case r.Method.FixedOrder() && r.Distinct != 1:
			t.Errorf("%s: %d distinct totals, want 1: %v", r.Method, r.Distinct, r.Sums)
		case r.Method == AtomicGlobal && r.Distinct < 2:
			t.Errorf("%s: %d distinct totals over 6 seeds, want more than 1", r.Method, r.Distinct)
		}
		if rel := r.WorstError / st.Ref; rel > 1e-5 {
			t.Errorf("%s: worst error %g (relative %g)", r.Method, r.WorstError, rel)
		}
		if r.Ms <= 0 || r.VsAtomicTree <= 0 {
			t.Errorf("%s: %v ms, %v x the atomic tree", r.Method, r.Ms, r.VsAtomicTree)
		}
	}
	fp, _ := st.Row(FixedPoint)
	tp, _ := st.Row(TwoPass)
	if fp.WorstError > tp.WorstError {
		t.Errorf("fixed point error %g above the two-pass float sum's %g", fp.WorstError, tp.WorstError)
	}
	if err := st.Chart().Validate(); err != nil {
		t.Error(err)
	}
}

func TestOrder(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	ot, err := Order(dev, OrderOptions{N: 1 << 13, Runs: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", ot.Table())
	want := map[Method]int{AtomicGlobal: 19, TreeAtomic: 12, TwoPass: 1}
	for _, r := range ot.Rows {
		if r.Deterministic != 1 {
			t.Errorf("%s: %d distinct under order=deterministic, want 1", r.Method, r.Deterministic)
		}
		if r.H200 != want[r.Method] {
			t.Errorf("%s: H200 %d distinct, want %d", r.Method, r.H200, want[r.Method])
		}
		if r.Method == TwoPass && r.Seeded != 1 {
			t.Errorf("two-pass: %d distinct in seeded order, want 1", r.Seeded)
		}
		if r.Method == AtomicGlobal && r.Seeded < 2 {
			t.Errorf("atomic_global: %d distinct in seeded order, want more than 1", r.Seeded)
		}
	}
}

// TestPredict checks the model against the H200 for every sum: within
// 30%, the two-pass sums timed as the H200 timed them (both launches
// between one pair of events), and the launches timed apart costing more
// than that by the launch term less the queued dispatch.
func TestPredict(t *testing.T) {
	if testing.Short() {
		t.Skip("models 4M-element sums")
	}
	pt, err := Predict(testenv.Open(t, "sim:t4"), PredictOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", pt.Table())
	p, err := profiles.Get(predictProfile)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range pt.Rows {
		if r.H200 == 0 {
			t.Errorf("%s: no H200 row", r.Method)
		}
		if d := r.Ratio(); d < 1/1.3 || d > 1.3 {
			t.Errorf("%s: predicted %.4f ms, H200 %.4f ms (%.2fx)", r.Method, r.Predicted, r.H200, d)
		}
		want := r.PredictedApart
		if r.Method.Launches() == 2 {
			want -= (p.Cost.LaunchUs - p.Cost.QueuedLaunchUs) / 1e3
		}
		if math.Abs(r.Predicted-want) > 1e-9 {
			t.Errorf("%s: predicted %.6f ms between one pair of events, %.6f ms apart: want %.6f", r.Method, r.Predicted, r.PredictedApart, want)
		}
	}
}

func TestBadOptions(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"sums n", func() error { _, err := Sums(dev, SumOptions{N: -1}); return err }(), "N -1"},
		{"sums method", func() error { _, err := Sums(dev, SumOptions{N: 64, Methods: []Method{"nope"}}); return err }(), `unknown sum "nope"`},
		{"order runs", func() error { _, err := Order(dev, OrderOptions{N: 64, Runs: 1}); return err }(), "2 to 64 runs"},
		{"predict n", func() error { _, err := Predict(dev, PredictOptions{N: 1000}); return err }(), "predict N 1000"},
		{"lab n", func() error { _, err := labs.Run(dev, "reproducible", map[string]string{"n": "0x"}, nil); return err }(), "n"},
		{"lab predict-n", func() error {
			_, err := labs.Run(dev, "reproducible", map[string]string{"predict-n": "5"}, nil)
			return err
		}(), "4194304 or 16777216"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one holding %q", c.name, c.err, c.want)
		}
	}
}

func TestLabContract(t *testing.T) {
	l, err := labs.Lookup("day68")
	if err != nil {
		t.Fatal(err)
	}
	if l.Info().Name != "reproducible" || l.Info().Exercise == nil {
		t.Errorf("info %+v", l.Info())
	}
	if testing.Short() {
		return
	}
	rep, err := labs.Run(testenv.Open(t, "sim:t4"), "reproducible", map[string]string{"n": "16384", "runs": "3", "order-n": "4096", "order-runs": "2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(rep.Tables()); got != 3 {
		t.Errorf("%d tables, want 3", got)
	}
	for _, f := range rep.Figures() {
		if err := f.Figure.Validate(); err != nil {
			t.Error(err)
		}
	}
}

// BenchmarkHeadless runs the lab with its default settings on sim:t4, as
// `warplab lab reproducible` does; Info().SimWallTime records its time on
// the 2-core development machine.
func BenchmarkHeadless(b *testing.B) { labtest.Headless(b, "reproducible") }
