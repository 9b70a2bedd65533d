package fidelity

import (
	"strings"
	"testing"
)

// The full run is TestFidelityCommand in cmd/warplab, which runs
// `warplab fidelity` for both profiles and fails on a miss. These tests
// check the report's own logic.

func TestRankingTies(t *testing.T) {
	r := &Report{Cells: []CellResult{
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

func TestWithinAlternative(t *testing.T) {
	r := &Report{}
	tab := Table{RatioAt: 4, Cells: []Cell{{"global", 4, 10, 7}, {"tree", 4, 0.1, 0.1}}}
	r.Cells = []CellResult{{Kernel: "global", N: 4, Predicted: 6.5, Measured: 10, Alt: 7},
		{Kernel: "tree", N: 4, Predicted: 0.1, Measured: 0.1, Alt: 0.1}}
	r.ratio(tab)
	if !r.Ratios[0].OK {
		t.Errorf("ratio 65 is within 30%% of the alternative 70: %+v", r.Ratios[0])
	}
	if within(6.5, 10) || !within(6.5, 7) {
		t.Error("within")
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
		t.Error("no error for a README without markers")
	}
}
