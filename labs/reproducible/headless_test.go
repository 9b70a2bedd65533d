package reproducible

import (
	"testing"

	"github.com/warplab/warplab/labs/internal/labtest"
)

// TestConformance is the labs' conformance suite on the reproducible lab.
// Its run includes the 4M-element prediction beside the H200, the
// smallest the H200 ran.
func TestConformance(t *testing.T) {
	labtest.RunAll(t, lab, labtest.Suite{
		Small:         map[string]string{"n": "4096", "runs": "2", "order-n": "1024", "order-runs": "2"},
		Reference:     Answer{Source: lastBlock},
		ExerciseSmall: map[string]string{"seeds": "1,2"},
	})
}
