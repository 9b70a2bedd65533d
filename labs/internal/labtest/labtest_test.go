package labtest

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs"
)

// countLab counts its runs.
type countLab struct{ runs *int }

func (countLab) Info() labs.Info        { return labs.Info{Name: "labtest-count"} }
func (countLab) Options() []labs.Option { return nil }
func (l countLab) Run(dev *gpu.Device, _ labs.Settings, _ labs.Progress) (labs.Report, error) {
	if dev.Spec().Profile() != "t4" {
		return nil, nil
	}
	*l.runs++
	return report{}, nil
}

type report struct{}

func (report) Tables() []*charts.Table { return nil }
func (report) Figures() []labs.Figure  { return nil }
func (report) Elapsed() time.Duration  { return 0 }

func TestHeadless(t *testing.T) {
	runs := 0
	labs.Register(countLab{&runs})
	r := testing.Benchmark(func(b *testing.B) { Headless(b, "labtest-count") })
	if r.N < 1 || runs != r.N {
		t.Errorf("%d runs of the lab in %d iterations", runs, r.N)
	}
}

func TestSameAsEvidence(t *testing.T) {
	// Two folders above this package is labs/, where this file is
	// internal/labtest/doc.go.
	const evidence = "internal/labtest/doc.go"
	text, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	SameAsEvidence(t, string(text), evidence)
	rec := &recorder{TB: t}
	SameAsEvidence(rec, string(text)+"x", evidence)
	if rec.msg != "the lab's copy of internal/labtest/doc.go differs from it: copy it again" {
		t.Errorf("a changed copy: %q", rec.msg)
	}
}

// recorder stands in for a testing.TB, recording Errorf.
type recorder struct {
	testing.TB
	msg  string // the last error
	all  string // every error, one a line
	logs string // every log line
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	r.all += r.msg + "\n"
}
func (r *recorder) Logf(format string, args ...any) { r.logs += fmt.Sprintf(format, args...) + "\n" }

func TestCheckPredictions(t *testing.T) {
	cells := []Prediction{
		{"fine", 1.2, 1},
		{"slow", 2, 1},
		{"fast", 0.5, 1},
		{"known", 3, 1},
		{"fixed", 1, 1},
		{"edge", 1.25, 1},
		{"nan", 1, 0},
	}
	r := &recorder{}
	CheckPredictions(r, cells, map[string]string{"known": "a reason", "fixed": "was slow", "edge": "near the edge", "gone": "renamed"})
	for _, want := range []string{"slow: predicted 2.0000 ms, measured 1.0000 ms (x2.00): outside ±30%",
		"fast: predicted 0.5000", "fixed: predicted 1.0000 ms, measured 1.0000 ms (x1.00): listed as a known miss but within ±20% now",
		"nan: predicted 1.0000 ms, measured 0.0000 ms (x+Inf): outside", "gone: listed as a known miss but not measured"} {
		if !strings.Contains(r.all, want) {
			t.Errorf("no error %q in:\n%s", want, r.all)
		}
	}
	for _, not := range []string{"fine", "known:", "edge"} {
		if strings.Contains(r.all, not) {
			t.Errorf("an error about %q:\n%s", not, r.all)
		}
	}
	if !strings.Contains(r.logs, "known: predicted 3.0000 ms, measured 1.0000 ms (x3.00): a known model miss: a reason") {
		t.Errorf("the known miss is not logged with its reason:\n%s", r.logs)
	}
}
