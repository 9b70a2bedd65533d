package ordering

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
)

var quick = PublishOptions{Pairs: 8, Trials: 8, Launches: 4, Progress: labs.NoProgress()}

// TestPublishSimulated: on the simulator every variant but the
// device-scope fence reads a stale payload under the relaxed model, the
// fence never does, and the first stale seed reproduces one.
func TestPublishSimulated(t *testing.T) {
	pt, err := Publish(testenv.Open(t, "sim:h200?seed=11"), quick)
	if err != nil {
		t.Fatal(err)
	}
	if !pt.Simulated || !strings.Contains(pt.Spec, "memory=relaxed") {
		t.Fatalf("spec %q, simulated %v: want the relaxed model", pt.Spec, pt.Simulated)
	}
	for _, r := range pt.Rows {
		if r.Trials != int64(quick.Pairs*quick.Trials*quick.Launches) || r.Timeouts != 0 {
			t.Errorf("%s: %d trials, %d timeouts", r.Variant.Short(), r.Trials, r.Timeouts)
		}
		if r.Variant.Correct() {
			if r.Stale != 0 {
				t.Errorf("%s: %d stale reads; the model forbids them", r.Variant.Short(), r.Stale)
			}
			continue
		}
		if r.Stale == 0 || r.FirstStaleSeed == 0 {
			t.Errorf("%s: no stale read in %d trials; the model allows them", r.Variant.Short(), r.Trials)
			continue
		}
		// The seed reproduces it, alone on a fresh device.
		one := quick
		one.Launches, one.Variants = 1, []Variant{r.Variant}
		again, err := Publish(testenv.Open(t, "sim:h200?seed="+strconv.FormatUint(r.FirstStaleSeed, 10)), one)
		if err != nil {
			t.Fatal(err)
		}
		if again.Rows[0].Stale == 0 || again.Rows[0].FirstStaleSeed != r.FirstStaleSeed {
			t.Errorf("%s: seed %d does not reproduce the stale read: %+v", r.Variant.Short(), r.FirstStaleSeed, again.Rows[0])
		}
	}
	tab := pt.Table().String()
	for _, want := range []string{"1689600 of 1689600", "stale read forbidden", "before the spin loop"} {
		if !strings.Contains(tab, want) {
			t.Errorf("the table lacks %q:\n%s", want, tab)
		}
	}
}

// TestPublishAtomicRef: the cuda::atomic_ref flag of kernels/mp.cu on the
// relaxed model over more seeds: store(release) / load(acquire) never
// reads a stale payload (PTX forbids it), the relaxed pair does for some
// seed (PTX allows it), and the table quotes the H200's release/acquire
// run beside them.
func TestPublishAtomicRef(t *testing.T) {
	o := PublishOptions{Pairs: 16, Trials: 8, Launches: 24, Variants: []Variant{RelAcq, RelaxedRef}, Progress: labs.NoProgress()}
	pt, err := Publish(testenv.Open(t, "sim:h200?seed=1"), o)
	if err != nil {
		t.Fatal(err)
	}
	ra, rr := pt.Rows[0], pt.Rows[1]
	if ra.Variant != RelAcq || rr.Variant != RelaxedRef {
		t.Fatalf("rows %s, %s", ra.Variant, rr.Variant)
	}
	if ra.Stale != 0 || ra.Timeouts != 0 {
		t.Errorf("release/acquire: %d stale reads, %d timeouts in %d trials; PTX forbids stale reads", ra.Stale, ra.Timeouts, ra.Trials)
	}
	if rr.Stale == 0 || rr.FirstStaleSeed == 0 {
		t.Errorf("relaxed atomic_ref: no stale read in %d trials; PTX allows them", rr.Trials)
	}
	t.Logf("release/acquire %d of %d stale; relaxed %d of %d (first seed %d)", ra.Stale, ra.Trials, rr.Stale, rr.Trials, rr.FirstStaleSeed)
	tab := pt.Table().String()
	for _, want := range []string{"release-acquire", "store release, load acquire", "relaxed-ref", "0 of 1689600"} {
		if !strings.Contains(tab, want) {
			t.Errorf("the table lacks %q:\n%s", want, tab)
		}
	}
	if !strings.Contains(Source().Text, "cuda::atomic_ref<int, cuda::thread_scope_device>") {
		t.Error("kernels/mp.cu has no device-scope atomic_ref")
	}
}

