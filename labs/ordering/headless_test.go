package ordering

import (
	"testing"

	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
)

// BenchmarkHeadless runs the lab with its default settings on sim:t4, as
// `warplab lab ordering` does; Info().SimWallTime records its time on the
// 2-core development machine.
func BenchmarkHeadless(b *testing.B) {
	dev := testenv.Open(b, "sim:t4")
	for b.Loop() {
		if _, err := labs.Run(dev, "ordering", nil, labs.NoProgress()); err != nil {
			b.Fatal(err)
		}
	}
}
