package seeds

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
		if !strings.HasPrefix(src, "// Seed document 00") {
			t.Errorf("%s does not start by naming its seed document", name)
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
