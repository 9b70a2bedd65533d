package counters

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// exerciseTitle names the exercise in feedback.
const exerciseTitle = "Counters exercise"

// Defaults of the exercise's check.
const (
	// DefaultBudget is the bytes the slices may take: 1 KiB, room for 256
	// packed slices or 8 padded ones.
	DefaultBudget = 1024
	// defaultTolerance is how close to the re-run a time must be, and how
	// close to the fastest choice the answer's time.
	defaultTolerance = 0.15
)

// Parts of the exercise's feedback.
const (
	PartWithin  = "within the budget"
	PartFastest = "fastest within the budget"
	PartTime    = "the time you read"
	PartWhy     = "justified"
)

// Answer is a student's answer to the counters exercise, written in the
// notebook cell tagged "answer":
//
//	var answer = counters.Answer{Slices: 8, Padded: true, Ms: 0.41, Why: "..."}
//
// Given a memory budget for the slices and the way threads pick a slice
// (by warp), Slices and Padded are the choice, Ms is the time the table
// shows for it, and Why says from the table why it beats the others.
type Answer struct {
	Slices int
	Padded bool
	Ms     float64
	Why    string
}

// ExerciseOptions are the check's settings, which an instructor's key
// may change for a hidden check.
func exerciseOptions() []labs.Option {
	return []labs.Option{
		{Name: "budget-bytes", Kind: labs.Int, Default: strconv.Itoa(DefaultBudget), Max: 1 << 20,
			Usage: "bytes the slices may take: k words packed, k 128-byte lines padded"},
		{Name: "rung", Kind: labs.String, Default: ByWarp.Key(), Choices: []string{ByWarp.Key(), ByLane.Key(), PerWarp.Key()},
			Usage: "how threads pick their slice and add"},
		{Name: "threads", Kind: labs.Int, Default: strconv.Itoa(DefaultThreads), Max: maxThreads,
			Usage: "threads of every launch of the re-run, a multiple of 256"},
		{Name: "tolerance", Kind: labs.Float, Default: strconv.FormatFloat(defaultTolerance, 'f', -1, 64),
			Usage: "relative distance from the re-run that still counts as right"},
	}
}

func exercise() *labs.Exercise {
	return &labs.Exercise{
		Title:    exerciseTitle,
		Variable: "answer",
		Options:  exerciseOptions(),
		Parts:    []string{PartWithin, PartFastest, PartTime, PartWhy},
		Points:   map[string]float64{PartWithin: 2, PartFastest: 3, PartTime: 3, PartWhy: 2},
		New:      func() any { return new(Answer) },
		Prose: func(answer any) map[string]string {
			a, _ := labs.Answer[Answer](answer)
			return map[string]string{PartWhy: a.Why}
		},
		Variant: Variant,
		Check: func(dev *gpu.Device, answer any, s labs.Settings) labs.Feedback {
			a, err := labs.Answer[Answer](answer)
			if err != nil {
				f := labs.Feedback{Exercise: exerciseTitle}
				f.Failf("answer", "%v", err)
				return f
			}
			cfg, err := ConfigFrom(s)
			if err != nil {
				f := labs.Feedback{Exercise: exerciseTitle}
				f.Failf("settings", "%v", err)
				return f
			}
			return check(dev, a, cfg)
		},
	}
}

// ExerciseConfig is what the check re-runs.
type ExerciseConfig struct {
	// Budget is the bytes the slices may take.
	Budget int
	// Rung is how threads pick their slice: ByWarp, ByLane or PerWarp.
	Rung Rung
	// Threads is the threads of every launch.
	Threads int
	// Tolerance is the relative distance from the re-run that counts as
	// right.
	Tolerance float64
}

// DefaultExercise returns the notebook's exercise: 1 KiB, slices picked
// by warp, the sweep's threads.
func DefaultExercise() ExerciseConfig {
	return ExerciseConfig{Budget: DefaultBudget, Rung: ByWarp, Threads: DefaultThreads, Tolerance: defaultTolerance}
}

