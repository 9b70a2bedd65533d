package fidelity

import (
	_ "embed"
	"fmt"
	"math"
	"strings"
)

// heldoutText is the frozen held-out validation set (the file heldout
// beside this one; its header says what it holds and why).
//
//go:embed heldout
var heldoutText string

// HeldOut is one cell of the frozen held-out validation set: a
// measurement that no profile parameter was fitted to.
type HeldOut struct {
	// Kind is "bench" (a cell of Benches), "day26" (a cell of a Day 26
	// table: "PROFILE/KERNEL/N") or "lab" (a lab's cell that its GPU test
	// scores against the H200: "LAB/CELL").
	Kind string
	ID   string
	// CSV is the evidence file that measured the cell, Row the fields
	// that pick its row there, Aliases other runs' files of the same cells.
	CSV     string
	Row     []string
	Aliases []string
	Line    int // in heldout
}

// HeldOutSet returns the held-out cells, in the file's order.
func HeldOutSet() ([]HeldOut, error) { return parseHeldOut(heldoutText) }

func parseHeldOut(text string) ([]HeldOut, error) {
	var out []HeldOut
	seen := map[string]int{}
	for i, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 4 {
			return nil, fmt.Errorf("fidelity: heldout:%d: want kind, id, evidence CSV and row, tab-separated; got %d fields", i+1, len(f))
		}
		h := HeldOut{Kind: f[0], ID: f[1], CSV: f[2], Row: strings.Split(f[3], ","), Aliases: f[4:], Line: i + 1}
		switch h.Kind {
		case "bench", "day26", "lab":
		default:
			return nil, fmt.Errorf("fidelity: heldout:%d: kind %q: want bench, day26 or lab", i+1, h.Kind)
		}
		key := h.Kind + " " + h.ID
		if n, ok := seen[key]; ok {
			return nil, fmt.Errorf("fidelity: heldout:%d: %s is also on line %d", i+1, key, n)
		}
		seen[key] = i + 1
		out = append(out, h)
	}
	return out, nil
}

// heldOutIDs returns the ids of the held-out cells of a kind.
func heldOutIDs(kind string) map[string]bool {
	hs, err := HeldOutSet()
	if err != nil {
		panic(err) // the embedded file is checked by TestHeldOutParses
	}
	ids := map[string]bool{}
	for _, h := range hs {
		if h.Kind == kind {
			ids[h.ID] = true
		}
	}
	return ids
}

// HeldOutFigures are the model's figures on the held-out cells a run
// scored: the validation cells of its reports and of the
// microbenchmarks.
type HeldOutFigures struct {
	Cells   int     `json:"cells"`
	Within  int     `json:"within_tolerance"`
	GeoMean float64 `json:"geomean_error"`
	// Orders counts the pairs of held-out cells of a group (a
	// microbenchmark group, or a Day 26 size) whose measured times are
	// more than the tie tolerance apart, and how many the model orders
	// right.
	Orders, OrdersRight int `json:"-"`
	// LabCells are the held-out lab cells, which the labs' GPU tests score
	// against the H200 (labs/NAME/gpu_test.go), not this run.
	LabCells int `json:"lab_cells"`
	// Frozen is how many cells the held-out set lists in all.
	Frozen int `json:"frozen"`
}

// HeldOutSummary returns the figures of the held-out cells among the
// reports' and the microbenchmarks' cells (either may be nil).
func HeldOutSummary(reports []*Report, bench *BenchReport) HeldOutFigures {
	var f HeldOutFigures
	var logs float64
	score := func(pred, meas float64, ok bool) {
		f.Cells++
		if ok {
			f.Within++
		}
		logs += math.Abs(math.Log(pred / meas))
	}
	for _, r := range reports {
		for _, c := range r.Cells {
			if c.Validation {
				score(c.Predicted, c.Measured, c.OK)
			}
		}
		for _, k := range r.Rankings {
			if k.Validation {
				f.Orders++
				if k.OK {
					f.OrdersRight++
				}
			}
		}
	}
	if bench != nil {
		for _, c := range bench.Cells {
			if c.Role == Validation {
				score(c.Predicted, c.Ms, c.OK)
			}
		}
		for _, o := range bench.Orders {
			if o.Validation {
				f.Orders++
				if o.OK {
					f.OrdersRight++
				}
			}
		}
	}
	if f.Cells > 0 {
		f.GeoMean = math.Exp(logs / float64(f.Cells))
	}
	hs, _ := HeldOutSet()
	f.Frozen = len(hs)
	for _, h := range hs {
		if h.Kind == "lab" {
			f.LabCells++
		}
	}
	return f
}

// String is the figures in one paragraph.
func (f HeldOutFigures) String() string {
	return fmt.Sprintf("held out (gpusim/fidelity/heldout, %d cells frozen before the queue constants were refitted): "+
		"%d of %d scored here within ±%.0f%%, geometric-mean error %.3f, orders %d of %d right; "+
		"%d lab cells are scored by the labs' GPU tests on the H200",
		f.Frozen, f.Within, f.Cells, Tolerance*100, f.GeoMean, f.OrdersRight, f.Orders, f.LabCells)
}
