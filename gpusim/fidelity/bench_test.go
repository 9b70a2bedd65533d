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
	dir := filepath.Join("..", "..", BenchRun, "csv")
	files := map[string][]string{}
	for _, b := range Benches() {
		lines, ok := files[b.CSV]
		if !ok {
			data, err := os.ReadFile(filepath.Join(dir, b.CSV))
			if err != nil {
				t.Fatal(err)
			}
			lines = strings.Split(string(data), "\n")
			files[b.CSV] = lines
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
