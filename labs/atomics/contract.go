package atomics

import (
	"errors"
	"fmt"
	"time"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// simWallTime is the wall time of the lab's headless run with its default
// settings on sim:t4 on the development machine, as `warplab lab list`
// states it: half the run's CPU time, the runner spreading its launches
// over both cores; docs/speed.md records the measurement.
const simWallTime = 18 * time.Second

func init() { labs.Register(lab) }

// lab is the Day 26 lab as the registry knows it: `warplab lab day26`
// (or `atomics`), and the grader's "day26" exercise.
var lab = labs.Define(labs.Definition[settings, *Day26Report]{
	Info: labs.Info{
		Name:    "day26",
		Aliases: []string{"atomics"},
		Title:   "Day 26: one sum, three ways",
		Teaches: "what a contended atomicAdd costs and what it does not promise: one sum with global atomics, shared atomics and a tree; float non-determinism; block sizes",
		Sources: []string{
			`the Day 26 course page ("CUDA atomicAdd and what contention costs")`,
		},
		Notebook:    "notebooks/day26-atomics.ipynb",
		SimWallTime: simWallTime,
		Exercise:    exercise(),
	},
	Defaults: settings{Sizes: DefaultSizes(), BlockSize: DefaultBlockSize, BlockSizes: ExerciseBlockSizes(), Baseline: DefaultBlockSize,
		DeterminismN: defaultDeterminismN, DeterminismRuns: defaultDeterminismRuns},
	Valid: map[string]func(int) error{"block-size": powerOfTwo, "block-sizes": powerOfTwo, "baseline": powerOfTwo},
	Usage: map[string]string{"predict": labkit.PredictUsage("modelled times")},
	Run: func(dev *gpu.Device, s settings, p labs.Progress) (*Day26Report, error) {
		o := s.options()
		o.Progress = p
		return Day26(dev, o)
	},
})

// settings are the lab's options, `warplab lab day26 --set NAME=VALUE`.
// sizes and runs apply to both sweeps, block-size to the sweep and the
// determinism experiment.
type settings struct {
	Sizes           []int  `lab:"sizes" max:"1<<26" usage:"elements summed in each row of the sweep and of the block-size sweep"`
	BlockSize       int    `lab:"block-size" max:"1024" usage:"threads per block of the sweep and the determinism experiment, a power of two"`
	BlockSizes      []int  `lab:"block-sizes" max:"1024" usage:"threads per block of the exercise's block-size sweep, powers of two"`
	Baseline        int    `lab:"baseline" max:"1024" usage:"the block size the block-size sweep's ratios are taken against (swept too)"`
	DeterminismN    int    `lab:"determinism-n" max:"1<<26" usage:"elements summed by the determinism experiment"`
	DeterminismRuns int    `lab:"determinism-runs" max:"1000" usage:"launches per kernel in the determinism experiment"`
	Runs            int    `lab:"runs" max:"1000" usage:"timed launches per cell of the sweeps (default: 10 on a GPU after 3 warm-ups; 1 on the simulator, whose model is deterministic)"`
	Predict         string `lab:"predict" spec:"sim"`
}

// options turns the lab's settings into Day26Options.
func (s settings) options() Day26Options {
	return Day26Options{
		Sweep:       SweepOptions{Sizes: s.Sizes, BlockSize: s.BlockSize, Runs: s.Runs, Predict: s.Predict},
		Determinism: DeterminismOptions{N: s.DeterminismN, Runs: s.DeterminismRuns, BlockSize: s.BlockSize},
		BlockSizes:  BlockSizeOptions{BlockSizes: s.BlockSizes, Baseline: s.Baseline, Sizes: s.Sizes, Runs: s.Runs},
	}
}

// exercise is the Day 26 exercise as the registry and the grader know
// it. Its one setting is the sizes of the re-run, which must be the
// sizes the student's notebook swept.
func exercise() *labs.Exercise {
	return &labs.Exercise{
		Title:    exerciseTitle,
		Variable: "answer",
		Options: []labs.Option{
			{Name: "sizes", Kind: labs.Ints, Default: labkit.JoinInts(DefaultSizes()), Max: maxElements,
				Usage: "elements of the re-run block-size sweep: the sizes the student's notebook ran"},
		},
		Parts: exerciseParts(),
		// The bitwise check and the 256-thread ratios (1 by definition)
		// earn nothing: an untouched template passes them.
		Points: map[string]float64{"ratios at 64 threads": 3, "ratios at 1024 threads": 3, "fastest column": 2, "sentence": 2},
		New:    func() any { return new(Day26Answer) },
		Prose: func(answer any) map[string]string {
			a, _ := labs.Answer[Day26Answer](answer)
			return map[string]string{"sentence": a.Sentence}
		},
		Variant: Variant,
		Check: func(dev *gpu.Device, answer any, s labs.Settings) labs.Feedback {
			a, err := labs.Answer[Day26Answer](answer)
			if err != nil {
				f := labs.Feedback{Exercise: exerciseTitle}
				f.Failf("answer", "%v", err)
				return f
			}
			sizes, err := s.Ints("sizes")
			if err != nil {
				f := labs.Feedback{Exercise: exerciseTitle}
				f.Failf("settings", "%v", err)
				return f
			}
			return check(dev, a, BlockSizeOptions{Sizes: sizes})
		},
		Constants: map[string]any{"atomics.Global": Global, "atomics.Shared": Shared, "atomics.Tree": Tree},
		Prepare:   prepare,
		Judge:     judge,
	}
}

// prepare re-runs the exercise's block-size sweep at the sizes s names,
// once for a class: the part of the check no answer changes.
func prepare(dev *gpu.Device, s labs.Settings) (any, error) {
	sizes, err := s.Ints("sizes")
	if err != nil {
		return nil, err
	}
	return BlockSizes(dev, BlockSizeOptions{Sizes: sizes, Progress: labs.NoProgress()})
}

// judge checks an answer against a block-size sweep that prepare ran.
func judge(ref, answer any) labs.Feedback {
	a, err := labs.Answer[Day26Answer](answer)
	if err != nil {
		f := labs.Feedback{Exercise: exerciseTitle}
		f.Failf("answer", "%v", err)
		return f
	}
	return CheckTable(ref.(*BlockSizeTable), a)
}

func powerOfTwo(x int) error {
	if x&(x-1) != 0 {
		return errors.New("want a power of two (the tree sum halves the block at each step)")
	}
	return nil
}

// exerciseParts are the parts CheckTable reports, in its order.
func exerciseParts() []string {
	parts := []string{"bitwise check"}
	for _, b := range ExerciseBlockSizes() {
		parts = append(parts, fmt.Sprintf("ratios at %d threads", b))
	}
	return append(parts, "fastest column", "sentence")
}

// VariantLargest are the largest sizes a student's variant of Day 26 may
// sweep to, in place of DefaultSizes's last: the ratios at the largest
// size differ between them. There are few, because the grader re-runs
// the sweep once per variant in a batch.
func VariantLargest() []int { return []int{2 << 20, 5 << 19, 3 << 20, 4 << 20} }

// Variant returns a student's variant of the Day 26 exercise for a
// variant seed (labs.VariantFor): DefaultSizes with another largest size
// (VariantLargest), so the ratios the student reads differ from the
// class's while the lesson stays.
func Variant(seed uint64) labs.Variant {
	sizes := VariantSizes(seed)
	return labs.Variant{
		Settings: map[string]string{"sizes": labkit.JoinInts(sizes)},
		About:    fmt.Sprintf("sizes %s: read the ratios at n = %d", labkit.JoinInts(sizes), sizes[len(sizes)-1]),
	}
}

// VariantSizes returns the sizes of a variant seed's sweep.
func VariantSizes(seed uint64) []int {
	s := DefaultSizes()
	s[len(s)-1] = labs.Pick(seed, 0, VariantLargest()...)
	return s
}

// StudentSizes returns the sizes of a student's Day 26 sweep: the
// notebook sweeps them and the grader re-runs them (the student's
// identity and the course in WARPLAB_COURSE pick the variant).
func StudentSizes(student string) []int {
	return VariantSizes(labs.StudentVariant("day26", exercise(), student).Seed)
}

// CheckFor checks a student's answer the way the notebook's check cell
// does: against a re-run of the student's own sweep (StudentSizes).
func CheckFor(dev *gpu.Device, a Day26Answer, student string) labs.Feedback {
	return check(dev, a, BlockSizeOptions{Sizes: StudentSizes(student)})
}

// About says, for a notebook, whose exercise it is and what its sizes
// are: the student's identity (labs.Identity) and variant.
func About(student string) string {
	who := labs.Identity(student)
	if who == "" {
		who = "nobody yet (set student above)"
	}
	return fmt.Sprintf("Your exercise, for %s: %s.", who, labs.StudentVariant("day26", exercise(), student).About)
}
