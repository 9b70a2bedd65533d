package kernelcheck

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Harness is what a lab tells the checker about one exercise's kernel.
type Harness struct {
	// Exercise names the exercise in the feedback: "Softmax exercise".
	Exercise string
	// File is the name the student's source goes by in messages
	// ("answer.cu": "answer.cu:12:9: ...").
	File string
	// Kernel is the name of the kernel the student writes.
	Kernel string
	// Prepare builds one case on dev: inputs of n elements drawn from
	// seed, the launch, and how to judge its outputs. It runs once per
	// size and seed, on a fresh simulated device.
	Prepare func(dev *gpu.Device, n int, seed uint64) (*Case, error)
	// Reference is the lab's own kernel, run on the same case at the
	// largest size for the time part; ReferenceFile names it in messages.
	// A nil Reference leaves the time part out.
	Reference       []byte
	ReferenceFile   string
	ReferenceKernel string
	// Baseline is the kernel the lesson improves on (one global atomic
	// per element, say), with its file and kernel name and a phrase that
	// names it ("the global-atomics kernel"): with Config.MinSpeedup it
	// adds the part PartSpeedup, which a correct kernel passes only when
	// it is that many times faster than the baseline at the largest size,
	// in modelled time. A serial kernel fails it.
	Baseline       []byte
	BaselineFile   string
	BaselineKernel string
	BaselineName   string
	// AtomicBudget, when not nil, returns the most global atomics one
	// launch of the case may issue, instead of ceil(n /
	// elements-per-atomic); AtomicRule says it in words ("one per warp").
	AtomicBudget func(n int, launch gpu.LaunchConfig) int64
	AtomicRule   string
	// Hints are the notebook's hints to point to: Hints[part name] is the
	// hint's number.
	Hints map[string]int
	// Checked, when not empty, says what the correct part checked, for an
	// exercise whose Judge is not the float-tolerance comparison ("no
	// consumer read a stale payload"): a passing part reads "Checked, at
	// every size and seed." instead of the tolerance sentence.
	Checked string
	// Reproducible adds the part PartReproducible: every seed at one size
	// must give the same bits, as each Case's Fingerprint spells them.
	// Prepare must then build the same inputs for every seed at one size
	// (draw them from n, not from the seed), so that only the schedule
	// changes.
	Reproducible bool
	// GPURuns is how many times the reproducibility part also launches
	// the kernel at the largest size on the device passed to Check when
	// that is a real GPU; 0 means DefaultGPURuns.
	GPURuns int
}

// DefaultGPURuns is the launches on a real GPU of the reproducibility
// part, as many as the H200's runs of the reproducible lab.
const DefaultGPURuns = 20

// Case is one run of the kernel: how to launch it and how to judge what
// it wrote.
type Case struct {
	Launch gpu.LaunchConfig
	// Args are the kernel's arguments in parameter order: buffers and Go
	// numbers, as gpu.Kernel.Launch takes them.
	Args []any
	// Judge compares the outputs (the buffers of res.Args) with a
	// reference computed in double precision; tol is the relative
	// tolerance. It returns nil when they agree, else an error that says
	// what came out and what was expected.
	Judge func(res *gpu.Result, tol float64) error
	// Fingerprint returns the launch's outputs as bits (a string that is
	// equal for equal outputs), for the reproducibility part; it is
	// called after Judge.
	Fingerprint func() (string, error)
}

// The feedback's part names, in order.
const (
	PartCompiles   = "compiles"
	PartRuns       = "runs"
	PartCorrect    = "correct"
	PartRaces      = "no race or barrier divergence"
	PartContention = "contention"
	// PartSpeedup comes after PartContention when the harness has a
	// Baseline and the config a MinSpeedup; Parts does not list it.
	PartSpeedup = "faster than the baseline"
	PartTime    = "time"
	// PartReproducible comes after PartCorrect when the harness asks for
	// it (Harness.Reproducible); Parts does not list it.
	PartReproducible = "reproducible"
)

// Parts returns the part names in the order Check reports them.
func Parts() []string {
	return []string{PartCompiles, PartRuns, PartCorrect, PartRaces, PartContention, PartTime}
}

