package grade

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/aggregation"
	"github.com/warplab/warplab/labs/atomics"
	"github.com/warplab/warplab/labs/cas"
	"github.com/warplab/warplab/labs/counters"
	"github.com/warplab/warplab/labs/histogram"
	"github.com/warplab/warplab/labs/ordering"
	"github.com/warplab/warplab/labs/queue"
	"github.com/warplab/warplab/labs/reproducible"
	"github.com/warplab/warplab/labs/softmax"
)

// The scoring rules, lab by lab, on one table-driven harness: each lab
// grades a small class (the reference solution, wrong, blank, partially
// right, and the cheap tricks: an empty kernel, a racy one, a serial one,
// the lab's own kernel renamed) under its key in grade/keys, and each
// member's expected score is the sum of the key's points of the parts the
// rules say it passes. A right answer copied from the lab's own kernels
// earns its points and is flagged for the instructor; the softmax
// solution, written apart from the lab's kernels, is not flagged.

// passes says which parts (by check and part name) a member passes.
type passes func(check, part string) bool

// all passes every part.
func all(string, string) bool { return true }

// only passes the named parts, in every check.
func only(parts ...string) passes {
	return func(_, p string) bool { return slices.Contains(parts, p) }
}

// allBut passes every part but the named ones.
func allBut(parts ...string) passes {
	return func(_, p string) bool { return !slices.Contains(parts, p) }
}

// nothing passes no part.
func nothing(string, string) bool { return false }

// scoredMember is a submission of the scoring harness: an answer cell and
// the parts it should pass.
type scoredMember struct {
	name    string
	cell    string
	pass    passes
	flagged bool
}

// scoringLab is one lab's class.
type scoringLab struct {
	lab     string
	members []scoredMember
}

// expectedScore is the key's points of the parts pass says pass.
func expectedScore(k *Key, pass passes) float64 {
	var s float64
	for _, c := range k.Checks {
		for p, v := range c.Points {
			if pass(c.Name, p) {
				s += v
			}
		}
	}
	return s
}

// The parts a correct kernel passes before the lesson's own parts.
const (
	pCompiles = "compiles"
	pRuns     = "runs"
	pCorrect  = "correct"
	pRaces    = "no race or barrier divergence"
	pContend  = "contention"
	pFaster   = "faster than the baseline"
	pTime     = "time"
)

// kernelCell is an answer cell holding src in the answer's field.
func kernelCell(typ, field, src string) string { return kernelAnswer(typ, field, src) }

// renamed returns a lab's shipped source with its kernel renamed to the
// exercise's, and a comment of the student's on top.
func renamed(src, from, to string) string {
	return "// my histogram, written myself\n" + strings.ReplaceAll(src, from, to)
}

const histSerial = `
__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) {
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (int i = 0; i < n; i++) hist[bin[i]]++;
}
`

const softmaxSerial = `
__global__ void denomWarp(const float* x, float* denom, int n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        double s = 0;
        for (int i = 0; i < n; i++) s += expf(x[i]);
        *denom = (float)s;
    }
}
`

const softmaxPerElement = `
__global__ void denomWarp(const float* x, float* denom, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(denom, expf(x[i]));
}
`

const aggregationAggInc = `
__device__ unsigned atomicAggInc(unsigned* ptr) {
    unsigned active = __activemask();
    unsigned group = __match_any_sync(active, (unsigned long long)ptr);
    int lane = threadIdx.x & 31;
    int leader = __ffs(group) - 1;
    unsigned first = 0;
    if (lane == leader) first = atomicAdd(ptr, (unsigned)__popc(group));
    first = __shfl_sync(group, first, leader);
    return first + __popc(group & ((1u << lane) - 1u));
}
`

const aggregationSerial = `
__global__ void bucketAppend(const int* key, int n, const unsigned* start, unsigned* count, int* out) {
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (int i = 0; i < n; i++) { int b = key[i]; out[start[b] + count[b]] = i; count[b] += 1; }
}
`

