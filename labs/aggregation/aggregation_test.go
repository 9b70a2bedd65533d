package aggregation

import (
	"strings"
	"testing"

	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
)

// small is a ladder that runs in a second: not a multiple of 32, so the
// last warp is partial.
var small = LadderOptions{N: 20000 + 7, KeysPerWarp: []int{1, 8, 32}, Progress: labs.NoProgress()}

func TestLadderCounters(t *testing.T) {
	l, err := Ladder(testenv.Open(t, "sim:t4"), small)
	if err != nil {
		t.Fatal(err)
	}
	if !l.OK() {
		t.Fatalf("a kernel's tickets are not a permutation:\n%s", l.Table())
	}
	in := compaction(small.N, 1)
	kept, warps := int64(len(in.kept)), keptWarps(in.data)
	for _, tc := range []struct {
		k                  Kernel
		keys               int
		lane, issued, grpd int64
		compilerAggregated bool
	}{
		// nvcc aggregates the per-lane atomicAdd to one counter: one per warp.
		{CompactAtomic, 1, kept, warps, warps, true},
		{CompactBallot, 1, warps, warps, warps, false},
		{CompactAggInc, 1, warps, warps, warps, false},
		// Hidden from the compiler, every kept lane sends its own.
		{CompactHidden, 1, kept, kept, warps, false},
		{BucketAtomic, 1, int64(small.N), int64(small.N), 0, false},
		{BucketAggInc, 32, int64(small.N), int64(small.N), 0, false},
	} {
		r, ok := l.Row(tc.k, tc.keys)
		if !ok {
			t.Fatalf("no row for %s at %d keys per warp", tc.k, tc.keys)
		}
		if r.LaneAtomics != tc.lane || r.Issued != tc.issued {
			t.Errorf("%s, %d keys per warp: %d lane atomics, %d reach the L2; want %d, %d", tc.k, tc.keys, r.LaneAtomics, r.Issued, tc.lane, tc.issued)
		}
		if tc.grpd > 0 && r.Groups != tc.grpd {
			t.Errorf("%s: %d warp groups, want %d", tc.k, r.Groups, tc.grpd)
		}
		if got := r.CompilerAggregated > 0; got != tc.compilerAggregated {
			t.Errorf("%s: %d folded by the compiler, want some: %v", tc.k, r.CompilerAggregated, tc.compilerAggregated)
		}
	}
	// atomicAggInc sends one atomic per (warp, key): the minimum.
	for _, d := range small.KeysPerWarp {
		r, _ := l.Row(BucketAggInc, d)
		if r.Issued != r.Groups {
			t.Errorf("bucketAggInc at %d keys per warp: %d atomics, want the %d warp groups", d, r.Issued, r.Groups)
		}
	}
	// Where the compiler cannot see one address, atomicAggInc pays; where
	// it can, the hand-written versions gain nothing.
	one, _ := l.Row(BucketAggInc, 1)
	if one.Speedup < 4 {
		t.Errorf("bucketAggInc at one key per warp is %.2fx the per-lane atomicAdd; want a large gain", one.Speedup)
	}
	for _, k := range []Kernel{CompactBallot, CompactAggInc} {
		if r, _ := l.Row(k, 1); r.Speedup > 1.2 || r.Speedup < 0.8 {
			t.Errorf("%s is %.2fx compactAtomic, which nvcc already aggregates; want about 1", k, r.Speedup)
		}
	}
	if h, _ := l.Row(CompactHidden, 1); h.Speedup > 0.5 {
		t.Errorf("compactHidden is %.2fx compactAtomic; want much slower", h.Speedup)
	}
	s := l.Table().String()
	for _, want := range []string{"one counter", "64 buckets, 8 keys per warp", "reach the L2", "modelled, t4 profile"} {
		if !strings.Contains(s, want) {
			t.Errorf("the table does not say %q:\n%s", want, s)
		}
	}
	if err := l.Chart().Validate(); err != nil {
		t.Error(err)
	}
	if err := l.AtomicsChart().Validate(); err != nil {
		t.Error(err)
	}
	if l.PredictedTable() != nil {
		t.Error("a simulated ladder has a predicted table")
	}
}

