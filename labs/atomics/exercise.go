package atomics

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
)

// KernelRatios are one block size's three ratios: each kernel's time at
// that block size over its time at 256 threads per block, at the largest
// size.
type KernelRatios struct {
	Global, Shared, Tree float64
}

func (r KernelRatios) get(k Kernel) float64 {
	switch k {
	case Global:
		return r.Global
	case Shared:
		return r.Shared
	case Tree:
		return r.Tree
	}
	return 0
}

// Day26Answer is a student's answer to the Day 26 exercise, written as a
// Go composite literal in the notebook cell tagged "answer":
//
//	var answer = atomics.Day26Answer{
//		Ratios: map[int]atomics.KernelRatios{
//			64:   {Global: 1.00, Shared: 0.40, Tree: 1.33},
//			256:  {Global: 1, Shared: 1, Tree: 1},
//			1024: {Global: 1.00, Shared: 2.92, Tree: 1.14},
//		},
//		Fastest:  map[int]atomics.Kernel{64: atomics.Tree, 256: atomics.Tree, 1024: atomics.Tree},
//		Sentence: "...",
//	}
//
// A zero ratio, an empty kernel or an empty sentence counts as not yet
// answered.
type Day26Answer struct {
	// Ratios are keyed by block size: 64, 256 and 1024.
	Ratios map[int]KernelRatios
	// Fastest is the fastest column of each block size's run, at the
	// largest size.
	Fastest map[int]Kernel
	// Sentence says why one column barely moves.
	Sentence string
}

// Check re-runs the exercise's block-size sweep on dev (the device the
// answer's numbers came from) and checks the answer against it: every
// sum bitwise, the nine ratios within a tolerance that fits the device,
// the fastest column of each run, and the sentence against a rubric.
// Check never puts a limit on a ratio: a ratio is right when it is what
// the device does, whatever that is.
//
// On the simulator the re-run replays the student's run exactly (the
// same spec, the same seeds), so the tolerance only covers the rounding
// of the table's two decimals. On a GPU the times are measured again, so
// the tolerance is 10% or three standard deviations of the measured
// noise, whichever is larger.
func Check(dev *gpu.Device, a Day26Answer) labs.Feedback {
	return check(dev, a, BlockSizeOptions{})
}

// check re-runs the block-size sweep with opts and checks a against it;
// a sweep that cannot run again is a failing part that says why.
func check(dev *gpu.Device, a Day26Answer, opts BlockSizeOptions) labs.Feedback {
	t, err := BlockSizes(dev, opts)
	if err != nil {
		f := labs.Feedback{Exercise: exerciseTitle, Device: dev.Info().Name, Spec: dev.Info().Spec}
		f.Failf("re-run", "the block-size sweep could not run again, so nothing was checked: %v", err)
		return f
	}
	return CheckTable(t, a)
}

// CheckTable checks an answer against a block-size sweep already run
// (see Check). The sweep must include the exercise's block sizes.
func CheckTable(t *BlockSizeTable, a Day26Answer) labs.Feedback {
	f := labs.Feedback{Exercise: exerciseTitle, Device: t.Device, Spec: t.Spec, Timing: t.Timing}
	if t.Measured {
		f.Tolerance = "within 10% or three standard deviations of the measured noise, whichever is larger"
	} else {
		f.Tolerance = "within the rounding of two decimals: on the simulator the re-run replays yours exactly"
	}

	// The harness's check: every sum at every size and block size.
	bad := 0
	for _, s := range t.Sweeps {
		for _, r := range s.Rows {
			for _, c := range r.Cells {
				if !c.OK {
					bad++
					f.Failf("bitwise check", "%s at n = %d, %d threads per block: %s. A kernel that drops or repeats elements fails here.",
						c.Kernel, r.N, s.BlockSize, c.Mismatch)
				}
			}
		}
	}
	if bad == 0 {
		f.Passf("bitwise check", "every launch at every size and block size returned the exact sum (re-run on %s).", t.Device)
	}

	for _, b := range ExerciseBlockSizes() {
		f.Parts = append(f.Parts, checkRatios(t, a, b))
	}
	f.Parts = append(f.Parts, checkFastest(t, a))
	f.Parts = append(f.Parts, Rubric(a.Sentence)...)
	return f
}

