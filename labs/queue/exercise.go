package queue

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

const exerciseTitle = "Queue exercise"

// Parts of the exercise's feedback.
const (
	PartFastest = "fastest k"
	PartTime    = "the time you read"
	PartWhy     = "justified"
)

// Answer is a student's answer to the queue exercise, in the notebook
// cell tagged "answer":
//
//	var answer = queue.Answer{K: 4, Ms: 0.12, Why: "..."}
//
// K is the batch size chosen for the exercise's cost distribution, Ms the
// time the sweep shows for it, Why the reason from the table.
type Answer struct {
	K   int
	Ms  float64
	Why string
}

// ExerciseConfig is what the check re-runs.
type ExerciseConfig struct {
	// Costs is the distribution of the items' costs.
	Costs Costs
	// Items is the queue's length; BlocksPerSM the grid.
	Items, BlocksPerSM int
	// MaxK is the largest k tried: every power of two up to it.
	MaxK int
	// Tolerance is the relative distance that counts as right.
	Tolerance float64
}

// DefaultExercise returns the notebook's exercise: items costing 8, one
// in 16 costing 512.
func DefaultExercise() ExerciseConfig {
	return ExerciseConfig{Costs: Costs{Light: 8, Heavy: 512, Period: 16}, Items: DefaultItems, BlocksPerSM: DefaultBlocksPerSM, MaxK: 256, Tolerance: 0.15}
}

func exerciseOptions() []labs.Option {
	d := DefaultExercise()
	return []labs.Option{
		{Name: "light", Kind: labs.Int, Default: strconv.Itoa(d.Costs.Light), Max: 1 << 16, Usage: "the cost of most items, in fused multiply-adds"},
		{Name: "heavy", Kind: labs.Int, Default: strconv.Itoa(d.Costs.Heavy), Max: 1 << 16, Usage: "the cost of the heavy items"},
		{Name: "period", Kind: labs.Int, Default: strconv.Itoa(d.Costs.Period), Max: 1 << 16, Usage: "one item in period is heavy, a power of two"},
		{Name: "items", Kind: labs.Int, Default: strconv.Itoa(d.Items), Max: maxItems, Usage: "items in the queue"},
		{Name: "max-k", Kind: labs.Int, Default: strconv.Itoa(d.MaxK), Max: maxK, Usage: "the largest batch size the re-run tries"},
		{Name: "tolerance", Kind: labs.Float, Default: strconv.FormatFloat(d.Tolerance, 'f', -1, 64), Usage: "relative distance from the re-run that still counts as right"},
	}
}

func exercise() *labs.Exercise {
	return &labs.Exercise{
		Title:    exerciseTitle,
		Variable: "answer",
		Options:  exerciseOptions(),
		Parts:    []string{PartFastest, PartTime, PartWhy},
		Points:   map[string]float64{PartFastest: 4, PartTime: 4, PartWhy: 2},
		New:      func() any { return new(Answer) },
		Prose: func(answer any) map[string]string {
			a, _ := labs.Answer[Answer](answer)
			return map[string]string{PartWhy: a.Why}
		},
		Variant: Variant,
		Check: func(dev *gpu.Device, answer any, s labs.Settings) labs.Feedback {
			f := labs.Feedback{Exercise: exerciseTitle}
			a, err := labs.Answer[Answer](answer)
			if err != nil {
				f.Failf("answer", "%v", err)
				return f
			}
			c, err := ConfigFrom(s)
			if err != nil {
				f.Failf("settings", "%v", err)
				return f
			}
			return CheckConfig(dev, a, c)
		},
	}
}

// ConfigFrom reads the exercise's settings, resolved against its
// options (a key's check, a student's variant), into an ExerciseConfig.
func ConfigFrom(s labs.Settings) (ExerciseConfig, error) {
	c := DefaultExercise()
	if err := labkit.ReadInts(s, map[string]*int{"light": &c.Costs.Light, "heavy": &c.Costs.Heavy, "period": &c.Costs.Period, "items": &c.Items, "max-k": &c.MaxK}); err != nil {
		return c, err
	}
	var err error
	c.Tolerance, err = s.Float("tolerance")
	return c, err
}

// Check checks an answer on dev with the notebook's settings.
func Check(dev *gpu.Device, a Answer) labs.Feedback { return CheckConfig(dev, a, DefaultExercise()) }

