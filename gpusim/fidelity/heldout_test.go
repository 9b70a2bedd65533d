package fidelity

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpusim/profiles"
)

func TestHeldOutParses(t *testing.T) {
	hs, err := HeldOutSet()
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) < 60 {
		t.Errorf("%d held-out cells: the set frozen on 2026-12-05 had 80", len(hs))
	}
	for _, bad := range []string{"bench\tx\ty", "nope\tx\ty\tz", "bench\tx\ty\tz\nbench\tx\ty\tz"} {
		if _, err := parseHeldOut(bad); err == nil || !strings.Contains(err.Error(), "heldout:") {
			t.Errorf("%q: error %v, want one naming heldout's line", bad, err)
		}
	}
}

// repoRoot is the repository's root, from this package's folder.
const repoRoot = "../.."

// rowOf returns the fields of the lines of a CSV file under the
// repository (nil when it cannot be read).
func rowsOf(path string) [][]string {
	b, err := os.ReadFile(filepath.Join(repoRoot, path))
	if err != nil {
		return nil
	}
	var rows [][]string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			rows = append(rows, strings.Split(l, ","))
		}
	}
	return rows
}

// holds reports whether every one of want is among fields.
func holds(fields, want []string) bool {
	for _, w := range want {
		if !slices.Contains(fields, strings.TrimSpace(w)) {
			return false
		}
	}
	return true
}

// TestHeldOutMatchesCells checks the held-out set against the cells the
// fidelity report scores: every held-out bench and day26 cell exists and
// is scored as validation, and every cell scored as validation is held
// out, fitted nothing and does not restate a parameter. Each held-out
// cell's CSV holds its row.
func TestHeldOutMatchesCells(t *testing.T) {
	hs, err := HeldOutSet()
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]HeldOut{}
	for _, h := range hs {
		held[h.Kind+" "+h.ID] = h
		if strings.HasSuffix(h.CSV, ".csv") {
			found := false
			for _, r := range rowsOf(h.CSV) {
				found = found || holds(r, h.Row)
			}
			if !found {
				t.Errorf("heldout:%d: %s has no row with %v", h.Line, h.CSV, h.Row)
			}
		} else if _, err := os.Stat(filepath.Join(repoRoot, h.CSV)); err != nil {
			t.Errorf("heldout:%d: %v", h.Line, err)
		}
	}
	seen := map[string]bool{}
	for _, b := range Benches() {
		key := "bench " + b.Group + "/" + b.Name
		seen[key] = true
		h, listed := held[key]
		switch {
		case listed && b.Role != Validation:
			t.Errorf("%s is held out but scored as %s", key, b.Role)
		case listed && b.Fits != "":
			t.Errorf("%s is held out but fits %s", key, b.Fits)
		case !listed && b.Role == Validation:
			t.Errorf("%s is scored as validation but not held out", key)
		case !listed && b.Fits == "":
			t.Errorf("%s is neither held out nor names what it fitted or restates", key)
		}
		if listed && (h.CSV != b.Dir()+"/csv/"+b.CSV || !holds(strings.Split(b.Row, ","), h.Row)) {
			t.Errorf("heldout:%d: %s %v, the cell measures %s/csv/%s %s", h.Line, h.CSV, h.Row, b.Dir(), b.CSV, b.Row)
		}
	}
	for _, name := range Profiles() {
		tab, _ := Reference(name)
		for _, c := range tab.Cells {
			key := fmt.Sprintf("day26 %s/%s/%d", name, c.Kernel, c.N)
			seen[key] = true
			if _, listed := held[key]; listed != c.Validation() {
				t.Errorf("%s: held out %v, scored as validation %v", key, listed, c.Validation())
			}
		}
	}
	for key, h := range held {
		if h.Kind != "lab" && !seen[key] {
			t.Errorf("heldout:%d: %s is no cell of the fidelity report", h.Line, key)
		}
	}
}

// TestHeldOutNotFitted fails when a held-out cell (or another run of the
// same cells, an alias) is among any profile parameter's fitting sources:
// a cell used to fit a constant is calibration, not validation.
func TestHeldOutNotFitted(t *testing.T) {
	hs, err := HeldOutSet()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range profiles.Names() {
		p, _ := profiles.Get(name)
		for param := range p.Sources {
			for _, src := range p.FittingSources(param) {
				path, rows, _ := strings.Cut(src, ": ")
				for _, h := range hs {
					for _, csv := range append([]string{h.CSV}, h.Aliases...) {
						if fitted(path, rows, csv, h.Row) {
							t.Errorf("%s: %s was fitted to %s, which holds held-out %s %s (heldout:%d)", name, param, src, h.Kind, h.ID, h.Line)
						}
					}
				}
			}
		}
	}
}

// fitted reports whether a fitting source (a path, and the fields of the
// rows it used, or none for all of them) covers a cell of csv with row.
func fitted(path, rows, csv string, row []string) bool {
	if path == csv {
		return rows == "" || holds(row, strings.Split(rows, ","))
	}
	return strings.HasPrefix(csv, strings.TrimSuffix(path, "/")+"/")
}

// TestFittedCatches checks that the fitting check catches what it must.
func TestFittedCatches(t *testing.T) {
	const csv = "calibration/evidence/run/csv/access.csv"
	for _, tc := range []struct {
		path, rows string
		want       bool
	}{
		{csv, "", true},
		{csv, "banks,shared_banks", true},
		{csv, "banks,shared_banks,270336,32", false},
		{"calibration/evidence/run", "", true},
		{"calibration/evidence/run/", "", true},
		{"calibration/evidence/ru", "", false},
		{"calibration/evidence/run/csv/other.csv", "", false},
	} {
		if got := fitted(tc.path, tc.rows, csv, []string{"banks", "shared_banks", "270336", "4"}); got != tc.want {
			t.Errorf("fitted(%q, %q) = %v, want %v", tc.path, tc.rows, got, tc.want)
		}
	}
}
