package kernelcheck_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
)

type sumAnswer struct{ Kernel string }

// perLaneSum is right but sends one global atomic per element: over the
// default contention budget.
const perLaneSum = `__global__ void sum(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, x[i]);
}`

const sumTemplate = `__global__ void sum(const float* x, float* out, int n) {
    // TODO
}`

func sumExercise(finished *int) *kernelcheck.Exercise[sumAnswer] {
	return &kernelcheck.Exercise[sumAnswer]{
		Title:            "sum exercise",
		Config:           fast,
		Harness:          sumHarness,
		Source:           func(a sumAnswer) string { return a.Kernel },
		Template:         sumTemplate,
		Unanswered:       "not answered yet: write the sum.",
		Exact:            true,
		ContentionAdvice: "Add in the warp first.",
		Finish: func(f labs.Feedback, src string) labs.Feedback {
			*finished++
			if f.Tolerance != "" || src == "" {
				f.Add("finish", labs.Fail, "Finish ran before Exact, or without the source")
			}
			return f
		},
	}
}

func TestExercise(t *testing.T) {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	finished := 0
	e := sumExercise(&finished)

	// The template, re-indented, is not answered yet, and not finished.
	f := e.Check(dev, sumAnswer{strings.ReplaceAll(sumTemplate, "    ", "\t")})
	if len(f.Parts) != 1 || f.Parts[0].Name != "answer" || f.Parts[0].Verdict != labs.Unanswered ||
		f.Parts[0].Message != "not answered yet: write the sum." || f.Parts[0].Hint != 1 || finished != 0 {
		t.Errorf("the template: %+v (finished %d)", f, finished)
	}
	if f.Exercise != "sum exercise" || f.Device == "" {
		t.Errorf("the template's feedback names exercise %q on device %q", f.Exercise, f.Device)
	}

	// An answer over the contention budget gets the exercise's advice.
	f = e.Check(dev, sumAnswer{perLaneSum})
	c, ok := f.Part(kernelcheck.PartContention)
	if _, bad := f.Part("finish"); !ok || c.Verdict != labs.Fail || finished != 1 || f.Tolerance != "" || bad {
		t.Fatalf("per-lane atomics: %s (finished %d)", f, finished)
	}
	if strings.Contains(c.Message, "Combine values") || !strings.HasSuffix(c.Message, "the budget is ceil(n / 32) = 130. Add in the warp first.") || c.Hint != 2 {
		t.Errorf("contention part: %q (hint %d)", c.Message, c.Hint)
	}

	// A part failed because an earlier one did gets the advice and the
	// harness's hint too.
	f = e.Check(dev, sumAnswer{"__global__ void sum("})
	if c, ok := f.Part(kernelcheck.PartContention); !ok || !strings.HasSuffix(c.Message, " Add in the warp first.") || c.Hint != 2 {
		t.Errorf("contention part of a kernel that does not compile: %+v", c)
	}

	// The lab contract: the options are Config's, an answer of another
	// type fails compiles, and a pointer answer checks like a value.
	l := e.Lab()
	if l.Title != "sum exercise" || l.Variable != "answer" || len(l.Options) != len(fast().Options()) || l.AnswerType() != "kernelcheck_test.sumAnswer" {
		t.Errorf("Lab: %+v", l)
	}
	s, err := labs.Resolve(l.Title, l.Options, map[string]string{kernelcheck.OptSizes: "777"})
	if err != nil {
		t.Fatal(err)
	}
	f = l.Check(dev, 42, s)
	if p, ok := f.Part(kernelcheck.PartCompiles); !ok || p.Verdict != labs.Fail || !strings.Contains(p.Message, "answer is a int") {
		t.Errorf("a wrong answer type: %s", f)
	}
	f = l.Check(dev, &sumAnswer{shuffleSum}, s)
	if !f.OK() || finished != 3 {
		t.Errorf("the reference answer under the lab's settings: %s (finished %d)", f, finished)
	}
	if c, _ := f.Part(kernelcheck.PartContention); !strings.Contains(c.Message, "n = 777") {
		t.Errorf("the resolved sizes were not used: %q", c.Message)
	}
}

func TestSameSource(t *testing.T) {
	if !kernelcheck.SameSource("a b\n\tc", " a  b c ") || kernelcheck.SameSource("ab", "a b c") {
		t.Error("SameSource compares more or less than the non-space characters")
	}
}

// An exercise whose answer is a student kernel is a kernelcheck.Exercise:
// the lab's Info lists its Lab(), the notebook calls its Check.
func ExampleExercise() {
	e := &kernelcheck.Exercise[sumAnswer]{
		Title:      "sum exercise",
		Config:     fast,
		Harness:    sumHarness,
		Source:     func(a sumAnswer) string { return a.Kernel },
		Template:   sumTemplate,
		Unanswered: "not answered yet: write the sum.",
	}
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	fmt.Println(e.Check(dev, sumAnswer{sumTemplate}).Parts[0].Message)
	fmt.Println(e.Check(dev, sumAnswer{shuffleSum}).OK())
	fmt.Println(e.Lab().AnswerType())
	// Output:
	// not answered yet: write the sum.
	// true
	// kernelcheck_test.sumAnswer
}
