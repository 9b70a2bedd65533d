package grade

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
)

type fakeAnswer struct{ Source string }

type fakeLab struct{ ex *labs.Exercise }

func (l fakeLab) Info() labs.Info        { return labs.Info{Name: "fake", Exercise: l.ex} }
func (l fakeLab) Options() []labs.Option { return nil }
func (l fakeLab) Run(*gpu.Device, labs.Settings, labs.Progress) (labs.Report, error) {
	return nil, nil
}

// fakeKey is a key whose exercise's check does what check says.
func fakeKey(t *testing.T, limit time.Duration, check func() labs.Feedback) *Key {
	ex := &labs.Exercise{Title: "fake", Variable: "answer", New: func() any { return new(fakeAnswer) },
		Check: func(*gpu.Device, any, labs.Settings) labs.Feedback { return check() }}
	rs, err := labs.Resolve("fake", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &Key{Device: gpu.DefaultSim, lab: fakeLab{ex}, ex: ex, limit: limit, resolved: []labs.Settings{rs}, sets: []map[string]string{nil},
		Checks: []Check{{Name: "visible", Visibility: labs.Visible, Points: map[string]float64{"correct": 1}}}}
}

func fakeSubmission(t *testing.T) Submission {
	p := filepath.Join(t.TempDir(), "s.ipynb")
	os.WriteFile(p, notebookWith([]string{"var answer = grade.fakeAnswer{Source: `x`}\n"}, 0), 0o644)
	return Submission{Student: "s", Path: p}
}

// A check that panics or overruns the submission's time limit fails that
// submission with a reason; the batch goes on.
func TestCheckPanicsAndOverruns(t *testing.T) {
	k := fakeKey(t, time.Minute, func() labs.Feedback { panic("boom") })
	r := Grade(k, fakeSubmission(t))
	if !r.Gradable || r.Score != 0 || !strings.Contains(r.Tests[0].Detail, "boom") {
		t.Errorf("a panicking check: %+v", r)
	}
	k = fakeKey(t, 50*time.Millisecond, func() labs.Feedback { time.Sleep(2 * time.Second); return labs.Feedback{} })
	start := time.Now()
	r = Grade(k, fakeSubmission(t))
	if time.Since(start) > time.Second || r.Score != 0 || !strings.Contains(r.Tests[0].Detail, "time limit") {
		t.Errorf("an endless check: %v %+v", time.Since(start), r)
	}
}

// A huge literal is refused before it is built.
func TestHugeLiteral(t *testing.T) {
	l, err := labs.Lookup("day26")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("var answer = atomics.Day26Answer{Ratios: map[int]atomics.KernelRatios{\n")
	for i := 0; i < 40000; i++ {
		fmt.Fprintf(&b, "%d: {1, 2, 3},\n", i)
	}
	b.WriteString("}}\n")
	_, err = ParseAnswer(l.Info().Exercise, b.String())
	if err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("got %v", err)
	}
}