const casSerial = `
__global__ void foldMax(const float* v, int n, int C, float* m) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    for (int i = 0; i < n; i++) {
        float x = v[i];
        if (x == x && (x > m[i / C] || (x == 0.0f && m[i / C] == 0.0f && !signbit(x)))) m[i / C] = x;
    }
}
`

const reproducibleSerial = `
__global__ void sum(const float* in, int n, float* out, float* partials, unsigned* done) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        double s = 0;
        for (int i = 0; i < n; i++) s += in[i];
        *out = (float)s;
    }
}
`

// aggregationBody is the template's bucketAppend, which calls
// atomicAggInc.
func aggregationBody() string {
	t := aggregation.AnswerTemplate
	return t[strings.Index(t, "// Element i"):]
}

// scoringLabs are the kernel labs' classes.
func scoringLabs() []scoringLab {
	hist := func(src string) string { return kernelCell("histogram.Answer", "Source", src) }
	sm := func(src string) string { return kernelCell("softmax.Answer", "Kernel", src) }
	agg := func(src string) string { return kernelCell("aggregation.Answer", "Source", src) }
	cs := func(src string) string { return kernelCell("cas.Answer", "Source", src) }
	ord := func(src string) string { return kernelCell("ordering.Answer", "Source", src) }
	rep := func(src string) string { return kernelCell("reproducible.Answer", "Source", src) }
	histGlobal := "__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) {\n" +
		"    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n        atomicAdd(&hist[bin[i]], 1u);\n}\n"
	histNoBarrier := strings.Replace(histPrivatised, "    __syncthreads();\n    for (int b = threadIdx.x; b < bins; b += blockDim.x)\n        if", "    for (int b = threadIdx.x; b < bins; b += blockDim.x)\n        if", 1)
	aggRight := aggregationAggInc + aggregationBody()
	// What a correct kernel without the lesson's speed passes.
	slow := allBut(pFaster)
	return []scoringLab{
		{"histogram", []scoredMember{
			{"right", hist(histPrivatised), all, true}, // the lab's histPrivate, flagged
			{"renamed-reference", hist(renamed(histogram.KernelSource().Text, "histResident", "histogram")), all, true},
			{"blank", hist(histogram.AnswerTemplate), nothing, false},
			{"wrong", hist(strings.Replace(histPrivatised, "i < n;", "i < n - 1;", 1)), only(pCompiles, pRuns), false},
			{"partial-global-atomics", hist(histGlobal), allBut(pContend, pFaster), false},
			{"empty-kernel", hist("__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) {}\n"), only(pCompiles, pRuns), false},
			{"racy", hist(histNoBarrier), only(pCompiles, pRuns), true}, // the lab's histNoBarrier
			{"serial", hist(histSerial), slow, false},
		}},
		{"softmax", []scoredMember{
			{"right", sm(softmaxRight), all, false},
			{"renamed-reference", sm(renamed(softmax.Source(softmax.Shuffle).Text, "denomShuffle", "denomWarp")), all, true},
			{"blank", "var answer = softmax.Answer{}\n", nothing, false},
			{"wrong", sm(strings.Replace(softmaxRight, "(i < n)", "(i < n - 1)", 1)), only(pCompiles, pRuns), false},
			{"partial-per-element", sm(softmaxPerElement), allBut(pContend, pFaster), false},
			{"empty-kernel", sm("__global__ void denomWarp(const float* x, float* denom, int n) {}\n"), only(pCompiles, pRuns), false},
			{"racy", sm(strings.Replace(softmaxRight, "__syncthreads();", "", 1)), only(pCompiles, pRuns), false},
			{"serial", sm(softmaxSerial), slow, false},
		}},
		{"aggregation", []scoredMember{
			{"right", agg(aggRight), all, true}, // the lab's atomicAggInc
			{"renamed-reference", agg(renamed(aggregation.Buckets().Text, "bucketAggInc", "bucketAppend")), all, true},
			{"blank", agg(aggregation.AnswerTemplate), nothing, false},
			{"wrong", agg(strings.Replace(aggRight, "(i < n)", "(i < n - 1)", 1)), only(pCompiles, pRuns), true},
			{"empty-kernel", agg("__global__ void bucketAppend(const int* key, int n, const unsigned* start, unsigned* count, int* out) {}\n"), only(pCompiles, pRuns), false},
			{"serial", agg(aggregationSerial), slow, false},
		}},
		{"cas", []scoredMember{
			{"right", cs(casRight), all, true}, // the lab's maxCAS
			{"renamed-reference", cs(renamed(cas.KernelSource().Text, "maxCAS", "foldMax")), all, true},
			{"blank", cs(cas.AnswerTemplate), nothing, false},
			{"wrong", cs(strings.Replace(casRight, "(i < n)", "(i < n - 1)", 1)), only(pCompiles, pRuns), false},
			{"empty-kernel", cs("__global__ void foldMax(const float* v, int n, int C, float* m) {}\n"), only(pCompiles, pRuns), false},
			{"serial", cs(casSerial), allBut(pTime), false},
		}},
		{"ordering", []scoredMember{
			{"right", ord(orderingRight), all, false},
			{"blank", ord(ordering.AnswerTemplate), nothing, false},
			{"empty-kernel", ord("__global__ void publish(int* base, int trials, int* counts) {}\n"), only(pCompiles, pRuns), false},
		}},
		{"reproducible", []scoredMember{
			{"right", rep(reproducibleRight), all, false},
			{"blank", rep(reproducible.AnswerTemplate), nothing, false},
			{"wrong", rep(strings.Replace(reproducibleRight, "i < n;", "i < n - 1;", 1)), only(pCompiles, pRuns), false},
			{"empty-kernel", rep("__global__ void sum(const float* in, int n, float* out, float* partials, unsigned* done) {}\n"), only(pCompiles, pRuns), false},
			{"serial", rep(reproducibleSerial), allBut(pTime), false},
		}},
	}
}

