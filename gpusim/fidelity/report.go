package fidelity

import (
	"fmt"
	"io"
	"strings"
)

// runsText spells a cell's measured time: the mean, and the runs behind
// it with their spread when there are several.
func (c CellResult) runsText() string {
	var runs []string
	for _, m := range c.Runs {
		if m > 0 {
			runs = append(runs, fmt.Sprintf("%.4f", m))
		}
	}
	if len(runs) < 2 {
		return fmt.Sprintf("%.4f", c.Measured)
	}
	return fmt.Sprintf("%.4f (%s; spread %.0f%%)", c.Measured, strings.Join(runs, ", "), 100*c.Spread)
}

// validationFirst returns the cells of each kind, validation first.
func (r *Report) validationFirst() (val, cal []CellResult) {
	for _, c := range r.Cells {
		if c.Validation {
			val = append(val, c)
		} else {
			cal = append(cal, c)
		}
	}
	return val, cal
}

// summary says how many targets of each kind are within tolerance.
func (r *Report) summary() string {
	vok, vn := r.Count(true)
	cok, cn := r.Count(false)
	s := fmt.Sprintf("validation: %d of %d cells within ±%.0f%%; calibration: %d of %d", vok, vn, r.Tolerance*100, cok, cn)
	if n, f := len(r.Misses()), len(r.Failures(false)); n > f {
		s += fmt.Sprintf("; %d calibration targets missed: fits that no longer hold, which fail only `warplab fidelity --strict`", n-f)
	}
	return s
}

// WriteText renders the report as aligned text: the validation cells (which
// nothing was fitted to) first, then the calibration cells with what each
// fitted.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s — simulator profile %s\nmeasured: %s\n", r.Table, r.Profile, r.Source)
	for i, name := range r.Runs {
		fmt.Fprintf(w, "run %d: %s\n", i+1, name)
	}
	if r.ClockNote != "" {
		fmt.Fprintf(w, "note: %s\n", r.ClockNote)
	}
	val, cal := r.validationFirst()
	header := func(title string, cells []CellResult, fits bool) {
		fmt.Fprintf(w, "\n%s: %d of %d cells\n", title, len(cells), len(r.Cells))
		fmt.Fprintf(w, "%10s  %-8s %-6s %12s  %-34s %6s  %-4s %-16s", "n", "kernel", "clock", "predicted ms", "measured ms (runs; spread)", "ratio", "ok", "bound by")
		if fits {
			fmt.Fprintf(w, " fitted")
		}
		fmt.Fprintf(w, "\n%s\n", strings.Repeat("-", 110))
		for _, c := range cells {
			fmt.Fprintf(w, "%10d  %-8s %-6s %12.4f  %-34s %6.2f  %-4s %-16s", c.N, c.Kernel, c.Clock, c.Predicted, c.runsText(), c.Ratio, okText(c.OK), c.Binding)
			if fits {
				fmt.Fprintf(w, " %s", strings.Join(c.Fits, ", "))
			}
			fmt.Fprintln(w)
		}
	}
	header("validation cells (nothing was fitted to them)", val, false)
	header("calibration cells (each fitted the parameters named)", cal, true)

	fmt.Fprintf(w, "\nfastest kernel per size (kernels within %.0f%% of the measured fastest count as tied)\n", TieTolerance*100)
	for _, k := range r.Rankings {
		fmt.Fprintf(w, "%10d  predicted %-8s measured %-16s %-4s %s\n", k.N, k.Predicted, strings.Join(k.Measured, ", "), okText(k.OK), kind(k.Validation))
	}
	fmt.Fprintf(w, "\nratios\n")
	for _, x := range r.Ratios {
		fmt.Fprintf(w, "  %-58s predicted %6.1f  measured %6.1f  %-4s %s\n", x.Name, x.Predicted, x.Measured, okText(x.OK), kindFits(x.Validation, x.Fits))
	}
	if len(r.Determinism) > 0 {
		fmt.Fprintf(w, "\ndeterminism at n=%d over %d seeds (measured on the page in brackets; %s)\n",
			determinismRef.N, determinismRef.Runs, kindFits(false, r.DeterminismFits))
		for _, d := range r.Determinism {
			fmt.Fprintf(w, "  %-8s distinct %2d (%2d)  min %.1f  max %.1f  spread %g (%g)\n",
				d.Kernel, d.Distinct, d.MeasuredDistinct, d.Min, d.Max, d.Spread, d.MeasuredSpread)
		}
		for _, c := range r.DeterminismChecks {
			fmt.Fprintf(w, "  %-70s %s\n", c.Name, okText(c.OK))
		}
	}
	fmt.Fprintf(w, "\n%s\n", r.summary())
	if m := r.Misses(); len(m) > 0 {
		fmt.Fprintf(w, "%d targets missed (%d of them validation targets):\n", len(m), len(r.Failures(false)))
		for _, s := range m {
			fmt.Fprintf(w, "  %s\n", s)
		}
	} else {
		fmt.Fprintf(w, "every target within tolerance\n")
	}
}

