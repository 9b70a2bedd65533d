package atomics

import (
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labtest"
)

// TestConformance is the labs' conformance suite on the Day 26 lab; the
// exercise's right answer is read from a re-run of its block-size sweep.
func TestConformance(t *testing.T) {
	labtest.RunAll(t, lab, labtest.Suite{
		Small:         map[string]string{"sizes": "4096", "determinism-n": "4096", "determinism-runs": "2", "block-sizes": "64,256"},
		ExerciseSmall: map[string]string{"sizes": "4096,65536"},
		ReferenceOn: func(dev *gpu.Device) (any, error) {
			bt, err := BlockSizes(dev, BlockSizeOptions{Sizes: []int{4096, 65536}, Progress: labs.NoProgress()})
			if err != nil {
				return nil, err
			}
			return rightAnswer(bt), nil
		},
	})
}
