package labkit

import (
	"fmt"
	"strings"

	"github.com/warplab/warplab/charts"
)

// ReportText returns a lab's report as plain text: each table's text
// followed by a blank line, then a line that names the lab, the device it
// ran on and the wall time it took: "queue lab on Tesla T4: 6.2 s".
func ReportText(tables []*charts.Table, lab, device string, seconds float64) string {
	return report(tables, (*charts.Table).String, lab, device, seconds)
}

// ReportMarkdown is ReportText with each table as Markdown.
func ReportMarkdown(tables []*charts.Table, lab, device string, seconds float64) string {
	return report(tables, (*charts.Table).Markdown, lab, device, seconds)
}

func report(tables []*charts.Table, render func(*charts.Table) string, lab, device string, seconds float64) string {
	var b strings.Builder
	for _, t := range tables {
		b.WriteString(render(t) + "\n")
	}
	fmt.Fprintf(&b, "%s lab on %s: %.1f s\n", lab, device, seconds)
	return b.String()
}
