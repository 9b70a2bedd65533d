package gpusim

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/profiles"
)

// Queued returns the modelled time of two launches of one stream timed
// between one pair of CUDA events, from the simulator's times of each
// launch alone on the named profile. Each lone launch holds the profile's
// launch term (Cost.LaunchUs, what events see around one launch); the
// second launch, queued while the first kernel runs, adds its kernel and
// the GPU's dispatch of a queued kernel (Cost.QueuedLaunchUs) instead.
// With QueuedLaunchUs 0 (not modelled) it is the sum of the two times.
// The result's Breakdown is the first launch's. A measured time has no
// launch term to take out and is refused.
func Queued(profile string, first, second gpu.Timing) (gpu.Timing, error) {
	p, err := profiles.Get(profile)
	if err != nil {
		return gpu.Timing{}, fmt.Errorf("gpusim: queued launches: %w", err)
	}
	if first.Measured || second.Measured {
		return gpu.Timing{}, fmt.Errorf("gpusim: queued launches: a measured time (%q, %q): want the simulator's times of each launch", first.Source, second.Source)
	}
	t := first // its Breakdown stays the first launch's
	t.Ms += second.Ms
	if p.Cost.QueuedLaunchUs == 0 {
		return t, nil
	}
	launch := -1.0
	for _, c := range second.Breakdown {
		if c.Resource == "launch" {
			launch = c.Ms
		}
	}
	if launch < 0 {
		return gpu.Timing{}, fmt.Errorf("gpusim: queued launches: the second launch's time (%s) has no launch term", second.Source)
	}
	t.Ms += p.Cost.QueuedLaunchUs/1e3 - launch
	return t, nil
}

// Queued is the device's driver.Queuer: Queued on its profile.
func (d *device) Queued(first, second driver.Timing) (driver.Timing, error) {
	conv := func(t driver.Timing) gpu.Timing {
		g := gpu.Timing{Ms: t.Ms, Source: t.Source, Measured: t.Measured}
		for _, c := range t.Breakdown {
			g.Breakdown = append(g.Breakdown, gpu.TimeComponent(c))
		}
		return g
	}
	t, err := Queued(d.prof.Name, conv(first), conv(second))
	if err != nil {
		return driver.Timing{}, err
	}
	out := driver.Timing{Ms: t.Ms, Source: t.Source, Measured: t.Measured}
	for _, c := range t.Breakdown {
		out.Breakdown = append(out.Breakdown, driver.TimeComponent(c))
	}
	return out, nil
}
