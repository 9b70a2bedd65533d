package counters

import (
	"os"
	"strings"
	"testing"

	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
)

// TestH200CopyMatchesEvidence reads the embedded copy of counters.csv
// (scripts/check.sh keeps it the same as H200Evidence).
func TestH200CopyMatchesEvidence(t *testing.T) {
	ms, err := H200Measurements()
	if err != nil {
		t.Fatal(err)
	}
	// 2 types x 3 modes x 2 layouts x 17 k, less nothing.
	if len(ms) != 2*3*2*17 {
		t.Errorf("%d rows, want %d", len(ms), 2*3*2*17)
	}
	m, ok := H200Measured(ByWarp, false, 32, true)
	if !ok || m.MedianMs != 1.59152 {
		t.Errorf("u32 thread_warp padded k=32: %+v, %v; want 1.59152 ms", m, ok)
	}
}

// TestSweepShape checks, on the H200 profile, the two patterns of the
// claim: a warp on one slice wants padding, lanes spread over a line
// want packing; and the counters that explain it.
func TestSweepShape(t *testing.T) {
	dev := testenv.Open(t, "sim:h200")
	s, err := Sweep(dev, SweepOptions{Threads: 1 << 16, Slices: []int{1, 32}, Rungs: []Rung{ByWarp, ByLane, PerWarp, PerGrid}, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if !s.OK() {
		t.Fatalf("a launch miscounted:\n%s", s.Table())
	}
	get := func(r Rung, k int, padded bool) Row {
		t.Helper()
		row, ok := s.Row(r, k, padded)
		if !ok {
			t.Fatalf("no row %s k=%d padded=%v", r, k, padded)
		}
		return row
	}
	if a, b := get(ByWarp, 32, false), get(ByWarp, 32, true); a.Ms < 3*b.Ms {
		t.Errorf("slice by warp, k=32: packed %.4f ms, padded %.4f ms; want padding at least 3x faster", a.Ms, b.Ms)
	}
	if a, b := get(ByLane, 32, false), get(ByLane, 32, true); a.Ms >= b.Ms {
		t.Errorf("slice by lane, k=32: packed %.4f ms, padded %.4f ms; want packed faster", a.Ms, b.Ms)
	}
	if r := get(ByWarp, 32, false); r.Lines != 1 || r.Addresses != 32 || r.MaxChain != 1<<16/32 {
		t.Errorf("packed k=32: %d lines, %d addresses, chain %d; want 1, 32, %d", r.Lines, r.Addresses, r.MaxChain, 1<<16/32)
	}
	if r := get(ByWarp, 32, true); r.Lines != 32 || r.MaxLine != 1<<16/32 {
		t.Errorf("padded k=32: %d lines, busiest line %d; want 32, %d", r.Lines, r.MaxLine, 1<<16/32)
	}
	if r := get(PerWarp, 1, false); r.Issued != 1<<16/32 {
		t.Errorf("per warp: %d atomics, want %d", r.Issued, 1<<16/32)
	}
	if r := get(PerGrid, 1, false); r.Issued != 0 || !r.OK {
		t.Errorf("per grid: %d atomics, ok %v; want none and the right count", r.Issued, r.OK)
	}
	if tab := s.Table().String(); !strings.Contains(tab, "busiest line") {
		t.Errorf("table has no line counters:\n%s", tab)
	}
	if err := s.Chart().Validate(); err != nil {
		t.Error(err)
	}
}

func TestSweepFloat(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	s, err := Sweep(dev, SweepOptions{Threads: 4096, Slices: []int{4}, Float: true, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if !s.OK() {
		t.Fatalf("a float launch miscounted:\n%s", s.Table())
	}
}

func TestBadOptions(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	for _, tc := range []struct {
		o    SweepOptions
		want string
	}{
		{SweepOptions{Slices: []int{3}}, "power of two"},
		{SweepOptions{BlockSize: 48}, "multiple of 32"},
		{SweepOptions{Threads: 1000}, "multiple of the block size"},
		{SweepOptions{Rungs: []Rung{"sideways"}}, "unknown rung"},
	} {
		if _, err := Sweep(dev, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.o, err, tc.want)
		}
	}
	if _, err := labs.Run(dev, "counters", map[string]string{"slices": "3"}, labs.NoProgress()); err == nil || !strings.Contains(err.Error(), "power of two") {
		t.Errorf("slices=3: %v", err)
	}
	if _, err := labs.Run(dev, "counters", map[string]string{"rungs": "by-warp,up"}, labs.NoProgress()); err == nil || !strings.Contains(err.Error(), "unknown rung") {
		t.Errorf("rungs=up: %v", err)
	}
}

// TestExercise checks the check: unanswered, over the budget, and the
// best choice of the re-run itself passing while the worst fails.
func TestExercise(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	cfg := ExerciseConfig{Budget: 1024, Rung: ByWarp, Threads: 1 << 18, Tolerance: 0.15}
	if f := CheckConfig(dev, Answer{}, cfg); f.OK() || f.Parts[0].Verdict != labs.Unanswered {
		t.Errorf("empty answer: %s", f)
	}
	if f := CheckConfig(dev, Answer{Slices: 16, Padded: true, Ms: 1, Why: "x"}, cfg); f.OK() || !strings.Contains(f.String(), "the budget is 1024") {
		t.Errorf("over budget: %s", f)
	}
	// Re-run every choice here to know the right answer.
	s, err := Sweep(dev, SweepOptions{Threads: cfg.Threads, Slices: []int{1, 2, 4, 8, 16, 32, 64, 128, 256}, Rungs: []Rung{ByWarp}, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	var best, worst Row
	for _, ch := range cfg.Choices() {
		r, ok := s.Row(ByWarp, ch.Slices, ch.Padded)
		if !ok {
			t.Fatalf("no row for %s", ch)
		}
		if best.Ms == 0 || r.Ms < best.Ms {
			best = r
		}
		if r.Ms > worst.Ms {
			worst = r
		}
	}
	if worst.Ms < 1.5*best.Ms {
		t.Fatalf("the choices take %.4f to %.4f ms: the exercise has no wrong answer at this size", best.Ms, worst.Ms)
	}
	why := "the padded slices each have a line, so the L2 serves them in parallel"
	f := CheckConfig(dev, Answer{Slices: best.Slices, Padded: best.Padded, Ms: best.Ms, Why: why}, cfg)
	if !f.OK() {
		t.Errorf("best choice %d %s: %s", best.Slices, best.Layout(), f)
	}
	// The exercise declares the parts its check reports (a key's points).
	var names []string
	for _, p := range f.Parts {
		names = append(names, p.Name)
	}
	if want := exercise().Parts; strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("the check reports parts %q, the exercise declares %q", names, want)
	}
	f = CheckConfig(dev, Answer{Slices: worst.Slices, Padded: worst.Padded, Ms: worst.Ms * 2, Why: why}, cfg)
	if p, _ := f.Part(PartFastest); p.Verdict != labs.Fail {
		t.Errorf("worst choice %d %s passed: %s", worst.Slices, worst.Layout(), f)
	}
	if p, _ := f.Part(PartTime); p.Verdict != labs.Fail {
		t.Errorf("a time twice the re-run passed: %s", f)
	}
}

func TestRegistered(t *testing.T) {
	l, err := labs.Lookup("counters")
	if err != nil {
		t.Fatal(err)
	}
	info := l.Info()
	if info.Exercise == nil || info.Notebook != "notebooks/counters.ipynb" {
		t.Errorf("info %+v", info)
	}
	if _, err := os.Stat("../../" + info.Notebook); err != nil {
		t.Error(err)
	}
	if _, err := labs.Check(testenv.Open(t, "sim:t4"), "counters", Answer{}, map[string]string{"budget-bytes": "128"}); err != nil {
		t.Error(err)
	}
}

func TestFidelityBadSet(t *testing.T) {
	if _, err := Fidelity("", "most", nil); err == nil || !strings.Contains(err.Error(), "want claim") {
		t.Errorf("err %v", err)
	}
	if _, err := Fidelity("", NoH200, nil); err != nil {
		t.Error(err)
	}
}
