package labtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
)

// Suite says how RunAll exercises a lab beyond what the lab itself says.
type Suite struct {
	// Small are settings under which the lab's whole run takes a second
	// or so on sim:t4; the run must still produce every table and figure.
	Small map[string]string
	// Reference is a right answer to the lab's exercise, which its check
	// must pass under ExerciseSmall; nil only for a lab with no exercise
	// or one whose right answer ReferenceOn computes.
	Reference any
	// ReferenceOn, if set, returns the right answer on dev (sim:t4) under
	// ExerciseSmall, for an exercise whose answer is a measurement.
	ReferenceOn func(dev *gpu.Device) (any, error)
	// ExerciseSmall are settings of the exercise's check that keep it
	// fast.
	ExerciseSmall map[string]string
}

var optionName = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// RunAll is the conformance suite of a lab, as gputest.RunAll is of a
// backend: every lab's tests call it. It checks that the lab is
// registered under its name and aliases, that its Info is complete and
// names a notebook that exists, that its options are well formed and
// their defaults resolve within their bounds, that a run under s.Small on
// sim:t4 gives a report with tables, figures, a wall time, text and JSON,
// and that the exercise's check passes s.Reference.
func RunAll(t *testing.T, l labs.Lab, s Suite) {
	info := l.Info()
	t.Run("Info", func(t *testing.T) { checkInfo(t, l, info) })
	t.Run("Options", func(t *testing.T) { checkOptions(t, info.Name, l.Options()) })
	t.Run("Run", func(t *testing.T) { checkRun(t, l, s.Small) })
	t.Run("Exercise", func(t *testing.T) { checkExercise(t, info, s) })
}

func checkInfo(t *testing.T, l labs.Lab, info labs.Info) {
	for field, v := range map[string]string{"Name": info.Name, "Title": info.Title, "Teaches": info.Teaches, "Notebook": info.Notebook} {
		if v == "" {
			t.Errorf("Info().%s is empty", field)
		}
	}
	if len(info.Sources) == 0 {
		t.Error("Info().Sources is empty: name the course documents the lab is built from")
	}
	if info.SimWallTime <= 0 {
		t.Errorf("Info().SimWallTime = %v: want the headless run's wall time (BenchmarkHeadless)", info.SimWallTime)
	}
	for _, n := range append([]string{info.Name}, info.Aliases...) {
		got, err := labs.Lookup(n)
		if err != nil {
			t.Errorf("Lookup(%q): %v: register the lab in init", n, err)
		} else if got.Info().Name != info.Name {
			t.Errorf("Lookup(%q) = the %s lab, want %s", n, got.Info().Name, info.Name)
		}
	}
	if info.Notebook != "" {
		root, err := moduleRoot()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(root, info.Notebook)); err != nil {
			t.Errorf("Info().Notebook: %v", err)
		}
	}
}

// moduleRoot returns the folder of go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("labtest: no go.mod above the working directory")
		}
		dir = up
	}
}

// checkOptions checks a lab's or an exercise's options: names of lower
// case words joined by hyphens, each once, a usage each, a default that
// resolves (so within its bounds and among its choices).
func checkOptions(t *testing.T, owner string, opts []labs.Option) {
	seen := map[string]bool{}
	for _, o := range opts {
		if !optionName.MatchString(o.Name) {
			t.Errorf("option %q: want lower-case words joined by hyphens", o.Name)
		}
		if seen[o.Name] {
			t.Errorf("option %q listed twice", o.Name)
		}
		seen[o.Name] = true
		if o.Usage == "" {
			t.Errorf("option %s has no usage", o.Name)
		}
		if len(o.Choices) > 0 && o.Kind != labs.String {
			t.Errorf("option %s: choices on a %v option", o.Name, o.Kind)
		}
		if len(o.Choices) > 0 && !slices.Contains(o.Choices, o.Default) {
			t.Errorf("option %s: default %q is not one of its choices %q", o.Name, o.Default, o.Choices)
		}
	}
	if _, err := labs.Resolve(owner, opts, nil); err != nil {
		t.Errorf("the defaults do not resolve: %v", err)
	}
	if len(opts) > 0 {
		_, err := labs.Resolve(owner, opts, map[string]string{"no-such-option": "1"})
		if err == nil {
			t.Error("Resolve accepted an unknown option")
		}
	}
}

func checkRun(t *testing.T, l labs.Lab, small map[string]string) {
	name := l.Info().Name
	dev := testenv.Open(t, "sim:t4")
	r, err := labs.Run(dev, name, small, labs.NoProgress())
	if err != nil {
		t.Fatalf("labs.Run(sim:t4, %s, %v): %v", name, small, err)
	}
	tables := r.Tables()
	if len(tables) == 0 {
		t.Error("the report has no tables")
	}
	for i, tb := range tables {
		switch {
		case tb == nil:
			t.Errorf("table %d is nil", i)
		case tb.Title == "" || len(tb.Columns) == 0 || len(tb.Rows) == 0:
			t.Errorf("table %d (%q): want a title, columns and rows", i, tb.Title)
		}
	}
	figs := r.Figures()
	if len(figs) == 0 {
		t.Error("the report has no figures")
	}
	names := map[string]bool{}
	for _, f := range figs {
		if f.Name == "" || names[f.Name] {
			t.Errorf("figure name %q: empty or used twice", f.Name)
		}
		names[f.Name] = true
		if f.Figure == nil {
			t.Errorf("figure %s is nil", f.Name)
		} else if err := f.Figure.Validate(); err != nil {
			t.Errorf("figure %s: %v", f.Name, err)
		}
	}
	if r.Elapsed() <= 0 {
		t.Errorf("Elapsed() = %v, want the run's wall time", r.Elapsed())
	}
	if st, ok := r.(fmt.Stringer); !ok {
		t.Errorf("the report (%T) has no String method", r)
	} else if st.String() == "" {
		t.Error("the report's text is empty")
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Errorf("the report as JSON: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m["device"] == nil {
		t.Errorf("the report's JSON has no device: %.200s", b)
	}
}

func checkExercise(t *testing.T, info labs.Info, s Suite) {
	e := info.Exercise
	if e == nil {
		if s.Reference != nil || s.ReferenceOn != nil {
			t.Error("the suite gives a reference answer, but the lab has no exercise")
		}
		t.Skip("the lab has no exercise")
	}
	if e.Title == "" || e.Variable == "" || e.New == nil || e.Check == nil {
		t.Fatalf("exercise %+v: want a title, a variable, New and Check", e)
	}
	checkOptions(t, e.Title, e.Options)
	dev := testenv.Open(t, "sim:t4")
	if s.ReferenceOn != nil {
		var err error
		if s.Reference, err = s.ReferenceOn(dev); err != nil {
			t.Fatal(err)
		}
	}
	if s.Reference == nil {
		t.Fatal("the suite gives no reference answer for the exercise")
	}
	f, err := labs.Check(dev, info.Name, s.Reference, s.ExerciseSmall)
	if err != nil {
		t.Fatal(err)
	}
	if !f.OK() {
		t.Errorf("the reference answer fails the exercise's check:\n%s", f)
	}
	f, err = labs.Check(dev, info.Name, e.New(), s.ExerciseSmall)
	if err != nil {
		t.Fatal(err)
	}
	if f.OK() {
		t.Errorf("a zero answer passes the exercise's check:\n%s", f)
	}
}
