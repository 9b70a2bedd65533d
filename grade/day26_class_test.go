package grade

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/atomics"
)

const day26Sentence = "The global column barely moves: it sends one atomicAdd per element, n in all, whatever the block size, while the other two send one per block."

// day26Cell writes an answer cell from a block-size table, as a student
// copies it from the notebook: ratios to two decimals, the fastest
// kernels by constant. wrongFastest and wrong1024 spoil parts.
func day26Cell(t *atomics.BlockSizeTable, sentence string, wrongFastest, wrong1024 bool) string {
	var b strings.Builder
	b.WriteString("// Your answer: the check below reads this cell (tagged \"answer\").\nvar answer = atomics.Day26Answer{\n\tRatios: map[int]atomics.KernelRatios{\n")
	for _, r := range t.Rows {
		g, s, tr := r.Ratios[0], r.Ratios[1], r.Ratios[2]
		if wrong1024 && r.BlockSize == 1024 {
			g, s, tr = g*3+1, s*3+1, tr*3+1
		}
		fmt.Fprintf(&b, "\t\t%d: {Global: %.2f, Shared: %.2f, Tree: %.2f},\n", r.BlockSize, g, s, tr)
	}
	b.WriteString("\t},\n\tFastest: map[int]atomics.Kernel{\n")
	for _, r := range t.Rows {
		k := r.Fastest[0]
		if wrongFastest {
			k = atomics.Global
			if r.Fastest[0] == atomics.Global {
				k = atomics.Shared
			}
		}
		name := map[atomics.Kernel]string{atomics.Global: "Global", atomics.Shared: "Shared", atomics.Tree: "Tree"}[k]
		fmt.Fprintf(&b, "\t\t%d: atomics.%s,\n", r.BlockSize, name)
	}
	fmt.Fprintf(&b, "\t},\n\tSentence: %q,\n}\n", sentence)
	return b.String()
}

func day26Table(t testing.TB) *atomics.BlockSizeTable {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	bt, err := atomics.BlockSizes(dev, atomics.BlockSizeOptions{Sizes: []int{65536}, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	return bt
}

// day26Kinds: right, partly right and refused Day 26 answers (10 points).
func day26Kinds(bt *atomics.BlockSizeTable) []classMember {
	nb := func(cell string) []byte {
		return notebookWith([]string{"import \"github.com/warplab/warplab/labs/atomics\"\n", cell, "atomics.Check(dev, answer)\n"}, 1)
	}
	return []classMember{
		{name: "d26-right", data: nb(day26Cell(bt, day26Sentence, false, false)), expected: 8, pending: 2},
		{name: "d26-unicode", data: nb(day26Cell(bt, day26Sentence+" — ça bouge à peine ✓", false, false)), expected: 8, pending: 2},
		{name: "d26-wrong-fastest", data: nb(day26Cell(bt, day26Sentence, true, false)), expected: 6, pending: 2},
		{name: "d26-wrong-1024", data: nb(day26Cell(bt, day26Sentence, false, true)), expected: 5, pending: 2},
		{name: "d26-no-sentence", data: nb(day26Cell(bt, "", false, false)), expected: 8},
		{name: "d26-template", data: nb("var answer = atomics.Day26Answer{\n\tRatios: map[int]atomics.KernelRatios{64: {Global: 0, Shared: 0, Tree: 0}, 256: {Global: 1, Shared: 1, Tree: 1}, 1024: {}},\n\tFastest: map[int]atomics.Kernel{64: \"\", 256: \"\", 1024: \"\"},\n}\n"), expected: 0},
		{name: "d26-call", data: nb("var answer = atomics.Day26Answer{Sentence: fmt.Sprint(\"x\")}\n"), refused: "line 1: fmt.Sprint calls a function"},
		{name: "d26-unknown-const", data: nb("var answer = atomics.Day26Answer{Fastest: map[int]atomics.Kernel{64: atomics.Fastest}}\n"), refused: "line 1: atomics.Fastest is not a constant"},
		{name: "d26-unknown-field", data: nb("var answer = atomics.Day26Answer{Score: 10}\n"), refused: "has no field Score"},
		{name: "d26-var-ref", data: nb("var x = 1\nvar answer = atomics.Day26Answer{}\n"), refused: "line 1: the answer cell declares something other"},
	}
}

func TestDay26Kinds(t *testing.T) {
	k, err := LoadKey("testdata/day26-small.toml")
	if err != nil {
		t.Fatal(err)
	}
	members := day26Kinds(day26Table(t))
	checkClass(t, Batch(k, writeClass(t, t.TempDir(), members), 2), members)
}
