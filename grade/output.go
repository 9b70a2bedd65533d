package grade

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/warplab/warplab/labs"
)

// Formats are the output formats of Write.
func Formats() []string { return []string{"gradescope", "prairielearn", "csv", "markdown"} }

// GradescopeTest is a test of Gradescope's results.json.
type GradescopeTest struct {
	Name       string  `json:"name"`
	Score      float64 `json:"score"`
	MaxScore   float64 `json:"max_score"`
	Status     string  `json:"status"`
	Output     string  `json:"output"`
	Visibility string  `json:"visibility"`
}

// GradescopeResults is Gradescope's autograder results.json.
type GradescopeResults struct {
	Score         float64          `json:"score"`
	ExecutionTime float64          `json:"execution_time"`
	Output        string           `json:"output"`
	Tests         []GradescopeTest `json:"tests"`
}

// Gradescope returns r as Gradescope's results.json.
func Gradescope(r Result) GradescopeResults {
	g := GradescopeResults{Score: r.Score, ExecutionTime: r.Elapsed.Seconds(), Output: r.Message, Tests: []GradescopeTest{}}
	for _, t := range r.Tests {
		status := "failed"
		if t.Verdict == labs.Pass {
			status = "passed"
		}
		g.Tests = append(g.Tests, GradescopeTest{Name: t.Name, Score: t.Points, MaxScore: t.MaxPoints, Status: status, Output: t.Message, Visibility: string(t.Visibility)})
	}
	return g
}

// PrairieLearnTest is a test of PrairieLearn's external-grader results.
type PrairieLearnTest struct {
	Name      string  `json:"name"`
	Points    float64 `json:"points"`
	MaxPoints float64 `json:"max_points"`
	Message   string  `json:"message"`
}

// PrairieLearnResults is PrairieLearn's external-grader results.json.
type PrairieLearnResults struct {
	Gradable bool               `json:"gradable"`
	Score    float64            `json:"score"`
	Message  string             `json:"message"`
	Tests    []PrairieLearnTest `json:"tests"`
}

// PrairieLearn returns r as PrairieLearn's results.json: the score is a
// fraction in 0..1.
func PrairieLearn(r Result) PrairieLearnResults {
	p := PrairieLearnResults{Gradable: r.Gradable, Message: r.Message, Tests: []PrairieLearnTest{}}
	if r.MaxScore > 0 {
		p.Score = r.Score / r.MaxScore
	}
	for _, t := range r.Tests {
		p.Tests = append(p.Tests, PrairieLearnTest{Name: t.Name, Points: t.Points, MaxPoints: t.MaxPoints, Message: t.Message})
	}
	return p
}

// CSVHeader is the gradebook's header row.
func CSVHeader() []string { return []string{"student", "score", "max_score", "gradable", "message"} }