// ScoredParts returns the parts Check reports under cfg on a kernel it
// runs that a right kernel can pass, in order: Parts, with
// PartReproducible where the harness asks for it, without PartContention
// where cfg and the harness set no atomics budget, and without PartTime
// where there is no reference kernel or no slowdown limit (it is then a
// note, or absent).
func ScoredParts(h Harness, cfg Config) []string {
	c := &checker{h: h, cfg: cfg}
	var out []string
	for _, p := range c.parts() {
		switch {
		case p == PartContention && !c.hasContention():
		case p == PartTime && (h.Reference == nil || cfg.MaxSlowdown == 0):
		default:
			out = append(out, p)
		}
	}
	return out
}

// parts returns the parts this harness reports, in order.
func (c *checker) parts() []string {
	ps := Parts()
	if c.h.Reproducible {
		i := slices.Index(ps, PartCorrect)
		ps = slices.Insert(ps, i+1, PartReproducible)
	}
	if c.hasSpeedup() {
		i := slices.Index(ps, PartContention)
		ps = slices.Insert(ps, i+1, PartSpeedup)
	}
	return ps
}

// Check checks a student's kernel source src against the harness h, with
// settings resolved against the checker's Options (see ConfigFrom). dev
// chooses the simulator profile: its own on the simulator, the one that
// predicts it on a GPU.
func Check(dev *gpu.Device, h Harness, src string, s labs.Settings) labs.Feedback {
	cfg, err := ConfigFrom(s)
	if err != nil {
		f := labs.Feedback{Exercise: h.Exercise}
		f.Failf(PartCompiles, "the check's settings are wrong (not your answer): %v", err)
		return f
	}
	return CheckConfig(dev, h, src, cfg)
}

// CheckConfig is Check with the settings given as a Config.
func CheckConfig(dev *gpu.Device, h Harness, src string, cfg Config) labs.Feedback {
	c := &checker{h: h, cfg: cfg, src: src, lines: strings.Split(src, "\n")}
	if c.h.File == "" {
		c.h.File = "answer.cu"
	}
	c.f.Exercise = h.Exercise
	c.run(dev)
	return c.f
}

// checker is one check in progress.
type checker struct {
	h     Harness
	cfg   Config
	src   string
	lines []string
	spec  gpu.Spec // the simulated device; each launch takes its own seed
	f     labs.Feedback
}

// outcome is what one launch of one case gave.
type outcome struct {
	n        int
	seed     uint64
	res      *gpu.Result
	launch   gpu.LaunchConfig
	judgeErr error
	// fp is the outputs' fingerprint, fpErr why there is none.
	fp    string
	fpErr error
	// err is a fault of the launch, stage says where it happened:
	// "prepare", "compile", "launch" or "judge".
	err   error
	stage string
}

func (c *checker) part(name string, v labs.Verdict, format string, args ...any) *labs.Part {
	p := c.f.Add(name, v, fmt.Sprintf(format, args...))
	if v == labs.Fail {
		p.Hint = c.h.Hints[name]
	}
	return p
}

// skip fails every part from name on, as not judged because of why.
func (c *checker) skip(from string, why string) {
	parts := c.parts()
	i := slices.Index(parts, from)
	for _, name := range parts[i:] {
		if name == PartTime && c.h.Reference == nil {
			continue
		}
		if name == PartContention && !c.hasContention() {
			continue
		}
		c.f.Add(name, labs.Fail, "not checked: "+why)
	}
}

func (c *checker) hasSpeedup() bool {
	return c.h.Baseline != nil && c.cfg.MinSpeedup > 0
}

func (c *checker) hasContention() bool {
	return c.h.AtomicBudget != nil || c.cfg.ElementsPerAtomic > 0
}

