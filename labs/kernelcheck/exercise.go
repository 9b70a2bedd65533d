package kernelcheck

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
)

// Exercise is a lab's exercise whose answer, of type A, holds one student
// kernel: what the lab's Info lists (Lab), what the grader checks, and
// what the notebook's check cell calls (Check). Every check runs the
// checker on the answer's Source, then gives the feedback to Finish.
type Exercise[A any] struct {
	// Title names the exercise in feedback: "Histogram exercise".
	Title string
	// Config returns the check's default settings; its Options are the
	// exercise's, which an instructor's key may change.
	Config func() Config
	// Harness returns how the checker runs the kernel.
	Harness func() Harness
	// Source returns the answer's CUDA C.
	Source func(A) string
	// Template is the source the notebook's answer cell starts from. An
	// answer that differs from it only in white space is not answered
	// yet: its feedback is one unanswered part, "answer", that says
	// Unanswered and points to hint 1. An empty Template checks every
	// answer.
	Template   string
	Unanswered string
	// Exact drops the feedback's tolerance line: the outputs (counts,
	// indices, maxima) are checked exactly.
	Exact bool
	// ContentionAdvice, when not empty, replaces the checker's general
	// advice in a failed contention part ("Combine values inside the warp
	// and the block first, ...") with the exercise's own, which points to
	// the harness's hint for the part, even where the part failed because
	// an earlier one did.
	ContentionAdvice string
	// Finish, when not nil, adapts the checker's feedback on any other
	// answer further: a part of the exercise's own. src is the answer's
	// source.
	Finish func(f labs.Feedback, src string) labs.Feedback
	// FinishParts names the parts Finish adds, for the exercise's Parts.
	FinishParts []string
}

// Parts returns the parts the exercise's Lab check reports on an answer
// it judges, under the default settings of its options (what a grader's
// key starts from): the checker's (see ScoredParts), then FinishParts.
func (e *Exercise[A]) Parts() []string {
	cfg := e.Config()
	if s, err := labs.Resolve(e.Title, cfg.Options(), nil); err == nil {
		if c, err := ConfigFrom(s); err == nil {
			cfg = c
		}
	}
	return append(ScoredParts(e.Harness(), cfg), e.FinishParts...)
}

// Lab returns the exercise as the lab contract knows it: its options are
// Config's, and its Check converts the answer, checks it under resolved
// settings and finishes the feedback. An answer of the wrong type fails
// the part PartCompiles.
func (e *Exercise[A]) Lab() *labs.Exercise {
	return &labs.Exercise{
		Title:    e.Title,
		Variable: "answer",
		Options:  e.Config().Options(),
		Parts:    e.Parts(),
		Points:   e.points(),
		New:      func() any { return new(A) },
		Variant:  func(seed uint64) labs.Variant { return VariantOf(e.Config(), seed) },
		Check: func(dev *gpu.Device, answer any, s labs.Settings) labs.Feedback {
			a, err := labs.Answer[A](answer)
			if err != nil {
				f := labs.Feedback{Exercise: e.Title}
				f.Failf(PartCompiles, "%v", err)
				return f
			}
			src := e.Source(a)
			return e.finish(Check(dev, e.Harness(), src, s), src)
		},
	}
}

// Check checks an answer on dev with the default settings: the notebook's
// check cell.
func (e *Exercise[A]) Check(dev *gpu.Device, a A) labs.Feedback {
	return e.CheckConfig(dev, a, e.Config())
}

// CheckConfig is Check with the settings given as a Config.
func (e *Exercise[A]) CheckConfig(dev *gpu.Device, a A, cfg Config) labs.Feedback {
	src := e.Source(a)
	return e.finish(CheckConfig(dev, e.Harness(), src, cfg), src)
}

// finish turns the checker's feedback on src into the exercise's: see
// Template and Finish.
func (e *Exercise[A]) finish(f labs.Feedback, src string) labs.Feedback {
	if e.Template != "" && SameSource(src, e.Template) {
		g := labs.Feedback{Exercise: e.Title, Device: f.Device, Spec: f.Spec, Timing: f.Timing}
		g.Add("answer", labs.Unanswered, e.Unanswered).Hint = 1
		return g
	}
	f.Exercise = e.Title
	f.Flags = append(f.Flags, similarityFlags(e.Harness(), src, e.Template)...)
	if e.Exact {
		f.Tolerance = ""
	}
	if e.ContentionAdvice != "" {
		adviseContention(&f, e.ContentionAdvice, e.Harness().Hints[PartContention])
	}
	if e.Finish == nil {
		return f
	}
	return e.Finish(f, src)
}

// SameSource reports whether two sources differ only in white space, so
// that re-indenting a template does not count as an answer.
func SameSource(a, b string) bool {
	return strings.Join(strings.Fields(a), "") == strings.Join(strings.Fields(b), "")
}

// adviseContention replaces the checker's general advice in a failed
// contention part of f with advice, pointing to hint when it is not 0.
func adviseContention(f *labs.Feedback, advice string, hint int) {
	for i := range f.Parts {
		p := &f.Parts[i]
		if p.Name == PartContention && p.Verdict == labs.Fail {
			if j := strings.Index(p.Message, " Combine values"); j >= 0 {
				p.Message = p.Message[:j]
			}
			p.Message += " " + advice
			if hint != 0 {
				p.Hint = hint
			}
		}
	}
}

// partPoints are the points a new key proposes for the checker's parts,
// as the course's keys give them; an exercise's own part gets 2.
var partPoints = map[string]float64{
	PartCompiles: 0.5, PartRuns: 0.5, PartCorrect: 4, PartRaces: 2, PartContention: 2, PartSpeedup: 2, PartTime: 1, PartReproducible: 3,
}

// points proposes points for every part of Parts.
func (e *Exercise[A]) points() map[string]float64 {
	m := map[string]float64{}
	for _, p := range e.Parts() {
		if v, ok := partPoints[p]; ok {
			m[p] = v
		} else {
			m[p] = 2
		}
	}
	return m
}

// VariantOf returns a student's variant of a kernel exercise whose
// default settings are cfg: each size lowered by up to a tenth, drawn
// from the seed (so a histogram's bin counts, a CAS group's contention
// change with it), and other scheduler seeds. A kernel is right or wrong
// whatever the sizes, so the variant changes the cases a student's kernel
// is checked on, not the lesson; hidden checks still use the key's sizes.
func VariantOf(cfg Config, seed uint64) labs.Variant {
	sizes := make([]int, len(cfg.Sizes))
	for i, n := range cfg.Sizes {
		r := (seed >> (12 * uint(i%5))) % uint64(n/10+1)
		sizes[i] = max(1, n-int(r))
	}
	base := 1 + (seed>>48)%1000
	seeds := make([]string, len(cfg.Seeds))
	for i := range cfg.Seeds {
		seeds[i] = strconv.FormatUint(base+uint64(i), 10)
	}
	sz := make([]string, len(sizes))
	for i, n := range sizes {
		sz[i] = strconv.Itoa(n)
	}
	return labs.Variant{
		Settings: map[string]string{OptSizes: strings.Join(sz, ","), OptSeeds: strings.Join(seeds, ",")},
		About:    fmt.Sprintf("your kernel is checked at sizes %s, scheduler seeds %s", strings.Join(sz, ", "), strings.Join(seeds, ", ")),
	}
}
