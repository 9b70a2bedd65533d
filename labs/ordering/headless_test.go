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

// TestConformance is the labs' conformance suite on the ordering lab.
func TestConformance(t *testing.T) {
	labtest.RunAll(t, lab, labtest.Suite{
		Small:     map[string]string{"pairs": "2", "trials": "2", "launches": "2", "scope-blocks": "4", "scope-launches": "2"},
		Reference: Answer{Source: fixed("__threadfence();", "__threadfence();")},
	})
}