func (c *checker) run(dev *gpu.Device) {
	if err := c.cfg.validate(); err != nil {
		c.part(PartCompiles, labs.Fail, "the check's settings are wrong (not your answer): %v", err)
		return
	}
	if c.h.Prepare == nil || c.h.Kernel == "" {
		c.part(PartCompiles, labs.Fail, "the exercise's harness is incomplete (not your answer): no kernel name or no Prepare")
		return
	}
	if onlyComments(c.src) {
		for _, name := range c.parts() {
			if (name == PartTime && c.h.Reference == nil) || (name == PartContention && !c.hasContention()) {
				continue
			}
			c.f.Add(name, labs.Unanswered, "not answered yet: write the kernel "+c.h.Kernel+" in the answer cell.")
		}
		return
	}
	profile := c.cfg.Profile
	if profile == "" {
		profile = labkit.SimProfile(dev)
	}
	spec, err := gpu.SimSpec(profile)
	if err != nil {
		c.part(PartCompiles, labs.Fail, "the checker could not run (not your answer): %v", err)
		c.skip(PartRuns, "the checker could not run")
		return
	}
	c.spec = spec.WithMemory(c.cfg.Memory)
	c.f.Spec = c.spec.String()
	c.f.Timing = fmt.Sprintf("modelled, %s profile", profile)
	c.f.Tolerance = fmt.Sprintf("within a relative error of %g of a double-precision reference", c.cfg.Tolerance)

	if !c.compiles() {
		return
	}
	outs, fault := c.launchAll()
	if fault != nil {
		c.reportFault(fault, outs)
		return
	}
	c.part(PartRuns, labs.Pass, "%d launches (sizes %s, seeds %s) finished within %d warp instructions and %v each.",
		len(outs), joinInts(c.cfg.Sizes), joinSeeds(c.cfg.Seeds), c.cfg.Budget, c.cfg.TimeLimit)
	c.correct(outs)
	c.reproducible(dev, outs)
	c.races(outs)
	c.contention(outs)
	c.speedup(outs)
	c.timing(outs)
	c.requireCorrect()
}

// needsCorrect are the parts that judge how a kernel computes: they earn
// nothing unless it computes the right answer, so that an empty kernel
// (no race, no atomics) or a wrong one scores none of them. The parts
// after the race check need a race-free kernel as well: a racy kernel
// that happened to count right earns no contention or speed.
var needsCorrect = []string{PartRaces, PartContention, PartTime, PartSpeedup, PartReproducible}

var needsRaceFree = []string{PartContention, PartTime, PartSpeedup, PartReproducible}

// requireCorrect fails the passing parts that need a correct (and
// race-free) kernel when the correct (or race) part failed.
func (c *checker) requireCorrect() {
	if p, ok := c.f.Part(PartCorrect); ok && p.Verdict != labs.Pass {
		c.notChecked(needsCorrect, "needs a correct kernel (see correct).", c.h.Hints[PartCorrect])
	}
	if p, ok := c.f.Part(PartRaces); ok && p.Verdict != labs.Pass {
		c.notChecked(needsRaceFree, "needs a kernel without races (see no race or barrier divergence).", c.h.Hints[PartRaces])
	}
}

// notChecked fails the passing parts among names, as not checked because
// of why.
func (c *checker) notChecked(names []string, why string, hint int) {
	for i := range c.f.Parts {
		q := &c.f.Parts[i]
		if slices.Contains(names, q.Name) && q.OK() {
			q.Verdict = labs.Fail
			q.Message = "not checked: " + why
			q.Hint = hint
		}
	}
}

// compiles compiles the source once, reports the part, and says whether
// the check goes on.
func (c *checker) compiles() bool {
	var names []string
	compiled := false
	err := safely(func() error {
		dev, err := gpu.OpenSpec(c.spec)
		if err != nil {
			return internalError{err}
		}
		defer dev.Close()
		c.f.Device = dev.Info().Name
		m, err := dev.Compile(c.h.File, []byte(c.src))
		if err != nil {
			return err
		}
		names, compiled = m.KernelNames(), true
		_, err = m.Kernel(c.h.Kernel)
		return err
	})
	var list cudac.ErrorList
	var ie internalError
	switch {
	case err == nil:
		c.part(PartCompiles, labs.Pass, "%s compiles and defines the kernel %s.", c.h.File, c.h.Kernel)
	case errors.As(err, &ie):
		c.part(PartCompiles, labs.Fail, "the checker could not run (not your answer): %v", ie.err)
		c.skip(PartRuns, "the checker could not run")
		return false
	case errors.As(err, &list):
		c.part(PartCompiles, labs.Fail, "%s", strings.TrimRight(list.Error(), "\n"))
		c.skip(PartRuns, "the kernel does not compile")
		return false
	case compiled:
		have := "no kernels"
		if len(names) > 0 {
			have = "the kernels " + strings.Join(names, ", ")
		}
		c.part(PartCompiles, labs.Fail, "the source compiles but has no kernel named %s (it defines %s): write __global__ void %s(...).",
			c.h.Kernel, have, c.h.Kernel)
		c.skip(PartRuns, "there is no kernel "+c.h.Kernel)
		return false
	default:
		c.part(PartCompiles, labs.Fail, "%v", err)
		c.skip(PartRuns, "the kernel does not compile")
		return false
	}
	return true
}

