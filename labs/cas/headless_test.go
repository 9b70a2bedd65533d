package cas

import (
	"testing"

	"github.com/warplab/warplab/labs/internal/labtest"
)

// BenchmarkHeadless runs the lab with its default settings on sim:t4, as
// `warplab lab cas` does; Info().SimWallTime records its time on the
// 2-core development machine.
func BenchmarkHeadless(b *testing.B) {
	labtest.Headless(b, "cas")
}

// TestConformance is the labs' conformance suite on the CAS lab.
func TestConformance(t *testing.T) {
	labtest.RunAll(t, lab, labtest.Suite{
		Small:     map[string]string{"n": "4096", "contenders": "1,32,4096", "pairs": "16"},
		Reference: Answer{Source: correctAnswer},
	})
}
