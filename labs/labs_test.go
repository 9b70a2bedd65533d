package labs_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
)

type fakeReport struct{ sizes []int }

func (fakeReport) Tables() []*charts.Table { return nil }
func (fakeReport) Figures() []labs.Figure  { return nil }
func (fakeReport) Elapsed() time.Duration  { return time.Second }

type fakeLab struct{}

func (fakeLab) Info() labs.Info {
	return labs.Info{Name: "fake", Aliases: []string{"fk"}, Title: "A fake lab"}
}

func (fakeLab) Options() []labs.Option {
	return []labs.Option{
		{Name: "sizes", Kind: labs.Ints, Default: "4096,65536", Max: 1 << 20},
		{Name: "block-size", Kind: labs.Int, Default: "256", Max: 1024, Valid: powerOfTwo},
		{Name: "tolerance", Kind: labs.Float, Default: "0.1"},
		{Name: "order", Kind: labs.String, Default: "seeded", Choices: []string{"seeded", "deterministic"}},
		{Name: "runs", Kind: labs.Int, Max: 100},
	}
}

func powerOfTwo(x int) error {
	if x&(x-1) != 0 {
		return errors.New("want a power of two")
	}
	return nil
}

func (fakeLab) Run(dev *gpu.Device, s labs.Settings, p labs.Progress) (labs.Report, error) {
	sizes, err := s.Ints("sizes")
	if err != nil {
		return nil, err
	}
	return fakeReport{sizes}, nil
}

func init() { labs.Register(fakeLab{}) }

func TestLookup(t *testing.T) {
	for _, name := range []string{"fake", "fk"} {
		l, err := labs.Lookup(name)
		if err != nil || l.Info().Name != "fake" {
			t.Errorf("Lookup(%q) = %v, %v; want the fake lab", name, l, err)
		}
	}
	_, err := labs.Lookup("nope")
	if err == nil || !strings.Contains(err.Error(), `no lab "nope"`) || !strings.Contains(err.Error(), "fake") {
		t.Errorf("Lookup(nope) error = %v; want one naming the lab and listing the labs", err)
	}
	found := false
	for _, l := range labs.All() {
		found = found || l.Info().Name == "fake"
	}
	if !found {
		t.Error("All does not list the registered lab")
	}
}

func TestRegisterTwicePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering a second lab under an existing alias did not panic")
		}
	}()
	labs.Register(aliasClash{})
}

type aliasClash struct{ fakeLab }

func (aliasClash) Info() labs.Info { return labs.Info{Name: "other", Aliases: []string{"fk"}} }

