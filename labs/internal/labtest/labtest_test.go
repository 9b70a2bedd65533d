package labtest

import (
	"fmt"
	"os"
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
	msg string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Errorf(format string, args ...any) { r.msg = fmt.Sprintf(format, args...) }
