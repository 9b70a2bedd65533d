package fidelity

import (
	"math"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpusim/profiles"
)

// The full run is TestFidelityCommand in cmd/warplab, which runs
// `warplab fidelity` for both profiles and fails on a miss. These tests
// check the report's own logic.

func TestRankingTies(t *testing.T) {
	r := &Report{Tolerance: Tolerance, Cells: []CellResult{
		{Kernel: "tree", N: 10, Predicted: 1.0, Measured: 1.00, OK: true},
		{Kernel: "shuffle", N: 10, Predicted: 1.1, Measured: 1.03, OK: true},
		{Kernel: "global", N: 10, Predicted: 5, Measured: 5, OK: true},
		{Kernel: "tree", N: 20, Predicted: 1.2, Measured: 1.20, OK: true},
		{Kernel: "shuffle", N: 20, Predicted: 1.1, Measured: 1.00, OK: true},
	}}
	r.rank()
	if len(r.Rankings) != 2 {
		t.Fatalf("%d rankings, want 2", len(r.Rankings))
	}
	if k := r.Rankings[0]; !k.OK || len(k.Measured) != 2 {
		t.Errorf("n=10: tree and shuffle are within 5%%: %+v", k)
	}
	if k := r.Rankings[1]; !k.OK || k.Predicted != "shuffle" || len(k.Measured) != 1 {
		t.Errorf("n=20: %+v", k)
	}
	r.Cells[4].Predicted = 1.3 // now tree is predicted fastest at n=20, 20% slower measured
	r.Rankings = nil
	r.rank()
	if r.Rankings[1].OK {
		t.Errorf("a wrong fastest kernel passed: %+v", r.Rankings[1])
	}
	if m := r.Misses(); len(m) != 1 || !strings.Contains(m[0], "predicted fastest tree") {
		t.Errorf("misses %q", m)
	}
}

// TestRunsScoredAgainstTheirMean checks that a cell measured twice is
// scored against the mean of its runs, with their spread, and a ratio of
// two such cells against the ratio of the means.
func TestRunsScoredAgainstTheirMean(t *testing.T) {
	mean, spread := meanSpread([]float64{10, 7})
	if mean != 8.5 || math.Abs(spread-3/8.5) > 1e-12 {
		t.Errorf("mean %v spread %v; want 8.5 and %v", mean, spread, 3/8.5)
	}
	if mean, spread := meanSpread([]float64{0.5, 0}); mean != 0.5 || spread != 0 {
		t.Errorf("one run: mean %v spread %v", mean, spread)
	}
	// 6.6 is within 30% of the mean 8.5, but 11.2 is not (it would be of
	// the first run alone, 10); nor is 6.5, 1/1.31 of it: the band is a
	// ratio either way.
	if !within(6.6, mean, Tolerance) || within(11.2, mean, Tolerance) || within(6.5, mean, Tolerance) {
		t.Error("within the mean")
	}
	r := &Report{Tolerance: Tolerance}
	r.Cells = []CellResult{{Kernel: "global", N: 4, Predicted: 6.6, Measured: 8.5, Validation: true},
		{Kernel: "tree", N: 4, Predicted: 0.1, Measured: 0.1, Fits: []string{"Cost.GlobalCycles"}}}
	r.ratio(Table{RatioAt: 4})
	x := r.Ratios[0]
	if !x.OK || x.Measured != 85 || x.Validation || len(x.Fits) != 1 {
		t.Errorf("ratio 66 against 85, with a calibration cell behind it: %+v", x)
	}
}

// TestValidationFirst checks that misses of validation targets come
// first and say so.
func TestValidationFirst(t *testing.T) {
	r := &Report{Tolerance: Tolerance, Cells: []CellResult{
		{Kernel: "tree", N: 4, Predicted: 2, Measured: 1, Ratio: 2, Fits: []string{"clock"}},
		{Kernel: "global", N: 4, Predicted: 1, Measured: 2, Ratio: 0.5, Validation: true},
		{Kernel: "shared", N: 4, Predicted: 1, Measured: 1, Ratio: 1, OK: true, Validation: true},
	}}
	m := r.Misses()
	if len(m) != 2 || !strings.HasPrefix(m[0], "validation: global n=4") || !strings.HasPrefix(m[1], "calibration: tree n=4") {
		t.Errorf("misses %q", m)
	}
	if f := r.Failures(false); len(f) != 1 || !strings.HasPrefix(f[0], "validation: ") {
		t.Errorf("failures %q, want the validation miss alone", f)
	}
	if f := r.Failures(true); len(f) != 2 {
		t.Errorf("strict failures %q, want both misses", f)
	}
	if ok, n := r.Count(true); ok != 1 || n != 2 {
		t.Errorf("validation count %d of %d, want 1 of 2", ok, n)
	}
	var b strings.Builder
	r.WriteMarkdown(&b)
	md := b.String()
	v, c := strings.Index(md, "Validation cells"), strings.Index(md, "Calibration cells")
	if v < 0 || c < v || !strings.Contains(md, "| 4 | global | 1.0000 | 2.0000 | 0.50 **miss** |") || !strings.Contains(md, "| clock |") {
		t.Errorf("Markdown:\n%s", md)
	}
}

