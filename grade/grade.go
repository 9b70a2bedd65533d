package grade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
)

// Test is one scored line of a result: a part of one check.
type Test struct {
	// Name is "CHECK: PART".
	Name       string
	Check      string
	Part       string
	Verdict    labs.Verdict
	Points     float64
	MaxPoints  float64
	Visibility labs.Visibility
	// Message is what the student may read: for a hidden check only
	// passed or failed, never the inputs.
	Message string
	// Detail is the full message, for the instructor.
	Detail string
}

// Result is the grade of one submission.
type Result struct {
	// Student names the submission: its file's name without .ipynb, or
	// its folder's name.
	Student string
	// Path is the submission as given.
	Path string
	// Gradable is false when the submission was refused; Message says why.
	Gradable bool
	Message  string
	Score    float64
	MaxScore float64
	Tests    []Test
	// Elapsed is the wall time grading took (reported, never scored).
	Elapsed time.Duration
}

// Submission is a notebook to grade.
type Submission struct {
	Student string
	Path    string
}

// FindSubmission resolves a path given on the command line: a notebook,
// or a folder holding exactly one notebook (outside checkpoints).
func FindSubmission(path string) (Submission, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Submission{}, fmt.Errorf("grade: %w", err)
	}
	if !st.IsDir() {
		return Submission{Student: strings.TrimSuffix(filepath.Base(path), ".ipynb"), Path: path}, nil
	}
	var found []string
	err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != path {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".ipynb") {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		return Submission{}, fmt.Errorf("grade: %w", err)
	}
	s := Submission{Student: filepath.Base(filepath.Clean(path)), Path: path}
	sort.Strings(found)
	if len(found) == 1 {
		s.Path = found[0]
	}
	// A folder with none or several is graded as a refusal.
	return s, nil
}

// Grade grades one submission against the key. It never returns an
// error: a submission that cannot be graded is a Result with Gradable
// false and a reason, and a panic in a check is recovered here and
// reported.
func Grade(k *Key, s Submission) (r Result) {
	start := time.Now()
	r = Result{Student: s.Student, Path: s.Path, MaxScore: k.MaxScore()}
	defer func() {
		if p := recover(); p != nil {
			r = refused(r, fmt.Sprintf("the grader failed on this submission (%v); please report it", p))
			fmt.Fprintf(os.Stderr, "grade: %s: panic: %v\n%s", s.Path, p, debug.Stack())
		}
		r.Elapsed = time.Since(start)
	}()
	data, err := readSubmission(s.Path)
	if err != nil {
		return refused(r, err.Error())
	}
	src, err := AnswerCell(data)
	if err != nil {
		return refused(r, err.Error())
	}
	answer, err := ParseAnswer(k.ex, src)
	if err != nil {
		return refused(r, err.Error())
	}
	r.Gradable = true
	deadline := start.Add(k.limit)
	for i, c := range k.Checks {
		var f labs.Feedback
		var ferr error
		if left := time.Until(deadline); left <= 0 {
			ferr = fmt.Errorf("the submission's time limit (%v) ran out before this check", k.limit)
		} else {
			f, ferr = runCheck(k, i, answer, left)
		}
		r.Tests = append(r.Tests, score(c, f, ferr)...)
	}
	for _, t := range r.Tests {
		r.Score += t.Points
	}
	r.Message = fmt.Sprintf("%s of %s points", fmtPoints(r.Score), fmtPoints(r.MaxScore))
	return r
}

func refused(r Result, why string) Result {
	r.Gradable, r.Message, r.Score, r.Tests = false, "not graded: "+why, 0, nil
	return r
}

func readSubmission(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, refusef("cannot read the submission: %v", err)
	}
	if st.IsDir() {
		return nil, refusef("the folder holds no notebook, or more than one: submit one .ipynb")
	}
	if st.Size() > MaxNotebookBytes {
		return nil, refusef("the notebook is %d bytes, more than the grader reads (%d)", st.Size(), MaxNotebookBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, refusef("cannot read the submission: %v", err)
	}
	return data, nil
}

// runCheck runs check i on a fresh simulator, giving up after limit: a
// check that overruns is reported as failed. The device is bound to the
// limit (gpu.OpenContext), so the launch in progress then stops within
// microseconds and the check's goroutine ends instead of simulating on
// beside the next submission's.
func runCheck(k *Key, i int, answer any, limit time.Duration) (labs.Feedback, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	type out struct {
		f   labs.Feedback
		err error
	}
	ch := make(chan out, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- out{err: fmt.Errorf("the check failed inside the grader (%v)", p)}
			}
		}()
		if f, ok := k.sharedFeedback(i, answer); ok {
			ch <- out{f: f}
			return
		}
		spec, err := gpu.ParseSpec(k.Device)
		if err != nil {
			ch <- out{err: err}
			return
		}
		dev, err := gpu.OpenContext(ctx, spec)
		if err != nil {
			ch <- out{err: err}
			return
		}
		defer dev.Close()
		ch <- out{f: k.ex.Check(dev, answer, k.resolved[i])}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		return labs.Feedback{}, fmt.Errorf("the submission's time limit (%v) ran out during this check", k.limit)
	}
}

// score turns a check's feedback into tests: one per part the key gives
// points, in name order, then the unscored parts. A part earns its points
// when every part of that name passes.
func score(c Check, f labs.Feedback, err error) []Test {
	var tests []Test
	hidden := c.Visibility == labs.Hidden
	for _, name := range c.sortedParts() {
		t := Test{Name: c.Name + ": " + name, Check: c.Name, Part: name, MaxPoints: c.Points[name], Visibility: c.Visibility}
		var msgs []string
		found, ok := false, true
		for _, p := range f.Parts {
			if p.Name != name {
				continue
			}
			found = true
			ok = ok && p.Verdict == labs.Pass
			if p.Verdict != labs.Pass {
				t.Verdict = p.Verdict
			}
			msgs = append(msgs, p.Message)
		}
		switch {
		case err != nil:
			t.Verdict, t.Detail = labs.Fail, err.Error()
		case !found:
			t.Verdict, t.Detail = labs.Fail, "not checked: "+firstFailure(f)
		case ok:
			t.Verdict, t.Points, t.Detail = labs.Pass, t.MaxPoints, strings.Join(msgs, " ")
		default:
			t.Detail = strings.Join(msgs, " ")
		}
		t.Message = t.Detail
		if hidden {
			t.Message = "failed"
			if t.Verdict == labs.Pass {
				t.Message = "passed"
			}
		}
		tests = append(tests, t)
	}
	return tests
}

func firstFailure(f labs.Feedback) string {
	for _, p := range f.Parts {
		if !p.OK() {
			return p.Name + ": " + p.Message
		}
	}
	return "the check reported no such part"
}

func fmtPoints(x float64) string { return fmt.Sprintf("%g", x) }

// Batch grades submissions with jobs workers and returns the results in
// the order of the submissions, whatever the workers' order.
func Batch(k *Key, subs []Submission, jobs int) []Result {
	if jobs < 1 {
		jobs = 1
	}
	results := make([]Result, len(subs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = Grade(k, subs[i])
			}
		}()
	}
	for i := range subs {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}