func TestScoringRules(t *testing.T) {
	for _, l := range scoringLabs() {
		t.Run(l.lab, func(t *testing.T) {
			t.Parallel()
			k, err := LoadKey("keys/" + l.lab + ".toml")
			if err != nil {
				t.Fatal(err)
			}
			var members []classMember
			for _, m := range l.members {
				members = append(members, classMember{name: l.lab + "-" + m.name, data: notebookWith([]string{m.cell}, 0),
					expected: expectedScore(k, m.pass), flagged: m.flagged})
			}
			if members[0].expected != k.MaxScore() {
				t.Errorf("the reference solution would score %g of %g", members[0].expected, k.MaxScore())
			}
			checkClass(t, Batch(k, writeClass(t, t.TempDir(), members), 2), members)
		})
	}
}

// valueLab is a lab whose answer is numbers read from the student's own
// run, and prose graded by hand.
type valueLab struct {
	lab, key string
	// small, when not nil, replaces the exercise's variants with small
	// ones for the test (the real ones re-run for tens of seconds).
	small func(seed uint64) labs.Variant
	// cells returns, for the resolved settings of a student's variant,
	// the answer cells: "right", "wrong" and "partial" with why as the
	// prose; "blank" is an empty answer.
	cells func(t *testing.T, s labs.Settings, why string) map[string]string
	// wrong and partial are the parts they pass.
	wrong, partial passes
	// prose is an answer's prose that a rubric would pass, and false
	// prose that claims the wrong thing; both go to the instructor.
	prose, falseProse string
}

const randomWords = "purple elephants sing quietly under seven blue lamps"

