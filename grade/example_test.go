package grade_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/warplab/warplab/grade"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/atomics"
)

// Read a Day 26 answer cell without running it: only literals are
// evaluated, and code is refused with its line.
func ExampleParseAnswer() {
	l, err := labs.Lookup("day26")
	if err != nil {
		log.Fatal(err)
	}
	ex := l.Info().Exercise
	a, err := grade.ParseAnswer(ex, `var answer = atomics.Day26Answer{
	Ratios:   map[int]atomics.KernelRatios{64: {Global: 1.00, Shared: 0.40, Tree: 1.33}},
	Fastest:  map[int]atomics.Kernel{64: atomics.Tree},
	Sentence: "one atomic per element",
}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v\n", *a.(*atomics.Day26Answer))
	_, err = grade.ParseAnswer(ex, "var answer = atomics.Day26Answer{\n\tSentence: os.Getenv(\"HOME\"),\n}")
	fmt.Println(err)
	// Output:
	// {Ratios:map[64:{Global:1 Shared:0.4 Tree:1.33}] Fastest:map[64:tree] Sentence:one atomic per element}
	// line 2: os.Getenv calls a function; an answer is a literal value and the grader never runs it
}

// Read the answer cell of a notebook as a stream: outputs of any size are
// skipped without being held, and only the cell tagged "answer" is kept.
func ExampleReadAnswerCell() {
	nb := `{"cells": [
  {"cell_type": "code", "metadata": {}, "outputs": [{"data": {"text/html": "<script>...a chart library...</script>"}}], "source": "sweep.Show()"},
  {"cell_type": "code", "metadata": {"tags": ["answer"]}, "outputs": [], "source": ["var answer = ", "42\n"]}
]}`
	src, err := grade.ReadAnswerCell(strings.NewReader(nb))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", src)
	_, err = grade.ReadAnswerCell(strings.NewReader(`{"cells": []}`))
	fmt.Println(err)
	// Output:
	// "var answer = 42\n"
	// no cell is tagged "answer": keep the notebook's answer cell and its tag
}
