package aggregation

import (
	"testing"

	"github.com/warplab/warplab/labs/internal/labtest"
)

// BenchmarkHeadless runs the lab with its default settings on sim:t4, as
// `warplab lab aggregation` does; Info().SimWallTime records its time on
// the 2-core development machine.
func BenchmarkHeadless(b *testing.B) {
	labtest.Headless(b, "aggregation")
}

// TestConformance is the labs' conformance suite on the aggregation lab.
func TestConformance(t *testing.T) {
	labtest.RunAll(t, lab, labtest.Suite{
		Small:         map[string]string{"n": "4096", "order-n": "1024", "order-runs": "2", "keys-per-warp": "1,32"},
		Reference:     Answer{Source: solution},
		ExerciseSmall: map[string]string{"sizes": "1000,4133", "seeds": "1,2"},
	})
}