// CheckConfig checks an answer with the given settings: it re-runs every
// power of two up to MaxK on dev and compares.
func CheckConfig(dev *gpu.Device, a Answer, c ExerciseConfig) labs.Feedback {
	info := dev.Info()
	f := labs.Feedback{Exercise: exerciseTitle, Device: info.Name, Spec: info.Spec,
		Tolerance: fmt.Sprintf("within %.0f%% of the re-run", c.Tolerance*100)}
	if a.K == 0 && a.Ms == 0 && strings.TrimSpace(a.Why) == "" {
		f.Add("answer", labs.Unanswered, "not answered yet: fill in K, Ms and Why.").Hint = 1
		return f
	}
	if err := validK(a.K); err != nil || a.K > c.MaxK {
		f.Failf(PartFastest, "K %d: want a power of two from 1 to %d", a.K, c.MaxK).Hint = 1
		return f
	}
	var ks []int
	for k := 1; k <= c.MaxK; k *= 2 {
		ks = append(ks, k)
	}
	s, err := Sweep(dev, SweepOptions{Items: c.Items, BlocksPerSM: c.BlocksPerSM, K: ks, Costs: []Costs{c.Costs}, Predict: "none", Progress: labkit.NoProgress})
	if err != nil {
		f.Failf("re-run", "%v", err)
		return f
	}
	f.Timing = s.Timing
	if !s.OK() {
		f.Failf("re-run", "the queue kernel worked an item wrong on %s", info.Spec)
		return f
	}
	_, bms := s.Best(c.Costs, PerThread)
	mine, _ := s.Row(c.Costs, PerThread, a.K)
	if mine.Ms <= bms*(1+c.Tolerance) {
		f.Passf(PartFastest, "k = %d is the fastest k (or within %.0f%% of it) in the re-run", a.K, c.Tolerance*100)
	} else {
		f.Failf(PartFastest, "k = %d is not the fastest k in the re-run. Which term grows on each side of it: the pops, or the tail?", a.K).Hint = 2
	}
	switch {
	case a.Ms <= 0:
		f.Add(PartTime, labs.Unanswered, "Ms: read your k's time in the table").Hint = 1
	case math.Abs(a.Ms-mine.Ms) <= c.Tolerance*mine.Ms:
		f.Passf(PartTime, "%.4f ms matches the re-run", a.Ms)
	default:
		f.Failf(PartTime, "%.4f ms is not what the re-run of k = %d gives: sweep the exercise's costs, %s, and read your k's row", a.Ms, a.K, c.Costs).Hint = 1
	}
	if len(strings.Fields(a.Why)) < 8 {
		f.Add(PartWhy, labs.Unanswered, "Why: say in a sentence or two, from the table, what limits a smaller k and what limits a larger one.").Hint = 3
	} else {
		f.Add(PartWhy, labs.Pending, "your instructor reads and grades it")
	}
	return f
}

// Variant returns a student's variant of the exercise for a variant seed
// (labs.VariantFor): other item costs (light 4, 8 or 16; heavy 256, 512
// or 1024; one heavy item in 8, 16 or 32), so the fastest k and its time
// differ between students while the trade-off stays the lesson's.
func Variant(seed uint64) labs.Variant {
	c := Costs{Light: labs.Pick(seed, 0, 4, 8, 16), Heavy: labs.Pick(seed, 8, 256, 512, 1024), Period: labs.Pick(seed, 16, 8, 16, 32)}
	return labs.Variant{
		Settings: map[string]string{"light": strconv.Itoa(c.Light), "heavy": strconv.Itoa(c.Heavy), "period": strconv.Itoa(c.Period)},
		About:    fmt.Sprintf("items costing %s", c),
	}
}

// VariantExercise returns a student's exercise as the check re-runs it:
// DefaultExercise with the student's costs (Variant, from the student's
// identity and the course in WARPLAB_COURSE).
func VariantExercise(student string) ExerciseConfig {
	return labs.StudentConfig("queue", exercise(), student, ConfigFrom, DefaultExercise())
}

// Solution returns the right answer to the exercise c on dev, without
// its Why: the fastest k and its time, as the check re-runs them. It is
// for instructors' solution notebooks and tests; students find it in
// their own sweep.
func Solution(dev *gpu.Device, c ExerciseConfig) (Answer, error) {
	var ks []int
	for k := 1; k <= c.MaxK; k *= 2 {
		ks = append(ks, k)
	}
	s, err := Sweep(dev, SweepOptions{Items: c.Items, BlocksPerSM: c.BlocksPerSM, K: ks, Costs: []Costs{c.Costs}, Predict: "none", Progress: labkit.NoProgress})
	if err != nil {
		return Answer{}, err
	}
	k, ms := s.Best(c.Costs, PerThread)
	return Answer{K: k, Ms: ms}, nil
}

// About says, for a notebook, whose exercise it is and what its
// parameters are: the student's identity (labs.Identity) and variant.
func About(student string) string {
	who := labs.Identity(student)
	if who == "" {
		who = "nobody yet (set student above)"
	}
	return fmt.Sprintf("Your exercise, for %s: %s.", who, labs.StudentVariant("queue", exercise(), student).About)
}