func TestLadderReplays(t *testing.T) {
	o := small
	o.KeysPerWarp = []int{4}
	a, err := Ladder(testenv.Open(t, "sim:h200?seed=5"), o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Ladder(testenv.Open(t, "sim:h200?seed=5"), o)
	if err != nil {
		t.Fatal(err)
	}
	if a.Table().String() != b.Table().String() {
		t.Errorf("the same spec gave two ladders:\n%s\n%s", a.Table(), b.Table())
	}
}

func TestLadderOptionErrors(t *testing.T) {
	d := testenv.Open(t, "sim:t4")
	for _, tc := range []struct {
		o    LadderOptions
		want string
	}{
		{LadderOptions{BlockSize: 100}, "multiple of 32"},
		{LadderOptions{BlockSize: 2048}, "at most 1024"},
		{LadderOptions{KeysPerWarp: []int{3}}, "want 1, 2, 4, 8, 16 or 32"},
		{LadderOptions{Buckets: 4, KeysPerWarp: []int{8}}, "at least as many buckets"},
		{LadderOptions{N: -1}, "at least 1 element"},
		{LadderOptions{Runs: -1}, "want at least 1"},
	} {
		_, err := Ladder(d, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Ladder(%+v) error %v, want one saying %q", tc.o, err, tc.want)
		}
	}
	if _, err := Order(d, OrderOptions{Kernels: []Kernel{BucketAtomic}}); err == nil {
		t.Error("Order accepted a bucket kernel")
	}
	if _, err := ParseKernel("nope"); err == nil {
		t.Error("ParseKernel accepted nope")
	}
	if k, err := ParseKernel("COMPACTAGGINC"); err != nil || k != CompactAggInc {
		t.Errorf("ParseKernel = %v, %v", k, err)
	}
}

func TestOrder(t *testing.T) {
	o, err := Order(testenv.Open(t, "sim:t4"), OrderOptions{N: 5000, Runs: 4, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if !o.OK() {
		t.Fatalf("a launch's output is not a permutation:\n%s", o.Table())
	}
	for _, k := range []Kernel{CompactAtomic, CompactAggInc} {
		if !o.Differs(k) {
			t.Errorf("%s gave the same order under four seeds:\n%s", k, o.Table())
		}
	}
	seeds := map[uint64]bool{}
	for _, r := range o.Rows {
		seeds[r.Seed] = true
	}
	if len(seeds) != len(o.Rows) {
		t.Errorf("%d launches ran under %d seeds, want one each", len(o.Rows), len(seeds))
	}
	if !strings.Contains(o.Table().String(), "positions moved") {
		t.Error("the order table has no moved column")
	}
	// The table's note: ?order=deterministic fixes the order.
	d, err := Order(testenv.Open(t, "sim:t4?order=deterministic"), OrderOptions{N: 5000, Runs: 3, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []Kernel{CompactAtomic, CompactAggInc} {
		if d.Differs(k) {
			t.Errorf("%s changed order under order=deterministic:\n%s", k, d.Table())
		}
	}
}

func TestCheckBuckets(t *testing.T) {
	in := layout([]int32{1, 0, 1, 1}, 2) // bucket 0: element 1; bucket 1: elements 0, 2, 3
	for _, tc := range []struct {
		count []uint32
		out   []int32
		want  string
	}{
		{[]uint32{1, 3}, []int32{1, 3, 0, 2}, ""},
		{[]uint32{1, 2}, []int32{1, 3, 0, 2}, "count[1] = 2, want 3"},
		{[]uint32{1, 3}, []int32{1, 3, 3, 2}, "bucket 1 holds element 3 twice"},
		{[]uint32{1, 3}, []int32{1, 3, 0, -1}, "bucket 1, slot 2 holds -1"},
		{[]uint32{1, 3}, []int32{0, 3, 1, 2}, "bucket 0, slot 0 holds element 0, whose key is 1"},
	} {
		got := checkBuckets(in, tc.count, tc.out)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("checkBuckets(%v, %v) = %q, want %q", tc.count, tc.out, got, tc.want)
		}
	}
}

// solution is the exercise's answer as the lab's reference writes it.
var solution = strings.Replace(AnswerTemplate, "    return atomicAdd(ptr, 1u); // TODO: aggregate with __match_any_sync\n", `    unsigned group = __match_any_sync(__activemask(), (unsigned long long)ptr);
    int lane = threadIdx.x & 31;
    int leader = __ffs(group) - 1;
    unsigned first = 0;
    if (lane == leader) first = atomicAdd(ptr, (unsigned)__popc(group));
    first = __shfl_sync(group, first, leader);
    return first + __popc(group & ((1u << lane) - 1u));
`, 1)

// quick is the check on two sizes and two seeds, for tests.
func quick(t *testing.T, src string) labs.Feedback {
	t.Helper()
	c := exerciseConfig()
	c.Sizes, c.Seeds = []int{1000, 4133}, []uint64{1, 2}
	return theExercise.CheckConfig(testenv.Open(t, "sim:t4"), Answer{Source: src}, c)
}

func TestExercise(t *testing.T) {
	if solution == AnswerTemplate {
		t.Fatal("the solution did not replace the template's body")
	}
	f := quick(t, solution)
	if !f.OK() {
		t.Fatalf("the solution fails:\n%s", f)
	}
	if p, _ := f.Part(kernelcheck.PartCorrect); !strings.Contains(p.Message, "permutation") {
		t.Errorf("the correct part does not say the tickets were checked: %q", p.Message)
	}
	for _, tc := range []struct {
		name, src, part string
		verdict         labs.Verdict
		want            string
	}{
		{"template", AnswerTemplate, "answer", labs.Unanswered, "not answered yet"},
		{"empty", "", kernelcheck.PartCompiles, labs.Unanswered, "not answered yet"},
		{"per lane", strings.Replace(AnswerTemplate, "atomicAdd(ptr, 1u);", "atomicAdd(ptr, 1);", 1),
			kernelcheck.PartContention, labs.Fail, "one per distinct key in each warp"},
		{"leader adds one", strings.Replace(solution, "(unsigned)__popc(group)", "1u", 1),
			kernelcheck.PartCorrect, labs.Fail, "count["},
		{"no rank", strings.Replace(solution, "return first + __popc(group & ((1u << lane) - 1u));", "return first;", 1),
			kernelcheck.PartCorrect, labs.Fail, "nobody wrote"},
		{"compile error", strings.Replace(solution, "int leader", "int leader = ", 1),
			kernelcheck.PartCompiles, labs.Fail, "answer.cu:"},
		{"endless loop", strings.Replace(solution, "unsigned first = 0;", "unsigned first = 0; while (first == 0) {}", 1),
			kernelcheck.PartRuns, labs.Fail, "budget"},
		{"wrong kernel", strings.Replace(solution, "bucketAppend", "append", 1),
			kernelcheck.PartCompiles, labs.Fail, "no kernel named bucketAppend"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := quick(t, tc.src)
			p, ok := f.Part(tc.part)
			if !ok {
				t.Fatalf("no part %q:\n%s", tc.part, f)
			}
			if p.Verdict != tc.verdict || !strings.Contains(p.Message, tc.want) {
				t.Errorf("part %q: %s %q; want %s saying %q\n%s", tc.part, p.Verdict, p.Message, tc.verdict, tc.want, f)
			}
			if f.OK() {
				t.Errorf("a wrong answer passes:\n%s", f)
			}
		})
	}
}

func TestLabContract(t *testing.T) {
	l, err := labs.Lookup("aggregation")
	if err != nil {
		t.Fatal(err)
	}
	info := l.Info()
	if info.Exercise == nil || info.Notebook != "notebooks/aggregation.ipynb" || len(info.Sources) != 2 {
		t.Errorf("info %+v", info)
	}
	r, err := labs.Run(testenv.Open(t, "sim:t4"), "aggregation", map[string]string{"n": "5000", "keys-per-warp": "1,32", "order-n": "3000", "order-runs": "2"}, labs.NoProgress())
	if err != nil {
		t.Fatal(err)
	}
	if got := len(r.Tables()); got != 2 {
		t.Errorf("%d tables on the simulator, want 2 (the ladder, the order)", got)
	}
	if got := len(r.Figures()); got != 2 {
		t.Errorf("%d figures, want 2", got)
	}
	for _, bad := range []map[string]string{{"n": "0"}, {"keys-per-warp": "3"}, {"block-size": "33"}, {"nope": "1"}, {"order-runs": "1"}} {
		if _, err := labs.Run(testenv.Open(t, "sim:t4"), "aggregation", bad, labs.NoProgress()); err == nil {
			t.Errorf("settings %v ran", bad)
		}
	}
	fb, err := labs.Check(testenv.Open(t, "sim:t4"), "aggregation", &Answer{Source: AnswerTemplate}, map[string]string{"sizes": "100", "seeds": "1"})
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := fb.Part("answer"); p.Verdict != labs.Unanswered {
		t.Errorf("the template through labs.Check:\n%s", fb)
	}
	fb, err = labs.Check(testenv.Open(t, "sim:t4"), "aggregation", "not an answer", nil)
	if err != nil || fb.OK() {
		t.Errorf("a string answer: %v\n%s", err, fb)
	}
}
