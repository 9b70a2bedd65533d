package fidelity

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBenchMeasurements checks every round-2 cell's measured time against
// the CSV row it names in the committed run, so that no cell quotes a
// figure the run did not print.
func TestBenchMeasurements(t *testing.T) {
	files := map[string][]string{}
	for _, b := range Benches() {
		// testdata holds copies of the CSVs the cells quote, one folder
		// a run, named as the run's folder under calibration/evidence.
		path := filepath.Join("testdata", filepath.Base(b.Dir()), b.CSV)
		lines, ok := files[path]
		if !ok {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines = strings.Split(string(data), "\n")
			files[path] = lines
		}
		var found []string
		for _, l := range lines {
			if strings.HasPrefix(l, b.Row+",") {
				found = append(found, l)
			}
		}
		if len(found) != 1 {
			t.Errorf("%s %s: %d rows of %s start with %q, want 1", b.Group, b.Name, len(found), b.CSV, b.Row)
			continue
		}
		f := strings.Split(found[0], ",")
		got, err := strconv.ParseFloat(f[b.Col], 64)
		if err != nil || got != b.Ms {
			t.Errorf("%s %s: %s column %d is %q, the cell says %g", b.Group, b.Name, b.CSV, b.Col, f[b.Col], b.Ms)
		}
		if b.Role == Calibration && b.Fits == "" {
			t.Errorf("%s %s: a calibration cell must name the parameter it fits", b.Group, b.Name)
		}
	}
}

// TestBenchReportTargets checks the report's verdicts on made-up cells:
// orders of pairs more than OrderTolerance apart, the split of misses into
// validation and calibration, and the geometric-mean target.
func TestBenchReportTargets(t *testing.T) {
	cell := func(group, name string, meas, pred float64, role Role) BenchResult {
		return BenchResult{Bench: Bench{Group: group, Name: name, Ms: meas, Role: role}, Predicted: pred,
			Ratio: pred / meas, OK: within(pred, meas, Tolerance)}
	}
	r := &BenchReport{Cells: []BenchResult{
		cell("g", "fast", 1.0, 1.1, Validation),
		cell("g", "slow", 2.0, 1.05, Validation), // within 30%? no: 0.525
		cell("g", "tied", 1.05, 0.9, Validation), // within 10% of fast: no order against it
		cell("h", "cal", 1.0, 2.0, Calibration),
	}, GeoMean: map[Role]float64{Validation: 1.1, Calibration: 2.0}}
	r.order()
	if len(r.Orders) != 2 {
		t.Fatalf("orders %+v: want fast<slow and tied<slow only", r.Orders)
	}
	for _, o := range r.Orders {
		if o.Slower != "slow" || o.OK != (o.Faster == "tied") || !o.Validation {
			t.Errorf("order %+v", o)
		}
	}
	fails := r.Failures(false)
	if len(fails) != 2 { // slow's ratio and the fast/slow order
		t.Errorf("failures %q, want the slow cell and its order", fails)
	}
	all := r.Failures(true)
	if len(all) != 4 { // plus the calibration cell and its geometric mean
		t.Errorf("strict failures %q, want 4", all)
	}
	cal := 0
	for _, m := range all {
		if strings.HasPrefix(m, "calibration: ") {
			cal++
		}
	}
	if cal != 2 {
		t.Errorf("strict failures %q: want 2 calibration misses", all)
	}
}

// TestBenchCellIndependent runs a cell whose modelled time moves with the
// seed (a float counter's atomics jitter) alone and after another cell:
// the figures must be equal, as RunBenches promises, so that a run of some
// groups agrees with the full run cell by cell.
func TestBenchCellIndependent(t *testing.T) {
	pick := func(group, name string) Bench {
		for _, b := range Benches() {
			if b.Group == group && b.Name == name {
				return b
			}
		}
		t.Fatalf("no cell %s %s", group, name)
		return Bench{}
	}
	first := pick("strided reads", "stride 1")
	cell := pick("counters f32 k=32", "thread_warp packed")
	alone, err := runBenches([]Bench{cell}, BenchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	after, err := runBenches([]Bench{first, cell}, BenchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := alone.Cells[0].Predicted, after.Cells[1].Predicted; a != b {
		t.Errorf("%s %s: %.6f ms alone, %.6f ms after %s %s", cell.Group, cell.Name, a, b, first.Group, first.Name)
	}
}
