package queue

import (
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labtest"
)

// BenchmarkHeadless runs the lab with its default settings on sim:t4, as
// `warplab lab queue` does.
func BenchmarkHeadless(b *testing.B) {
	labtest.Headless(b, "queue")
}

// TestConformance is the labs' conformance suite on the queue lab; the
// exercise's right answer is the best k of a re-run of its sweep.
func TestConformance(t *testing.T) {
	labtest.RunAll(t, lab, labtest.Suite{
		Small:         map[string]string{"items": "4096", "k": "1,64", "h200": "none"},
		ExerciseSmall: map[string]string{"items": "65536", "max-k": "64"},
		ReferenceOn: func(dev *gpu.Device) (any, error) {
			c := DefaultExercise()
			s, err := Sweep(dev, SweepOptions{Items: 1 << 16, BlocksPerSM: c.BlocksPerSM, K: []int{1, 2, 4, 8, 16, 32, 64}, Costs: []Costs{c.Costs}, Progress: labs.NoProgress()})
			if err != nil {
				return nil, err
			}
			k, ms := s.Best(c.Costs, PerThread)
			return Answer{K: k, Ms: ms, Why: "smaller batches pop more often and larger ones leave the tail to a few threads"}, nil
		},
	})
}
