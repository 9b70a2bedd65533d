package softmax

import (
	"fmt"
	"math"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// series is one cell of a table: a kernel launched warm + runs times at
// one size, each launch into an accumulator slot of its own, zeroed
// before the launch.
type series struct {
	kernel     Kernel
	n, block   int
	warm, runs int
	// offset and alloc place the input: the kernel reads n elements from
	// offset of an allocation of alloc (0: an allocation of n, from its
	// start).
	offset, alloc int
}

// measured is what a series measured.
type measured struct {
	ms   []float64 // the timed launches' times
	sums []float32 // every launch's denominator, warm-ups first
	// timing and counters are the last timed launch's (counters nil on
	// a GPU).
	timing   gpu.Timing
	counters *gpu.Counters
}

// launchCounts returns the warm-ups and timed runs per cell on a device:
// none and one on the simulator, whose times are a deterministic model.
func launchCounts(dev *gpu.Device, warm, runs int) (int, int) {
	caps := dev.Capabilities()
	if !caps.MeasuredTiming {
		return 0, 1
	}
	m, _ := gpu.NewMethod(caps, max(warm, 0), max(runs, 0), gpu.StatMean) // 0: the default
	return m.WarmUps, m.Reps
}

// measure runs the series on r, one job per series.
func measure(r *labkit.Runner, ss []series, progress labkit.Progress) ([]measured, error) {
	out := make([]measured, len(ss))
	jobs := make([]labkit.Job, len(ss))
	for i, s := range ss {
		jobs[i] = launchJob(s, &out[i])
	}
	if err := r.Run(jobs, progress); err != nil {
		return nil, err
	}
	return out, nil
}

func launchJob(s series, m *measured) labkit.Job {
	total := s.warm + s.runs
	detail := fmt.Sprintf("%s n=%d", s.kernel, s.n)
	return labkit.Job{Launches: total, Detail: detail, Do: func(sess *labkit.Session) error {
		src := Source(s.kernel)
		k, err := sess.Kernel(src.File, []byte(src.Text), s.kernel.Function())
		if err != nil {
			return fmt.Errorf("softmax: %v", err)
		}
		alloc := max(s.alloc, s.n)
		host := input(alloc, InputSeed)
		in, err := labkit.Cached(sess, fmt.Sprintf("input %d", alloc),
			func() (*gpu.Buffer[float32], error) { return gpu.Upload(sess.Device, host.x) },
			(*gpu.Buffer[float32]).Free)
		if err != nil {
			return fmt.Errorf("softmax: uploading %d elements: %v", alloc, err)
		}
		slots, err := gpu.NewBuffer[float32](sess.Device, total)
		if err != nil {
			return fmt.Errorf("softmax: allocating accumulators: %v", err)
		}
		defer slots.Free()
		cfg := gpu.LaunchConfig{Grid: gpu.D1((s.n + s.block - 1) / s.block), Block: gpu.D1(s.block)}
		m.ms = make([]float64, s.runs)
		for l := range total {
			res, err := k.Launch(cfg, in.At(s.offset), slots.At(l), s.n)
			if err != nil {
				return fmt.Errorf("softmax: %s n=%d: %w", s.kernel.Function(), s.n, err)
			}
			sess.Launched()
			if l >= s.warm {
				m.ms[l-s.warm] = res.Timing.Ms
				m.timing, m.counters = res.Timing, res.Counters
			}
		}
		if m.sums, err = slots.Download(); err != nil {
			return fmt.Errorf("softmax: reading the denominators: %v", err)
		}
		return nil
	}}
}

// Cell is one kernel at one size.
type Cell struct {
	Kernel Kernel `json:"kernel"`
	// Ms is the mean of the timed launches, StdevMs their standard
	// deviation (0 for one).
	Ms      float64 `json:"ms"`
	StdevMs float64 `json:"stdev_ms"`
	// GBps is the input stream's bandwidth: 4 bytes per element over Ms.
	GBps float64 `json:"gbps"`
	// Denom is the last launch's denominator; RelErr the worst relative
	// error of any launch against the double reference, Tolerance the
	// worst-case float32 rounding bound it is held to.
	Denom     float32 `json:"denom"`
	RelErr    float64 `json:"rel_err"`
	Tolerance float64 `json:"tolerance"`
	OK        bool    `json:"ok"`
	// GlobalAtomics are the global atomics one launch sent to the L2, as
	// the simulator counted them (0 on a GPU).
	GlobalAtomics int64 `json:"global_atomics,omitempty"`
	// Timing is the last launch's timing, with the modelled breakdown on
	// the simulator; Counters its counters (nil on a GPU).
	Timing   gpu.Timing    `json:"timing"`
	Counters *gpu.Counters `json:"counters,omitempty"`
}

func cellOf(s series, m measured, denom float64) Cell {
	c := Cell{Kernel: s.kernel, Timing: m.timing, Counters: m.counters, OK: true}
	c.Ms, c.StdevMs = labkit.Mean(m.ms)
	if c.Ms > 0 {
		c.GBps = 4 * float64(s.n) / (c.Ms * 1e6)
	}
	c.Tolerance = tolerance(denom, adds(s.kernel, s.n, s.block))
	for _, v := range m.sums {
		e := math.Abs(float64(v)-denom) / denom
		c.RelErr = math.Max(c.RelErr, e)
		if !(e <= c.Tolerance) {
			c.OK = false
		}
	}
	if len(m.sums) > 0 {
		c.Denom = m.sums[len(m.sums)-1]
	}
	if m.counters != nil {
		c.GlobalAtomics = m.counters.GlobalAtomicIssued
	}
	return c
}