// internalError is a failure of the checker or the harness, not of the
// student's kernel.
type internalError struct{ err error }

func (e internalError) Error() string { return e.err.Error() }

// safely runs f, turning a panic into an internal error.
func safely(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalError{fmt.Errorf("internal error: %v", r)}
		}
	}()
	return f()
}

// launchAll runs every size under every seed and returns the outcomes,
// stopping at the first one that faulted, which it returns too.
func (c *checker) launchAll() ([]outcome, *outcome) {
	var outs []outcome
	sizes := slices.Clone(c.cfg.Sizes)
	slices.Sort(sizes)
	for _, n := range sizes {
		for _, seed := range c.cfg.Seeds {
			o := c.launchOne(c.h.File, []byte(c.src), c.h.Kernel, n, seed)
			outs = append(outs, o)
			if o.err != nil {
				return outs, &outs[len(outs)-1]
			}
		}
	}
	return outs, nil
}

// launchOne compiles src on a fresh simulated device with the given
// seed, prepares the case of n elements, launches the kernel under the
// budgets and judges the outputs. The device belongs to the goroutine
// that does it, so that a launch past the wall-clock limit can be left to
// finish (the instruction budget ends it) without anything else touching
// the device.
func (c *checker) launchOne(file string, src []byte, kernel string, n int, seed uint64) outcome {
	done := make(chan outcome, 1)
	go func() {
		o := outcome{n: n, seed: seed, stage: "compile"}
		o.err = safely(func() error {
			dev, err := gpu.OpenSpec(c.spec.WithSeed(seed))
			if err != nil {
				return internalError{err}
			}
			defer dev.Close()
			m, err := dev.Compile(file, src)
			if err != nil {
				return err
			}
			k, err := m.Kernel(kernel)
			if err != nil {
				return err
			}
			o.stage = "prepare"
			cs, err := c.h.Prepare(dev, n, seed)
			if err != nil {
				return internalError{fmt.Errorf("preparing n = %d: %w", n, err)}
			}
			o.stage = "launch"
			cfg := cs.Launch
			cfg.MaxInstructions = c.cfg.Budget
			o.launch = cfg
			res, err := k.Launch(cfg, cs.Args...)
			if err != nil {
				return err
			}
			o.res = res
			o.stage = "judge"
			if cs.Judge != nil {
				if jerr := safely(func() error { return cs.Judge(res, c.cfg.Tolerance) }); jerr != nil {
					var ie internalError
					if errors.As(jerr, &ie) {
						return jerr
					}
					o.judgeErr = jerr
				}
			}
			if c.h.Reproducible && cs.Fingerprint != nil {
				o.fpErr = safely(func() (err error) { o.fp, err = cs.Fingerprint(); return err })
			}
			return nil
		})
		done <- o
	}()
	timer := time.NewTimer(c.cfg.TimeLimit)
	defer timer.Stop()
	select {
	case o := <-done:
		return o
	case <-timer.C:
		return outcome{n: n, seed: seed, stage: "launch", err: errWallClock}
	}
}

var errWallClock = errors.New("wall-clock limit")

