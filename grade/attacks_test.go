package grade

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// attackSecret stands for the grading machine's files: an instructor's
// key, the environment. No output of the grader may hold it.
const attackSecret = "SECRET_KEY_TEXT_9d41"

// TestAttacks grades a class holding every attack on collection and on
// the front end, with every output format, and checks each is refused
// or scores 0 with a clear message, that the batch finishes and writes
// every student's result, and that no output holds a file's content.
func TestAttacks(t *testing.T) {
	k, err := LoadKey("keys/histogram.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "source", "key.toml")
	write := func(name string, data []byte) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("source/key.toml", []byte("# "+attackSecret+"\n"))
	nb := func(kernel string) []byte {
		return notebookWith([]string{kernelAnswer("histogram.Answer", "Source", kernel)}, 0)
	}
	include := func(name string) []byte {
		return nb("#include \"" + name + "\"\n__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) {}\n")
	}
	class := filepath.Join(dir, "class")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	type attack struct {
		arg  string // the path given to the grader, under class
		want string // in the message or a failed test's message
	}
	var attacks []attack
	add := func(arg, want string) { attacks = append(attacks, attack{filepath.Join(class, arg), want}) }

	write("class/inc-key.ipynb", include("source/key.toml"))
	add("inc-key.ipynb", "this compilation reads no files")
	write("class/inc-abs.ipynb", include(keyFile))
	add("inc-abs.ipynb", "an absolute path")
	write("class/inc-proc.ipynb", include("/proc/self/environ"))
	add("inc-proc.ipynb", "an absolute path")
	write("class/inc-up.ipynb", include("../../source/key.toml"))
	add("inc-up.ipynb", "this compilation reads no files")
	write("class/inc-etc.ipynb", include("/etc"))
	add("inc-etc.ipynb", "an absolute path")

	must(syscall.Mkfifo(filepath.Join(class, "fifo.ipynb"), 0o644))
	add("fifo.ipynb", "a FIFO")
	must(os.MkdirAll(filepath.Join(class, "fifo-folder"), 0o755))
	must(syscall.Mkfifo(filepath.Join(class, "fifo-folder", "lab.ipynb"), 0o644))
	add("fifo-folder", "a FIFO")
	must(os.Symlink("/dev/zero", filepath.Join(class, "zero.ipynb")))
	add("zero.ipynb", "a symbolic link")
	must(os.MkdirAll(filepath.Join(class, "zero-folder"), 0o755))
	must(os.Symlink("/dev/zero", filepath.Join(class, "zero-folder", "lab.ipynb")))
	add("zero-folder", "leads out of the submission's folder")

	// Another student's notebook, linked by name and from a folder.
	victim := write("class/victim/lab.ipynb", nb(histPrivatised))
	must(os.MkdirAll(filepath.Join(class, "thief"), 0o755))
	must(os.Symlink(victim, filepath.Join(class, "thief", "lab.ipynb")))
	add("thief", "leads out of the submission's folder")
	must(os.Symlink(victim, filepath.Join(class, "thief2.ipynb")))
	add("thief2.ipynb", "a symbolic link")
	must(os.Symlink("../victim/lab.ipynb", filepath.Join(class, "thief3.ipynb")))
	add("thief3.ipynb", "a symbolic link")

	// Formula names and same-named folders.
	write("class/=HYPERLINK(1).ipynb", []byte("{not json"))
	add("=HYPERLINK(1).ipynb", "not valid JSON")
	write("class/sec1/sam/lab.ipynb", []byte("{"))
	add("sec1/sam", "not valid JSON")
	write("class/sec2/sam/lab.ipynb", []byte("[]"))
	add("sec2/sam", "not a notebook")

	var subs []Submission
	for _, a := range attacks {
		s, err := FindSubmission(a.arg)
		if err != nil {
			t.Fatalf("%s: %v", a.arg, err)
		}
		subs = append(subs, s)
	}
	done := make(chan []Result, 1)
	go func() { done <- Batch(k, subs, 2) }()
	var results []Result
	select {
	case results = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the batch did not finish in 60 s: a submission hangs it")
	}
	for i, r := range results {
		a := attacks[i]
		msgs := r.Message
		for _, tt := range r.Tests {
			msgs += "\n" + tt.Detail
		}
		if r.Score != 0 || !strings.Contains(msgs, a.want) {
			t.Errorf("%s: score %g, messages %q; want 0 and %q", a.arg, r.Score, msgs, a.want)
		}
	}
	if results[0].Gradable && results[0].Tests[0].Part == "compiles" && results[0].Tests[0].Verdict == "pass" {
		t.Error("a kernel including the key compiled")
	}

	for _, format := range Formats() {
		out := filepath.Join(dir, "out-"+format)
		if err := Write(out, format, results); err != nil {
			t.Fatal(err)
		}
		n := 0
		err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if strings.Contains(string(data), attackSecret) {
				t.Errorf("%s holds the key's text", p)
			}
			if strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".md") {
				n++
			}
			if strings.HasSuffix(p, "results.json") {
				var v map[string]any
				if err := json.Unmarshal(data, &v); err != nil {
					t.Errorf("%s: %v", p, err)
				}
				validateFn := validateGradescope
				if format == "prairielearn" {
					validateFn = validatePrairieLearn
				}
				if errs := validateFn(v); len(errs) > 0 {
					t.Errorf("%s does not validate: %v", p, errs)
				}
			}
			return nil
		})
		must(err)
		if format != "csv" && n != len(results) {
			t.Errorf("%s: %d results written for %d submissions", format, n, len(results))
		}
		gb, _ := os.ReadFile(filepath.Join(out, "gradebook.csv"))
		if strings.Contains(string(gb), "\n=") || !strings.Contains(string(gb), "'=HYPERLINK(1)") {
			t.Errorf("%s: a formula name is not escaped:\n%s", format, gb)
		}
	}
	names := OutputNames(results)
	var sams []string
	for i, r := range results {
		if r.Student == "sam" {
			sams = append(sams, names[i])
		}
	}
	if len(sams) != 2 || sams[0] == sams[1] || !strings.HasPrefix(sams[0], "sam-") {
		t.Errorf("same-named folders: results names %q", sams)
	}
	// The names do not depend on the batch's order.
	rev := append([]Result(nil), results...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	back := OutputNames(rev)
	for i := range names {
		if back[len(back)-1-i] != names[i] {
			t.Errorf("name %q in one order, %q in another", names[i], back[len(back)-1-i])
		}
	}
}