// ConfigFrom reads the exercise's settings, resolved against its
// options (a key's check, a student's variant), into an ExerciseConfig.
func ConfigFrom(s labs.Settings) (ExerciseConfig, error) {
	c := DefaultExercise()
	var err error
	if c.Budget, err = s.Int("budget-bytes"); err != nil {
		return c, err
	}
	if c.Threads, err = s.Int("threads"); err != nil {
		return c, err
	}
	if c.Tolerance, err = s.Float("tolerance"); err != nil {
		return c, err
	}
	if c.Rung, err = ParseRung(s.Text("rung")); err != nil {
		return c, err
	}
	return c, nil
}

// Choices returns the (k, layout) pairs that fit the budget, k a power of
// two: packed while 4k bytes fit, padded while 128k bytes fit.
func (c ExerciseConfig) Choices() []Choice {
	var cs []Choice
	for _, padded := range []bool{false, true} {
		size := 4
		if padded {
			size = 128
		}
		for k := 1; k*size <= c.Budget && k <= maxSlices; k *= 2 {
			cs = append(cs, Choice{Slices: k, Padded: padded})
		}
	}
	return cs
}

// Choice is a number of slices and a layout.
type Choice struct {
	Slices int
	Padded bool
}

func (c Choice) String() string { return fmt.Sprintf("%d %s", c.Slices, layoutName(c.Padded)) }

// Check checks an answer to the exercise on dev with the notebook's
// settings (DefaultExercise).
func Check(dev *gpu.Device, a Answer) labs.Feedback { return check(dev, a, DefaultExercise()) }

// CheckConfig checks an answer with the given settings.
func CheckConfig(dev *gpu.Device, a Answer, c ExerciseConfig) labs.Feedback { return check(dev, a, c) }

func check(dev *gpu.Device, a Answer, c ExerciseConfig) labs.Feedback {
	info := dev.Info()
	f := labs.Feedback{Exercise: exerciseTitle, Device: info.Name, Spec: info.Spec,
		Tolerance: fmt.Sprintf("within %.0f%% of the re-run", c.Tolerance*100)}
	if a.Slices == 0 && a.Ms == 0 && strings.TrimSpace(a.Why) == "" {
		f.Add("answer", labs.Unanswered, "not answered yet: fill in Slices, Padded, Ms and Why.").Hint = 1
		return f
	}
	choices := c.Choices()
	if len(choices) == 0 {
		f.Failf("settings", "a budget of %d bytes holds no slice", c.Budget)
		return f
	}
	bytes := a.Slices * 4
	if a.Padded {
		bytes = a.Slices * 128
	}
	switch {
	case a.Slices < 1 || a.Slices&(a.Slices-1) != 0:
		f.Failf(PartWithin, "Slices %d: want a power of two, at least 1", a.Slices).Hint = 1
		return f
	case bytes > c.Budget:
		f.Failf(PartWithin, "%d %s slices take %d bytes; the budget is %d", a.Slices, layoutName(a.Padded), bytes, c.Budget).Hint = 1
		return f
	}
	f.Passf(PartWithin, "%d %s slices take %d of the %d bytes", a.Slices, layoutName(a.Padded), bytes, c.Budget)

	times, timing, err := rerun(dev, c, choices)
	if err != nil {
		f.Failf("re-run", "%v", err)
		return f
	}
	f.Timing = timing
	bestMs, mine := math.Inf(1), -1.0
	for i, ch := range choices {
		ms := times[i]
		if ms < bestMs {
			bestMs = ms
		}
		if ch.Slices == a.Slices && ch.Padded == a.Padded {
			mine = ms
		}
	}
	if mine <= bestMs*(1+c.Tolerance) {
		f.Passf(PartFastest, "%s is the fastest choice that fits (or within %.0f%% of it) in the re-run", Choice{a.Slices, a.Padded}, c.Tolerance*100)
	} else {
		f.Failf(PartFastest, "%s is not the fastest: another choice within %d bytes is faster in the re-run. Compare every row of the table whose bytes fit.", Choice{a.Slices, a.Padded}, c.Budget).Hint = 2
	}
	switch {
	case a.Ms <= 0:
		f.Add(PartTime, labs.Unanswered, "Ms: read your choice's time in the table").Hint = 1
	case math.Abs(a.Ms-mine) <= c.Tolerance*mine:
		f.Passf(PartTime, "%.4f ms matches the re-run", a.Ms)
	default:
		f.Failf(PartTime, "%.4f ms is not what the re-run of %s gives: read the row of your choice, for the rung %q, budget %d bytes", a.Ms, Choice{a.Slices, a.Padded}, c.Rung, c.Budget).Hint = 1
	}
	if len(strings.Fields(a.Why)) < 8 {
		f.Add(PartWhy, labs.Unanswered, "Why: say in a sentence or two, from the table's counters (lines, longest chain), why your choice beats the others that fit.").Hint = 3
	} else {
		f.Add(PartWhy, labs.Pending, "your instructor reads and grades it")
	}
	return f
}