func valueLabs() []valueLab {
	dev := func(t *testing.T) *gpu.Device {
		d, err := gpu.Open("sim:t4")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d
	}
	return []valueLab{
		{lab: "counters", key: "testdata/counters-small.toml",
			cells: func(t *testing.T, s labs.Settings, why string) map[string]string {
				c, err := counters.ConfigFrom(s)
				if err != nil {
					t.Fatal(err)
				}
				a, err := counters.Solution(dev(t), c)
				if err != nil {
					t.Fatal(err)
				}
				cell := func(slices int, padded bool, ms float64) string {
					return fmt.Sprintf("var answer = counters.Answer{Slices: %d, Padded: %v, Ms: %.5f, Why: %q}\n", slices, padded, ms, why)
				}
				return map[string]string{
					"right":   cell(a.Slices, a.Padded, a.Ms),
					"wrong":   cell(1<<20, true, a.Ms*3),
					"partial": cell(a.Slices, a.Padded, a.Ms*3),
					"blank":   "var answer = counters.Answer{}\n",
				}
			},
			wrong: nothing, partial: only("within the budget", "fastest within the budget"),
			prose:      "Padding puts each slice in its own line, so a warp's atomics queue on one line each and the longest chain is shortest.",
			falseProse: "Packed slices always win because fewer bytes means fewer atomics, whatever the rung.",
		},
		{lab: "queue", key: "testdata/queue-small.toml",
			cells: func(t *testing.T, s labs.Settings, why string) map[string]string {
				c, err := queue.ConfigFrom(s)
				if err != nil {
					t.Fatal(err)
				}
				a, err := queue.Solution(dev(t), c)
				if err != nil {
					t.Fatal(err)
				}
				cell := func(k int, ms float64) string {
					return fmt.Sprintf("var answer = queue.Answer{K: %d, Ms: %.5f, Why: %q}\n", k, ms, why)
				}
				return map[string]string{
					"right":   cell(a.K, a.Ms),
					"wrong":   cell(3, a.Ms*3),
					"partial": cell(a.K, a.Ms*3),
					"blank":   "var answer = queue.Answer{}\n",
				}
			},
			wrong: nothing, partial: only("fastest k"),
			prose:      "A smaller k pays one atomic pop per few items; a larger k leaves too few batches, so the heavy items' tail decides.",
			falseProse: "The largest k is always fastest because atomics are the only cost of a queue.",
		},
		{lab: "day26", key: "testdata/day26-variant.toml",
			small: func(seed uint64) labs.Variant {
				n := labs.Pick(seed, 0, 16384, 65536)
				return labs.Variant{Settings: map[string]string{"sizes": fmt.Sprint(n)}}
			},
			cells: func(t *testing.T, s labs.Settings, why string) map[string]string {
				sizes, err := s.Ints("sizes")
				if err != nil {
					t.Fatal(err)
				}
				bt, err := atomics.BlockSizes(dev(t), atomics.BlockSizeOptions{Sizes: sizes, Progress: labs.NoProgress()})
				if err != nil {
					t.Fatal(err)
				}
				return map[string]string{
					"right":   day26Cell(bt, why, false, false),
					"wrong":   day26Cell(bt, why, true, true),
					"partial": day26Cell(bt, why, false, true),
					"blank":   "var answer = atomics.Day26Answer{}\n",
				}
			},
			wrong: only("ratios at 64 threads"), partial: only("ratios at 64 threads", "fastest column"),
			prose:      day26Sentence,
			falseProse: "The tree column barely moves because warp shuffles never contend, whatever the block size.",
		},
	}
}

