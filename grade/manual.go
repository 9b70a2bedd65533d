package grade

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/warplab/warplab/labs"
)

// ManualHeader is the header of the manual-grading sheet WriteManual
// writes and ReadMarks reads back: the instructor fills in points (and a
// comment) on each row.
func ManualHeader() []string {
	return []string{"student", "check", "part", "max_points", "points", "comment", "text"}
}

// WriteManual writes the manual-grading sheet: one row per student and
// manual part with text to read (the student's prose, in full), sorted
// by student, for the instructor to fill in the points column. A cell
// that a spreadsheet would read as a formula is written with a leading
// apostrophe, which ReadMarks drops.
func WriteManual(w io.Writer, results []Result) error {
	rs := append([]Result(nil), results...)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Student < rs[j].Student })
	cw := csv.NewWriter(w)
	if err := cw.Write(ManualHeader()); err != nil {
		return err
	}
	for _, r := range rs {
		for _, t := range r.Tests {
			if !t.Manual || t.Verdict == labs.Unanswered {
				continue
			}
			points := ""
			if t.Verdict != labs.Pending {
				points = strconv.FormatFloat(t.Points, 'g', -1, 64)
			}
			row := []string{r.Student, t.Check, t.Part, strconv.FormatFloat(t.MaxPoints, 'g', -1, 64), points, "", t.Text}
			if err := cw.Write(escapeCells(row)); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// Mark is an instructor's mark for one manual part of one student.
type Mark struct {
	Student, Check, Part string
	Points               float64
	Comment              string
	// Line is the mark's line in its file, for messages.
	Line int
}

// ReadMarks reads an instructor's marks: a CSV file with a header naming
// at least the columns student, check, part and points (the sheet
// WriteManual writes, filled in). A row with an empty points cell is not
// graded yet and is skipped; any other bad cell is an error naming its
// line.
func ReadMarks(r io.Reader) ([]Mark, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("grade: marks: reading the header: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	for _, need := range []string{"student", "check", "part", "points"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("grade: marks: no %q column in the header (want %s)", need, strings.Join(ManualHeader(), ","))
		}
	}
	get := func(row []string, name string) string {
		i, ok := col[name]
		if !ok || i >= len(row) {
			return ""
		}
		return strings.TrimPrefix(strings.TrimSpace(row[i]), "'")
	}
	var marks []Mark
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("grade: marks: %w", err)
		}
		p := get(row, "points")
		if p == "" {
			continue
		}
		pts, err := strconv.ParseFloat(p, 64)
		if err != nil || pts < 0 || pts != pts {
			return nil, fmt.Errorf("grade: marks: line %d: points %q: want a number of at least 0", line, p)
		}
		marks = append(marks, Mark{Student: get(row, "student"), Check: get(row, "check"), Part: get(row, "part"),
			Points: pts, Comment: get(row, "comment"), Line: line})
	}
	return marks, nil
}

// ApplyMarks gives the instructor's marks to the manual parts of results
// and adds up their scores again. A mark for a student, check or part
// that is not a manual part of a graded result, or above the part's
// points, is an error naming its line, and no mark is applied.
func ApplyMarks(results []Result, marks []Mark) error {
	type at struct{ r, t int }
	index := map[[3]string]at{}
	for i, r := range results {
		for j, t := range r.Tests {
			if t.Manual {
				index[[3]string{r.Student, t.Check, t.Part}] = at{i, j}
			}
		}
	}
	var found []at
	for _, m := range marks {
		x, ok := index[[3]string{m.Student, m.Check, m.Part}]
		if !ok {
			return fmt.Errorf("grade: marks: line %d: %s has no manual part %q in check %q", m.Line, m.Student, m.Part, m.Check)
		}
		if max := results[x.r].Tests[x.t].MaxPoints; m.Points > max {
			return fmt.Errorf("grade: marks: line %d: %s, %s: %g points, more than the part's %g", m.Line, m.Student, m.Part, m.Points, max)
		}
		found = append(found, x)
	}
	for i, m := range marks {
		x := found[i]
		t := &results[x.r].Tests[x.t]
		t.Points = m.Points
		t.Verdict = labs.Fail
		if m.Points == t.MaxPoints {
			t.Verdict = labs.Pass
		}
		t.Message = fmt.Sprintf("graded by your instructor: %s of %s points", fmtPoints(m.Points), fmtPoints(t.MaxPoints))
		if m.Comment != "" {
			t.Message += ": " + m.Comment
		}
		t.Detail = t.Message
	}
	for i := range results {
		if results[i].Gradable {
			results[i] = total(results[i])
		}
	}
	return nil
}
