package grade

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
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
	// Manual is true for a part an instructor grades by hand (the key's
	// manual points): it is Pending, with the student's Text, until the
	// instructor's marks are imported (ApplyMarks).
	Manual bool
	Text   string
}

// Result is the grade of one submission.
type Result struct {
	// Student names the submission: its file's name without .ipynb, or
	// its folder's name.
	Student string
	// Path is the submission as given.
	Path string
	// Email and ID identify the student where the platform's metadata
	// says (see Submission).
	Email, ID string
	// Gradable is false when the submission was refused; Message says why.
	Gradable bool
	Message  string
	Score    float64
	MaxScore float64
	// Pending is the points of the manual parts still to be graded by
	// the instructor.
	Pending float64
	// Variant is the student's exercise, as settings ("sizes=... seeds=..."),
	// derived from Student: empty for an exercise without variants.
	Variant string
	// Flags are remarks for the instructor only (an answer close to the
	// lab's own kernel), never shown to the student.
	Flags []string
	Tests []Test
	// Elapsed is the wall time grading took (reported, never scored).
	Elapsed time.Duration
}

// Submission is a notebook to grade.
type Submission struct {
	// Student names the submission: from the platform's metadata, else
	// the file's name without .ipynb or the folder's name.
	Student string
	Path    string
	// Root is the submission's folder, when it was given as one: its
	// notebook may not lead out of it. "" for a notebook given alone,
	// which may not be a symbolic link at all.
	Root string
	// Email, ID and Platform identify the student where the platform's
	// metadata says who handed the submission in ("gradescope",
	// "prairielearn"); empty otherwise.
	Email, ID, Platform string
}

// Grade grades one submission against the key. It never returns an
// error: a submission that cannot be graded is a Result with Gradable
// false and a reason, and a panic in a check is recovered here and
// reported.
func Grade(k *Key, s Submission) (r Result) {
	start := time.Now()
	r = Result{Student: s.Student, Path: s.Path, Email: s.Email, ID: s.ID, MaxScore: k.MaxScore()}
	defer func() {
		if p := recover(); p != nil {
			r = refused(r, fmt.Sprintf("the grader failed on this submission (%v); please report it", p))
			fmt.Fprintf(os.Stderr, "grade: %s: panic: %v\n%s", s.Path, p, debug.Stack())
		}
		r.Elapsed = time.Since(start)
	}()
	src, err := readAnswer(s)
	if err != nil {
		return refused(r, err.Error())
	}
	answer, err := ParseAnswer(k.ex, src)
	if err != nil {
		return refused(r, err.Error())
	}
	r.Gradable = true
	variant := k.Variant(s.Student)
	deadline := start.Add(k.limit)
	for i, c := range k.Checks {
		var f labs.Feedback
		set, name, ferr := k.settingsFor(i, variant)
		if i == 0 {
			r.Variant = name
		}
		if ferr == nil {
			if left := time.Until(deadline); left <= 0 {
				ferr = fmt.Errorf("the submission's time limit (%v) ran out before this check", k.limit)
			} else {
				f, ferr = runCheck(k, i, name, set, answer, left)
			}
		}
		for _, fl := range f.Flags {
			if !slices.Contains(r.Flags, fl) {
				r.Flags = append(r.Flags, fl)
			}
		}
		r.Tests = append(r.Tests, score(c, f, ferr)...)
		r.Tests = append(r.Tests, manual(k, c, answer)...)
	}
	return total(r)
}

// total adds up a graded result's points and writes its message.
func total(r Result) Result {
	r.Score, r.Pending = 0, 0
	for _, t := range r.Tests {
		r.Score += t.Points
		if t.Verdict == labs.Pending {
			r.Pending += t.MaxPoints
		}
	}
	r.Message = fmt.Sprintf("%s of %s points", fmtPoints(r.Score), fmtPoints(r.MaxScore))
	if r.Pending > 0 {
		r.Message += fmt.Sprintf(" (%s pending manual grading)", fmtPoints(r.Pending))
	}
	return r
}

// manual returns the tests of check c's manual parts: pending with the
// student's text, or unanswered (0 points) when the text is empty.
func manual(k *Key, c Check, answer any) []Test {
	if len(c.Manual) == 0 {
		return nil
	}
	text := k.ex.Prose(answer)
	var tests []Test
	for _, name := range sortedKeys(c.Manual) {
		t := Test{Name: c.Name + ": " + name, Check: c.Name, Part: name, MaxPoints: c.Manual[name],
			Visibility: c.Visibility, Manual: true, Text: text[name]}
		if strings.TrimSpace(t.Text) == "" {
			t.Verdict, t.Message = labs.Unanswered, "not answered: there is no text to grade"
		} else {
			t.Verdict, t.Message = labs.Pending, "pending manual grading: your instructor reads it"
		}
		t.Detail = t.Message
		tests = append(tests, t)
	}
	return tests
}

func refused(r Result, why string) Result {
	r.Gradable, r.Message, r.Score, r.Tests = false, "not graded: "+why, 0, nil
	return r
}

// runCheck runs check i on a fresh simulator, giving up after limit: a
// check that overruns is reported as failed. The device is bound to the
// limit (gpu.OpenContext), so the launch in progress then stops within
// microseconds and the check's goroutine ends instead of simulating on
// beside the next submission's.
func runCheck(k *Key, i int, variant string, set labs.Settings, answer any, limit time.Duration) (labs.Feedback, error) {
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
		if f, ok := k.sharedFeedback(i, variant, set, answer); ok {
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
		ch <- out{f: k.ex.Check(dev, answer, set)}
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