func TestRunSettings(t *testing.T) {
	r, err := labs.Run(nil, "fake", map[string]string{"sizes": "1, 2,3"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.(fakeReport).sizes; len(got) != 3 || got[0] != 1 || got[2] != 3 {
		t.Errorf("sizes = %v, want [1 2 3]", got)
	}
	r, err = labs.Run(nil, "fake", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.(fakeReport).sizes; len(got) != 2 || got[1] != 65536 {
		t.Errorf("default sizes = %v, want [4096 65536]", got)
	}
}

func TestResolveErrors(t *testing.T) {
	opts := fakeLab{}.Options()
	for _, c := range []struct {
		set  map[string]string
		want string
	}{
		{map[string]string{"size": "1"}, `fake has no option "size" (options: sizes, block-size, tolerance, order, runs)`},
		{map[string]string{"block-size": "96"}, "fake: block-size=96: 96: want a power of two"},
		{map[string]string{"runs": "0"}, "fake: runs=0: 0: want at least 1"},
		{map[string]string{"runs": "1,2"}, "fake: runs=1,2: want one whole number"},
		{map[string]string{"sizes": "10000000000"}, "fake: sizes=10000000000: 10000000000: at most 1048576"},
		{map[string]string{"sizes": "12,x"}, `fake: sizes=12,x: "x" is not a whole number`},
		{map[string]string{"sizes": "-3"}, "sizes=-3: -3: want at least 1"},
		{map[string]string{"block-size": "128,256"}, "block-size=128,256: want one whole number"},
		{map[string]string{"block-size": ""}, "block-size=: want one whole number"},
		{map[string]string{"tolerance": "NaN"}, `tolerance=NaN: "NaN" is not a finite number`},
		{map[string]string{"order": "random"}, "order=random: want one of seeded, deterministic"},
	} {
		_, err := labs.Resolve("fake", opts, c.set)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Resolve(%v) error = %v, want it to contain %q", c.set, err, c.want)
		}
	}
}

// An Int option with no default may stay empty: the lab chooses.
func TestOptionalInt(t *testing.T) {
	opts := fakeLab{}.Options()
	s, err := labs.Resolve("fake", opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.Int("runs"); n != 0 || err != nil {
		t.Errorf("Int(runs) unset = %d, %v; want 0, nil", n, err)
	}
	if n, err := s.Int("block-size"); n != 256 || err != nil {
		t.Errorf("Int(block-size) = %d, %v; want 256, nil", n, err)
	}
	s, err = labs.Resolve("fake", opts, map[string]string{"runs": "7", "block-size": "64"})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.Int("runs"); n != 7 || err != nil {
		t.Errorf("Int(runs) = %d, %v; want 7, nil", n, err)
	}
}

func TestKindJSON(t *testing.T) {
	b, err := json.Marshal(fakeLab{}.Options()[:4])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"kind":"ints"`, `"kind":"int"`, `"kind":"float"`, `"kind":"string"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("options JSON lacks %s: %s", want, b)
		}
	}
	var back []labs.Option
	if err := json.Unmarshal(b, &back); err != nil || back[0].Kind != labs.Ints || back[3].Kind != labs.String {
		t.Errorf("options JSON does not read back: %+v, %v", back, err)
	}
	var k labs.Kind
	if err := json.Unmarshal([]byte(`"list"`), &k); err == nil || !strings.Contains(err.Error(), `no kind "list"`) {
		t.Errorf("unmarshal of a bad kind: %v", err)
	}
}

func TestParseSet(t *testing.T) {
	m, err := labs.ParseSet([]string{"sizes=1,2", " block-size = 64", "sizes=3"})
	if err != nil {
		t.Fatal(err)
	}
	if m["sizes"] != "3" || m["block-size"] != "64" || len(m) != 2 {
		t.Errorf("ParseSet = %v", m)
	}
	for _, bad := range []string{"sizes", "=3", " =3"} {
		if _, err := labs.ParseSet([]string{bad}); err == nil || !strings.Contains(err.Error(), "want KEY=VALUE") {
			t.Errorf("ParseSet(%q) error = %v, want KEY=VALUE", bad, err)
		}
	}
}

func TestFeedback(t *testing.T) {
	var f labs.Feedback
	if f.OK() {
		t.Error("empty feedback is OK")
	}
	f.Exercise = "Test exercise"
	f.Passf("compiles", "kernel %s compiled", "warpSum").MaxPoints = 1
	f.Parts[0].Points = 1
	if !f.OK() {
		t.Error("feedback with one passing part is not OK")
	}
	f.Add("going further", labs.Note, "try 1024 threads")
	if !f.OK() {
		t.Error("a note made the feedback not OK")
	}
	p := f.Failf("sum", "got <b>%d</b>, want %d", 3, 4)
	p.Hint, p.MaxPoints = 2, 3
	if f.OK() {
		t.Error("feedback with a failing part is OK")
	}
	if got, max := f.Score(); got != 1 || max != 4 {
		t.Errorf("Score = %g/%g, want 1/4", got, max)
	}
	if part, ok := f.Part("sum"); !ok || part.Hint != 2 || part.Visibility != labs.Visible {
		t.Errorf("Part(sum) = %+v, %v", part, ok)
	}
	s := f.String()
	for _, want := range []string{"Test exercise: not yet", "[ok]   compiles: kernel warpSum compiled [1/1]", "[note] going further", "[todo] sum: got <b>3</b>, want 4 (Hint 2) [0/3]"} {
		if !strings.Contains(s, want) {
			t.Errorf("String() = %q, missing %q", s, want)
		}
	}
	h := f.HTML()
	if strings.Contains(h, "<b>3</b>") || !strings.Contains(h, "&lt;b&gt;3&lt;/b&gt;") || !strings.Contains(h, "read Hint 2") {
		t.Errorf("HTML() does not escape the message or lacks the hint: %s", h)
	}
	if md := f.Markdown(); !strings.Contains(md, "- ✗ **sum**: got <b>3</b>, want 4 (read Hint 2) — 0/3 points") {
		t.Errorf("Markdown() = %s", md)
	}
}

type answer struct{ N int }

func TestAnswer(t *testing.T) {
	if a, err := labs.Answer[answer](answer{3}); err != nil || a.N != 3 {
		t.Errorf("Answer(value) = %v, %v", a, err)
	}
	if a, err := labs.Answer[answer](&answer{4}); err != nil || a.N != 4 {
		t.Errorf("Answer(pointer) = %v, %v", a, err)
	}
	var nilp *answer
	for _, bad := range []any{nilp, 3, nil} {
		if _, err := labs.Answer[answer](bad); err == nil || !strings.Contains(err.Error(), "want a labs_test.answer") {
			t.Errorf("Answer(%#v) error = %v", bad, err)
		}
	}
	e := &labs.Exercise{New: func() any { return new(answer) }}
	if got := e.AnswerType(); got != "labs_test.answer" {
		t.Errorf("AnswerType = %q", got)
	}
}
