package coursekernels

import (
	"strings"
	"testing"
)

func TestFiles(t *testing.T) {
	want := []string{
		"atomic_agg_inc.cu", "atomic_max_float.cu", "day26_sums.cu", "hist_missing_barrier.cu",
		"hist_privatized.cu", "sliced_counter.cu", "softmax_denom.cu",
	}
	got := Names()
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("Names() = %q, want %q", got, want)
	}
	for _, name := range got {
		src := string(Source(name))
		if !namesDocument(src) {
			t.Errorf("%s does not start by naming its course document", name)
		}
		if strings.ContainsAny(src, "–—’“”") {
			t.Errorf("%s contains typographic characters", name)
		}
	}
	if Source("nosuch.cu") != nil {
		t.Error("Source of a missing file is not nil")
	}
}

func TestMissingBarrier(t *testing.T) {
	barriers := func(name string) int {
		n := 0
		for _, line := range strings.Split(string(Source(name)), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "__syncthreads();") {
				n++
			}
		}
		return n
	}
	if got, want := barriers("hist_missing_barrier.cu"), barriers("hist_privatized.cu")-1; got != want {
		t.Errorf("hist_missing_barrier.cu has %d barriers, want %d (one fewer than histPrivatized)", got, want)
	}
}

// documents are the short titles the package doc gives the course
// documents.
var documents = []string{
	"the counters-and-aggregates course notes",
	"the atomics-vs-warp-shuffle course notes",
	"the Day 26 course page",
	"the atomic-operations reference",
}

// namesDocument reports whether src starts by naming one of the course
// documents by its short title, then its full title in parentheses.
func namesDocument(src string) bool {
	for _, d := range documents {
		if strings.HasPrefix(src, "// From "+d+" (\"") {
			return true
		}
	}
	return false
}

func TestNamesDocument(t *testing.T) {
	if namesDocument("// Seed document 002_aef25945fefbf45b.txt, \"Day 26\"") {
		t.Error("a file-name citation passes as a document title")
	}
	if !namesDocument("// From the Day 26 course page (\"Day 26, Module 3\"), section x") {
		t.Error("a title citation does not pass")
	}
}