// TestPublishSequential: the default model never reads stale; the lab
// switches to the relaxed one itself.
func TestPublishSequential(t *testing.T) {
	d := testenv.Open(t, "sim:t4")
	if d.Spec().Memory() != gpu.MemorySC {
		t.Fatalf("sim:t4 runs %v by default", d.Spec().Memory())
	}
	s := RelaxedSpec(d.Spec())
	if s.Memory() != gpu.MemoryRelaxed || s.Seed() != d.Spec().Seed() || s.Profile() != "t4" {
		t.Errorf("RelaxedSpec(%s) = %s", d.Spec(), s)
	}
	m, err := d.Compile(kernelFile, []byte(Source().Text))
	if err != nil {
		t.Fatal(err)
	}
	k, err := m.Kernel(string(Volatile))
	if err != nil {
		t.Fatal(err)
	}
	row, err := publishOne(d, k, Volatile, PublishOptions{Pairs: 8, Trials: 8, Launches: 3}, func() {})
	if err != nil {
		t.Fatal(err)
	}
	if row.Stale != 0 {
		t.Errorf("%d stale reads under sequential consistency", row.Stale)
	}
}

func TestPublishOptions(t *testing.T) {
	d := testenv.Open(t, "sim:t4")
	for _, tc := range []struct {
		o    PublishOptions
		want string
	}{
		{PublishOptions{Pairs: -1}, "pairs = -1: want 1 to 1024"},
		{PublishOptions{Trials: maxTrials + 1}, "trials = 1025"},
		{PublishOptions{Launches: -3}, "launches = -3"},
		{PublishOptions{Variants: []Variant{"mpSometimes"}}, `unknown variant "mpSometimes"`},
	} {
		_, err := Publish(d, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Publish(%+v) = %v, want an error containing %q", tc.o, err, tc.want)
		}
	}
	if _, err := Lab(d, Options{Predict: "cuda"}); err != nil {
		t.Errorf("predict is ignored on the simulator, got %v", err)
	}
	if _, err := Scope(d, ScopeOptions{Adds: maxScopeAdds + 1}); err == nil || err.Error() != fmt.Sprintf("ordering: scope adds = %d: want 1 to %d", maxScopeAdds+1, maxScopeAdds) {
		t.Errorf("Scope with too many adds: %v", err)
	}
	if _, err := Litmus(d, LitmusOptions{Launches: -2}); err == nil || err.Error() != fmt.Sprintf("ordering: litmus launches = -2: want 1 to %d", maxLaunches) {
		t.Errorf("Litmus with -2 launches: %v", err)
	}
}

const (
	producerFence = "*(volatile int*)payload = t;\n"
	consumerLoad  = "int got = *(volatile int*)payload;"
)

// fixed returns the template with fence inserted after the payload store
// and before the payload load.
func fixed(producer, consumer string) string {
	s := strings.Replace(AnswerTemplate, producerFence, producerFence+"            "+producer+"\n", 1)
	return strings.Replace(s, consumerLoad, consumer+"\n            "+consumerLoad, 1)
}

// blockAtomics publishes and observes the flag with block-scope atomics
// instead of volatile accesses.
func blockAtomics(src string) string {
	src = strings.Replace(src, "*(volatile int*)flag = t;", "atomicExch_block(flag, t);", 1)
	return strings.Replace(src, "while (*(volatile int*)flag != t", "while (atomicAdd_block(flag, 0) != t", 1)
}

