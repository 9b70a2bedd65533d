package counters

import (
	"testing"

	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
)

// BenchmarkHeadless runs the lab with its default settings on sim:t4, as
// `warplab lab counters` does; Info().SimWallTime records its time on the
// 2-core development machine.
func BenchmarkHeadless(b *testing.B) {
	dev := testenv.Open(b, "sim:t4")
	for b.Loop() {
		if _, err := labs.Run(dev, "counters", nil, labs.NoProgress()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkH200Cells runs the simulator on the H200 cells of the claim.
func BenchmarkH200Cells(b *testing.B) {
	for b.Loop() {
		if _, err := Fidelity("", Claim, labs.NoProgress()); err != nil {
			b.Fatal(err)
		}
	}
}