// WriteCSV writes the gradebook: one row per student, sorted by student.
func WriteCSV(w io.Writer, results []Result) error {
	rs := append([]Result(nil), results...)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Student < rs[j].Student })
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader()); err != nil {
		return err
	}
	for _, r := range rs {
		if err := cw.Write(csvRow(r)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvRow(r Result) []string {
	return []string{r.Student, strconv.FormatFloat(r.Score, 'g', -1, 64), strconv.FormatFloat(r.MaxScore, 'g', -1, 64), strconv.FormatBool(r.Gradable), oneLine(r.Message)}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Markdown returns a student's feedback: every test, hidden checks only
// as passed or failed.
func Markdown(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Feedback for %s\n\n", r.Student)
	if !r.Gradable {
		fmt.Fprintf(&b, "**Not graded.** %s\n", strings.TrimPrefix(r.Message, "not graded: "))
		return b.String()
	}
	fmt.Fprintf(&b, "**Score: %s of %s.**\n\n| check | part | result | points |\n|---|---|---|---|\n", fmtPoints(r.Score), fmtPoints(r.MaxScore))
	for _, t := range r.Tests {
		res := "failed"
		if t.Verdict == labs.Pass {
			res = "passed"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s / %s |\n", mdCell(t.Check), mdCell(t.Part), res, fmtPoints(t.Points), fmtPoints(t.MaxPoints))
	}
	b.WriteString("\n")
	for _, t := range r.Tests {
		if t.Visibility == labs.Hidden || t.Verdict == labs.Pass {
			continue
		}
		fmt.Fprintf(&b, "- **%s**: %s\n", mdCell(t.Name), oneLine(t.Message))
	}
	return b.String()
}

func mdCell(s string) string { return strings.ReplaceAll(oneLine(s), "|", "\\|") }

// Write writes results under dir in format: per student
// STUDENT/results.json (gradescope, prairielearn) or feedback/STUDENT.md
// (markdown), and gradebook.csv in every format.
func Write(dir, format string, results []Result) error {
	known := false
	for _, f := range Formats() {
		known = known || f == format
	}
	if !known {
		return fmt.Errorf("grade: format %q: want one of %s", format, strings.Join(Formats(), ", "))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	for _, r := range results {
		name := safeName(r.Student)
		var err error
		switch format {
		case "gradescope":
			err = writeJSON(filepath.Join(dir, name, "results.json"), Gradescope(r))
		case "prairielearn":
			err = writeJSON(filepath.Join(dir, name, "results.json"), PrairieLearn(r))
		case "markdown":
			err = writeFile(filepath.Join(dir, "feedback", name+".md"), []byte(Markdown(r)))
		case "csv":
		default:
			return fmt.Errorf("grade: format %q: want one of %s", format, strings.Join(Formats(), ", "))
		}
		if err != nil {
			return err
		}
	}
	f, err := os.Create(filepath.Join(dir, "gradebook.csv"))
	if err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	if err := WriteCSV(f, results); err != nil {
		f.Close()
		return fmt.Errorf("grade: gradebook: %w", err)
	}
	return f.Close()
}

// safeName makes a student's name a file name.
func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r < ' ' {
			return '_'
		}
		return r
	}, s)
	if s == "" || s == "." || s == ".." {
		s = "_"
	}
	return s
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	return writeFile(path, append(data, '\n'))
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	return nil
}

// Merge joins the gradebooks of shards into one, sorted by student: the
// gradebook one unsharded run writes. A student in two shards is an
// error.
func Merge(w io.Writer, shards ...io.Reader) error {
	seen := map[string]bool{}
	var rows [][]string
	for i, s := range shards {
		recs, err := csv.NewReader(s).ReadAll()
		if err != nil {
			return fmt.Errorf("grade: merge: shard %d: %w", i+1, err)
		}
		if len(recs) == 0 || strings.Join(recs[0], ",") != strings.Join(CSVHeader(), ",") {
			return fmt.Errorf("grade: merge: shard %d: not a gradebook (want the header %s)", i+1, strings.Join(CSVHeader(), ","))
		}
		for _, r := range recs[1:] {
			if seen[r[0]] {
				return fmt.Errorf("grade: merge: student %q is in two shards", r[0])
			}
			seen[r[0]] = true
			rows = append(rows, r)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	cw := csv.NewWriter(w)
	cw.Write(CSVHeader())
	cw.WriteAll(rows)
	return cw.Error()
}

// Shard returns the submissions of shard index of count: every count-th
// submission from index, after sorting by path, so shards do not overlap
// and together cover all.
func Shard(subs []Submission, index, count int) ([]Submission, error) {
	if count < 1 || index < 0 || index >= count {
		return nil, fmt.Errorf("grade: shard %d of %d: want 0 <= index < count", index, count)
	}
	s := append([]Submission(nil), subs...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].Path < s[j].Path })
	var out []Submission
	for i := index; i < len(s); i += count {
		out = append(out, s[i])
	}
	return out, nil
}