// kindFits names a target's kind and, for calibration, what it fitted.
func kindFits(validation bool, fits []string) string {
	if validation || len(fits) == 0 {
		return kind(validation)
	}
	return "calibration: " + strings.Join(fits, ", ")
}

func okText(ok bool) string {
	if ok {
		return "ok"
	}
	return "MISS"
}

// WriteMarkdown renders the report as Markdown tables, for docs/fidelity.md:
// the validation cells first, then the calibration cells.
func (r *Report) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "**%s** (profile `%s`; measured: %s)\n\n", r.Table, r.Profile, r.Source)
	if len(r.Runs) > 1 {
		var runs []string
		for i, name := range r.Runs {
			runs = append(runs, fmt.Sprintf("%d. %s", i+1, name))
		}
		fmt.Fprintf(w, "Runs: %s. A cell measured by several runs is scored against their mean; the spread is (max - min) / mean.\n\n", strings.Join(runs, "; "))
	}
	fmt.Fprintf(w, "%s.\n\n", capitalize(r.summary()))
	val, cal := r.validationFirst()
	table := func(title string, cells []CellResult, fits bool) {
		fmt.Fprintf(w, "%s (%d of %d cells):\n\n", title, len(cells), len(r.Cells))
		if len(cells) == 0 {
			fmt.Fprintf(w, "(none)\n\n")
			return
		}
		fmt.Fprintf(w, "| n | kernel | predicted ms | measured ms | ratio | bound by |")
		if fits {
			fmt.Fprintf(w, " fitted |")
		}
		fmt.Fprintf(w, "\n|---:|---|---:|---:|---:|---|")
		if fits {
			fmt.Fprintf(w, "---|")
		}
		fmt.Fprintln(w)
		for _, c := range cells {
			mark := ""
			if !c.OK {
				mark = " **miss**"
			}
			fmt.Fprintf(w, "| %d | %s | %.4f | %s | %.2f%s | %s |", c.N, c.Kernel, c.Predicted, c.runsText(), c.Ratio, mark, c.Binding)
			if fits {
				fmt.Fprintf(w, " %s |", strings.Join(c.Fits, ", "))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
	}
	table("Validation cells, which nothing was fitted to", val, false)
	table("Calibration cells, each used to fit the parameters named", cal, true)
	var fast []string
	for _, k := range r.Rankings {
		s := fmt.Sprintf("%d: %s", k.N, k.Predicted)
		if !k.OK {
			s += fmt.Sprintf(" (measured %s: **miss**)", strings.Join(k.Measured, ", "))
		}
		if k.Validation {
			s += " (validation)"
		}
		fast = append(fast, s)
	}
	fmt.Fprintf(w, "Fastest kernel predicted per size: %s.\n", strings.Join(fast, "; "))
	for _, x := range r.Ratios {
		fmt.Fprintf(w, "%s: predicted %.1f, measured %.1f (%s; %s).\n", capitalize(x.Name), x.Predicted, x.Measured, okText(x.OK), kindFits(x.Validation, x.Fits))
	}
	if len(r.Determinism) > 0 {
		fmt.Fprintf(w, "\nDeterminism, n = %d, %d seeds (the page's figures in brackets; %s):\n\n",
			determinismRef.N, determinismRef.Runs, kindFits(false, r.DeterminismFits))
		fmt.Fprintf(w, "| kernel | distinct | min | max | max - min |\n|---|---:|---:|---:|---:|\n")
		for _, d := range r.Determinism {
			fmt.Fprintf(w, "| %s | %d (%d) | %.1f | %.1f | %g (%g) |\n", d.Kernel, d.Distinct, d.MeasuredDistinct, d.Min, d.Max, d.Spread, d.MeasuredSpread)
		}
		fmt.Fprintln(w)
		var checks []string
		for _, c := range r.DeterminismChecks {
			checks = append(checks, fmt.Sprintf("%s (%s)", c.Name, okText(c.OK)))
		}
		fmt.Fprintf(w, "Checks: %s.\n", strings.Join(checks, "; "))
	}
	if r.ClockNote != "" {
		fmt.Fprintf(w, "\nClock: %s\n", r.ClockNote)
	}
	fmt.Fprintln(w)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
