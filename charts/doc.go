// Package charts shows warplab's results: tables and charts that render as
// HTML, Markdown and plain text, as interactive echarts charts that work
// offline, and as static PNG and SVG images drawn by gonum/plot, with Show
// to display any of them in a GoNB notebook.
//
// # Tables
//
// A Table has a title, an optional caption, columns (header, unit,
// alignment), rows of cells and notes. A Cell holds the text shown and,
// for numbers, the value it shows, so that charts and graders need not
// parse text; a highlighted cell stands out (the best result, a failed
// check). Text, Number, Float and Int make cells.
//
//	t := charts.NewTable("One sum, three ways",
//		charts.Column{Header: "kernel"},
//		charts.Column{Header: "time", Unit: "ms"})
//	t.AddRow(charts.Text("global atomic"), charts.Float(4.91, 2))
//	t.AddRow(charts.Text("tree + one atomic"), charts.Float(0.11, 2).Highlighted())
//
// A table renders itself three ways:
//
//   - HTML: a self-contained fragment with inline styles, for the classic
//     notebook, nbconvert's HTML export and reports;
//   - Markdown: a GitHub-flavoured pipe table;
//   - String: aligned plain text, as a command-line report prints it, with
//     numbers right-aligned and a dashed rule under the header.
//
// Anything that can show itself as a table implements Tabler, and *Table
// does too. A lab's result type implements Tabler so that the notebook, the
// command line and the grader all show it the same way.
//
// # Charts
//
// A Chart (line and scatter series of x-y points) and a BarChart (grouped
// bars, one group per category) describe a chart without saying how it is
// drawn: titles, axes with units and optional logarithmic scales, named
// series, and horizontal reference lines such as an exact result. Series
// data comes through small interfaces in the style of gonum/plot: XYer
// (Len, XY) for points and Valuer (Len, Value) for bars, with XYs and
// Values as ready-made slices. Both chart types are a Figure, which the
// renderers accept:
//
//   - InteractiveHTML draws a Figure with echarts. The echarts library is
//     inlined in the HTML, never loaded from the network, so charts work
//     offline. scripts/setup.sh fetches it once (npm pack echarts@5.6.0)
//     into the user's cache directory; EChartsPath says where, and the
//     WARPLAB_ECHARTS_JS environment variable overrides it. Without the
//     file, a chart shows "chart library not installed: run
//     scripts/setup.sh" in its place, and tables and images work as usual.
//   - WriteImage and SaveImage draw a Figure with gonum/plot as PNG, SVG or
//     PDF, with no JavaScript: for exports, reports, the grader and the
//     command line's --plot.
//
// Both renderers use the same colours and layout, so a chart looks alike
// drawn either way. Validate reports what cannot be drawn (NaN or infinite
// values, values that are not positive on a log axis) as an error before
// anything is drawn.
//
// # Notebooks
//
// In a GoNB notebook, Show displays tables, charts, errors and text as the
// cell's output, and ShowPNG displays charts as images:
//
//	charts.Show(result)         // a lab's result: a Tabler
//	charts.Show(result.Chart()) // an interactive chart
//	charts.ShowPNG(result.Chart())
//
// Each output carries a plain-text rendering too. Show calls gonbui.Sync
// before returning, so that no output is lost when the cell's program
// ends. Outside GoNB, Show and ShowPNG do nothing: no output, no error.
// Programs that also run on the command line print Table.String or save
// images themselves; InNotebook tells which case applies.
//
// Every GoNB cell runs as a program of its own. The first chart that a cell
// shows carries the echarts library (about 1 MB), so that every cell's
// output stands on its own in a saved notebook and in its HTML export; the
// browser runs the library once per page and later copies are skipped. The
// library is loaded with AMD's define hidden, because where require.js is
// on the page (the classic notebook, nbconvert's HTML export) it would
// otherwise register as an AMD module and the chart would stay blank.
//
// NewProgress reports the progress of a long run: an output line updated
// in place in a notebook, a rewritten line on stderr when it is a terminal,
// and nothing otherwise.
package charts
