package charts

import (
	"html"
	"strings"
	"unicode/utf8"
)

// String returns the table as aligned plain text, as a command-line report
// prints it: the title and caption, a header line with a dashed rule under
// it, columns two spaces apart (numbers right-aligned), then the notes.
// A highlighted cell is marked with a leading '*'.
func (t *Table) String() string {
	var b strings.Builder
	for _, line := range []string{t.Title, t.Caption} {
		if line != "" {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	n := t.width()
	if n > 0 {
		texts := make([][]string, 0, len(t.Rows)+1)
		header := make([]string, n)
		for i := range n {
			header[i] = t.column(i).label()
		}
		texts = append(texts, header)
		for r := range t.Rows {
			row := make([]string, n)
			for i := range n {
				c := t.cell(r, i)
				row[i] = c.Text
				if c.Highlight {
					row[i] = "*" + c.Text
				}
			}
			texts = append(texts, row)
		}
		widths := make([]int, n)
		for _, row := range texts {
			for i, s := range row {
				widths[i] = max(widths[i], utf8.RuneCountInString(s))
			}
		}
		aligns := make([]Align, n)
		for i := range n {
			aligns[i] = t.align(i)
		}
		writeRow := func(row []string) {
			var line strings.Builder
			for i, s := range row {
				if i > 0 {
					line.WriteString("  ")
				}
				line.WriteString(pad(s, widths[i], aligns[i]))
			}
			b.WriteString(strings.TrimRight(line.String(), " "))
			b.WriteByte('\n')
		}
		writeRow(texts[0])
		rule := make([]string, n)
		for i, w := range widths {
			rule[i] = strings.Repeat("-", w)
		}
		writeRow(rule)
		for _, row := range texts[1:] {
			writeRow(row)
		}
	}
	for _, note := range t.Notes {
		b.WriteString(note)
		b.WriteByte('\n')
	}
	return b.String()
}

// pad pads s with spaces to width runes, aligned as a says.
func pad(s string, width int, a Align) string {
	gap := width - utf8.RuneCountInString(s)
	if gap <= 0 {
		return s
	}
	switch a {
	case AlignRight:
		return strings.Repeat(" ", gap) + s
	case AlignCenter:
		left := gap / 2
		return strings.Repeat(" ", left) + s + strings.Repeat(" ", gap-left)
	default:
		return s + strings.Repeat(" ", gap)
	}
}

// Markdown returns the table as GitHub-flavoured Markdown: the title in
// bold, the caption, a pipe table, then the notes, separated by blank
// lines. Highlighted cells are bold.
func (t *Table) Markdown() string {
	var parts []string
	if t.Title != "" {
		parts = append(parts, "**"+mdEscape(t.Title)+"**")
	}
	if t.Caption != "" {
		parts = append(parts, mdEscape(t.Caption))
	}
	if n := t.width(); n > 0 {
		var b strings.Builder
		b.WriteString("|")
		for i := range n {
			b.WriteString(" " + mdEscape(t.column(i).label()) + " |")
		}
		b.WriteString("\n|")
		for i := range n {
			switch t.align(i) {
			case AlignRight:
				b.WriteString(" ---: |")
			case AlignCenter:
				b.WriteString(" :---: |")
			default:
				b.WriteString(" --- |")
			}
		}
		for r := range t.Rows {
			b.WriteString("\n|")
			for i := range n {
				c := t.cell(r, i)
				s := mdEscape(c.Text)
				if c.Highlight && s != "" {
					s = "**" + s + "**"
				}
				b.WriteString(" " + s + " |")
			}
		}
		parts = append(parts, b.String())
	}
	for _, note := range t.Notes {
		parts = append(parts, mdEscape(note))
	}
	return strings.Join(parts, "\n\n") + "\n"
}

// mdEscape escapes the characters that would break a Markdown table cell,
// start emphasis or be read as HTML.
var mdEscape = strings.NewReplacer(
	`\`, `\\`, `|`, `\|`, `*`, `\*`, `_`, `\_`, "`", "\\`", "\n", " ",
	"<", "&lt;", ">", "&gt;", "&", "&amp;",
).Replace

// Inline styles of the HTML rendering. They are inline, not a stylesheet,
// so that the table looks the same in the classic notebook, in an
// nbconvert HTML export and pasted into any page; they also override the
// notebook's own table rules (centred tables, right-aligned text).
const (
	tableFont  = `font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif;font-size:13px;color:#222;`
	titleStyle = `font-weight:600;font-size:14px;margin:0 0 2px 0;`
	captStyle  = `color:#555;margin:0 0 6px 0;`
	tableStyle = `border-collapse:collapse;margin:0;font-variant-numeric:tabular-nums;`
	thStyle    = `padding:4px 10px;border-bottom:2px solid #444;vertical-align:bottom;font-weight:600;background:#fff;`
	unitStyle  = `display:block;font-weight:normal;font-size:11px;color:#777;`
	tdStyle    = `padding:3px 10px;border-bottom:1px solid #ddd;`
	hiStyle    = `font-weight:700;background:#fff3bf;`
	notesStyle = `color:#555;font-size:12px;margin:6px 0 0 0;`
)

// HTML returns the table as a self-contained HTML fragment with inline
// styles. Units are shown under the column headers; highlighted cells are
// bold on a pale yellow background.
func (t *Table) HTML() string {
	var b strings.Builder
	b.WriteString(`<div class="warplab-table" style="` + tableFont + `margin:6px 0;">`)
	if t.Title != "" {
		b.WriteString(`<div style="` + titleStyle + `">` + html.EscapeString(t.Title) + `</div>`)
	}
	if t.Caption != "" {
		b.WriteString(`<div style="` + captStyle + `">` + html.EscapeString(t.Caption) + `</div>`)
	}
	if n := t.width(); n > 0 {
		aligns := make([]string, n)
		for i := range n {
			aligns[i] = cssAlign(t.align(i))
		}
		b.WriteString("\n<table style=\"" + tableStyle + "\">\n<thead><tr>")
		for i := range n {
			c := t.column(i)
			b.WriteString(`<th style="` + thStyle + `text-align:` + aligns[i] + `;">` + html.EscapeString(c.Header))
			if c.Unit != "" {
				b.WriteString(`<span style="` + unitStyle + `">` + html.EscapeString(c.Unit) + `</span>`)
			}
			b.WriteString(`</th>`)
		}
		b.WriteString("</tr></thead>\n<tbody>\n")
		for r := range t.Rows {
			b.WriteString("<tr>")
			for i := range n {
				c := t.cell(r, i)
				style := tdStyle + "text-align:" + aligns[i] + ";"
				if c.Highlight {
					style += hiStyle
				}
				b.WriteString(`<td style="` + style + `">` + html.EscapeString(c.Text) + `</td>`)
			}
			b.WriteString("</tr>\n")
		}
		b.WriteString("</tbody>\n</table>")
	}
	if len(t.Notes) > 0 {
		b.WriteString(`<div style="` + notesStyle + `">`)
		for i, note := range t.Notes {
			if i > 0 {
				b.WriteString("<br>")
			}
			b.WriteString(html.EscapeString(note))
		}
		b.WriteString(`</div>`)
	}
	b.WriteString("</div>\n")
	return b.String()
}

func cssAlign(a Align) string {
	switch a {
	case AlignRight:
		return "right"
	case AlignCenter:
		return "center"
	default:
		return "left"
	}
}