// atomicRef publishes and observes the flag through a device-scope
// cuda::atomic_ref with the orders given (as kernels/mp.cu's mpRelAcq and
// mpRelaxedRef do).
func atomicRef(store, load string) string {
	src := "#include <cuda/atomic>\n" + AnswerTemplate
	src = strings.Replace(src, "*(volatile int*)flag = t;",
		"cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(t, cuda::memory_order_"+store+");", 1)
	return strings.Replace(src, "while (*(volatile int*)flag != t",
		"while (cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).load(cuda::memory_order_"+load+") != t", 1)
}

func part(f labs.Feedback, name string) *labs.Part {
	for i := range f.Parts {
		if f.Parts[i].Name == name {
			return &f.Parts[i]
		}
	}
	return nil
}

func TestExercise(t *testing.T) {
	d := testenv.Open(t, "sim:h200")
	if f := Check(d, Answer{Source: AnswerTemplate}); f.Parts[0].Verdict != labs.Unanswered {
		t.Errorf("the template: %s", f)
	}
	seedRE := regexp.MustCompile(`reproduce with (sim:h200\?seed=(\d+)&memory=relaxed)`)
	for _, tc := range []struct {
		name, src       string
		correct, narrow bool
	}{
		{"no order", strings.Replace(AnswerTemplate, "// publish", "// publish, unordered", 1), false, false},
		{"block fences", fixed("__threadfence_block();", "__threadfence_block();"), false, false},
		{"block-scope atomics and fences", blockAtomics(fixed("__threadfence_block();", "__threadfence_block();")), false, false},
		// The simulator finds no stale read here (its fences do not ask
		// whether the flag's atomics were morally strong), so the scope
		// part says what PTX does.
		{"block-scope atomics, device fences", blockAtomics(fixed("__threadfence();", "__threadfence();")), true, false},
		{"producer fence only", fixed("__threadfence();", ""), false, false},
		{"consumer fence only", fixed("", "__threadfence();"), false, false},
		{"device fences", fixed("__threadfence();", "__threadfence();"), true, true},
		{"system fences", fixed("__threadfence_system();", "__threadfence_system();"), true, false},
		{"atomic_ref release/acquire", atomicRef("release", "acquire"), true, true},
		{"atomic_ref relaxed", atomicRef("relaxed", "relaxed"), false, false},
		{"atomic_ref release, relaxed load", atomicRef("release", "relaxed"), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Check(d, Answer{Source: tc.src})
			c := part(f, kernelcheck.PartCorrect)
			if c == nil || (c.Verdict == labs.Pass) != tc.correct {
				t.Fatalf("correct part: %+v, want pass %v\n%s", c, tc.correct, f)
			}
			if tc.correct && (!strings.Contains(c.Message, "no consumer read a stale payload") || strings.Contains(c.Message, "double reference")) {
				t.Errorf("a right answer's correct part does not say what was checked: %q", c.Message)
			}
			if !tc.correct {
				m := seedRE.FindStringSubmatch(c.Message)
				if m == nil {
					t.Fatalf("the failure names no spec that reproduces it: %s", c.Message)
				}
				// The named spec reproduces the stale read.
				cfg := exerciseConfig()
				s, _ := strconv.ParseUint(m[2], 10, 64)
				cfg.Seeds = []uint64{s}
				g := kernelcheck.CheckConfig(d, harness(), tc.src, cfg)
				if p := part(g, kernelcheck.PartCorrect); p == nil || p.Verdict != labs.Fail {
					t.Errorf("%s does not reproduce the stale read: %s", m[1], g)
				}
				if part(f, PartScope) != nil {
					t.Errorf("a wrong answer is judged on scope too")
				}
				return
			}
			p := part(f, PartScope)
			if p == nil || (p.Verdict == labs.Pass) != tc.narrow {
				t.Errorf("scope part: %+v, want pass %v", p, tc.narrow)
			}
			if strings.Contains(tc.src, "_block(") && (p == nil || !strings.Contains(p.Message, "atomicExch_block(")) {
				t.Errorf("scope part does not name the block-scope atomic: %+v", p)
			}
		})
	}
}

