package labtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
)

// Headless runs the lab registered under name with its default settings
// on sim:t4, as `warplab lab NAME` does, b.N times: a lab's
// BenchmarkHeadless, whose time on the development machine is its
// Info.SimWallTime. It also reports the process's CPU seconds a run
// (cpu-s/op, user and system), which on a shared machine measure the
// simulator far better than the wall time, and exceed it when the
// simulator's launches run on several cores.
//
// The goal (issue 29, docs/speed.md): every notebook's Run All under 20 s
// on 2 cores, no cell over 3 s on the simulator, so a lab's whole
// headless run, its cells together, well under that.
func Headless(b *testing.B, name string) {
	b.Helper()
	dev := testenv.Open(b, "sim:t4")
	cpu0 := testenv.CPUTime()
	for b.Loop() {
		if _, err := labs.Run(dev, name, nil, labs.NoProgress()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((testenv.CPUTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
}

// WriteReport writes r, the report of the lab name measured on a GPU, as
// text and JSON to NAME-gpu.txt and NAME-gpu.json in the folder
// $WARPLAB_GPU_REPORT, when that variable is set, for the evidence that
// scripts/gpu-evidence.sh collects. A report that cannot be encoded or
// written fails t: evidence that goes missing without a word is not
// evidence.
func WriteReport(t testing.TB, name string, r fmt.Stringer) {
	t.Helper()
	dir := os.Getenv("WARPLAB_GPU_REPORT")
	if dir == "" {
		return
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Errorf("%s report as JSON: %v", name, err)
	}
	for ext, data := range map[string][]byte{".txt": []byte(r.String()), ".json": b} {
		if data == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name+"-gpu"+ext), data, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// Prediction is one cell of a lab's GPU run: the simulator's predicted
// time beside the GPU's measured one, in ms.
type Prediction struct {
	Cell                string
	Predicted, Measured float64
}

// Tolerance is how far a prediction may be from the measurement, as a
// ratio either way: ±30%, the fidelity target of the cost model.
const Tolerance = 1.3

// Fixed is how close a known miss must come before CheckPredictions
// asks for it to be taken off the list: ±20%, so that a miss near the
// ±30% edge, which run-to-run noise moves across it, fails neither way.
const Fixed = 1.2

// CheckPredictions fails t for each cell whose prediction is more than
// Tolerance off its measurement, unless known names the cell with the
// reason the model misses it. A known miss that the model now gets within
// Fixed fails t too, so that known holds only what still misses; one
// that is absent from cells fails t, so that a renamed cell cannot hide a
// miss. Known misses that still miss are logged with their reason.
func CheckPredictions(t testing.TB, cells []Prediction, known map[string]string) {
	t.Helper()
	seen := make(map[string]bool, len(cells))
	for _, c := range cells {
		seen[c.Cell] = true
		q := c.Predicted / c.Measured
		miss := !(q >= 1/Tolerance && q <= Tolerance)
		why, isKnown := known[c.Cell]
		switch {
		case miss && !isKnown:
			t.Errorf("%s: predicted %.4f ms, measured %.4f ms (x%.2f): outside ±30%%", c.Cell, c.Predicted, c.Measured, q)
		case miss:
			t.Logf("%s: predicted %.4f ms, measured %.4f ms (x%.2f): a known model miss: %s", c.Cell, c.Predicted, c.Measured, q, why)
		case isKnown && q >= 1/Fixed && q <= Fixed:
			t.Errorf("%s: predicted %.4f ms, measured %.4f ms (x%.2f): listed as a known miss but within ±20%% now: take it off the list", c.Cell, c.Predicted, c.Measured, q)
		case isKnown:
			t.Logf("%s: predicted %.4f ms, measured %.4f ms (x%.2f): a known model miss, within ±30%% this run: %s", c.Cell, c.Predicted, c.Measured, q, why)
		}
	}
	for cell := range known {
		if !seen[cell] {
			t.Errorf("%s: listed as a known miss but not measured: the list names a cell the test no longer has", cell)
		}
	}
}

// Modal is a cell the GPU runs in one of two or more modes, process to
// process, for a reason outside the kernel's source (where its data lies
// in memory, how its first wave starts): Ms are the modes' measured times
// in ms, from committed evidence, Priced the index of the mode the model
// prices, and Why what is known of the modes.
type Modal struct {
	Ms     []float64
	Priced int
	Why    string
}

// CheckModal checks the cells that modal names and returns the others,
// for CheckPredictions. A modal cell fails t when its measurement is
// within Fixed of none of its modes (the GPU did something the list does
// not know: measure again and update it), or when its prediction is more
// than Tolerance off the mode the model prices; otherwise the run's mode
// and the prediction's ratio to this run's measurement are logged. A
// modal cell absent from cells fails t, as a known miss does.
func CheckModal(t testing.TB, cells []Prediction, modal map[string]Modal) []Prediction {
	t.Helper()
	var rest []Prediction
	seen := make(map[string]bool, len(modal))
	for _, c := range cells {
		m, ok := modal[c.Cell]
		if !ok {
			rest = append(rest, c)
			continue
		}
		seen[c.Cell] = true
		if m.Priced < 0 || m.Priced >= len(m.Ms) {
			t.Errorf("%s: the model prices mode %d of %d", c.Cell, m.Priced, len(m.Ms))
			continue
		}
		mode := -1
		for i, ms := range m.Ms {
			if q := c.Measured / ms; q >= 1/Fixed && q <= Fixed {
				mode = i
				break
			}
		}
		if mode < 0 {
			t.Errorf("%s: measured %.4f ms, within ±20%% of none of its modes %v ms: measure again and update the list", c.Cell, c.Measured, m.Ms)
			continue
		}
		priced := m.Ms[m.Priced]
		if q := c.Predicted / priced; !(q >= 1/Tolerance && q <= Tolerance) {
			t.Errorf("%s: predicted %.4f ms, %.2f times the mode it prices (%.4f ms): outside ±30%%", c.Cell, c.Predicted, q, priced)
			continue
		}
		t.Logf("%s: predicted %.4f ms, measured %.4f ms (x%.2f) in mode %d of %v ms; the model prices mode %d: %s",
			c.Cell, c.Predicted, c.Measured, c.Predicted/c.Measured, mode, m.Ms, m.Priced, m.Why)
	}
	for cell := range modal {
		if !seen[cell] {
			t.Errorf("%s: listed as modal but not measured: the list names a cell the test no longer has", cell)
		}
	}
	return rest
}
