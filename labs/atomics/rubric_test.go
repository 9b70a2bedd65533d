package atomics

import (
	"testing"

	"github.com/warplab/warplab/labs"
)

func TestRubric(t *testing.T) {
	for _, tc := range []struct {
		sentence string
		ok       bool
		hint     int
	}{
		{"The global column barely moves because it always does n atomics, one per element, no matter the block size.", true, 0},
		{"sumGlobal issues one atomicAdd per element to the same address, so its number of atomics is independent of the block size.", true, 0},
		{"The naive kernel's contention doesn't depend on the block size: every thread still hits the single global counter.", true, 0},
		{"Global atomic stays flat since it performs N atomic operations regardless of how many threads per block.", true, 0},
		{"The global atomic version doesn't change because the block size only changes where its n atomics come from, not how many.", true, 0},
		{"The global-atomic column barely moves: each element is its own atomicAdd on one address, whatever the block size, while the other two send one atomic per block.", true, 0},
		{"Only the first column stays put, because every thread does an atomic on the global total however the blocks are cut.", true, 0},
		{"The tree column barely moves because it uses one global atomic per block.", false, 1},
		{"Shared stays the same because shared memory is fast.", false, 1},
		{"Shared memory is faster.", false, 1},
		{"The global column barely moves.", false, 1},
		{"The global one barely moves because global memory is slow.", false, 1},
		{"", false, 1},
		{"   ", false, 1},
	} {
		items := Rubric(tc.sentence)
		if len(items) == 0 {
			t.Fatalf("%q: no items", tc.sentence)
		}
		it := items[0]
		if it.OK() != tc.ok || it.Hint != tc.hint {
			t.Errorf("Rubric(%q) = ok %v hint %d (%s), want ok %v hint %d", tc.sentence, it.OK(), it.Hint, it.Message, tc.ok, tc.hint)
		}
	}
}

// A right sentence that leaves the other two columns out gets a pointer
// to Hint 2, which does not count against it.
func TestRubricGoingFurther(t *testing.T) {
	items := Rubric("The global column barely moves because it does n atomics whatever the block size.")
	if len(items) != 2 || items[1].Verdict != labs.Note || items[1].Hint != 2 {
		t.Errorf("items = %+v, want a note pointing to Hint 2", items)
	}
	items = Rubric("The global column barely moves because it does n atomics whatever the block size; the others do one per block.")
	if len(items) != 1 {
		t.Errorf("items = %+v, want one", items)
	}
}
