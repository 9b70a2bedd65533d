package main

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpusim/fidelity"
	"github.com/warplab/warplab/internal/golden"
)

// TestFidelityCommand runs `warplab fidelity` for both profiles: it fails
// when a validation (held-out) target is missed, and checks that
// docs/fidelity.md's section is the command's own output, held-out
// figures included.
func TestFidelityCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("the fidelity run simulates about 30 large launches; skipped with -short")
	}
	code, md, errs := warplab(t, "fidelity", "--markdown")
	// The command exits 1 when a validation (held-out) target misses: the
	// model failed a test it was not fitted to, and this test fails too.
	if code != 0 {
		t.Errorf("warplab fidelity failed (exit %d): %s\n%s", code, errs, md)
	}
	if !strings.Contains(md, "**Held out.** Held out (gpusim/fidelity/heldout") {
		t.Errorf("the report does not give the held-out figures:\n%s", md)
	}
	// docs/fidelity.md is the golden file: the page with its section
	// replaced by the command's output must be the page as committed.
	const path = "../../docs/fidelity.md"
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fidelity.ReadmeSection(readme); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, path, fidelity.ReplaceReadmeSection(readme, md))
}

// TestFidelityPaths runs `warplab fidelity --profile h200` (the table
// without the determinism runs) as text and as JSON, and drives it into
// misses with a tolerance the model cannot meet: the exit status is 1
// and the report says which targets missed, validation first.
func TestFidelityPaths(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the H200 table's 24 launches twice; skipped with -short")
	}
	code, out, errs := warplab(t, "fidelity", "--profile", "h200")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	v := strings.Index(out, "validation cells (nothing was fitted to them): ")
	c := strings.Index(out, "calibration cells (each fitted the parameters named): ")
	if v < 0 || c < v || !strings.Contains(out, "run 1: the microbenchmarks at 256 threads, gated") || !(strings.Contains(out, "every target within tolerance") || strings.Contains(out, "(0 of them validation targets)")) ||
		strings.Contains(out, "Tesla T4") {
		t.Errorf("text report:\n%s", out)
	}

	code, out, errs = warplab(t, "fidelity", "--profile", "h200", "--json", "--tolerance", "0.005")
	if code != 1 || !strings.Contains(errs, "fidelity targets missed") {
		t.Errorf("--tolerance 0.005: exit %d, stderr %q; want 1 and the count of misses", code, errs)
	}
	var doc struct{ Tables []fidelity.Report }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	reports := doc.Tables
	if len(reports) != 1 || reports[0].Profile != "h200" || reports[0].Tolerance != 0.005 || len(reports[0].Cells) != 24 {
		t.Fatalf("--json: %d reports: %+v", len(reports), reports)
	}
	r := reports[0]
	val, miss := 0, 0
	for _, c := range r.Cells {
		if c.Validation != (len(c.Fits) == 0) {
			t.Errorf("%s n=%d: validation %v with fits %v", c.Kernel, c.N, c.Validation, c.Fits)
		}
		if c.Validation {
			val++
		}
		if !c.OK {
			miss++
		}
		if c.OK != (math.Abs(c.Predicted/c.Measured-1) <= 0.005) {
			t.Errorf("%s n=%d: ok %v at ratio %.3f with tolerance 0.5%%", c.Kernel, c.N, c.OK, c.Predicted/c.Measured)
		}
		// The H200 table is one gated run a cell (the two ungated runs
		// are no longer scored); whatever the count, the cell's figure is
		// the mean of its named runs.
		var sum float64
		for _, x := range c.Runs {
			sum += x
		}
		if len(c.Runs) == 0 || math.Abs(c.Measured-sum/float64(len(c.Runs))) > 1e-9*c.Measured {
			t.Errorf("%s n=%d: measured %v is not the mean of the runs %v", c.Kernel, c.N, c.Measured, c.Runs)
		}
	}
	if val == 0 || val == 24 || miss == 0 || len(r.Misses()) < miss {
		t.Errorf("%d validation cells, %d misses, misses %q", val, miss, r.Misses())
	}

	// Which misses fail (validation, or every one with --strict) is
	// Report.Failures, tested in gpusim/fidelity: the command adds only
	// the flag, so it is not run a third and fourth time here.

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fidelity", "--tolerance", "0"}, "--tolerance 0: want a fraction between 0 and 1"},
		{[]string{"fidelity", "--json", "--markdown"}, "choose one"},
	} {
		if code, _, errs := warplab(t, tc.args...); code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}
