package gpu

import (
	"fmt"
	"html"
	"strconv"
	"strings"
)

// CounterEntry is one counter with its section and what it counts, as
// Counters.Entries lists them for reports.
type CounterEntry struct {
	// Section groups the counters: "launch", "instructions", "global
	// memory", "L2 (modelled)", "shared memory", "local memory", "global
	// atomics", "shared atomics", "warp and sync".
	Section string
	Name    string
	Value   int64
	// Help says what the counter counts, in a few words.
	Help string
}

// Entries lists every counter in a fixed order, by section.
func (c *Counters) Entries() []CounterEntry {
	if c == nil {
		return nil
	}
	e := func(sec, name string, v int64, help string) CounterEntry {
		return CounterEntry{Section: sec, Name: name, Value: v, Help: help}
	}
	const l, in, gm, l2, sm, lm, ga, sa, ws = "launch", "instructions", "global memory", "L2 (modelled)", "shared memory", "local memory", "global atomics", "shared atomics", "warp and sync"
	return []CounterEntry{
		e(l, "blocks", c.Blocks, "thread blocks launched"),
		e(l, "warps", c.Warps, "warps launched"),
		e(l, "threads", c.Threads, "threads launched"),
		e(l, "resident blocks per SM", int64(c.ResidentBlocksPerSM), "the occupancy limit for this launch"),
		e(l, "waves", c.Waves, "blocks / (SMs x resident blocks per SM), rounded up"),
		e(in, "warp instructions", c.WarpInstructions, "one per warp instruction, however many lanes are active"),
		e(in, "thread instructions", c.ThreadInstructions, "one per active lane"),
		e(in, "integer", c.ByClass.Int, "warp instructions: integer and logic"),
		e(in, "fp32", c.ByClass.FP32, "warp instructions: float add, mul, fma, compare"),
		e(in, "fp64", c.ByClass.FP64, "warp instructions: double arithmetic"),
		e(in, "sfu", c.ByClass.SFU, "warp instructions: exp, log, sqrt, sin, rcp"),
		e(in, "convert", c.ByClass.Convert, "warp instructions: conversions"),
		e(in, "memory", c.ByClass.Memory, "warp instructions: loads and stores"),
		e(in, "atomic", c.ByClass.Atomic, "warp instructions: atomics"),
		e(in, "warp", c.ByClass.Warp, "warp instructions: shuffles and votes"),
		e(in, "control", c.ByClass.Control, "warp instructions: branches, calls, masks"),
		e(in, "sync", c.ByClass.Sync, "warp instructions: barriers and fences"),
		e(gm, "load requests", c.GlobalLoadRequests, "warp load instructions"),
		e(gm, "load sectors", c.GlobalLoadSectors, "distinct 32-byte sectors loaded"),
		e(gm, "load bytes", c.GlobalLoadBytes, "bytes the active lanes asked for"),
		e(gm, "store requests", c.GlobalStoreRequests, "warp store instructions"),
		e(gm, "store sectors", c.GlobalStoreSectors, "distinct 32-byte sectors stored"),
		e(gm, "store bytes", c.GlobalStoreBytes, "bytes the active lanes wrote"),
		e(gm, "DRAM bytes", c.DRAMBytes, "modelled: 64-byte granules of the loads that miss the L2, and of every store"),
		e(l2, "sector accesses", c.L2Sectors, "modelled: 32-byte sectors the L2 serves (loads that miss the L1, stores, atomic operations)"),
		e(l2, "sector hits", c.L2Hits, "modelled: of those, served from what the L2 holds (it starts the launch empty)"),
		e(l2, "slices", int64(c.L2Slices), "the profile's L2 slices"),
		e(l2, "busiest slice's sectors", c.L2HotSliceSectors, "modelled: sector accesses of the busiest slice (lines hashed to slices)"),
		e(sm, "load requests", c.SharedLoadRequests, "warp load instructions"),
		e(sm, "store requests", c.SharedStoreRequests, "warp store instructions"),
		e(sm, "bank conflicts", c.SharedBankConflicts, "extra wavefronts from lanes on one bank"),
		e(lm, "load requests", c.LocalLoadRequests, "warp load instructions"),
		e(lm, "store requests", c.LocalStoreRequests, "warp store instructions"),
		e(ga, "requests", c.GlobalAtomicRequests, "warp atomic instructions"),
		e(ga, "lane operations", c.GlobalAtomicOps, "one per active lane"),
		e(ga, "issued to the L2", c.GlobalAtomicIssued, "after the compiler's warp aggregation"),
		e(ga, "aggregated by the compiler", c.GlobalAtomicAggregated, "lane operations folded into one per warp"),
		e(ga, "aggregated, result used", c.GlobalAtomicAggregatedUsed, "of those, lanes that use the returned old value"),
		e(ga, "float operations", c.GlobalFloatAtomicOps, "float and double atomics, never aggregated"),
		e(ga, "distinct addresses", c.GlobalAtomicAddresses, "addresses the atomics hit"),
		e(ga, "distinct 128-byte lines", c.GlobalAtomicLines, "L2 lines the atomics hit"),
		e(ga, "longest chain on one address", c.GlobalAtomicMaxChain, "issued operations to the busiest address"),
		e(ga, "longest chain on one line", c.GlobalAtomicMaxLine, "issued operations to the busiest line"),
		e(sa, "requests", c.SharedAtomicRequests, "warp atomic instructions"),
		e(sa, "lane operations", c.SharedAtomicOps, "one per active lane"),
		e(sa, "conflicts", c.SharedAtomicConflicts, "lanes serialised behind another on one address"),
		e(sa, "CAS retries", c.SharedCASRetries, "extra trips of a shared float add's compare-and-swap loop"),
		e(ga, "failed atomicCAS", c.CASFailures, "atomicCAS lanes whose compare failed, global and shared: retries of a CAS loop"),
		e(ws, "shuffles", c.Shuffles, "warp shuffle instructions"),
		e(ws, "votes", c.Votes, "ballot, any, all, match, activemask, reduce"),
		e(ws, "barriers", c.Barriers, "__syncthreads completed, per block"),
		e(ws, "barrier wait cycles", c.BarrierWaitCycles, "warp-cycles spent waiting at barriers"),
		e(ws, "syncwarps", c.SyncWarps, "__syncwarp calls"),
		e(ws, "fences", c.Fences, "memory fences"),
		e(ws, "printfs", c.Printfs, "device printf calls"),
	}
}

