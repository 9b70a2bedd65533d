package counters

import (
	"testing"

	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labtest"
)

// BenchmarkHeadless runs the lab with its default settings on sim:t4, as
// `warplab lab counters` does; Info().SimWallTime records its time on the
// 2-core development machine.
func BenchmarkHeadless(b *testing.B) {
	labtest.Headless(b, "counters")
}

// BenchmarkH200Cells runs the simulator on the H200 cells of the claim.
func BenchmarkH200Cells(b *testing.B) {
	for b.Loop() {
		if _, err := Fidelity("", Claim, labs.NoProgress()); err != nil {
			b.Fatal(err)
		}
	}
}
