package grade

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
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

// Gradescope returns r as Gradescope's results.json. Gradescope shows a
// test by its visibility (visible; after_due_date; after_published, once
// the grades are published; hidden: never to the student, always to the
// instructor), so every test carries its full message: a hidden test's
// reaches the instructor only.
func Gradescope(r Result) GradescopeResults {
	g := GradescopeResults{Score: r.Score, ExecutionTime: r.Elapsed.Seconds(), Output: r.Message, Tests: []GradescopeTest{}}
	for _, t := range r.Tests {
		status := "failed"
		if t.Verdict == labs.Pass {
			status = "passed"
		}
		out := t.Message
		if t.Visibility == labs.Hidden {
			out = t.Detail
		}
		g.Tests = append(g.Tests, GradescopeTest{Name: t.Name, Score: t.Points, MaxScore: t.MaxPoints, Status: status, Output: out, Visibility: string(t.Visibility)})
	}
	return g
}

// GradescopeFallback is the results.json run_autograder writes when the
// grader itself fails: no points, and a message that says the failure is
// not the student's, for the instructor to regrade.
func GradescopeFallback() GradescopeResults {
	return GradescopeResults{Output: "The grader could not grade this submission: it stopped with an error. This is not your fault; your instructor can see the log and will regrade it.", Tests: []GradescopeTest{}}
}

// PrairieLearnTest is a test of PrairieLearn's external-grader results.
type PrairieLearnTest struct {
	Name      string  `json:"name"`
	Points    float64 `json:"points"`
	MaxPoints float64 `json:"max_points"`
	Message   string  `json:"message"`
}

// PrairieLearnResults is PrairieLearn's external-grader results.json.
// FormatErrors says why a submission is not gradable (PrairieLearn then
// counts no attempt and shows the errors).
type PrairieLearnResults struct {
	Gradable     bool               `json:"gradable"`
	Score        float64            `json:"score"`
	Message      string             `json:"message"`
	FormatErrors []string           `json:"format_errors,omitempty"`
	Tests        []PrairieLearnTest `json:"tests"`
}

// PrairieLearn returns r as PrairieLearn's results.json: the score is a
// fraction in 0..1. PrairieLearn shows every test at once, so a hidden,
// after_due_date or after_published test shows only passed or failed.
func PrairieLearn(r Result) PrairieLearnResults {
	p := PrairieLearnResults{Gradable: r.Gradable, Message: r.Message, Tests: []PrairieLearnTest{}}
	if !r.Gradable {
		p.FormatErrors = []string{strings.TrimPrefix(r.Message, "not graded: ")}
	}
	if r.MaxScore > 0 {
		p.Score = r.Score / r.MaxScore
	}
	for _, t := range r.Tests {
		p.Tests = append(p.Tests, PrairieLearnTest{Name: t.Name, Points: t.Points, MaxPoints: t.MaxPoints, Message: studentMessage(t)})
	}
	return p
}

// studentMessage is what a student may read of t where the platform
// shows it at once: the message of a visible test, passed or failed for
// the others.
func studentMessage(t Test) string {
	if !t.Visibility.Delayed() {
		return t.Message
	}
	if t.Verdict == labs.Pass {
		return "passed"
	}
	return "failed"
}

// CSVHeader is the gradebook's header row: the student as the platform
// or the file names them, their email and id where the platform says,
// the submission's path (unique: the row's key) and the folder or file
// its results were written to.
func CSVHeader() []string {
	return []string{"student", "email", "id", "path", "results", "score", "max_score", "gradable", "message"}
}

// WriteCSV writes the gradebook: one row per submission, sorted by
// student and path. A cell that a spreadsheet would read as a formula
// (=, +, -, @, a tab or a carriage return first) is written with a
// leading apostrophe.
func WriteCSV(w io.Writer, results []Result) error {
	names := OutputNames(results)
	rows := make([][]string, len(results))
	for i, r := range results {
		rows[i] = csvRow(r, names[i])
	}
	sortRows(rows)
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader()); err != nil {
		return err
	}
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	return cw.Error()
}

// sortRows sorts gradebook rows by student, then path: the order Write
// and Merge both give.
func sortRows(rows [][]string) {
	const pathCol, studentCol = 3, 0
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i][studentCol] != rows[j][studentCol] {
			return rows[i][studentCol] < rows[j][studentCol]
		}
		return rows[i][pathCol] < rows[j][pathCol]
	})
}