// reportFault reports a launch that did not finish, and the parts it
// leaves unjudged.
func (c *checker) reportFault(o *outcome, outs []outcome) {
	where := fmt.Sprintf("n = %d, seed %d", o.n, o.seed)
	var le *gpu.LaunchError
	var ie internalError
	switch {
	case errors.As(o.err, &ie):
		c.part(PartRuns, labs.Fail, "the checker failed at %s (not necessarily your kernel): %v", where, ie.err)
		c.skip(PartCorrect, "the checker failed")
	case o.err == errWallClock:
		c.part(PartRuns, labs.Fail, "at %s the launch ran past the wall-clock limit of %v: look for a loop that never ends or does far more work than one element per thread needs.",
			where, c.cfg.TimeLimit)
		c.skip(PartCorrect, "a launch did not finish")
	case errors.As(o.err, &le) && errors.Is(le, gpu.ErrBarrierDivergence):
		c.part(PartRuns, labs.Fail, "at %s the launch stopped at a barrier (see the next parts).", where)
		c.part(PartCorrect, labs.Fail, "not checked: a launch did not finish")
		if c.h.Reproducible {
			c.part(PartReproducible, labs.Fail, "not checked: a launch did not finish")
		}
		c.part(PartRaces, labs.Fail, "at %s: %s", where, c.describe(le))
		c.skip(PartContention, "a launch did not finish")
	case errors.As(o.err, &le) && errors.Is(le, gpu.ErrBudget):
		c.part(PartRuns, labs.Fail, "at %s the launch ran past the budget of %d warp instructions: %s. Look for a loop whose condition never becomes false for some thread.",
			where, c.cfg.Budget, c.describe(le))
		c.skip(PartCorrect, "a launch did not finish")
	case errors.As(o.err, &le):
		c.part(PartRuns, labs.Fail, "at %s: %s", where, c.describe(le))
		c.skip(PartCorrect, "a launch did not finish")
	case o.stage == "launch":
		// Arguments that do not bind: the kernel's parameters are not
		// the ones the exercise launches it with.
		c.part(PartRuns, labs.Fail, "the kernel's parameters do not match the exercise's launch: %v", o.err)
		c.skip(PartCorrect, "the kernel could not be launched")
	default:
		c.part(PartRuns, labs.Fail, "at %s: %v", where, o.err)
		c.skip(PartCorrect, "a launch did not finish")
	}
}

// describe says where a launch error happened, with the source line.
func (c *checker) describe(le *gpu.LaunchError) string {
	s := le.Kind.Error()
	if le.HasThread {
		s += fmt.Sprintf(" in block %d, thread %d", le.Block.X, le.Thread.X)
		if le.Block.Y != 0 || le.Block.Z != 0 || le.Thread.Y != 0 || le.Thread.Z != 0 {
			s += fmt.Sprintf(" (block (%d,%d,%d), thread (%d,%d,%d))", le.Block.X, le.Block.Y, le.Block.Z, le.Thread.X, le.Thread.Y, le.Thread.Z)
		}
	}
	if msg, _, _ := strings.Cut(le.Msg, "; raise the limit"); msg != "" {
		s += ": " + msg
	}
	if le.Pos.IsValid() {
		s += ", at " + c.at(le.Pos)
	}
	return s
}

// at formats a source position with its line: `answer.cu:7:9 (atomicAdd(out, v);)`.
func (c *checker) at(p cudac.Pos) string {
	s := p.String()
	if p.File == c.h.File && p.Line >= 1 && p.Line <= len(c.lines) {
		if line := strings.TrimSpace(c.lines[p.Line-1]); line != "" {
			s += " `" + line + "`"
		}
	}
	return s
}

func (c *checker) correct(outs []outcome) {
	var bad []string
	for _, o := range outs {
		if o.judgeErr != nil {
			bad = append(bad, fmt.Sprintf("n = %d, seed %d: %v", o.n, o.seed, o.judgeErr))
		}
	}
	if len(bad) == 0 {
		if c.h.Checked != "" {
			c.part(PartCorrect, labs.Pass, "%s, at every size and seed.", c.h.Checked)
			return
		}
		c.part(PartCorrect, labs.Pass, "every output is within %g (relative) of the double reference at every size and seed.", c.cfg.Tolerance)
		return
	}
	if len(bad) > 4 {
		bad = append(bad[:4], fmt.Sprintf("and %d more", len(bad)-4))
	}
	c.part(PartCorrect, labs.Fail, "%d of %d launches are wrong: %s.", countWrong(outs), len(outs), strings.Join(bad, "; "))
}

func countWrong(outs []outcome) int {
	n := 0
	for _, o := range outs {
		if o.judgeErr != nil {
			n++
		}
	}
	return n
}