// TestRunAllNotebook grades the histogram notebook as a student hands it
// in after Run All: a right answer, and 5 MB of outputs (chart library
// and tables) that the reader skips without holding.
func TestRunAllNotebook(t *testing.T) {
	k, err := LoadKey("keys/histogram.toml")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../notebooks/histogram.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	var nb map[string]any
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	chart := strings.Repeat("!function(t){var e=echarts;return t.setOption(e)}(window);", 20_000) // ~1.2 MB, as a chart's library
	answered := 0
	for i, c := range nb["cells"].([]any) {
		cell := c.(map[string]any)
		if cell["cell_type"] != "code" {
			continue
		}
		cell["outputs"] = []any{map[string]any{
			"output_type": "display_data", "metadata": map[string]any{},
			"data": map[string]any{"text/html": []any{"<script>" + chart + "</script>"}, "text/plain": fmt.Sprintf("cell %d", i)},
		}}
		if tags, _ := cell["metadata"].(map[string]any)["tags"].([]any); len(tags) > 0 && tags[0] == AnswerTag {
			cell["source"] = kernelAnswer("histogram.Answer", "Source", histPrivatised)
			answered++
		}
	}
	out, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if answered != 1 || len(out) < 5<<20 {
		t.Fatalf("the Run-All notebook is %d bytes with %d answers; want over 5 MB and one", len(out), answered)
	}
	p := filepath.Join(t.TempDir(), "runall.ipynb")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	r := Grade(k, Submission{Student: "runall", Path: p})
	if !r.Gradable || r.Score != r.MaxScore {
		t.Errorf("a Run-All notebook of %d bytes: gradable=%v, %g of %g: %s", len(out), r.Gradable, r.Score, r.MaxScore, r.Message)
	}
}

