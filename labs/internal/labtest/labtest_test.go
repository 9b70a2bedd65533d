package labtest

import (
	"fmt"
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

func TestCheckModal(t *testing.T) {
	modal := map[string]Modal{
		"fast mode": {Ms: []float64{0.2, 0.3}, Priced: 0, Why: "two modes"},
		"slow mode": {Ms: []float64{0.2, 0.3}, Priced: 0, Why: "two modes"},
		"new mode":  {Ms: []float64{0.2, 0.3}, Priced: 0},
		"off":       {Ms: []float64{0.2, 0.3}, Priced: 1},
		"bad index": {Ms: []float64{0.2}, Priced: 1},
		"gone":      {Ms: []float64{1}},
	}
	cells := []Prediction{
		{"fast mode", 0.22, 0.21},
		{"slow mode", 0.22, 0.32}, // 0.69 of this run, but in the slow mode, and priced right for the fast one
		{"new mode", 0.22, 0.5},
		{"off", 0.2, 0.3}, // prices the slow mode 0.67 off
		{"bad index", 0.2, 0.2},
		{"other", 1, 1},
	}
	r := &recorder{}
	rest := CheckModal(r, cells, modal)
	if len(rest) != 1 || rest[0].Cell != "other" {
		t.Errorf("the cells left for CheckPredictions: %v, want only other", rest)
	}
	for _, want := range []string{"new mode: measured 0.5000 ms, within ±20% of none of its modes [0.2 0.3] ms",
		"off: predicted 0.2000 ms, 0.67 times the mode it prices (0.3000 ms): outside ±30%",
		"bad index: the model prices mode 1 of 1", "gone: listed as modal but not measured"} {
		if !strings.Contains(r.all, want) {
			t.Errorf("no error %q in:\n%s", want, r.all)
		}
	}
	for _, not := range []string{"fast mode", "slow mode", "other"} {
		if strings.Contains(r.all, not) {
			t.Errorf("an error about %q:\n%s", not, r.all)
		}
	}
	if !strings.Contains(r.logs, "slow mode: predicted 0.2200 ms, measured 0.3200 ms (x0.69) in mode 1 of [0.2 0.3] ms; the model prices mode 0: two modes") {
		t.Errorf("the slow run is not logged with its mode:\n%s", r.logs)
	}
}