func (c *checker) races(outs []outcome) {
	seen := map[string]bool{}
	var found []string
	for _, o := range outs {
		if o.res == nil {
			continue
		}
		for _, d := range o.res.Diagnostics {
			s := fmt.Sprintf("%s at %s", d.Kind, c.at(d.Pos))
			if d.Other.IsValid() {
				s += " and " + c.at(d.Other)
			}
			s += ": " + d.Msg
			if !seen[s] {
				seen[s] = true
				found = append(found, fmt.Sprintf("%s (first at n = %d, seed %d)", s, o.n, o.seed))
			}
		}
	}
	if len(found) == 0 {
		c.part(PartRaces, labs.Pass, "the simulator's race check found no shared-memory race, no barrier divergence and no shuffle from an inactive lane.")
		return
	}
	if len(found) > 3 {
		found = append(found[:3], fmt.Sprintf("and %d more", len(found)-3))
	}
	c.part(PartRaces, labs.Fail, "%s", strings.Join(found, "; "))
}

// budget returns the contention budget of a launch and the rule in words.
func (c *checker) budget(o outcome) (int64, string) {
	if c.h.AtomicBudget != nil {
		rule := c.h.AtomicRule
		if rule == "" {
			rule = "the exercise's budget"
		}
		return c.h.AtomicBudget(o.n, o.launch), rule
	}
	k := int64(c.cfg.ElementsPerAtomic)
	return (int64(o.n) + k - 1) / k, fmt.Sprintf("ceil(n / %d)", k)
}

func (c *checker) contention(outs []outcome) {
	if !c.hasContention() {
		return
	}
	var worst *outcome
	var worstOver float64
	var rule string
	for i := range outs {
		o := &outs[i]
		if o.res == nil || o.res.Counters == nil {
			continue
		}
		b, r := c.budget(*o)
		rule = r
		got := o.res.Counters.GlobalAtomicIssued
		if over := float64(got) / float64(max(b, 1)); got > b && over > worstOver {
			worst, worstOver = o, over
		}
	}
	if worst == nil {
		last := outs[len(outs)-1]
		b, _ := c.budget(last)
		c.part(PartContention, labs.Pass, "global atomics per launch stay within %s: %d at n = %d (budget %d).",
			rule, last.res.Counters.GlobalAtomicIssued, last.n, b)
		return
	}
	b, _ := c.budget(*worst)
	cn := worst.res.Counters
	c.part(PartContention, labs.Fail, "at n = %d the launch sent %d global atomics to the L2 (%d lanes' operations, at most %d on one address); the budget is %s = %d. Combine values inside the warp and the block first, then send one atomic per block.",
		worst.n, cn.GlobalAtomicIssued, cn.GlobalAtomicOps, cn.GlobalAtomicMaxChain, rule, b)
}

// meanAtLargest returns the student's mean modelled time at the largest
// size, over the seeds, and that size.
func meanAtLargest(outs []outcome) (float64, int) {
	nMax := outs[len(outs)-1].n
	var sum float64
	var k int
	for _, o := range outs {
		if o.n == nMax && o.res != nil {
			sum += o.res.Timing.Ms
			k++
		}
	}
	return sum / float64(k), nMax
}

// SpeedupMinSize is the smallest largest size at which the part
// PartSpeedup is judged: below it a launch is too short for contention to
// dominate, and the part is a note.
const SpeedupMinSize = 1 << 16

