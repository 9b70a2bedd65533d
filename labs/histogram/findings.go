package histogram

import (
	"fmt"

	"github.com/warplab/warplab/charts"
)

// Finding is one comparison the lab draws from the shape table, on this
// device and on the H200.
type Finding struct {
	// Question names the comparison: "launch shape", "partitioning",
	// "skew".
	Question string `json:"question"`
	Input    Input  `json:"input"`
	Bins     int    `json:"bins"`
	// Slow and Fast are the kernels compared; Ratio is Slow's time over
	// Fast's here, H200Ratio on the H200 (0 where not measured).
	Slow      Kernel  `json:"slow"`
	Fast      Kernel  `json:"fast"`
	Ratio     float64 `json:"ratio"`
	H200Ratio float64 `json:"h200_ratio"`
}

// Findings returns the lab's comparisons from the table: the launch shape
// (one block per 256 elements over the resident grid), the partitioning
// (contiguous over interleaved, privatised and global) and the skew (the
// hot input over the uniform one, global and privatised).
func (t *ShapeTable) Findings() []Finding {
	var fs []Finding
	add := func(q string, in Input, bins int, slow, fast Kernel, slowIn Input) {
		s, ok1 := t.Row(slowIn, bins, slow)
		f, ok2 := t.Row(in, bins, fast)
		if !ok1 || !ok2 || f.Ms <= 0 {
			return
		}
		x := Finding{Question: q, Input: slowIn, Bins: bins, Slow: slow, Fast: fast, Ratio: s.Ms / f.Ms}
		hs, ok1 := H200(slowIn, bins, slow)
		hf, ok2 := H200(in, bins, fast)
		if ok1 && ok2 {
			x.H200Ratio = hs.Ms / hf.Ms
		}
		fs = append(fs, x)
	}
	seen := map[[2]any]bool{}
	for _, r := range t.Rows {
		key := [2]any{r.Input, r.Bins}
		if seen[key] {
			continue
		}
		seen[key] = true
		add("launch shape", r.Input, r.Bins, Private, Resident, r.Input)
		add("partitioning (privatised)", r.Input, r.Bins, Contig, Resident, r.Input)
		add("partitioning (global)", r.Input, r.Bins, GlobalContig, Global, r.Input)
		if r.Input == Hot {
			add("skew (global)", Uniform, r.Bins, Global, Global, Hot)
			add("skew (privatised)", Uniform, r.Bins, Resident, Resident, Hot)
		}
	}
	return fs
}

// FindingsTable renders Findings with what the course notes' rule says
// for partitioning: with an atomicAdd merge, interleaved wins.
func (t *ShapeTable) FindingsTable() *charts.Table {
	tb := charts.NewTable("What the shapes show, here and on the H200",
		charts.Column{Header: "question"}, charts.Column{Header: "input"}, charts.Column{Header: "bins"},
		charts.Column{Header: "slower / faster"}, charts.Column{Header: "here", Unit: "x"}, charts.Column{Header: "H200", Unit: "x"},
		charts.Column{Header: "reading"})
	tb.Caption = fmt.Sprintf("%s beside %s", t.Timing, H200Source)
	for _, f := range t.Findings() {
		h := charts.Text("-")
		if f.H200Ratio > 0 {
			h = charts.Float(f.H200Ratio, 2)
		}
		tb.AddRow(charts.Text(f.Question), charts.Text(string(f.Input)), charts.Int(int64(f.Bins)),
			charts.Text(fmt.Sprintf("%s / %s", f.Slow, f.Fast)), charts.Float(f.Ratio, 2), h, charts.Text(f.reading()))
	}
	tb.AddNote("The course notes' rule: when the merge is an atomicAdd (many to few), interleaved partitioning wins. A ratio above 1 in a partitioning row agrees with it; within 10%% of 1 the two are a tie.")
	return tb
}

// reading says what a finding means, from the H200's ratio where there
// is one, else this device's.
func (f Finding) reading() string {
	r := f.H200Ratio
	if r == 0 {
		r = f.Ratio
	}
	switch f.Question {
	case "launch shape":
		return fmt.Sprintf("every extra block zeroes and merges all %d bins: %.0fx", f.Bins, r)
	case "partitioning (privatised)", "partitioning (global)":
		switch {
		case r > 1.1:
			return "interleaved wins: the rule holds"
		case r < 0.9:
			return "contiguous wins: the rule fails"
		}
		return "a tie (within 10%): the rule does not matter here"
	}
	if r > 2 {
		return "the hot bin serialises the atomics"
	}
	return "privatisation absorbs the hot bin"
}