// TestDeterminismTolerances checks the determinism checks compare the
// counts and spreads, not only their order.
func TestDeterminismTolerances(t *testing.T) {
	page := func(k string, distinct int, spread float64) DeterminismResult {
		return DeterminismResult{Kernel: k, Distinct: distinct, Spread: spread,
			MeasuredDistinct: determinismRef.Distinct[k], MeasuredSpread: determinismRef.Spread[k]}
	}
	ok := func(cs []Check) (n int) {
		for _, c := range cs {
			if c.OK {
				n++
			}
		}
		return n
	}
	good := []DeterminismResult{page("global", 19, 191.5), page("shared", 4, 1.5), page("tree", 4, 1.5)}
	if cs := determinismChecks(good, Tolerance); ok(cs) != len(cs) || len(cs) != 7 {
		t.Errorf("the model's figures: %+v", cs)
	}
	// 4 = 4 passed "tree <= shared"; the page's 6 and 3 are what count.
	bad := []DeterminismResult{page("global", 12, 400), page("shared", 1, 0), page("tree", 9, 4)}
	if cs := determinismChecks(bad, Tolerance); ok(cs) != 1 {
		t.Errorf("far from the page, %d checks pass, want 1 (the order of the spreads): %+v", ok(cs), cs)
	}
}

// TestFitsNameProfileParameters checks each table's calibration cells
// against the profile's own sources: every parameter a cell names exists
// and was calibrated or measured, and every parameter whose source says
// it was fitted to a Day 26 table names at least one cell (or the
// determinism table, or the softmax ratio) as what it fitted.
func TestFitsNameProfileParameters(t *testing.T) {
	for _, name := range Profiles() {
		tab, _ := Reference(name)
		p, err := profiles.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		named := map[string]bool{}
		var all [][]string
		for _, c := range tab.Cells {
			all = append(all, c.Fits)
		}
		if name == determinismRef.Profile {
			all = append(all, determinismRef.Fits)
		}
		for _, fits := range all {
			for _, f := range fits {
				named[f] = true
				if f == "clock" {
					if len(tab.Clock) == 0 {
						t.Errorf("%s: a cell fitted the clock, but the table sets none", name)
					}
					continue
				}
				src, ok := p.Sources[f]
				if !ok || !(strings.HasPrefix(src, profiles.Calibrated) || strings.HasPrefix(src, profiles.Measured)) {
					t.Errorf("%s: a cell fitted %s, whose source is %q", name, f, src)
				}
			}
		}
		for k, src := range p.Sources {
			l := strings.ToLower(src)
			if !(strings.Contains(l, "day 26") || strings.Contains(l, "day26")) || strings.Contains(l, "checks it") ||
				!(strings.HasPrefix(src, profiles.Calibrated) || strings.HasPrefix(src, profiles.Measured)) {
				continue
			}
			if !named[k] {
				t.Errorf("%s: %s was fitted to the Day 26 sums (%q), but no cell of the table says it fitted it", name, k, src)
			}
		}
		if len(tab.Clock) > 0 && !named["clock"] {
			t.Errorf("%s: the table sets a clock inferred from its cells, but no cell says it fitted it", name)
		}
	}
	h, _ := profiles.Get("h200")
	for _, f := range softmaxRef.Fits {
		if !strings.Contains(h.Sources[f], "softmax") {
			t.Errorf("the softmax ratio fitted %s, whose H200 source is %q", f, h.Sources[f])
		}
	}
}

func TestReadmeSection(t *testing.T) {
	readme := []byte("intro\n" + beginMarker + "\nold\n" + endMarker + "\nafter\n")
	got := string(ReplaceReadmeSection(readme, "new table\n"))
	if !strings.Contains(got, beginMarker+"\nnew table\n"+endMarker) || strings.Contains(got, "old") {
		t.Errorf("replaced:\n%s", got)
	}
	if s, err := ReadmeSection([]byte(got)); err != nil || strings.TrimSpace(s) != "new table" {
		t.Errorf("section %q, %v", s, err)
	}
	if _, err := ReadmeSection([]byte("no markers")); err == nil {
		t.Error("no error for a document without markers")
	}
}