// speedup compares the kernel with the lesson's baseline at the largest
// size: it must be MinSpeedup times faster, in modelled time.
func (c *checker) speedup(outs []outcome) {
	if !c.hasSpeedup() {
		return
	}
	mine, nMax := meanAtLargest(outs)
	if nMax < SpeedupMinSize {
		c.part(PartSpeedup, labs.Note, "not judged at n = %d: the lesson's margin holds from n = %d on.", nMax, SpeedupMinSize)
		return
	}
	file := c.h.BaselineFile
	if file == "" {
		file = "baseline.cu"
	}
	name := c.h.BaselineName
	if name == "" {
		name = "the baseline kernel"
	}
	// The baseline's mean over the same seeds (each seed may be another
	// input as well as another schedule).
	var baseMs float64
	var source string
	for _, seed := range c.cfg.Seeds {
		base := c.launchOne(file, c.h.Baseline, c.h.BaselineKernel, nMax, seed)
		if base.err != nil || base.res == nil {
			c.part(PartSpeedup, labs.Fail, "the baseline kernel did not run (not your answer): %v", base.err)
			return
		}
		baseMs += base.res.Timing.Ms / float64(len(c.cfg.Seeds))
		source = base.res.Timing.Source
	}
	x := baseMs / mine
	msg := fmt.Sprintf("at n = %d your kernel is %.2fx as fast as %s (%.4f ms against %.4f ms, %s)",
		nMax, x, name, mine, baseMs, source)
	if x >= c.cfg.MinSpeedup && !math.IsNaN(x) {
		c.part(PartSpeedup, labs.Pass, "%s; the lesson's margin is %gx.", msg, c.cfg.MinSpeedup)
		return
	}
	c.part(PartSpeedup, labs.Fail, "%s; the lesson's margin is %gx. A kernel that does the work in few threads, or sends as many atomics as the baseline, is not faster.", msg, c.cfg.MinSpeedup)
}

