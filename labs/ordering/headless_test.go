package ordering

import (
	"testing"

	"github.com/warplab/warplab/labs/internal/labtest"
)

// BenchmarkHeadless runs the lab with its default settings on sim:t4, as
// `warplab lab ordering` does; Info().SimWallTime records its time on the
// 2-core development machine.
func BenchmarkHeadless(b *testing.B) {
	labtest.Headless(b, "ordering")
}
