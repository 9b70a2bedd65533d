package labs

import (
	"fmt"
	"reflect"

	"github.com/warplab/warplab/gpu"
)

// Exercise is a lab's exercise: the answer a student writes in the
// notebook cell tagged "answer", and the check that judges it. The
// notebook's check cell and the class grader call the same Check.
//
// An answer is a Go literal assigned to a top-level variable, `var answer
// = atomics.Day26Answer{...}`; a student-written kernel is a field of it
// holding a raw-string literal of CUDA C. The grader reads the literal
// with go/parser into a value of the type New returns, and never runs
// student Go.
type Exercise struct {
	// Title names the exercise in feedback: "Day 26 exercise".
	Title string `json:"title"`
	// Variable is the name of the answer variable: "answer".
	Variable string `json:"variable"`
	// Options are the check's settings (sizes, seeds, tolerances) that an
	// instructor's key may change for hidden checks.
	Options []Option `json:"options,omitempty"`
	// Parts are the names of the parts Check reports on an answer it
	// can judge, under the default settings, in order: the parts an
	// instructor's key may give points, each of which a right answer
	// passes. A check may also report a part outside the list when it
	// cannot judge the answer ("answer" not answered yet, "settings",
	// "re-run"); such a part never earns points.
	Parts []string `json:"parts,omitempty"`
	// Points are the points a new key proposes for parts of Parts
	// (`warplab grade key init`); a part without an entry is proposed at
	// 0, as one an untouched template passes is.
	Points map[string]float64 `json:"points,omitempty"`
	// New returns a pointer to a zero answer: a *atomics.Day26Answer.
	New func() any `json:"-"`
	// Check judges an answer (a pointer of New's type, or the value it
	// points to) on dev with resolved settings.
	Check func(dev *gpu.Device, answer any, s Settings) Feedback `json:"-"`
	// Prose, when not nil, returns the answer's free text by the name of
	// the part that judges it: {"justified": a.Why}. Prose is graded by
	// an instructor, never automatically: an instructor's key gives those
	// parts' points as manual points, and the grader exports the text.
	// Called on a zero answer it still returns every such part's name.
	Prose func(answer any) map[string]string `json:"-"`
	// Variant, when not nil, returns the settings of a student's own
	// exercise for a variant seed (VariantFor): other sizes, data or
	// budgets, so that the expected answers differ from student to
	// student while the lesson stays the same. The notebook's check and
	// the grader both apply them before a key's settings.
	Variant func(seed uint64) Variant `json:"-"`
	// Constants are the named constants of the lab's package that an
	// answer's literal may use, by qualified name ("atomics.Tree"): the
	// grader reads answers without compiling them, so it learns their
	// values here.
	Constants map[string]any `json:"-"`
	// Prepare and Judge, when both are set, split Check in two for a
	// class: Prepare re-runs the part that does not depend on the answer
	// (the same for every student on the simulator) once per check, and
	// Judge judges one answer against what Prepare returned, as Check
	// does.
	Prepare func(dev *gpu.Device, s Settings) (any, error) `json:"-"`
	Judge   func(ref, answer any) Feedback                 `json:"-"`
}

// AnswerType returns the Go type of the answer, qualified by its
// package: "atomics.Day26Answer".
func (e *Exercise) AnswerType() string {
	return reflect.TypeOf(e.New()).Elem().String()
}

// Answer converts an answer given as a value or a pointer to the
// exercise's answer type, for a Check function: a wrong type is an error
// that names both types.
func Answer[T any](answer any) (T, error) {
	switch a := answer.(type) {
	case T:
		return a, nil
	case *T:
		if a != nil {
			return *a, nil
		}
	}
	var zero T
	return zero, fmt.Errorf("labs: answer is a %T, want a %T", answer, zero)
}
