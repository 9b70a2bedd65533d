package histogram

import (
	"testing"

	"github.com/warplab/warplab/labs/internal/labtest"
)

// BenchmarkHeadless runs the lab with its default settings on sim:t4, as
// `warplab lab histogram` does; Info().SimWallTime records its time on the
// 2-core development machine.
func BenchmarkHeadless(b *testing.B) {
	labtest.Headless(b, "histogram")
}

// TestConformance is the labs' conformance suite on the histogram lab.
func TestConformance(t *testing.T) {
	labtest.RunAll(t, lab, labtest.Suite{
		Small:     map[string]string{"n": "4096", "barrier-n": "1024", "barrier-seeds": "2"},
		Reference: Answer{Source: privatised},
	})
}
