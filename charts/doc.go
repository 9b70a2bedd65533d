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
//   - InteractiveHTML draws a Figure with echarts, offline: the chart's
//     HTML holds a static SVG image of the figure and a small script that
//     loads the echarts library from the notebook server (LibraryPath,
//     once per page) and draws the interactive chart in the image's
//     place. scripts/setup.sh fetches the library once (npm pack
//     echarts@5.6.0) into the user's cache directory (EChartsPath; the
//     WARPLAB_ECHARTS_JS environment variable overrides it) and installs
//     it where the notebook server serves it; warplab's image does the
//     same. Where the library cannot load, the static image stays.
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
// A chart's output carries no copy of the echarts library (about 1 MB):
// a notebook with outputs stays small, however many charts it shows. The
// static image in each chart's output is what a viewer without JavaScript
// sees, and what a saved notebook shows wherever the library is not
// served (an HTML export opened from disk, a notebook on a web site).
// Where require.js is on the page (the classic notebook, nbconvert's HTML
// export) the library is loaded through it as an AMD module.
//
// NewProgress reports the progress of a long run: an output line updated
// in place in a notebook, a rewritten line on stderr when it is a terminal,
// and nothing otherwise.
package charts