// Variant returns a student's variant of the exercise for a variant seed
// (labs.VariantFor): a budget of 512, 1024 or 2048 bytes and one of the
// three rungs, so the fastest choice within the budget and its time
// differ between students while the question stays the same.
func Variant(seed uint64) labs.Variant {
	budget := labs.Pick(seed, 0, 512, 1024, 2048)
	rung := labs.Pick(seed, 8, ByWarp, ByLane, PerWarp)
	return labs.Variant{
		Settings: map[string]string{"budget-bytes": strconv.Itoa(budget), "rung": rung.Key()},
		About:    fmt.Sprintf("a budget of %d bytes, threads picking their slice %s", budget, rung.Key()),
	}
}

// VariantExercise returns a student's exercise as the check re-runs it:
// DefaultExercise with the student's variant (Variant, from the student's
// identity and the course in WARPLAB_COURSE).
func VariantExercise(student string) ExerciseConfig {
	return labs.StudentConfig("counters", exercise(), student, ConfigFrom, DefaultExercise())
}

// rerun measures every choice on dev and returns their mean times, in
// the order of choices, and where the times came from.
func rerun(dev *gpu.Device, c ExerciseConfig, choices []Choice) ([]float64, string, error) {
	warm, runs, err := labkit.LaunchCounts("counters", dev.Capabilities(), 0, 0)
	if err != nil {
		return nil, "", err
	}
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, "", err
	}
	var cs []cell
	for _, ch := range choices {
		cs = append(cs, cell{rung: c.Rung, k: ch.Slices, padded: ch.Padded, threads: c.Threads, block: DefaultBlockSize, warm: warm, runs: runs})
	}
	outs, err := measureCells(r, cs, labkit.NoProgress)
	if err != nil {
		return nil, "", err
	}
	timing, _ := timingSource(dev, outs)
	times := make([]float64, len(outs))
	for i := range outs {
		times[i], _ = labkit.Mean(outs[i].ms)
	}
	return times, timing, nil
}

// Solution returns the right answer to the exercise c on dev, without
// its Why: the fastest choice within the budget and its time, as the
// check re-runs them. It is for instructors' solution notebooks and
// tests; students find it in their own table.
func Solution(dev *gpu.Device, c ExerciseConfig) (Answer, error) {
	choices := c.Choices()
	if len(choices) == 0 {
		return Answer{}, fmt.Errorf("counters: a budget of %d bytes holds no slice", c.Budget)
	}
	times, _, err := rerun(dev, c, choices)
	if err != nil {
		return Answer{}, err
	}
	best := 0
	for i := range choices {
		if times[i] < times[best] {
			best = i
		}
	}
	return Answer{Slices: choices[best].Slices, Padded: choices[best].Padded, Ms: times[best]}, nil
}

// About says, for a notebook, whose exercise it is and what its
// parameters are: the student's identity (labs.Identity) and variant.
func About(student string) string {
	who := labs.Identity(student)
	if who == "" {
		who = "nobody yet (set student above)"
	}
	return fmt.Sprintf("Your exercise, for %s: %s.", who, labs.StudentVariant("counters", exercise(), student).About)
}