// TestValueLabScoring grades each value lab's class: the right answer
// (every automatic point, the prose pending), wrong, blank, partly right,
// 8 random words and a false claim as prose (pending: never scored
// automatically), and two students whose expected answers differ: the
// second hands in the first one's notebook, identity cell included, and
// is checked against their own variant. Then the instructor's marks are
// exported and imported.
func TestValueLabScoring(t *testing.T) {
	for _, l := range valueLabs() {
		t.Run(l.lab, func(t *testing.T) {
			t.Parallel()
			k, err := LoadKey(l.key)
			if err != nil {
				t.Fatal(err)
			}
			if l.small != nil {
				ex := *k.ex
				ex.Variant = l.small
				k.ex = &ex
			}
			var manual float64
			for _, c := range k.Checks {
				for _, p := range c.Manual {
					manual += p
				}
			}
			auto := k.MaxScore() - manual
			// Two students whose variants, and so answers, differ.
			first, second := "ada", ""
			for _, name := range []string{"bob", "cy", "dee", "eve", "fay", "gus", "hal", "ida", "jo"} {
				if k.Variant(name).String() != k.Variant(first).String() {
					va, _, _ := k.settingsFor(0, k.Variant(first))
					vb, _, _ := k.settingsFor(0, k.Variant(name))
					if l.cells(t, va, l.prose)["right"] != l.cells(t, vb, l.prose)["right"] {
						second = name
						break
					}
				}
			}
			if second == "" {
				t.Fatal("no student's answer differs from ada's")
			}
			set, _, err := k.settingsFor(0, k.Variant(first))
			if err != nil {
				t.Fatal(err)
			}
			cells := l.cells(t, set, l.prose)
			words := l.cells(t, set, randomWords)["right"]
			falseClaim := l.cells(t, set, l.falseProse)["right"]
			identity := "var student = \"" + first + "\"\n"
			nb := func(cell string) []byte { return notebookWith([]string{identity, cell}, 1) }
			members := []classMember{
				{name: first, data: nb(cells["right"]), expected: auto, pending: manual},
				{name: first + "-wrong", data: nb(cells["wrong"]), expected: expectedScore(k, l.wrong), pending: manual},
				{name: first + "-partial", data: nb(cells["partial"]), expected: expectedScore(k, l.partial), pending: manual},
				{name: first + "-blank", data: nb(cells["blank"])},
				{name: first + "-random-words", data: nb(words), expected: auto, pending: manual},
				{name: first + "-false-claim", data: nb(falseClaim), expected: auto, pending: manual},
			}
			// Submitted as first-wrong etc., these take their own variants:
			// grade them as first's by naming them first's submission.
			subs := writeClass(t, t.TempDir(), members)
			for i := range subs {
				subs[i].Student = first
			}
			copied := writeClass(t, t.TempDir(), []classMember{{name: second, data: nb(cells["right"])}})
			results := Batch(k, append(subs, copied...), 2)
			for i := range members {
				results[i].Student = members[i].name
			}
			checkClass(t, results[:len(members)], members)
			if r := results[len(members)]; !r.Gradable || r.Score >= auto || r.Variant == results[0].Variant {
				t.Errorf("%s handed in %s's right answer: got %g of %g automatic points under variant %q (%s's %q), want less",
					second, first, r.Score, auto, r.Variant, first, results[0].Variant)
			}
			for _, r := range results {
				for _, tt := range r.Tests {
					if tt.Manual && tt.Verdict == labs.Pass {
						t.Errorf("%s: %s passed without the instructor", r.Student, tt.Name)
					}
				}
			}

			// The instructor reads the prose and gives marks.
			var sheet bytes.Buffer
			if err := WriteManual(&sheet, results); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(sheet.String(), randomWords) || !strings.Contains(sheet.String(), l.falseProse) {
				t.Errorf("the manual sheet misses the students' prose:\n%s", sheet.String())
			}
			marks, err := ReadMarks(strings.NewReader(fillMarks(t, sheet.String(), map[string]string{first: fmt.Sprint(manual)})))
			if err != nil {
				t.Fatal(err)
			}
			if err := ApplyMarks(results, marks); err != nil {
				t.Fatal(err)
			}
			if r := results[0]; r.Score != k.MaxScore() || r.Pending != 0 {
				t.Errorf("after the marks, %s has %g of %g, %g pending: %s", r.Student, r.Score, k.MaxScore(), r.Pending, r.Message)
			}
			if r := results[4]; r.Pending != manual {
				t.Errorf("after the marks, %s (not marked) has %g pending, want %g", r.Student, r.Pending, manual)
			}
		})
	}
}

// fillMarks fills the points column of a manual sheet for the named
// students.
func fillMarks(t *testing.T, sheet string, points map[string]string) string {
	rows, err := csv.NewReader(strings.NewReader(sheet)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[1:] {
		if p, ok := points[r[0]]; ok {
			r[4] = p
			r[5] = "clear and right"
		}
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(rows)
	return b.String()
}