func TestExerciseSettings(t *testing.T) {
	ex := exercise()
	s, err := labs.Resolve("ordering exercise", ex.Options, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := kernelcheck.ConfigFrom(s)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Memory != gpu.MemoryRelaxed || len(cfg.Seeds) != 24 {
		t.Errorf("the exercise checks under %v with %d seeds; want relaxed, 24", cfg.Memory, len(cfg.Seeds))
	}
	bad, err := labs.Resolve("ordering exercise", ex.Options, map[string]string{kernelcheck.OptMemory: "weak"})
	if err == nil {
		_, err = kernelcheck.ConfigFrom(bad)
	}
	if err == nil || !strings.Contains(err.Error(), "want sc or relaxed") {
		t.Errorf("memory=weak: %v", err)
	}
}

func TestRegistered(t *testing.T) {
	l, err := labs.Lookup("ordering")
	if err != nil {
		t.Fatal(err)
	}
	info := l.Info()
	if _, err := os.Stat("../../" + info.Notebook); err != nil {
		t.Errorf("notebook: %v", err)
	}
	if info.Exercise == nil || info.Exercise.AnswerType() != "ordering.Answer" {
		t.Errorf("exercise: %+v", info.Exercise)
	}
	for _, o := range l.Options() {
		if o.Usage == "" {
			t.Errorf("option %s has no usage", o.Name)
		}
		if o.Kind == labs.Int && o.Max == 0 {
			t.Errorf("option %s is unbounded", o.Name)
		}
	}
	rep, err := l.Run(testenv.Open(t, "sim:t4"), mustResolve(t, l.Options(), map[string]string{"pairs": "4", "trials": "4", "launches": "2"}), labs.NoProgress())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tables()) != 3 || len(rep.Figures()) != 1 {
		t.Errorf("%d tables, %d figures on the simulator; want 3, 1", len(rep.Tables()), len(rep.Figures()))
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Error(err)
	}
}

// TestScopeSimulated: under the relaxed model atomicAdd_block from many
// blocks loses updates for some seed, which replays alone; atomicAdd
// never does; under sequential consistency neither does.
func TestScopeSimulated(t *testing.T) {
	o := ScopeOptions{Blocks: 16, Adds: 2, Launches: 6, Progress: labs.NoProgress()}
	st, err := Scope(testenv.Open(t, "sim:h200?seed=3"), o)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Simulated || !strings.Contains(st.Spec, "memory=relaxed") || len(st.Rows) != 2 {
		t.Fatalf("%+v: want two rows under the relaxed model", st)
	}
	dev, blk := st.Rows[0], st.Rows[1]
	if dev.Kernel != CountDevice || dev.Short != 0 || dev.Want != 16*32*2 {
		t.Errorf("device scope: %+v", dev)
	}
	if blk.Kernel != CountBlock || blk.Short == 0 || blk.Lost <= 0 || blk.FirstShortSeed < 3 {
		t.Fatalf("block scope never lost an update: %+v", blk)
	}
	replay := st.ReplaySpec(blk)
	tab := st.Table().String()
	for _, want := range []string{replay, "not atomic between blocks", "Allowed, not promised", "0 of 50 launches of countBlock"} {
		if !strings.Contains(tab, want) {
			t.Errorf("the table lacks %q:\n%s", want, tab)
		}
	}
	// The replay spec's first launch of countBlock loses updates again:
	// its first launch is countDevice's, so ask for the block kernel's
	// seed directly on a device whose launch 0 is that seed.
	d := testenv.Open(t, replay)
	m, err := d.Compile(scopeFile, []byte(ScopeSource().Text))
	if err != nil {
		t.Fatal(err)
	}
	k, err := m.Kernel(CountBlock)
	if err != nil {
		t.Fatal(err)
	}
	c, err := gpu.NewBuffer[int32](d, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(16), Block: gpu.D1(32)}, c, int32(2)); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Download(); int64(got[0]) == blk.Want {
		t.Errorf("%s: countBlock counted all %d updates on replay", replay, blk.Want)
	}
	// Sequential consistency: the lab switches to the relaxed model
	// itself, so run the kernels directly on the default model.
	sc := testenv.Open(t, "sim:h200?seed=3")
	m, err = sc.Compile(scopeFile, []byte(ScopeSource().Text))
	if err != nil {
		t.Fatal(err)
	}
	k, _ = m.Kernel(CountBlock)
	for range 4 {
		c.Free()
		c, _ = gpu.NewBuffer[int32](sc, 1)
		if _, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(16), Block: gpu.D1(32)}, c, int32(2)); err != nil {
			t.Fatal(err)
		}
		if got, _ := c.Download(); int64(got[0]) != blk.Want {
			t.Errorf("sequential consistency: countBlock counted %d, want %d", got[0], blk.Want)
		}
	}
	if _, err := Scope(testenv.Open(t, "sim:t4"), ScopeOptions{Blocks: 5000}); err == nil {
		t.Error("5000 blocks accepted")
	}
}

