package atomics

import (
	"fmt"
	"sync"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// inputKind is the data a sum reads.
type inputKind int

const (
	// exactInput is 0, 1, 2, 3 repeating: every partial sum is an integer,
	// exact in float32 in any order while the total stays below 2^24.
	exactInput inputKind = iota
	// inexactInput is 1 + (i mod 1000) * 0.001, computed in float32: most
	// values are not exactly representable, so the order of the additions
	// changes the last bits of the total. Over n = 4,194,304 elements its
	// Kahan double reference is 6289253.15, the Day 26 page's.
	inexactInput
)

func (k inputKind) String() string {
	if k == exactInput {
		return "0, 1, 2, 3 repeating"
	}
	return "1 + (i mod 1000) / 1000"
}

// hostInput is an input on the host with its reference sum.
type hostInput struct {
	data      []float32
	reference float64 // Kahan double sum
	exact     bool    // every float32 order of the sum is exact
}

var inputs = struct {
	sync.Mutex
	m map[[2]int]*hostInput
}{m: map[[2]int]*hostInput{}}

// input returns the input of kind k and length n, made once per process
// and shared read-only.
func input(k inputKind, n int) *hostInput {
	inputs.Lock()
	defer inputs.Unlock()
	key := [2]int{int(k), n}
	if in, ok := inputs.m[key]; ok {
		return in
	}
	data := make([]float32, n)
	for i := range data {
		if k == exactInput {
			data[i] = float32(i % 4)
		} else {
			// float32 arithmetic, as a C host program computes it.
			data[i] = 1 + float32(i%1000)*float32(0.001)
		}
	}
	in := &hostInput{data: data, reference: labkit.KahanSum(data), exact: labkit.ExactInFloat32(data)}
	inputs.m[key] = in
	return in
}

// series is one cell of a table: a kernel launched warm + runs times at
// one size and block size, each launch into an accumulator slot of its
// own, set to zero before the launch.
type series struct {
	kernel     Kernel
	n, block   int
	input      inputKind
	warm, runs int
}

// measured is what a series measured.
type measured struct {
	ms   []float64 // the timed launches' times
	sums []float32 // every launch's total, warm-ups first
	// timing is the last timed launch's timing, counters its counters
	// (nil on a GPU).
	timing   gpu.Timing
	counters *gpu.Counters
}

// measure runs the series on r. On the simulator every launch is a job
// of its own, so that launches run concurrently; on a GPU each series is
// one job, its launches back to back.
func measure(r *labkit.Runner, ss []series, progress labs.Progress) ([]measured, error) {
	out := make([]measured, len(ss))
	var jobs []labkit.Job
	for i, s := range ss {
		total := s.warm + s.runs
		out[i] = measured{ms: make([]float64, s.runs), sums: make([]float32, total)}
		detail := fmt.Sprintf("%s n=%d block=%d", s.kernel, s.n, s.block)
		jobs = append(jobs, r.LaunchJobs(total, func(from, to int) labkit.Job { return launchJob(s, &out[i], from, to, detail) })...)
	}
	if err := r.Run(jobs, progress); err != nil {
		return nil, err
	}
	return out, nil
}

// launchJob makes launches from to to (warm-ups first, then timed runs)
// of series s, storing their sums and times in m.
func launchJob(s series, m *measured, from, to int, detail string) labkit.Job {
	return labkit.Job{Launches: to - from, Detail: detail, Do: func(sess *labkit.Session) error {
		src := Source(s.kernel)
		k, err := sess.Kernel(src.File, []byte(src.Text), s.kernel.Function(s.block))
		if err != nil {
			return fmt.Errorf("atomics: %w", err)
		}
		host := input(s.input, s.n)
		in, err := labkit.Cached(sess, fmt.Sprintf("input %d %d", s.input, s.n),
			func() (*gpu.Buffer[float32], error) { return gpu.Upload(sess.Device, host.data) },
			(*gpu.Buffer[float32]).Free)
		if err != nil {
			return fmt.Errorf("atomics: uploading %d elements: %w", s.n, err)
		}
		// A fresh, zeroed slot per launch: the slot is picked here on the
		// host, outside anything timed.
		slots, err := gpu.NewBuffer[float32](sess.Device, to-from)
		if err != nil {
			return fmt.Errorf("atomics: allocating accumulators: %w", err)
		}
		defer slots.Free()
		cfg := gpu.LaunchConfig{Grid: gpu.D1((s.n + s.block - 1) / s.block), Block: gpu.D1(s.block)}
		for l := from; l < to; l++ {
			res, err := k.Launch(cfg, in, slots.At(l-from), uint64(s.n))
			if err != nil {
				return fmt.Errorf("atomics: %s n=%d block=%d: %w", s.kernel.Function(s.block), s.n, s.block, err)
			}
			sess.Launched()
			if l >= s.warm {
				m.ms[l-s.warm] = res.Timing.Ms
				if l == s.warm+s.runs-1 {
					m.timing, m.counters = res.Timing, res.Counters
				}
			}
		}
		sums, err := slots.Download()
		if err != nil {
			return fmt.Errorf("atomics: reading the sums: %w", err)
		}
		copy(m.sums[from:to], sums)
		return nil
	}}
}
