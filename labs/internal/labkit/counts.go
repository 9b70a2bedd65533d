package labkit

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
)

// LaunchCounts resolves a lab's WarmUps and Runs options for a device as
// gpu.NewMethod does: 0 means the default (gpu.DefaultWarmUps and
// gpu.DefaultReps on a GPU; no warm-up and one run where the time is
// modelled, since the model is deterministic), and a negative warm-up
// count means none. lab names the lab in the error.
func LaunchCounts(lab string, caps gpu.Capabilities, warm, runs int) (int, int, error) {
	m, err := gpu.NewMethod(caps, warm, runs, gpu.StatMean)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: Runs: %w", lab, err)
	}
	return m.WarmUps, m.Reps, nil
}
