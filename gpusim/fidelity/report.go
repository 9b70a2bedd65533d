package fidelity

import (
	"fmt"
	"io"
	"strings"
)

// WriteText renders the report as aligned text.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s — simulator profile %s\nmeasured: %s\n", r.Table, r.Profile, r.Source)
	if r.ClockNote != "" {
		fmt.Fprintf(w, "note: %s\n", r.ClockNote)
	}
	fmt.Fprintf(w, "\n%10s  %-8s %-6s %12s %12s %7s  %-4s %s\n", "n", "kernel", "clock", "predicted ms", "measured ms", "ratio", "ok", "bound by")
	fmt.Fprintf(w, "%s\n", strings.Repeat("-", 82))
	for _, c := range r.Cells {
		meas := fmt.Sprintf("%.4f", c.Measured)
		if c.Alt > 0 {
			meas += fmt.Sprintf(" (%.4f)", c.Alt)
		}
		fmt.Fprintf(w, "%10d  %-8s %-6s %12.4f %12s %7.2f  %-4s %s\n", c.N, c.Kernel, c.Clock, c.Predicted, meas, c.Ratio, okText(c.OK), c.Binding)
	}
	fmt.Fprintf(w, "\nfastest kernel per size (kernels within %.0f%% of the measured fastest count as tied)\n", TieTolerance*100)
	for _, k := range r.Rankings {
		fmt.Fprintf(w, "%10d  predicted %-8s measured %-16s %s\n", k.N, k.Predicted, strings.Join(k.Measured, ", "), okText(k.OK))
	}
	fmt.Fprintf(w, "\nratios\n")
	for _, x := range r.Ratios {
		meas := fmt.Sprintf("%.1f", x.Measured)
		if x.Alt > 0 {
			meas += fmt.Sprintf(" (%.1f)", x.Alt)
		}
		fmt.Fprintf(w, "  %-58s predicted %6.1f  measured %-12s %s\n", x.Name, x.Predicted, meas, okText(x.OK))
	}
	if len(r.Determinism) > 0 {
		fmt.Fprintf(w, "\ndeterminism at n=%d over %d seeds (measured on the page in brackets)\n", determinismRef.N, determinismRef.Runs)
		for _, d := range r.Determinism {
			fmt.Fprintf(w, "  %-8s distinct %2d (%2d)  min %.1f  max %.1f  spread %g (%g)\n",
				d.Kernel, d.Distinct, d.MeasuredDistinct, d.Min, d.Max, d.Spread, d.MeasuredSpread)
		}
		for _, c := range r.DeterminismChecks {
			fmt.Fprintf(w, "  %-70s %s\n", c.Name, okText(c.OK))
		}
	}
	if m := r.Misses(); len(m) > 0 {
		fmt.Fprintf(w, "\n%d targets missed\n", len(m))
	} else {
		fmt.Fprintf(w, "\nevery target within tolerance (±%.0f%%)\n", Tolerance*100)
	}
}

func okText(ok bool) string {
	if ok {
		return "ok"
	}
	return "MISS"
}

// WriteMarkdown renders the report as Markdown tables, for the README.
func (r *Report) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "**%s** (profile `%s`; measured: %s)\n\n", r.Table, r.Profile, r.Source)
	fmt.Fprintf(w, "| n | kernel | predicted ms | measured ms | ratio | bound by |\n|---:|---|---:|---:|---:|---|\n")
	for _, c := range r.Cells {
		meas := fmt.Sprintf("%.4f", c.Measured)
		if c.Alt > 0 {
			meas += fmt.Sprintf(" (%.4f)", c.Alt)
		}
		mark := ""
		if !c.OK {
			mark = " **miss**"
		}
		fmt.Fprintf(w, "| %d | %s | %.4f | %s | %.2f%s | %s |\n", c.N, c.Kernel, c.Predicted, meas, c.Ratio, mark, c.Binding)
	}
	fmt.Fprintln(w)
	var fast []string
	for _, k := range r.Rankings {
		s := fmt.Sprintf("%d: %s", k.N, k.Predicted)
		if !k.OK {
			s += fmt.Sprintf(" (measured %s)", strings.Join(k.Measured, ", "))
		}
		fast = append(fast, s)
	}
	fmt.Fprintf(w, "Fastest kernel predicted per size: %s.\n", strings.Join(fast, "; "))
	for _, x := range r.Ratios {
		meas := fmt.Sprintf("%.1f", x.Measured)
		if x.Alt > 0 {
			meas += fmt.Sprintf(" (%.1f)", x.Alt)
		}
		fmt.Fprintf(w, "%s: predicted %.1f, measured %s (%s).\n", capitalize(x.Name), x.Predicted, meas, okText(x.OK))
	}
	if len(r.Determinism) > 0 {
		fmt.Fprintf(w, "\nDeterminism, n = %d, %d seeds (the page's figures in brackets):\n\n", determinismRef.N, determinismRef.Runs)
		fmt.Fprintf(w, "| kernel | distinct | min | max | max - min |\n|---|---:|---:|---:|---:|\n")
		for _, d := range r.Determinism {
			fmt.Fprintf(w, "| %s | %d (%d) | %.1f | %.1f | %g (%g) |\n", d.Kernel, d.Distinct, d.MeasuredDistinct, d.Min, d.Max, d.Spread, d.MeasuredSpread)
		}
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