// TestNotebookCaps: the file's bound and the answer cell's are refused
// with what is too large; outputs of any size below the file's bound
// are not.
func TestNotebookCaps(t *testing.T) {
	big := strings.Repeat("y", 3000)
	outputs := `{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [{"text": "` + big + `"}], "source": "x := 1"},` +
		`{"cell_type": "code", "source": ["var answer = 1\n"], "metadata": {"tags": ["answer"]}}]}`
	if src, err := readAnswerCell(strings.NewReader(outputs), 4096); err != nil || src != "var answer = 1\n" {
		t.Errorf("outputs under the bound: %q, %v", src, err)
	}
	if _, err := readAnswerCell(strings.NewReader(outputs), 2048); err == nil || !strings.Contains(err.Error(), "the most the grader reads") {
		t.Errorf("over the file's bound: %v", err)
	}
	huge := `{"cells": [{"cell_type": "code", "metadata": {"tags": ["answer"]}, "source": "` + strings.Repeat("z", MaxAnswerBytes+1) + `"}]}`
	if _, err := AnswerCell([]byte(huge)); err == nil || !strings.Contains(err.Error(), "the answer cell, is more than") {
		t.Errorf("a huge answer cell: %v", err)
	}
	// A huge cell that is not the answer is skipped.
	other := `{"cells": [{"cell_type": "code", "metadata": {}, "source": "` + strings.Repeat("z", MaxAnswerBytes+1) + `"},` +
		`{"cell_type": "code", "metadata": {"tags": ["answer"]}, "source": "var answer = 2"}]}`
	if src, err := AnswerCell([]byte(other)); err != nil || src != "var answer = 2" {
		t.Errorf("a huge other cell: %q, %v", src, err)
	}
	for name, data := range map[string]string{
		"nul":      "{\"cells\": [\x00]}",
		"bad utf8": "{\"cells\": [], \"x\": \"\xff\xfe\"}",
	} {
		if _, err := AnswerCell([]byte(data)); err == nil || !strings.Contains(err.Error(), "binary") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestPlatformIdentity: Gradescope's submission_metadata.json and
// PrairieLearn's data.json name the submission; without them the folder
// does.
func TestPlatformIdentity(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"gs/submission/lab.ipynb":         "{}",
		"gs/submission_metadata.json":     `{"id": 123456, "previous_submissions": [{"results": {"output": "` + strings.Repeat("p", 2<<20) + `"}}], "users": [{"email": "ada@example.edu", "id": 4321, "name": "Ada L"}, {"email": "bo@example.edu", "id": 99, "name": "Bo"}]}`,
		"pl/student/lab.ipynb":            "{}",
		"pl/data/data.json":               `{"params": {}, "submitted_answers": {"_files": [{"name": "lab.ipynb", "contents": "` + strings.Repeat("QUJD", 1<<20) + `"}]}, "variant_seed": 271828}`,
		"plain/alice/lab.ipynb":           "{}",
		"broken/submission/lab.ipynb":     "{}",
		"broken/submission_metadata.json": "{not json",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ path, student, email, id, platform string }{
		{"gs/submission", "Ada L & Bo", "ada@example.edu bo@example.edu", "4321 99", "gradescope"},
		{"pl/student", "student", "", "271828", "prairielearn"},
		{"plain/alice", "alice", "", "", ""},
		{"broken/submission", "submission", "", "", ""},
	} {
		s, err := FindSubmission(filepath.Join(dir, tt.path))
		if err != nil {
			t.Fatal(err)
		}
		if s.Student != tt.student || s.Email != tt.email || s.ID != tt.id || s.Platform != tt.platform {
			t.Errorf("%s: %+v, want %s %s %s %s", tt.path, s, tt.student, tt.email, tt.id, tt.platform)
		}
	}
}
