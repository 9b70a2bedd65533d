package counters

import (
	"testing"

	"github.com/warplab/warplab/gpu"
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

// TestConformance is the labs' conformance suite on the counters lab; the
// exercise's right answer is the fastest choice of a re-run of its sweep.
func TestConformance(t *testing.T) {
	labtest.RunAll(t, lab, labtest.Suite{
		Small:         map[string]string{"threads": "4096", "slices": "1,32", "h200": "none"},
		ExerciseSmall: map[string]string{"threads": "262144"},
		ReferenceOn: func(dev *gpu.Device) (any, error) {
			cfg := ExerciseConfig{Budget: DefaultBudget, Rung: ByWarp, Threads: 1 << 18, Tolerance: 0.15}
			s, err := Sweep(dev, SweepOptions{Threads: cfg.Threads, Slices: []int{1, 2, 4, 8, 16, 32, 64, 128, 256}, Rungs: []Rung{ByWarp}, Progress: labs.NoProgress()})
			if err != nil {
				return nil, err
			}
			var best Row
			for _, ch := range cfg.Choices() {
				if r, ok := s.Row(ByWarp, ch.Slices, ch.Padded); ok && (best.Ms == 0 || r.Ms < best.Ms) {
					best = r
				}
			}
			return Answer{Slices: best.Slices, Padded: best.Padded, Ms: best.Ms, Why: "the padded slices each have a line, so the L2 serves them in parallel"}, nil
		},
	})
}
