package ordering

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
)

func open(t testing.TB, spec string) *gpu.Device {
	t.Helper()
	d, err := gpu.Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

var quick = PublishOptions{Pairs: 8, Trials: 8, Launches: 4, Progress: labs.NoProgress()}

// TestPublishSimulated: on the simulator every variant but the
// device-scope fence reads a stale payload under the relaxed model, the
// fence never does, and the first stale seed reproduces one.
func TestPublishSimulated(t *testing.T) {
	pt, err := Publish(open(t, "sim:h200?seed=11"), quick)
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
		again, err := Publish(open(t, "sim:h200?seed="+strconv.FormatUint(r.FirstStaleSeed, 10)), one)
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

// TestPublishSequential: the default model never reads stale; the lab
// switches to the relaxed one itself.
func TestPublishSequential(t *testing.T) {
	d := open(t, "sim:t4")
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
	d := open(t, "sim:t4")
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

func part(f labs.Feedback, name string) *labs.Part {
	for i := range f.Parts {
		if f.Parts[i].Name == name {
			return &f.Parts[i]
		}
	}
	return nil
}

func TestExercise(t *testing.T) {
	d := open(t, "sim:h200")
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
		{"producer fence only", fixed("__threadfence();", ""), false, false},
		{"consumer fence only", fixed("", "__threadfence();"), false, false},
		{"device fences", fixed("__threadfence();", "__threadfence();"), true, true},
		{"system fences", fixed("__threadfence_system();", "__threadfence_system();"), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Check(d, Answer{Source: tc.src})
			c := part(f, kernelcheck.PartCorrect)
			if c == nil || (c.Verdict == labs.Pass) != tc.correct {
				t.Fatalf("correct part: %+v, want pass %v\n%s", c, tc.correct, f)
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
	rep, err := l.Run(open(t, "sim:t4"), mustResolve(t, l.Options(), map[string]string{"pairs": "4", "trials": "4", "launches": "2"}), labs.NoProgress())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tables()) != 1 || len(rep.Figures()) != 1 {
		t.Errorf("%d tables, %d figures on the simulator; want 1, 1", len(rep.Tables()), len(rep.Figures()))
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Error(err)
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
