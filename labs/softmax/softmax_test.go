package softmax_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
	"github.com/warplab/warplab/labs/softmax"
)

func TestSweep(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	s, err := softmax.Sweep(dev, softmax.SweepOptions{Sizes: []int{32, 4096, 65536, 100003}, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(s)
	for _, r := range s.Rows {
		for _, c := range r.Cells {
			if !c.OK {
				t.Errorf("n=%d %s: denominator %g, reference %g (relative %g, bound %g)", r.N, c.Kernel, c.Denom, r.Denom, c.RelErr, c.Tolerance)
			}
		}
		blocks := int64((r.N + 255) / 256)
		want := map[softmax.Kernel]int64{softmax.Atomic: int64(r.N), softmax.Shared: blocks, softmax.Shuffle: blocks}
		for _, c := range r.Cells {
			if c.GlobalAtomics != want[c.Kernel] {
				t.Errorf("n=%d %s: %d global atomics, want %d", r.N, c.Kernel, c.GlobalAtomics, want[c.Kernel])
			}
		}
	}
	last := s.Rows[len(s.Rows)-1]
	if last.Fastest() != softmax.Shuffle {
		t.Errorf("fastest at n=%d: %s, want shuffle", last.N, last.Fastest())
	}
	n, ok := s.Crossover(softmax.Atomic, softmax.Shuffle)
	if !ok || n > 4096 {
		t.Errorf("atomic/shuffle crossover at %d (%v), want at most 4096", n, ok)
	}
	if !strings.Contains(s.Table().String(), "Crossover: shuffle is more than 10% faster than atomic from n = ") {
		t.Error("the table does not state the crossover")
	}
	if err := s.Chart().Validate(); err != nil {
		t.Error(err)
	}
	if s.PredictedTable() != nil {
		t.Error("a simulated sweep has a predicted table")
	}
}

func TestSweepBadOptions(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	for _, o := range []softmax.SweepOptions{{BlockSize: 100}, {BlockSize: 2048}, {Sizes: []int{0}}, {Sizes: []int{1 << 25}}} {
		if _, err := softmax.Sweep(dev, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestCards: on the 14-SM Turing profile the model lands near the notes'
// 37x, and the ratio grows with the card.
func TestCards(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 2 x 2 launches of a million elements")
	}
	dev := testenv.Open(t, "sim:t4")
	c, err := softmax.Cards(dev, softmax.CardsOptions{N: 1 << 20, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(c.Table())
	if len(c.Rows) != 4 {
		t.Fatalf("%d rows, want 2 quoted and 2 modelled", len(c.Rows))
	}
	turing, h200 := c.Rows[2], c.Rows[3]
	if turing.Kind != "modelled" || !strings.Contains(turing.Card, "GTX 1650") {
		t.Errorf("row 3 is %+v", turing)
	}
	if r := turing.Ratio(); r < 37.5/1.3/1.3 || r > 37.5*1.3 {
		t.Errorf("Turing ratio %.1f, far from the notes' 37.5", r)
	}
	if h200.Ratio() < 3*turing.Ratio() {
		t.Errorf("H200 ratio %.1f is not well above Turing's %.1f", h200.Ratio(), turing.Ratio())
	}
	// About the same atomic cost per element on both cards.
	if q := turing.AtomicNs / h200.AtomicNs; q < 0.8 || q > 1.6 {
		t.Errorf("atomic ns per element: Turing %.2f, H200 %.2f", turing.AtomicNs, h200.AtomicNs)
	}
	if err := c.Chart().Validate(); err != nil {
		t.Error(err)
	}
}

func TestProfileOf(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	s, err := softmax.Sweep(dev, softmax.SweepOptions{Sizes: []int{65536}, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	v := softmax.ProfileOf(s, 0)
	if v == nil || len(v.Launches) != 3 {
		t.Fatalf("profile %+v", v)
	}
	a, sh := v.Launches[0], v.Launches[2]
	// The notes' paradox: more instructions, far less time.
	if sh.Counters.WarpInstructions < 2*a.Counters.WarpInstructions || sh.Timing.Ms*10 > a.Timing.Ms {
		t.Errorf("shuffle: %d warp instructions in %.4f ms; atomic: %d in %.4f ms",
			sh.Counters.WarpInstructions, sh.Timing.Ms, a.Counters.WarpInstructions, a.Timing.Ms)
	}
	if !strings.Contains(v.String(), "modelled, t4") {
		t.Error("the profile does not label modelled figures")
	}
}

func TestRegistered(t *testing.T) {
	l, err := labs.Lookup("softmax")
	if err != nil {
		t.Fatal(err)
	}
	info := l.Info()
	if info.Exercise == nil || info.Notebook != "notebooks/softmax.ipynb" || info.SimWallTime <= 0 || len(info.Sources) == 0 {
		t.Errorf("info %+v", info)
	}
	if _, err := os.Stat(filepath.Join("..", "..", info.Notebook)); err != nil {
		t.Errorf("notebook: %v", err)
	}
	for _, o := range l.Options() {
		if o.Usage == "" || (o.Kind != labs.String && o.Max == 0) {
			t.Errorf("option %s has no usage or no bound: %+v", o.Name, o)
		}
	}
	if e := info.Exercise; e.AnswerType() != "softmax.Answer" || e.Variable != "answer" || len(e.Options) == 0 {
		t.Errorf("exercise %+v", e)
	}
	if _, err := labs.Resolve("softmax", l.Options(), map[string]string{"sizes": "33554432"}); err == nil {
		t.Error("a size past 16777216 resolves")
	}
	if _, err := labs.Resolve("softmax", l.Options(), map[string]string{"block": "1"}); err == nil {
		t.Error("an unknown option resolves")
	}
}

func TestLabRun(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	r, err := labs.Run(dev, "softmax", map[string]string{"sizes": "1024,16384", "card-n": "16384", "cards": "gtx1650", "placements": "4"}, labs.NoProgress())
	if err != nil {
		t.Fatal(err)
	}
	ts := r.Tables()
	if len(ts) != 4 {
		t.Fatalf("%d tables, want sweep, placements, cards and profile", len(ts))
	}
	if got := len(r.(*softmax.Report).Placements.Rows); got != 4 {
		t.Errorf("placements=4 ran %d placements", got)
	}
	for _, f := range r.Figures() {
		if err := f.Figure.Validate(); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
	if r.Elapsed() <= 0 {
		t.Error("no elapsed time")
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("the report does not marshal: %v", err)
	}
	for _, key := range []string{`"sweep"`, `"placements"`, `"cards"`, `"profile"`, `"by_class"`, `"breakdown"`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("the JSON report has no %s", key)
		}
	}
}

// solution is the exercise's reference solution, as a student might
// write it: one atomic per block (testdata/solution.cu, which the
// grader's tests read too).
var solution = readTestdata("solution.cu")

// readTestdata returns testdata/name; the tests cannot run without it.
func readTestdata(name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestExercise(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	for _, tc := range []struct {
		name, src string
		ok        bool
		part      string
		hint      int
	}{
		{"solution", solution, true, "", 0},
		{"one atomic per warp", `
__global__ void denomWarp(const float* x, float* denom, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? expf(x[i]) : 0.0f;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffff, v, d);
    if (threadIdx.x % 32 == 0) atomicAdd(denom, v);
}`, true, "", 0},
		{"per-thread atomics", softmax.Source(softmax.Atomic).Text, false, kernelcheck.PartCompiles, 0},
		{"per-thread atomics renamed", strings.Replace(softmax.Source(softmax.Atomic).Text, "denomAtomic", "denomWarp", 1), false, kernelcheck.PartContention, 2},
		{"shuffle inside the bounds check", `
__global__ void denomWarp(const float* x, float* denom, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = expf(x[i]);
        for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffff, v, d);
        if (threadIdx.x % 32 == 0) atomicAdd(denom, v);
    }
}`, false, kernelcheck.PartRaces, 3},
		{"no barrier", strings.Replace(solution, "__syncthreads();", "", 1), false, kernelcheck.PartRaces, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := softmax.Check(dev, softmax.Answer{Kernel: tc.src})
			t.Log(f)
			if f.OK() != tc.ok {
				t.Fatalf("OK = %v, want %v", f.OK(), tc.ok)
			}
			if tc.part != "" {
				p, _ := f.Part(tc.part)
				if p.Verdict != labs.Fail || p.Hint != tc.hint {
					t.Errorf("%s: %s (hint %d), want a fail with hint %d", tc.part, p.Verdict, p.Hint, tc.hint)
				}
			}
		})
	}
}

func TestExerciseThroughRegistry(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	f, err := labs.Check(dev, "softmax", &softmax.Answer{Kernel: solution}, map[string]string{"sizes": "777", "seeds": "5,6"})
	if err != nil {
		t.Fatal(err)
	}
	if !f.OK() {
		t.Errorf("the solution fails a hidden check:\n%s", f)
	}
	f, _ = labs.Check(dev, "softmax", softmax.Answer{}, nil)
	if p, _ := f.Part(kernelcheck.PartCompiles); p.Verdict != labs.Unanswered {
		t.Errorf("an empty answer: %s", p.Verdict)
	}
}

// TestPlacements runs one block of each kernel on the h200 profile over
// the default placements of its input: every sum right, the atomic and
// shuffle kernels in one mode, and the shared kernel's median a convoy,
// as the H200's is (calibration/evidence/2026-11-30-h200-l2line: 87 of 128
// blocks' worth slow; -microbench-blockq: 12 of 16; -blockq-2: 16 of 16),
// with at least one placement fast. The sweep's own placement of n = 256
// runs fast in the model: the GPU test lists that cell as modal with the
// fast mode as the one the model prices.
func TestPlacements(t *testing.T) {
	dev := testenv.Open(t, "sim:h200")
	pl, err := softmax.Placements(dev, softmax.PlacementOptions{Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", pl)
	if len(pl.Rows) != softmax.DefaultPlacements || pl.Measured || pl.Predicted != nil {
		t.Fatalf("%d rows, measured %v, predicted %v", len(pl.Rows), pl.Measured, pl.Predicted != nil)
	}
	for i, r := range pl.Rows {
		if r.Offset != i*softmax.DefaultBlockSize {
			t.Errorf("placement %d at offset %d", i, r.Offset)
		}
		for _, c := range r.Cells {
			if !c.OK {
				t.Errorf("placement %d %s: denominator %g off by %.2g", i, c.Kernel, c.Denom, c.RelErr)
			}
		}
	}
	for _, k := range []softmax.Kernel{softmax.Atomic, softmax.Shuffle} {
		if s := pl.Summary(k); s.Modes || s.MaxMs > 1.1*s.MinMs {
			t.Errorf("%s over placements: %+v, want one mode within 10%%", k, s)
		}
	}
	sh := pl.Summary(softmax.Shared)
	if sh.MedianMs < 0.012 || sh.MedianMs > 0.014 || !sh.Modes || len(sh.Fast) == 0 || len(sh.Fast) > len(pl.Rows)/2 {
		t.Errorf("shared over placements: %+v, want the convoy's median (about 0.0129) and some placements fast", sh)
	}
	// The GPU test's sweep starts at the default sizes, whose first two
	// set the seeds of the n = 256 launches.
	sw, err := softmax.Sweep(dev, softmax.SweepOptions{Sizes: softmax.DefaultSizes()[:2], Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := sw.Cell(256, softmax.Shared); c.Ms > 0.0105 {
		t.Errorf("the sweep's n=256 shared: %.4f ms, want the fast mode the GPU test says the model prices there", c.Ms)
	}
	for _, bad := range []int{-1, softmax.MaxPlacements + 1} {
		if _, err := softmax.Placements(dev, softmax.PlacementOptions{Placements: bad}); err == nil || !strings.Contains(err.Error(), "placements") {
			t.Errorf("%d placements: error %v", bad, err)
		}
	}
}