// alwaysShown are the counters a report shows even when they are zero.
var alwaysShown = map[string]bool{"blocks": true, "warps": true, "threads": true, "warp instructions": true}

// shown returns the entries a report shows: the launch's size and every
// counter that is not zero.
func (c *Counters) shown() []CounterEntry {
	var es []CounterEntry
	for _, e := range c.Entries() {
		if e.Value != 0 || alwaysShown[e.Name] {
			es = append(es, e)
		}
	}
	return es
}

// String returns the counters that are not zero, one per line, by
// section, with thousands separated.
func (c *Counters) String() string {
	if c == nil {
		return "no counters (a GPU launch has none)"
	}
	var b strings.Builder
	section := ""
	for _, e := range c.shown() {
		if e.Section != section {
			section = e.Section
			fmt.Fprintf(&b, "%s:\n", section)
		}
		fmt.Fprintf(&b, "  %-30s %15s\n", e.Name, groupDigits(e.Value))
	}
	return b.String()
}

// HTML returns the counters that are not zero as an HTML table with
// inline styles, one row per counter, with what each counts.
func (c *Counters) HTML() string {
	if c == nil {
		return "<p>no counters (a GPU launch has none)</p>"
	}
	var b strings.Builder
	b.WriteString(`<table class="warplab-counters" style="border-collapse:collapse;font-family:sans-serif;font-size:13px;">`)
	b.WriteString(`<caption style="text-align:left;font-weight:bold;padding:4px 0;">Counters (simulator)</caption>`)
	section := ""
	for _, e := range c.shown() {
		if e.Section != section {
			section = e.Section
			fmt.Fprintf(&b, `<tr><th colspan="3" style="text-align:left;background:#f0f0f0;padding:3px 8px;">%s</th></tr>`, html.EscapeString(section))
		}
		fmt.Fprintf(&b, `<tr><td style="padding:2px 8px;">%s</td><td style="padding:2px 8px;text-align:right;font-family:monospace;">%s</td><td style="padding:2px 8px;color:#666;">%s</td></tr>`,
			html.EscapeString(e.Name), groupDigits(e.Value), html.EscapeString(e.Help))
	}
	b.WriteString(`</table>`)
	return b.String()
}

// String returns the time, where it came from, and for a modelled time
// its breakdown by resource, one per line.
func (t Timing) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s ms (%s)", formatMs(t.Ms), t.Source)
	for _, c := range t.Breakdown {
		fmt.Fprintf(&b, "\n  %-16s %10s ms", c.Resource, formatMs(c.Ms))
		if c.Detail != "" {
			fmt.Fprintf(&b, "  %s", c.Detail)
		}
	}
	return b.String()
}