func (c *checker) timing(outs []outcome) {
	if c.h.Reference == nil {
		return
	}
	// The student's mean modelled time at the largest size, over seeds.
	mine, nMax := meanAtLargest(outs)
	file := c.h.ReferenceFile
	if file == "" {
		file = "reference.cu"
	}
	ref := c.launchOne(file, c.h.Reference, c.h.ReferenceKernel, nMax, c.cfg.Seeds[0])
	if ref.err != nil || ref.res == nil {
		c.part(PartTime, labs.Fail, "the reference kernel did not run (not your answer): %v", ref.err)
		return
	}
	ratio := mine / ref.res.Timing.Ms
	msg := fmt.Sprintf("at n = %d your kernel takes %.4f ms, the reference %.4f ms: %.2fx (%s).",
		nMax, mine, ref.res.Timing.Ms, ratio, ref.res.Timing.Source)
	switch {
	case c.cfg.MaxSlowdown == 0:
		c.part(PartTime, labs.Note, "%s", msg)
	case ratio <= c.cfg.MaxSlowdown || math.IsNaN(ratio):
		c.part(PartTime, labs.Pass, "%s Within %gx.", msg, c.cfg.MaxSlowdown)
	default:
		c.part(PartTime, labs.Fail, "%s The limit is %gx.", msg, c.cfg.MaxSlowdown)
	}
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

func joinSeeds(xs []uint64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// onlyComments reports whether src holds nothing but white space and
// comments: an answer cell still holding its placeholder.
func onlyComments(src string) bool {
	for len(src) > 0 {
		switch {
		case strings.HasPrefix(src, "//"):
			i := strings.IndexByte(src, '\n')
			if i < 0 {
				return true
			}
			src = src[i+1:]
		case strings.HasPrefix(src, "/*"):
			i := strings.Index(src[2:], "*/")
			if i < 0 {
				return true
			}
			src = src[i+4:]
		case strings.ContainsRune(" \t\r\n", rune(src[0])):
			src = src[1:]
		default:
			return false
		}
	}
	return true
}

// reproducible checks that every seed at one size gave the same bits,
// then, on a real GPU, that GPURuns launches at the largest size do too.
func (c *checker) reproducible(dev *gpu.Device, outs []outcome) {
	if !c.h.Reproducible {
		return
	}
	type group struct {
		n     int
		seeds map[string][]uint64
		order []string
	}
	var groups []*group
	byN := map[int]*group{}
	for _, o := range outs {
		if o.fpErr != nil {
			c.part(PartReproducible, labs.Fail, "the check could not read the outputs (not your answer): n = %d, seed %d: %v", o.n, o.seed, o.fpErr)
			return
		}
		g := byN[o.n]
		if g == nil {
			g = &group{n: o.n, seeds: map[string][]uint64{}}
			byN[o.n] = g
			groups = append(groups, g)
		}
		if _, ok := g.seeds[o.fp]; !ok {
			g.order = append(g.order, o.fp)
		}
		g.seeds[o.fp] = append(g.seeds[o.fp], o.seed)
	}
	var bad []string
	for _, g := range groups {
		if len(g.order) > 1 {
			var ws []string
			for _, fp := range g.order {
				ws = append(ws, fmt.Sprintf("%s under seeds %s", fp, joinSeeds(g.seeds[fp])))
			}
			bad = append(bad, fmt.Sprintf("n = %d: %d distinct results (%s)", g.n, len(g.order), strings.Join(ws, "; ")))
		}
	}
	if len(bad) > 0 {
		c.part(PartReproducible, labs.Fail, "the result depends on the schedule: %s. Each seed is another order in which blocks finish and atomics land: fix the order of every float addition.",
			strings.Join(bad, "; "))
		return
	}
	msg := fmt.Sprintf("one distinct result per size over %d scheduler seeds (sizes %s).", len(c.cfg.Seeds), joinInts(c.cfg.Sizes))
	if dev == nil || dev.Spec().Backend() == "sim" || dev.Capabilities().ModelledTiming {
		c.part(PartReproducible, labs.Pass, "%s", msg)
		return
	}
	if countWrong(outs) > 0 {
		c.part(PartReproducible, labs.Pass, "%s Not run on %s: the kernel is not correct on the simulator yet.", msg, dev.Info().Name)
		return
	}
	gmsg, ok := c.reproducibleOnGPU(dev, outs[len(outs)-1].n)
	v := labs.Pass
	if !ok {
		v = labs.Fail
	}
	c.part(PartReproducible, v, "%s %s", msg, gmsg)
}

// reproducibleOnGPU launches the kernel GPURuns times at n elements on
// dev, a real GPU, and says whether every launch gave the same bits.
func (c *checker) reproducibleOnGPU(dev *gpu.Device, n int) (string, bool) {
	runs := c.h.GPURuns
	if runs <= 0 {
		runs = DefaultGPURuns
	}
	name := dev.Info().Name
	seen := map[string]int{}
	var order []string
	err := safely(func() error {
		m, err := dev.Compile(c.h.File, []byte(c.src))
		if err != nil {
			return err
		}
		k, err := m.Kernel(c.h.Kernel)
		if err != nil {
			return err
		}
		for r := range runs {
			fp, err := c.gpuRun(dev, k, n, r)
			if err != nil {
				return err
			}
			if seen[fp] == 0 {
				order = append(order, fp)
			}
			seen[fp]++
		}
		return nil
	})
	if err != nil {
		return fmt.Sprintf("On %s at n = %d the check did not finish: %v.", name, n, err), false
	}
	if len(order) > 1 {
		var ws []string
		for _, fp := range order {
			ws = append(ws, fmt.Sprintf("%s %d times", fp, seen[fp]))
		}
		return fmt.Sprintf("But on %s, %d launches at n = %d gave %d distinct results: %s.", name, runs, n, len(order), strings.Join(ws, ", ")), false
	}
	return fmt.Sprintf("On %s, %d launches at n = %d gave one distinct result too.", name, runs, n), true
}

// freeArgs frees the buffers among a case's arguments.
func freeArgs(args []any) {
	for _, a := range args {
		if b, ok := a.(interface{ Free() error }); ok {
			b.Free()
		}
	}
}

// gpuRun prepares the case of n elements on k's device, launches the
// kernel once (run r, counted from 0), judges it and returns its
// fingerprint; k is compiled on dev. The GPU is the caller's, kept open across checks (a
// grader's whole class), so the case's buffers are freed before it
// returns.
func (c *checker) gpuRun(dev *gpu.Device, k *gpu.Kernel, n, r int) (string, error) {
	cs, err := c.h.Prepare(dev, n, c.cfg.Seeds[0])
	if err != nil {
		return "", internalError{fmt.Errorf("preparing n = %d: %w", n, err)}
	}
	defer freeArgs(cs.Args)
	res, err := k.Launch(cs.Launch, cs.Args...)
	if err != nil {
		return "", fmt.Errorf("run %d: %w", r+1, err)
	}
	if cs.Judge != nil {
		if err := cs.Judge(res, c.cfg.Tolerance); err != nil {
			return "", fmt.Errorf("run %d is wrong: %w", r+1, err)
		}
	}
	if cs.Fingerprint == nil {
		return "", internalError{fmt.Errorf("the case has no fingerprint")}
	}
	fp, err := cs.Fingerprint()
	if err != nil {
		return "", internalError{err}
	}
	return fp, nil
}
