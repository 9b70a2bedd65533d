package aggregation

import (
	"fmt"
	"slices"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// cell is one kernel on one input, launched warm + runs times.
type cell struct {
	kernel Kernel
	n      int
	block  int
	// seed draws the compaction's input; keys is the bucket input.
	seed uint64
	keys *bucketInput
	warm int
	runs int
	// keep asks for the compaction's output.
	keep bool
}

// outcome is what a cell measured.
type outcome struct {
	ms []float64
	// timing and counters are the last timed launch's (counters nil on a
	// GPU).
	timing   gpu.Timing
	counters *gpu.Counters
	// problem says what is wrong with the last launch's output; "" when
	// it is right.
	problem string
	// compacted is the last launch's compaction output, out[0:count],
	// kept when the cell asks for it.
	compacted []int32
	// seed is the last launch's scheduler seed (0 on a GPU).
	seed uint64
}

// measureCells runs the cells on r. On the simulator every launch is a
// job of its own, so that launches run concurrently; on a GPU each cell
// is one job, its launches back to back.
func measureCells(r *labkit.Runner, cs []cell, progress labs.Progress) ([]outcome, error) {
	out := make([]outcome, len(cs))
	var jobs []labkit.Job
	for i, c := range cs {
		total := c.warm + c.runs
		out[i] = outcome{ms: make([]float64, c.runs)}
		detail := fmt.Sprintf("%s n=%d", c.kernel, c.n)
		if c.keys != nil {
			detail = fmt.Sprintf("%s n=%d %d keys/warp", c.kernel, c.n, distinctPerWarp(c.keys))
		}
		jobs = append(jobs, r.LaunchJobs(total, func(from, to int) labkit.Job { return launchJob(c, &out[i], from, to, detail) })...)
	}
	if err := r.Run(jobs, progress); err != nil {
		return nil, err
	}
	return out, nil
}

// distinctPerWarp returns the distinct keys of the first warp.
func distinctPerWarp(in *bucketInput) int {
	seen := map[int32]bool{}
	for _, k := range in.keys[:min(32, len(in.keys))] {
		seen[k] = true
	}
	return len(seen)
}

// launchJob makes launches from to to of cell c (warm-ups first), storing
// their times in o; the cell's last launch is checked.
func launchJob(c cell, o *outcome, from, to int, detail string) labkit.Job {
	return labkit.Job{Launches: to - from, Detail: detail, Do: func(s *labkit.Session) error {
		src := source(c.kernel.File())
		k, err := s.Kernel(src.File, []byte(src.Text), string(c.kernel))
		if err != nil {
			return fmt.Errorf("aggregation: %v", err)
		}
		l := &launcher{s: s, c: c, k: k}
		if err := l.prepare(to - from); err != nil {
			return err
		}
		defer l.count.Free()
		cfg := gpu.LaunchConfig{Grid: gpu.D1((c.n + c.block - 1) / c.block), Block: gpu.D1(c.block)}
		last := c.warm + c.runs - 1
		for i := from; i < to; i++ {
			if i == last {
				if err := l.out.Write(l.fill); err != nil {
					return fmt.Errorf("aggregation: clearing the output: %v", err)
				}
			}
			res, err := k.Launch(cfg, l.args(i-from)...)
			if err != nil {
				return fmt.Errorf("aggregation: %s n=%d: %w", c.kernel, c.n, err)
			}
			s.Launched()
			if i >= c.warm {
				o.ms[i-c.warm] = res.Timing.Ms
			}
			if i == last {
				o.timing, o.counters, o.seed = res.Timing, res.Counters, res.Seed
				if err := l.check(i-from, o); err != nil {
					return err
				}
			}
		}
		return nil
	}}
}

// launcher holds one job's buffers.
type launcher struct {
	s     *labkit.Session
	c     cell
	k     *gpu.Kernel
	width int // counters per launch: 1, or the buckets
	in    *gpu.Buffer[int32]
	slot  *gpu.Buffer[int32]
	start *gpu.Buffer[uint32]
	count *gpu.Buffer[uint32]
	out   *gpu.Buffer[int32]
	fill  []int32
}

// prepare uploads the inputs (once per device) and allocates a fresh,
// zeroed counter slot for each of the job's launches.
func (l *launcher) prepare(launches int) error {
	c, s := l.c, l.s
	var err error
	if c.keys != nil {
		l.width = c.keys.buckets
		key := fmt.Sprintf("keys %p", c.keys)
		if l.in, err = labkit.Cached(s, key, func() (*gpu.Buffer[int32], error) { return gpu.Upload(s.Device, c.keys.keys) },
			(*gpu.Buffer[int32]).Free); err != nil {
			return fmt.Errorf("aggregation: uploading %d keys: %v", c.n, err)
		}
		if l.start, err = labkit.Cached(s, key+" start", func() (*gpu.Buffer[uint32], error) { return gpu.Upload(s.Device, c.keys.start) },
			(*gpu.Buffer[uint32]).Free); err != nil {
			return fmt.Errorf("aggregation: uploading the bucket starts: %v", err)
		}
	} else {
		l.width = 1
		in := compaction(c.n, c.seed)
		if l.in, err = labkit.Cached(s, fmt.Sprintf("compact %d %d", c.n, c.seed), func() (*gpu.Buffer[int32], error) { return gpu.Upload(s.Device, in.data) },
			(*gpu.Buffer[int32]).Free); err != nil {
			return fmt.Errorf("aggregation: uploading %d values: %v", c.n, err)
		}
		if c.kernel == CompactHidden {
			if l.slot, err = labkit.Cached(s, fmt.Sprintf("slots %d", c.n), func() (*gpu.Buffer[int32], error) { return gpu.NewBuffer[int32](s.Device, c.n) },
				(*gpu.Buffer[int32]).Free); err != nil {
				return fmt.Errorf("aggregation: allocating the slots: %v", err)
			}
		}
	}
	if l.out, err = labkit.Cached(s, fmt.Sprintf("out %d", c.n), func() (*gpu.Buffer[int32], error) { return gpu.NewBuffer[int32](s.Device, c.n) },
		(*gpu.Buffer[int32]).Free); err != nil {
		return fmt.Errorf("aggregation: allocating the output: %v", err)
	}
	l.fill = slices.Repeat([]int32{-1}, c.n)
	// The counters are picked here on the host, outside anything timed.
	if l.count, err = gpu.NewBuffer[uint32](s.Device, launches*l.width); err != nil {
		return fmt.Errorf("aggregation: allocating counters: %v", err)
	}
	return nil
}

// args returns the arguments of the job's i-th launch.
func (l *launcher) args(i int) []any {
	count := l.count.At(i * l.width)
	switch {
	case l.c.keys != nil:
		return []any{l.in, l.c.n, l.start, count, l.out}
	case l.c.kernel == CompactHidden:
		return []any{l.in, l.c.n, l.slot, count, l.out}
	}
	return []any{l.in, l.c.n, count, l.out}
}

// check reads the job's i-th launch's output and records what is wrong
// with it.
func (l *launcher) check(i int, o *outcome) error {
	counts, err := l.count.Download()
	if err != nil {
		return fmt.Errorf("aggregation: reading the counters: %v", err)
	}
	out, err := l.out.Download()
	if err != nil {
		return fmt.Errorf("aggregation: reading the output: %v", err)
	}
	counts = counts[i*l.width : (i+1)*l.width]
	if l.c.keys != nil {
		o.problem = checkBuckets(l.c.keys, counts, out)
		return nil
	}
	in := compaction(l.c.n, l.c.seed)
	o.problem = checkCompaction(in, counts[0], out)
	if o.problem == "" && l.c.keep {
		o.compacted = out[:counts[0]]
	}
	return nil
}
