package counters

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// cell is one rung at one k and layout, launched warm + runs times.
type cell struct {
	rung    Rung
	float   bool
	k       int
	padded  bool
	threads int
	block   int
	warm    int
	runs    int
}

func (c cell) stride() int {
	if c.padded {
		return 32 // 128 bytes of 4-byte words
	}
	return 1
}

func (c cell) blocks() int { return (c.threads + c.block - 1) / c.block }

func (c cell) detail() string {
	return fmt.Sprintf("%s k=%d %s", c.rung.Key(), c.k, layoutName(c.padded))
}

func layoutName(padded bool) string {
	if padded {
		return "padded"
	}
	return "packed"
}

// outcome is what a cell measured.
type outcome struct {
	ms       []float64
	timing   gpu.Timing
	counters *gpu.Counters
	// total is the count the slices added up to on the last launch.
	total float64
}

// measureCells runs the cells on r: on the simulator each launch is a
// job of its own, so that they run concurrently; on a GPU each cell is one
// job, its launches back to back.
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

// job makes launches from to to of cell c (warm-ups first) and stores
// their times in o; the last launch's count is read back and checked.
func job(c cell, o *outcome, from, to int) labkit.Job {
	launches := to - from
	return labkit.Job{Launches: launches, Detail: c.detail(), Do: func(s *labkit.Session) error {
		src := Kernels()
		k, err := s.Kernel(src.File, []byte(src.Text), c.rung.Kernel(c.float))
		if err != nil {
			return fmt.Errorf("counters: %v", err)
		}
		var sum *gpu.Kernel
		if c.rung == PerGrid {
			if sum, err = s.Kernel(src.File, []byte(src.Text), "sumPartials"); err != nil {
				return fmt.Errorf("counters: %v", err)
			}
		}
		words := c.k * c.stride()
		var cu *gpu.Buffer[uint32]
		var cf *gpu.Buffer[float32]
		var partial *gpu.Buffer[uint32]
		if c.float {
			if cf, err = gpu.NewBuffer[float32](s.Device, words); err != nil {
				return fmt.Errorf("counters: allocating %d slices: %v", c.k, err)
			}
			defer cf.Free()
		} else {
			if cu, err = gpu.NewBuffer[uint32](s.Device, words); err != nil {
				return fmt.Errorf("counters: allocating %d slices: %v", c.k, err)
			}
			defer cu.Free()
		}
		if c.rung == PerGrid {
			if partial, err = gpu.NewBuffer[uint32](s.Device, c.blocks()); err != nil {
				return fmt.Errorf("counters: allocating the partial sums: %v", err)
			}
			defer partial.Free()
		}
		cfg := gpu.LaunchConfig{Grid: gpu.D1(c.blocks()), Block: gpu.D1(c.block)}
		last := c.warm + c.runs - 1
		for i := from; i < to; i++ {
			// Fresh slices for every launch, zeroed outside the timing.
			if i > from {
				if c.float {
					err = cf.Zero()
				} else {
					err = cu.Zero()
				}
				if err != nil {
					return fmt.Errorf("counters: zeroing the slices: %v", err)
				}
			}
			var res *gpu.Result
			var ms float64
			switch {
			case c.rung == PerGrid:
				if res, err = k.Launch(cfg, partial); err == nil {
					ms = res.Timing.Ms
					var r2 *gpu.Result
					r2, err = sum.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(1024)}, partial, uint32(c.blocks()), cu)
					if err == nil {
						ms += r2.Timing.Ms
						res.Timing.Breakdown = append(res.Timing.Breakdown, gpu.TimeComponent{Resource: "second launch", Ms: r2.Timing.Ms, Detail: "sumPartials: one block adds the partial sums"})
					}
				}
			case c.float:
				res, err = k.Launch(cfg, cf, uint32(c.k), uint32(c.stride()))
			default:
				res, err = k.Launch(cfg, cu, uint32(c.k), uint32(c.stride()))
			}
			if err != nil {
				return fmt.Errorf("counters: %s: %w", c.detail(), err)
			}
			if c.rung != PerGrid {
				ms = res.Timing.Ms
			}
			s.Launched()
			if i >= c.warm {
				o.ms[i-c.warm] = ms
			}
			if i == last {
				o.timing, o.counters = res.Timing, res.Counters
				o.timing.Ms = ms
				if o.total, err = readTotal(cu, cf, c); err != nil {
					return err
				}
			}
		}
		return nil
	}}
}

// readTotal adds up the slices of the last launch.
func readTotal(cu *gpu.Buffer[uint32], cf *gpu.Buffer[float32], c cell) (float64, error) {
	var total float64
	if c.float {
		xs, err := cf.Download()
		if err != nil {
			return 0, fmt.Errorf("counters: reading the slices: %v", err)
		}
		for i := 0; i < c.k; i++ {
			total += float64(xs[i*c.stride()])
		}
		return total, nil
	}
	xs, err := cu.Download()
	if err != nil {
		return 0, fmt.Errorf("counters: reading the slices: %v", err)
	}
	for i := 0; i < c.k; i++ {
		total += float64(xs[i*c.stride()])
	}
	return total, nil
}