func csvRow(r Result, name string) []string {
	return escapeCells([]string{r.Student, r.Email, r.ID, r.Path, name, strconv.FormatFloat(r.Score, 'g', -1, 64), strconv.FormatFloat(r.MaxScore, 'g', -1, 64), strconv.FormatBool(r.Gradable), oneLine(r.Message)})
}

// escapeCells keeps a spreadsheet from reading a cell as a formula
// (CSV injection): a cell that starts with =, +, -, @, a tab or a
// carriage return gets a leading apostrophe. Numbers are written by the
// grader and never start so, except a negative one, which it never
// writes.
func escapeCells(row []string) []string {
	for i, c := range row {
		if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
			row[i] = "'" + c
		}
	}
	return row
}

// InstructorHeader is the header of instructor.csv: every test of every
// submission with its full message, hidden checks' included, then the
// student's variant (part "variant") and any flag for the instructor
// (part "flag", such as an answer close to the lab's own kernel). It is for
// the instructor only; no student-facing output holds a hidden check's
// message.
func InstructorHeader() []string {
	return []string{"student", "path", "check", "part", "visibility", "verdict", "points", "max_points", "detail"}
}

// WriteInstructorCSV writes instructor.csv (see InstructorHeader), in
// the gradebook's order.
func WriteInstructorCSV(w io.Writer, results []Result) error {
	rs := append([]Result(nil), results...)
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Student != rs[j].Student {
			return rs[i].Student < rs[j].Student
		}
		return rs[i].Path < rs[j].Path
	})
	cw := csv.NewWriter(w)
	cw.Write(InstructorHeader())
	for _, r := range rs {
		if !r.Gradable {
			cw.Write(escapeCells([]string{r.Student, r.Path, "", "", "", "not graded", "0", fmtPoints(r.MaxScore), oneLine(r.Message)}))
			continue
		}
		for _, t := range r.Tests {
			cw.Write(escapeCells([]string{r.Student, r.Path, t.Check, t.Part, string(t.Visibility), string(t.Verdict), fmtPoints(t.Points), fmtPoints(t.MaxPoints), oneLine(t.Detail)}))
		}
		// The student's variant and the instructor's flags (an answer
		// close to the lab's own kernel), which earn and cost nothing.
		if r.Variant != "" {
			cw.Write(escapeCells([]string{r.Student, r.Path, "", "variant", "", "note", "0", "0", r.Variant}))
		}
		for _, f := range r.Flags {
			cw.Write(escapeCells([]string{r.Student, r.Path, "", "flag", "", "flag", "0", "0", oneLine(f)}))
		}
	}
	cw.Flush()
	return cw.Error()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Markdown returns a student's feedback, to hand out at once: every
