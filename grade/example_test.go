package grade_test

import (
	"fmt"
	"log"

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