// TestLitmusSimulated: under the relaxed model store buffering and load
// buffering show their weak outcomes without fences, for a seed that
// replays them, and never with device-scope fences.
func TestLitmusSimulated(t *testing.T) {
	o := LitmusOptions{Pairs: 16, Launches: 6, Progress: labs.NoProgress()}
	lt, err := Litmus(testenv.Open(t, "sim:h200?seed=5"), o)
	if err != nil {
		t.Fatal(err)
	}
	if !lt.Simulated || !strings.Contains(lt.Spec, "memory=relaxed") || len(lt.Rows) != len(LitmusShapes()) {
		t.Fatalf("%+v: want a row per shape under the relaxed model", lt)
	}
	for _, r := range lt.Rows {
		if r.Trials != 16*6 {
			t.Errorf("%s: %d trials", r.Kernel, r.Trials)
		}
		if !r.Allowed {
			if r.Weak > 0 {
				t.Errorf("%s: %d weak outcomes; PTX forbids them", r.Kernel, r.Weak)
			}
			continue
		}
		if r.Weak == 0 || r.FirstWeakSeed < 5 {
			t.Errorf("%s: no weak outcome in %d pairs; PTX allows it", r.Kernel, r.Trials)
			continue
		}
		// The first weak seed replays it: a device whose first launch has
		// that seed, running only this kernel.
		d := testenv.Open(t, "sim:h200?memory=relaxed&seed="+strconv.FormatUint(r.FirstWeakSeed, 10))
		m, err := d.Compile(litmusFile, []byte(LitmusSource().Text))
		if err != nil {
			t.Fatal(err)
		}
		k, _ := m.Kernel(r.Kernel)
		base, _ := gpu.NewBuffer[int32](d, 16*2*stride)
		out, _ := gpu.NewBuffer[int32](d, 32)
		if _, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(32), Block: gpu.D1(32)}, base, out); err != nil {
			t.Fatal(err)
		}
		got, _ := out.Download()
		weak := 0
		for i := 0; i < 16; i++ {
			if r.weak(got[2*i], got[2*i+1]) {
				weak++
			}
		}
		if weak == 0 {
			t.Errorf("%s: seed %d does not replay the weak outcome", r.Kernel, r.FirstWeakSeed)
		}
	}
	if s := lt.Table().String(); !strings.Contains(s, "load buffering") || !strings.Contains(s, "forbidden") {
		t.Errorf("table:\n%s", s)
	}
}

func mustResolve(t *testing.T, opts []labs.Option, v map[string]string) labs.Settings {
	t.Helper()
	s, err := labs.Resolve("ordering", opts, v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
