package atomics

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
)

// TestRegistered checks the lab as the registry holds it: both names, a
// notebook that exists, a measured wall time, defaults that resolve to
// the page's experiment, and an exercise the grader can build answers
// for.
func TestRegistered(t *testing.T) {
	l, err := labs.Lookup("atomics")
	if err != nil {
		t.Fatal(err)
	}
	info := l.Info()
	if info.Name != "day26" || info.Title == "" || info.Teaches == "" || len(info.Sources) == 0 || info.SimWallTime <= 0 {
		t.Errorf("Info = %+v", info)
	}
	if _, err := os.Stat(filepath.Join("..", "..", info.Notebook)); err != nil {
		t.Errorf("notebook: %v", err)
	}
	for _, o := range l.Options() {
		if o.Usage == "" || (o.Kind != labs.String && o.Max == 0) {
			t.Errorf("option %s has no usage or no bound: %+v", o.Name, o)
		}
	}
	s, err := labs.Resolve(info.Name, l.Options(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var set settings
	if err := labs.Decode(s, &set); err != nil {
		t.Fatal(err)
	}
	o := set.options()
	if !slices.Equal(o.Sweep.Sizes, DefaultSizes()) || !slices.Equal(o.BlockSizes.Sizes, DefaultSizes()) ||
		!slices.Equal(o.BlockSizes.BlockSizes, ExerciseBlockSizes()) || o.Sweep.BlockSize != 256 ||
		o.Determinism.N != 4194304 || o.Determinism.Runs != 20 || o.Sweep.Runs != 0 || o.Sweep.Predict != "" {
		t.Errorf("default settings give %+v", o)
	}
	e := info.Exercise
	if e == nil || e.AnswerType() != "atomics.Day26Answer" || e.Variable != "answer" {
		t.Fatalf("Exercise = %+v", e)
	}
}

func TestSettingsToOptions(t *testing.T) {
	l, _ := labs.Lookup("day26")
	s, err := labs.Resolve("day26", l.Options(), map[string]string{
		"sizes": "4096,8192", "block-size": "128", "block-sizes": "32,512", "baseline": "64",
		"determinism-n": "1000", "determinism-runs": "3", "runs": "2", "predict": "none",
	})
	if err != nil {
		t.Fatal(err)
	}
	var set settings
	if err := labs.Decode(s, &set); err != nil {
		t.Fatal(err)
	}
	o := set.options()
	want := Day26Options{
		Sweep:       SweepOptions{Sizes: []int{4096, 8192}, BlockSize: 128, Runs: 2, Predict: "none"},
		Determinism: DeterminismOptions{N: 1000, Runs: 3, BlockSize: 128},
		BlockSizes:  BlockSizeOptions{BlockSizes: []int{32, 512}, Baseline: 64, Sizes: []int{4096, 8192}, Runs: 2},
	}
	if !slices.Equal(o.Sweep.Sizes, want.Sweep.Sizes) || o.Sweep.BlockSize != 128 || o.Sweep.Runs != 2 || o.Sweep.Predict != "none" ||
		o.Determinism != want.Determinism || !slices.Equal(o.BlockSizes.BlockSizes, want.BlockSizes.BlockSizes) ||
		o.BlockSizes.Baseline != 64 || !slices.Equal(o.BlockSizes.Sizes, want.BlockSizes.Sizes) || o.BlockSizes.Runs != 2 {
		t.Errorf("options = %+v, want %+v", o, want)
	}
	for set, msg := range map[string]string{
		"block-size=96":           "block-size=96: 96: want a power of two",
		"sizes=67108865":          "sizes=67108865: 67108865: at most 67108864",
		"determinism-runs=1001":   "determinism-runs=1001: 1001: at most 1000",
		"block-sizes=64,2048":     "block-sizes=64,2048: 2048: at most 1024",
		"determinism-n=4096,8192": "want one whole number",
		"runs=0":                  "runs=0: 0: want at least 1",
	} {
		m, _ := labs.ParseSet([]string{set})
		if _, err := labs.Resolve("day26", l.Options(), m); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v, want %q", set, err, msg)
		}
	}
}

// The registry's Check takes the answer as a value or a pointer, and
// says so in a part when it gets anything else.
func TestExerciseCheckAnswerType(t *testing.T) {
	f, err := labs.Check(nil, "day26", 42, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.OK() || !strings.Contains(f.Parts[0].Message, "answer is a int, want a atomics.Day26Answer") {
		t.Errorf("feedback = %s", f)
	}
	if _, err := labs.Check(nil, "day26", Day26Answer{}, map[string]string{"size": "1"}); err == nil ||
		!strings.Contains(err.Error(), `Day 26 exercise has no option "size" (options: sizes)`) {
		t.Errorf("an unknown check setting: %v", err)
	}
}

// A re-run that cannot run says so in a part, rather than failing the
// check in silence.
func TestCheckSaysWhenTheRerunFails(t *testing.T) {
	f := check(testenv.Open(t, "sim:t4"), Day26Answer{}, BlockSizeOptions{BlockSizes: []int{96}, Progress: labs.NoProgress()})
	p, ok := f.Part("re-run")
	if f.OK() || !ok || p.Verdict != labs.Fail || !strings.Contains(p.Message, "could not run again") || !strings.Contains(p.Message, "block size 96") {
		t.Errorf("feedback = %s", f)
	}
}