// ratioTolerance returns how far a reported ratio may be from the re-run's
// ratio of kernel j at block size b.
func ratioTolerance(t *BlockSizeTable, b int, j int, want float64) float64 {
	if !t.Measured {
		// Two decimals round by at most 0.005; allow a little more, and
		// 0.5% for ratios written with fewer significant digits.
		return math.Max(0.006, 0.005*want)
	}
	rel := 0.10
	s, base := t.sweep(b), t.sweep(t.Baseline)
	if s != nil && base != nil {
		c, cb := s.Rows[len(s.Rows)-1].Cells[j], base.Rows[len(base.Rows)-1].Cells[j]
		if c.Ms > 0 && cb.Ms > 0 {
			rel = math.Max(rel, 3*math.Hypot(c.StdevMs/c.Ms, cb.StdevMs/cb.Ms))
		}
	}
	return rel * want
}

func checkRatios(t *BlockSizeTable, a Day26Answer, b int) labs.Part {
	it := part(fmt.Sprintf("ratios at %d threads", b), labs.Fail)
	row, ok := t.row(b)
	if !ok {
		it.Message = fmt.Sprintf("the re-run has no %d-thread sweep to compare with.", b)
		return it
	}
	got, answered := a.Ratios[b]
	var wrong, missing, right []string
	for j, k := range t.Kernels {
		want := row.Ratios[j]
		g := got.get(k)
		switch {
		case !answered || g == 0:
			missing = append(missing, string(k))
		case math.Abs(g-want) <= ratioTolerance(t, b, j, want):
			right = append(right, fmt.Sprintf("%s %.2f", k, g))
		default:
			wrong = append(wrong, fmt.Sprintf("%s: %.3g is not the re-run's", k, g))
		}
	}
	switch {
	case len(missing) == len(t.Kernels):
		it.Verdict = labs.Unanswered
		it.Message = fmt.Sprintf("not answered yet: copy the three ratios of the %d-thread row from the block-size table.", b)
	case len(missing) > 0 || len(wrong) > 0:
		var parts []string
		if len(right) > 0 {
			parts = append(parts, "right: "+strings.Join(right, ", "))
		}
		parts = append(parts, wrong...)
		if len(missing) > 0 {
			parts = append(parts, "missing: "+strings.Join(missing, ", "))
		}
		it.Message = strings.Join(parts, "; ") + ". A ratio is the kernel's time at this block size over its own time at " +
			fmt.Sprint(t.Baseline) + " threads, at n = " + fmt.Sprint(t.N) + ": read it from the table, run on this device."
	default:
		it.Verdict = labs.Pass
		it.Message = "all three match the re-run: " + strings.Join(right, ", ") + "."
	}
	return it
}

func checkFastest(t *BlockSizeTable, a Day26Answer) labs.Part {
	it := part("fastest column", labs.Fail)
	var wrong, missing []string
	blocks := ExerciseBlockSizes()
	for _, b := range blocks {
		row, ok := t.row(b)
		if !ok {
			continue
		}
		// On a GPU, kernels within the measured noise of the fastest
		// count as fastest too.
		accept := row.Fastest
		if t.Measured {
			s := t.sweep(b)
			accept = fastest(s.Rows[len(s.Rows)-1].Cells, 0.10)
		}
		got, ok := a.Fastest[b]
		switch {
		case !ok || got == "":
			missing = append(missing, fmt.Sprint(b))
		case !got.Valid():
			k, err := ParseKernel(string(got))
			if err != nil || !slices.Contains(accept, k) {
				wrong = append(wrong, fmt.Sprintf("%d threads: %q is not the re-run's fastest (write global, shared or tree)", b, got))
			}
		case !slices.Contains(accept, got):
			wrong = append(wrong, fmt.Sprintf("%d threads: %s is not the re-run's fastest", b, got))
		}
	}
	switch {
	case len(missing) == len(blocks):
		it.Verdict = labs.Unanswered
		it.Message = "not answered yet: name the fastest column (global, shared or tree) of each run."
	case len(wrong) > 0 || len(missing) > 0:
		if len(missing) > 0 {
			wrong = append(wrong, "missing for "+strings.Join(missing, ", ")+" threads")
		}
		it.Message = strings.Join(wrong, "; ") + "."
	default:
		it.Verdict = labs.Pass
		it.Message = "right for all three runs."
	}
	return it
}

func joinOr(ks []Kernel) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, " or ")
}