// HTML returns the time as an HTML fragment: the time and its source,
// and for a modelled time a table of its breakdown with a bar per
// resource.
func (t Timing) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="warplab-timing" style="font-family:sans-serif;font-size:13px;"><div><b>%s ms</b> <span style="color:#555;">(%s)</span></div>`,
		formatMs(t.Ms), html.EscapeString(t.Source))
	if len(t.Breakdown) > 0 {
		most := 0.0
		for _, c := range t.Breakdown {
			most = max(most, c.Ms)
		}
		b.WriteString(`<table style="border-collapse:collapse;margin-top:4px;">`)
		b.WriteString(`<tr><th style="text-align:left;padding:2px 8px;">resource</th><th style="text-align:right;padding:2px 8px;">ms</th><th></th><th style="text-align:left;padding:2px 8px;">why</th></tr>`)
		for _, c := range t.Breakdown {
			w := 0
			if most > 0 {
				w = int(120 * c.Ms / most)
			}
			fmt.Fprintf(&b, `<tr><td style="padding:2px 8px;">%s</td><td style="padding:2px 8px;text-align:right;font-family:monospace;">%s</td><td style="padding:2px 8px;"><div style="background:#4e79a7;height:10px;width:%dpx;"></div></td><td style="padding:2px 8px;color:#666;">%s</td></tr>`,
				html.EscapeString(c.Resource), formatMs(c.Ms), w, html.EscapeString(c.Detail))
		}
		b.WriteString(`</table>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// launchLine returns "kernel<<<grid, block[, shared]>>> on device".
func (r *Result) launchLine() string {
	s := fmt.Sprintf("%s<<<%s, %s", r.Kernel, r.Grid, r.Block)
	if r.SharedBytes > 0 {
		s += fmt.Sprintf(", %d", r.SharedBytes)
	}
	s += ">>>"
	if r.Device != "" {
		s += " on " + r.Device
	}
	if r.Seed != 0 {
		s += fmt.Sprintf(" (seed %d)", r.Seed)
	}
	return s
}

// String returns the launch as text: its shape and device, its time with
// the breakdown, any diagnostics and printf output, and the counters that
// are not zero (or that there are none, on a GPU).
func (r *Result) String() string {
	if r == nil {
		return "no result"
	}
	var b strings.Builder
	b.WriteString(r.launchLine())
	b.WriteString("\ntime: ")
	b.WriteString(r.Timing.String())
	b.WriteString("\n")
	if len(r.Diagnostics) > 0 {
		fmt.Fprintf(&b, "diagnostics (%d):\n", len(r.Diagnostics))
		for _, d := range r.Diagnostics {
			b.WriteString("  " + d.String() + "\n")
		}
	}
	if r.Printf != "" {
		b.WriteString("printf:\n" + r.Printf)
		if !strings.HasSuffix(r.Printf, "\n") {
			b.WriteString("\n")
		}
	}
	b.WriteString(r.Counters.String())
	if r.Counters == nil {
		b.WriteString("\n")
	}
	return b.String()
}

// HTML returns the launch as an HTML fragment: its shape and device, the
// time with its breakdown, diagnostics in red, printf output and the
// counters.
func (r *Result) HTML() string {
	if r == nil {
		return "<p>no result</p>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="warplab-result" style="font-family:sans-serif;font-size:13px;"><div style="font-family:monospace;font-weight:bold;margin-bottom:4px;">%s</div>`, html.EscapeString(r.launchLine()))
	b.WriteString(r.Timing.HTML())
	if len(r.Diagnostics) > 0 {
		fmt.Fprintf(&b, `<div style="color:#b00020;margin-top:6px;"><b>%d diagnostic(s)</b><ul style="margin:2px 0;">`, len(r.Diagnostics))
		for _, d := range r.Diagnostics {
			fmt.Fprintf(&b, `<li style="font-family:monospace;">%s</li>`, html.EscapeString(d.String()))
		}
		b.WriteString(`</ul></div>`)
	}
	if r.Printf != "" {
		fmt.Fprintf(&b, `<div style="margin-top:6px;"><b>printf</b><pre style="margin:2px 0;background:#f6f8fa;padding:4px;">%s</pre></div>`, html.EscapeString(r.Printf))
	}
	b.WriteString(`<div style="margin-top:6px;">`)
	b.WriteString(r.Counters.HTML())
	b.WriteString(`</div>`)
	b.WriteString(`</div>`)
	return b.String()
}

// formatMs formats a time in ms with about four significant digits and no
// exponent: 12.35, 0.1383, 0.01230.
func formatMs(ms float64) string {
	switch {
	case ms == 0:
		return "0"
	case ms >= 100:
		return strconv.FormatFloat(ms, 'f', 1, 64)
	case ms >= 1:
		return strconv.FormatFloat(ms, 'f', 3, 64)
	}
	return strconv.FormatFloat(ms, 'f', 4+exp10(ms), 64)
}

// exp10 returns floor(log10(x)) for 0 < x < 1, as a count of leading zeros
// after the point.
func exp10(x float64) int {
	n := 0
	for x < 0.1 && n < 12 {
		x *= 10
		n++
	}
	return n
}

// groupDigits formats v with thousands separated by commas.
func groupDigits(v int64) string {
	s := strconv.FormatInt(v, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
