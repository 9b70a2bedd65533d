package queue

import (
	"fmt"
	"math"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// cell is one pop at one k on one cost distribution.
type cell struct {
	pop    Pop
	k      int
	costs  Costs
	items  int
	blocks int
	block  int
	warm   int
	runs   int
}

func (c cell) detail() string { return fmt.Sprintf("%s k=%d %s", c.pop, c.k, c.costs) }

type outcome struct {
	ms       []float64
	timing   gpu.Timing
	counters *gpu.Counters
	problem  string
}

func measureCells(r *labkit.Runner, cs []cell, progress labs.Progress) ([]outcome, error) {
	out := make([]outcome, len(cs))
	var jobs []labkit.Job
	for i, c := range cs {
		out[i].ms = make([]float64, c.runs)
		jobs = append(jobs, r.LaunchJobs(c.warm+c.runs, func(from, to int) labkit.Job { return job(c, &out[i], from, to) })...)
	}
	if err := r.Run(jobs, progress); err != nil {
		return nil, err
	}
	return out, nil
}

// job makes launches from to to of cell c; each launch starts from an
// empty output and a zero head, and the last one's output is checked.
func job(c cell, o *outcome, from, to int) labkit.Job {
	return labkit.Job{Launches: to - from, Detail: c.detail(), Do: func(s *labkit.Session) error {
		src := Kernels()
		k, err := s.Kernel(src.File, []byte(src.Text), c.pop.Kernel())
		if err != nil {
			return fmt.Errorf("queue: %v", err)
		}
		head, err := gpu.NewBuffer[uint32](s.Device, 1)
		if err != nil {
			return fmt.Errorf("queue: allocating the head: %v", err)
		}
		defer head.Free()
		out, err := gpu.NewBuffer[float32](s.Device, c.items)
		if err != nil {
			return fmt.Errorf("queue: allocating %d items: %v", c.items, err)
		}
		defer out.Free()
		cfg := gpu.LaunchConfig{Grid: gpu.D1(c.blocks), Block: gpu.D1(c.block), MaxInstructions: 1 << 31}
		last := c.warm + c.runs - 1
		for i := from; i < to; i++ {
			if i > from {
				if err := head.Zero(); err != nil {
					return fmt.Errorf("queue: zeroing the head: %v", err)
				}
				if err := out.Zero(); err != nil {
					return fmt.Errorf("queue: zeroing the output: %v", err)
				}
			}
			res, err := k.Launch(cfg, head, uint32(c.items), uint32(c.k), int32(c.costs.Light), int32(c.costs.Heavy), uint32(c.costs.Period), out)
			if err != nil {
				return fmt.Errorf("queue: %s: %w", c.detail(), err)
			}
			s.Launched()
			if i >= c.warm {
				o.ms[i-c.warm] = res.Timing.Ms
			}
			if i == last {
				o.timing, o.counters = res.Timing, res.Counters
				got, err := out.Download()
				if err != nil {
					return fmt.Errorf("queue: reading the output: %v", err)
				}
				o.problem = checkItems(c.costs, got)
			}
		}
		return nil
	}}
}

// checkItems says what is wrong with an output: an item not worked, or
// worked wrong; "" when every item is right.
func checkItems(c Costs, got []float32) string {
	for i, g := range got {
		w := c.want(uint32(i))
		if g == 0 {
			return fmt.Sprintf("item %d was never worked", i)
		}
		if math.Abs(float64(g-w)) > 1e-5*math.Abs(float64(w)) {
			return fmt.Sprintf("item %d: %g, want %g", i, g, w)
		}
	}
	return ""
}
