package grade

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/labs"
)

func sampleResults() []Result {
	return []Result{
		{Student: "bob", Gradable: true, Score: 3, MaxScore: 5, Message: "3 of 5 points", Elapsed: 1500 * time.Millisecond, Tests: []Test{
			{Name: "visible: correct", Check: "visible", Part: "correct", Verdict: labs.Pass, Points: 3, MaxPoints: 3, Visibility: labs.Visible, Message: "right", Detail: "right"},
			{Name: "hidden: correct", Check: "hidden", Part: "correct", Verdict: labs.Fail, Points: 0, MaxPoints: 2, Visibility: labs.Hidden, Message: "failed", Detail: "at n = 777, seed 11: bin 0 holds 3"},
			{Name: "later: correct", Check: "later", Part: "correct", Verdict: labs.Fail, Points: 0, MaxPoints: 1, Visibility: labs.AfterDueDate, Message: "at n = 888: bin 2 holds 5", Detail: "at n = 888: bin 2 holds 5"},
			{Name: "published: correct", Check: "published", Part: "correct", Verdict: labs.Pass, Points: 1, MaxPoints: 1, Visibility: labs.AfterPublished, Message: "at n = 999: right", Detail: "at n = 999: right"},
		}},
		{Student: "alice, \"al\"", Gradable: false, MaxScore: 5, Message: "not graded: 2 cells are tagged \"answer\",\nwant exactly one"},
	}
}

// fieldNames returns the keys of a JSON object, sorted.
func fieldNames(t *testing.T, data []byte) []string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func TestGradescopeFields(t *testing.T) {
	data, _ := json.Marshal(Gradescope(sampleResults()[0]))
	if got, want := fieldNames(t, data), []string{"execution_time", "output", "score", "tests"}; !reflect.DeepEqual(got, want) {
		t.Errorf("results.json fields %v, want %v", got, want)
	}
	var r struct{ Tests []json.RawMessage }
	json.Unmarshal(data, &r)
	if got, want := fieldNames(t, r.Tests[0]), []string{"max_score", "name", "output", "score", "status", "visibility"}; !reflect.DeepEqual(got, want) {
		t.Errorf("test fields %v, want %v", got, want)
	}
	g := Gradescope(sampleResults()[0])
	if g.Score != 3 || g.ExecutionTime != 1.5 || g.Tests[0].Status != "passed" || g.Tests[1].Status != "failed" || g.Tests[1].Visibility != "hidden" {
		t.Errorf("values: %+v", g)
	}
	// Gradescope never shows a hidden test to the student and always to
	// the instructor: its full message goes there, and only there.
	for _, tt := range g.Tests {
		if strings.Contains(tt.Output, "777") && tt.Visibility != "hidden" {
			t.Errorf("a hidden check's input in a %s test: %+v", tt.Visibility, tt)
		}
	}
	if g.Tests[1].Output != "at n = 777, seed 11: bin 0 holds 3" || g.Tests[2].Visibility != "after_due_date" || g.Tests[3].Visibility != "after_published" {
		t.Errorf("tests %+v", g.Tests)
	}
}

func TestPrairieLearnFields(t *testing.T) {
	for _, r := range sampleResults() {
		data, _ := json.Marshal(PrairieLearn(r))
		want := []string{"gradable", "message", "score", "tests"}
		if !r.Gradable {
			want = []string{"format_errors", "gradable", "message", "score", "tests"}
		}
		if got := fieldNames(t, data); !reflect.DeepEqual(got, want) {
			t.Errorf("results.json fields %v, want %v", got, want)
		}
		for _, d := range []string{"777", "888", "999"} {
			if strings.Contains(string(data), d) {
				t.Errorf("PrairieLearn shows every test at once, but a delayed test's message is in results.json: %s", data)
			}
		}
		p := PrairieLearn(r)
		if p.Score < 0 || p.Score > 1 || p.Gradable != r.Gradable {
			t.Errorf("%s: %+v", r.Student, p)
		}
		if len(p.Tests) > 0 {
			var x struct{ Tests []json.RawMessage }
			json.Unmarshal(data, &x)
			if got, want := fieldNames(t, x.Tests[0]), []string{"max_points", "message", "name", "points"}; !reflect.DeepEqual(got, want) {
				t.Errorf("test fields %v, want %v", got, want)
			}
		}
	}
	if p := PrairieLearn(sampleResults()[0]); p.Score != 0.6 {
		t.Errorf("score %v, want 0.6", p.Score)
	}
	if p := PrairieLearn(sampleResults()[1]); len(p.FormatErrors) != 1 || !strings.HasPrefix(p.FormatErrors[0], "2 cells are tagged") {
		t.Errorf("format_errors %q", p.FormatErrors)
	}
}

func TestCSVOneRowPerStudent(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCSV(&b, sampleResults()); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || !reflect.DeepEqual(recs[0], CSVHeader()) {
		t.Fatalf("gradebook %q", recs)
	}
	if recs[1][0] != "alice, \"al\"" || recs[1][7] != "false" || strings.Contains(recs[1][8], "\n") || recs[2][5] != "3" {
		t.Errorf("rows %q", recs[1:])
	}
}

func TestMarkdownHidesHiddenInputs(t *testing.T) {
	md := Markdown(sampleResults()[0])
	if strings.Contains(md, "777") || strings.Contains(md, "888") || strings.Contains(md, "999") || !strings.Contains(md, "| hidden | correct | failed | 0 / 2 |") {
		t.Errorf("feedback:\n%s", md)
	}
	if md := Markdown(sampleResults()[1]); !strings.Contains(md, "Not graded") {
		t.Errorf("refused feedback:\n%s", md)
	}
}

func TestWriteFormats(t *testing.T) {
	for _, f := range Formats() {
		dir := t.TempDir()
		if err := Write(dir, f, sampleResults()); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "gradebook.csv")); err != nil {
			t.Error(err)
		}
		var want string
		switch f {
		case "gradescope", "prairielearn":
			want = filepath.Join(dir, "bob", "results.json")
		case "markdown":
			want = filepath.Join(dir, "feedback", "bob.md")
		}
		if want != "" {
			if _, err := os.Stat(want); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
	}
	if err := Write(t.TempDir(), "html", nil); err == nil {
		t.Error("an unknown format is accepted")
	}
}

// TestWriteGoesOnAfterAFailure: a student's result that cannot be written
// does not stop the others' or the gradebooks.
func TestWriteGoesOnAfterAFailure(t *testing.T) {
	dir := t.TempDir()
	// A file where bob's results folder belongs.
	if err := os.WriteFile(filepath.Join(dir, "bob"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs := append(sampleResults(), Result{Student: "carol", Gradable: true, MaxScore: 5, Message: "0 of 5 points"})
	err := Write(dir, "gradescope", rs)
	if err == nil || !strings.Contains(err.Error(), "bob") {
		t.Errorf("Write: %v, want bob's failure", err)
	}
	for _, p := range []string{"carol/results.json", "alice, \"al\"/results.json", "gradebook.csv", "instructor.csv"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("not written after bob's failure: %v", err)
		}
	}
	gb, _ := os.ReadFile(filepath.Join(dir, "gradebook.csv"))
	if !strings.Contains(string(gb), "\nbob,") || !strings.Contains(string(gb), "\ncarol,") {
		t.Errorf("gradebook:\n%s", gb)
	}
}
