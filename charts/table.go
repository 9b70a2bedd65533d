package charts

import (
	"fmt"
	"strconv"
)

// Align is the horizontal alignment of a table column.
type Align int

const (
	// AlignAuto right-aligns a column whose cells are all numeric and
	// left-aligns any other column.
	AlignAuto Align = iota
	AlignLeft
	AlignRight
	AlignCenter
)

// Column describes one column of a Table.
type Column struct {
	Header string
	// Unit, if not empty, is shown after the header: "time (ms)".
	Unit  string
	Align Align
}

// label returns the header with its unit, as the text and Markdown
// renderings show it.
func (c Column) label() string {
	if c.Unit == "" {
		return c.Header
	}
	if c.Header == "" {
		return "(" + c.Unit + ")"
	}
	return c.Header + " (" + c.Unit + ")"
}

// Cell is one table cell: the text shown and, for numbers, the value it
// shows, so that a consumer (a chart, a grader) need not parse the text.
type Cell struct {
	Text string
	// Value is the number that Text shows; it is meaningful only when
	// Numeric is true.
	Value   float64
	Numeric bool
	// Highlight marks a cell to stand out: the best result in a row, a
	// value that failed a check.
	Highlight bool
}

// Text returns a text cell.
func Text(s string) Cell { return Cell{Text: s} }

// Number returns a numeric cell showing v as text.
func Number(v float64, text string) Cell {
	return Cell{Text: text, Value: v, Numeric: true}
}

// Float returns a numeric cell showing v with prec digits after the
// decimal point, or in the fewest digits that represent v exactly when
// prec is negative.
func Float(v float64, prec int) Cell {
	return Number(v, strconv.FormatFloat(v, 'f', prec, 64))
}

// Int returns a numeric cell showing v in decimal.
func Int(v int64) Cell {
	return Number(float64(v), strconv.FormatInt(v, 10))
}

// Highlighted returns a copy of c marked to stand out.
func (c Cell) Highlighted() Cell {
	c.Highlight = true
	return c
}

// Table is a titled table of cells that renders itself as HTML, Markdown
// and aligned plain text. The zero value is an empty table.
type Table struct {
	Title string
	// Caption is a line shown under the title.
	Caption string
	Columns []Column
	Rows    [][]Cell
	// Notes are lines shown under the table: footnotes, what a
	// highlighted cell means, where the numbers come from.
	Notes []string
}

// Tabler is implemented by anything that can show itself as a table, such
// as a lab's experiment result. Show displays any Tabler.
type Tabler interface {
	Table() *Table
}

// NewTable returns an empty table with the given title and columns.
func NewTable(title string, columns ...Column) *Table {
	return &Table{Title: title, Columns: columns}
}

// Table returns t itself, so that a *Table is a Tabler.
func (t *Table) Table() *Table { return t }

// AddRow appends a row. It panics if the number of cells is not the
// number of columns: that is a mistake in the program, not in its data.
func (t *Table) AddRow(cells ...Cell) {
	if len(cells) != len(t.Columns) {
		panic(fmt.Sprintf("charts: AddRow: got %d cells for a table of %d columns", len(cells), len(t.Columns)))
	}
	t.Rows = append(t.Rows, cells)
}

// AddNote appends a line under the table, formatted as by fmt.Sprintf.
func (t *Table) AddNote(format string, args ...any) {
	t.Notes = append(t.Notes, fmt.Sprintf(format, args...))
}

// width returns the number of columns the renderings show: the declared
// columns, or more when a row was built by hand with extra cells.
func (t *Table) width() int {
	n := len(t.Columns)
	for _, r := range t.Rows {
		n = max(n, len(r))
	}
	return n
}

// column returns column i, or an empty column past the declared ones.
func (t *Table) column(i int) Column {
	if i < len(t.Columns) {
		return t.Columns[i]
	}
	return Column{}
}

// cell returns row r's cell in column i, or an empty cell where the row
// is short.
func (t *Table) cell(r, i int) Cell {
	if row := t.Rows[r]; i < len(row) {
		return row[i]
	}
	return Cell{}
}

// align resolves column i's alignment: AlignAuto becomes AlignRight when
// every non-empty cell of the column is numeric.
func (t *Table) align(i int) Align {
	if a := t.column(i).Align; a != AlignAuto {
		return a
	}
	numeric := false
	for r := range t.Rows {
		c := t.cell(r, i)
		if c.Text == "" && !c.Numeric {
			continue
		}
		if !c.Numeric {
			return AlignLeft
		}
		numeric = true
	}
	if numeric {
		return AlignRight
	}
	return AlignLeft
}