// The rubric's patterns, matched against the sentence in lower case.
var (
	// The sentence names the global-atomic column.
	reGlobalColumn = regexp.MustCompile(`\bnaive\b|sumglobal|\bglobal\b|\bfirst (column|kernel)\b|one atomic(add)? per (element|thread)`)
	// "One global atomic per block" describes the other two columns.
	rePerBlockAtomic = regexp.MustCompile(`(one|1|a single|a|an|single)?\s*global\s+(atomic|atomicadd|atomic add|add|update)s?\s+(per|for each|for every|from each|from every)\s+block`)
	// It says another column is the one that barely moves.
	reOtherSteady = regexp.MustCompile(`\b(shared|tree)\b[^.;]{0,40}\b(barely|hardly|does ?n[o']t|never|stays?|unchanged|flat|constant|same)\b`)
	// It counts the global atomics as n, one per element or thread.
	reCountN = regexp.MustCompile(
		`\b(n|n total|every|all)\s+(global\s+)?(atomic|atomicadd|atomic add|atomic operation|update|add)s?\b` +
			`|\b(one|1|an|a single|a)\s+(global\s+)?(atomic|atomicadd|atomic add|atomic operation|update|add)s?\s+(per|for (each|every))\s+(element|thread|input|value|item|entry|number)` +
			`|\b(each|every)\s+(element|thread|input|value|item)\b[^.;]{0,60}\batomic` +
			`|\batomic[^.;]{0,60}\b(each|every|per)\s+(element|thread|input|value|item)\b` +
			`|\b(count|number) of (global )?atomic[^.;]{0,40}\b(n\b|equals n|is n|the same|constant|fixed|unchanged)`)
	// It says the count (or the contention) does not depend on the block size.
	reIndependent = regexp.MustCompile(
		`(independent of|regardless of|irrespective of|no matter|whatever|however|not (on|by|with)|does ?n[o']t (depend|change|vary|care|matter)|not (depend|change|vary)|unchanged|unaffected|the same)[^.;]{0,50}\bblock` +
			`|\bblock[^.;]{0,50}(does ?n[o']t|doesn't|never|cannot|can't|won't)\s+(change|affect|alter|matter|reduce)` +
			`|\bblock[^.;]{0,50}\b(irrelevant|no effect|no difference)`)
	// It talks about atomics or contention at all.
	reAtomics = regexp.MustCompile(`atomic|contention|contend|serial`)
	// It explains the other two columns: one global atomic per block, or
	// the tree's barrier steps.
	rePerBlock = regexp.MustCompile(`per block|each block|every block|n ?/ ?(block|b\b|blocksize|blockdim|threads)|number of blocks|more blocks|fewer blocks|barrier|halving|steps|levels|log`)
)

// Rubric checks the exercise's sentence: does it say that the global
// atomic column barely moves because it sends n atomics to the global
// accumulator, one per element, whatever the block size? It matches
// keywords and phrasings, so its verdict is a first reading, and points
// to the hint that helps. The parts it returns never judge the ratios:
// the verdict on the sentence, and a Note on going further when the
// sentence is right but leaves the other two columns out.
func Rubric(sentence string) []labs.Part {
	s := strings.ToLower(strings.Join(strings.Fields(sentence), " "))
	it := part("sentence", labs.Fail)
	if s == "" {
		it.Verdict = labs.Unanswered
		it.Message = "not answered yet: write one sentence on why one of the three columns barely moves."
		it.Hint = 1
		return []labs.Part{it}
	}
	global := reGlobalColumn.FindStringIndex(rePerBlockAtomic.ReplaceAllString(s, " "))
	names := global != nil
	other := reOtherSteady.FindString(s)
	otherFirst := other != "" && (!names || strings.Index(s, other) < global[0])
	counts := reCountN.MatchString(s)
	independent := reIndependent.MatchString(s) && reAtomics.MatchString(s)
	switch {
	case otherFirst:
		it.Message = fmt.Sprintf("you point at another column (%q). Look at the ratios again: which column stays near 1 at 64 and 1024 threads? Count each kernel's global atomics as a function of n and the block size.", other)
		it.Hint = 1
	case !names:
		it.Message = "say which column barely moves: the global-atomic (naive) one."
		it.Hint = 1
	case !counts && !independent:
		it.Message = "you name the global-atomic column; now say why: how many atomics does it send to the global total, and does that number depend on the block size?"
		it.Hint = 1
	default:
		it.Verdict = labs.Pass
		it.Message = "right: the global-atomic kernel sends one atomic per element, n in all, however the grid is cut into blocks, so the block size cannot change its contention."
	}
	parts := []labs.Part{it}
	if it.Verdict == labs.Pass && !rePerBlock.MatchString(s) {
		further := part("going further", labs.Note)
		further.Hint = 2
		further.Message = "not required: what does the block size change for the other two columns? Hint 2 asks the question."
		parts = append(parts, further)
	}
	return parts
}

// exerciseTitle names the exercise in its feedback.
const exerciseTitle = "Day 26 exercise"

// part returns a visible part with a verdict and no message yet.
func part(name string, v labs.Verdict) labs.Part {
	return labs.Part{Name: name, Verdict: v, Visibility: labs.Visible}
}
