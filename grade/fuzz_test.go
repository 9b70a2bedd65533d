package grade

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warplab/warplab/labs"
)

// FuzzAnswerCell feeds files to the grader's notebook reader, AnswerCell,
// and the answer it finds to ParseAnswer for every lab's exercise. Neither
// may panic or hang, and every error must be a Refusal (the student's
// file is at fault, said in words), never another kind. Its seed corpus is
// the committed notebooks and testdata/fuzz/FuzzAnswerCell.
func FuzzAnswerCell(f *testing.F) {
	nbs, _ := filepath.Glob(filepath.Join("..", "notebooks", "*.ipynb"))
	for _, p := range nbs {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	for _, src := range []string{
		"var answer = atomics.Day26Answer{Fastest: atomics.Tree}\n",
		"%%\nvar answer = grade.fakeAnswer{Source: `__global__ void k(int* p) { p[0] = 1; }`}\n",
		"import \"os\"\nvar answer = os.Exit\n",
		"var answer = func() int { for {} }()\n",
	} {
		f.Add(notebookWith([]string{"x := 1\n", src}, 1))
	}
	var exercises []*labs.Exercise
	for _, l := range labs.All() {
		if ex := l.Info().Exercise; ex != nil {
			exercises = append(exercises, ex)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		done := make(chan error, 1)
		go func() {
			src, err := AnswerCell(data)
			if err != nil {
				done <- refusal("AnswerCell", err)
				return
			}
			for _, ex := range exercises {
				if _, err := ParseAnswer(ex, src); err != nil {
					if err := refusal("ParseAnswer", err); err != nil {
						done <- err
						return
					}
				}
			}
			done <- nil
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer in 10s for %q", data)
		}
	})
}

// refusal checks that err, from the function what, is a Refusal with a
// reason.
func refusal(what string, err error) error {
	var r *Refusal
	if !errors.As(err, &r) || r.Reason == "" {
		return errors.New(what + ": the error is not a Refusal with a reason: " + err.Error())
	}
	return nil
}