// test, and the messages of visible ones; a hidden, after_due_date or
// after_published test shows only passed or failed (its message is in
// instructor.csv).
func Markdown(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Feedback for %s\n\n", mdCell(r.Student))
	if !r.Gradable {
		fmt.Fprintf(&b, "**Not graded.** %s\n", strings.TrimPrefix(r.Message, "not graded: "))
		return b.String()
	}
	fmt.Fprintf(&b, "**Score: %s of %s.**\n\n| check | part | result | points |\n|---|---|---|---|\n", fmtPoints(r.Score), fmtPoints(r.MaxScore))
	for _, t := range r.Tests {
		res := "failed"
		switch t.Verdict {
		case labs.Pass:
			res = "passed"
		case labs.Pending:
			res = "pending manual grading"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s / %s |\n", mdCell(t.Check), mdCell(t.Part), res, fmtPoints(t.Points), fmtPoints(t.MaxPoints))
	}
	b.WriteString("\n")
	for _, t := range r.Tests {
		if t.Visibility.Delayed() || t.Verdict == labs.Pass {
			continue
		}
		fmt.Fprintf(&b, "- **%s**: %s\n", mdCell(t.Name), oneLine(t.Message))
	}
	return b.String()
}

func mdCell(s string) string { return strings.ReplaceAll(oneLine(s), "|", "\\|") }

// Write writes results under dir in format: per submission
// NAME/results.json (gradescope, prairielearn) or feedback/NAME.md
// (markdown), NAME from OutputNames; and gradebook.csv and
// instructor.csv in every format. One submission's file that cannot be
// written does not stop the others: Write writes every one it can and
// both CSV files, then returns the errors.
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
	var errs []error
	names := OutputNames(results)
	for i, r := range results {
		name := names[i]
		var err error
		switch format {
		case "gradescope":
			err = writeJSON(filepath.Join(dir, name, "results.json"), Gradescope(r))
		case "prairielearn":
			err = writeJSON(filepath.Join(dir, name, "results.json"), PrairieLearn(r))
		case "markdown":
			err = writeFile(filepath.Join(dir, "feedback", name+".md"), []byte(Markdown(r)))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r.Student, err))
		}
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer, []Result) error
	}{{"gradebook.csv", WriteCSV}, {"instructor.csv", WriteInstructorCSV}} {
		if err := writeWith(filepath.Join(dir, f.name), results, f.write); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func writeWith(path string, results []Result, write func(io.Writer, []Result) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	if err := write(f, results); err != nil {
		f.Close()
		return fmt.Errorf("grade: %s: %w", path, err)
	}
	return f.Close()
}

// OutputNames returns the file name of each result's output: the
// student's name made safe for a file name, and where two results of
// the batch would share one, each of those followed by a short hash of
// its path, so neither overwrites the other and a name does not depend
// on the order of the batch.
func OutputNames(results []Result) []string {
	names := make([]string, len(results))
	count := map[string]int{}
	for i, r := range results {
		names[i] = safeName(r.Student)
		count[strings.ToLower(names[i])]++
	}
	seen := map[string]int{}
	for i, r := range results {
		if count[strings.ToLower(names[i])] > 1 {
			sum := sha256.Sum256([]byte(r.Path))
			names[i] += "-" + hex.EncodeToString(sum[:4])
		}
		key := strings.ToLower(names[i])
		if seen[key]++; seen[key] > 1 {
			names[i] += "-" + strconv.Itoa(seen[key]) // the same path twice
		}
	}
	return names
}

// safeName makes a student's name a file name: no separator, control
// character or leading dot, at most 100 bytes.
func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r < ' ' || r == 0x7f {
			return '_'
		}
		return r
	}, s)
	s = strings.TrimLeft(s, ".")
	if len(s) > 100 {
		s = strings.ToValidUTF8(s[:100], "")
	}
	if s == "" {
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

// Merge joins the gradebooks of shards into one, sorted by student and
// path: the gradebook one unsharded run writes. A submission (a path) in
// two shards is an error.
func Merge(w io.Writer, shards ...io.Reader) error {
	const pathCol, studentCol = 3, 0
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
			if seen[r[pathCol]] {
				return fmt.Errorf("grade: merge: submission %q (student %q) is in two shards", r[pathCol], r[studentCol])
			}
			seen[r[pathCol]] = true
			rows = append(rows, r)
		}
	}
	sortRows(rows)
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

// ShardInfo is what a sharded run writes beside its gradebook
// (shard.json), so that Merge's caller can check the shards it joins are
// every shard of one count.
type ShardInfo struct {
	Index       int `json:"index"`
	Count       int `json:"count"`
	Submissions int `json:"submissions"`
}

// CheckShards checks that infos are the shards 0..count-1 of one count,
// each once: a Job whose completions differ from its --shard-count
// leaves shards out or runs indexes past the count, and this says so.
func CheckShards(infos []ShardInfo) error {
	if len(infos) == 0 {
		return nil
	}
	count := infos[0].Count
	seen := make([]bool, max(count, 0))
	for _, s := range infos {
		if s.Count != count {
			return fmt.Errorf("grade: merge: shards of %d and of %d: the runs used different --shard-count", count, s.Count)
		}
		if s.Index < 0 || s.Index >= count {
			return fmt.Errorf("grade: merge: shard %d of %d", s.Index, count)
		}
		if seen[s.Index] {
			return fmt.Errorf("grade: merge: shard %d is given twice", s.Index)
		}
		seen[s.Index] = true
	}
	var missing []string
	for i, ok := range seen {
		if !ok {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("grade: merge: shards %s of %d are missing: their students are in no gradebook (do the Job's completions equal --shard-count?)", strings.Join(missing, ", "), count)
	}
	return nil
}
