package labkit

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/warplab/warplab/gpu"
)

// Job is one independent part of an experiment: it makes Launches
// launches on the Session's device and stores its results itself (in a
// slot of its own: jobs may run concurrently).
type Job struct {
	// Launches is the number of launches Do makes, for the seeds and the
	// progress count. Do must make exactly this many.
	Launches int
	// Detail says what the job does, for progress lines ("tree n=4096").
	Detail string
	Do     func(s *Session) error
}

// Runner runs jobs on a device; see the package documentation.
type Runner struct {
	dev *gpu.Device
	// sim is the simulated device's spec, whose seed the first job starts
	// at; it is the zero Spec for a device whose jobs run on it directly.
	sim gpu.Spec
	// Workers is the number of jobs run at once on the simulator;
	// NewRunner sets it to runtime.GOMAXPROCS(0).
	Workers int
}

// NewRunner returns a runner for dev.
func NewRunner(dev *gpu.Device) (*Runner, error) {
	r := &Runner{dev: dev, Workers: runtime.GOMAXPROCS(0)}
	caps := dev.Capabilities()
	if spec := dev.Spec(); spec.Seeded() && caps.ModelledTiming && caps.Seeded {
		r.sim = spec
	}
	return r, nil
}

// Device returns the runner's device.
func (r *Runner) Device() *gpu.Device { return r.dev }

// Simulated reports whether jobs run on fresh simulated devices.
func (r *Runner) Simulated() bool { return !r.sim.IsAuto() }

// Run runs the jobs and waits for them; progress counts launches. The
// first error stops jobs not yet started and is returned. Run calls
// progress.Done before it returns.
func (r *Runner) Run(jobs []Job, progress Progress) error {
	if progress == nil {
		progress = NoProgress
	}
	defer progress.Done()
	total := 0
	for _, j := range jobs {
		total += j.Launches
	}
	var mu sync.Mutex
	done := 0
	step := func(detail string) {
		mu.Lock()
		done++
		d := done
		mu.Unlock()
		progress.Update(d, total, detail)
	}
	if !r.Simulated() {
		s := &Session{Device: r.dev, cache: map[string]any{}, step: step}
		defer s.free()
		for _, j := range jobs {
			s.detail = j.Detail
			if err := j.Do(s); err != nil {
				return err
			}
		}
		return nil
	}
	seeds := make([]uint64, len(jobs))
	next := r.sim.Seed()
	for i, j := range jobs {
		seeds[i] = next
		next += uint64(j.Launches)
	}
	workers := max(1, min(r.Workers, len(jobs)))
	idx := make(chan int)
	errs := make([]error, len(jobs))
	var failed sync.Once
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range idx {
				if err := r.runSim(jobs[i], seeds[i], step); err != nil {
					errs[i] = err
					failed.Do(func() { close(stop) })
				}
			}
		}()
	}
feed:
	for i := range jobs {
		select {
		case idx <- i:
		case <-stop:
			break feed
		}
	}
	close(idx)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// runSim runs one job on a fresh simulated device whose first launch
// uses seed, bound to the runner's device's context (its deadline stops
// the job's launches too).
func (r *Runner) runSim(j Job, seed uint64, step func(string)) error {
	if err := r.dev.Context().Err(); err != nil {
		return fmt.Errorf("%s: %w", j.Detail, err)
	}
	dev, err := gpu.OpenContext(r.dev.Context(), r.SimSpec(seed))
	if err != nil {
		return err
	}
	defer dev.Close()
	s := &Session{Device: dev, cache: map[string]any{}, step: step, detail: j.Detail}
	defer s.free()
	return j.Do(s)
}

// SimSpec returns the spec of the runner's simulated device with the
// given seed; it is the zero Spec when the runner does not simulate.
func (r *Runner) SimSpec(seed uint64) gpu.Spec {
	if !r.Simulated() {
		return gpu.Spec{}
	}
	return r.sim.WithSeed(seed)
}

// Session is the device a job runs on, with a cache of what earlier jobs
// on the same device built (modules, input buffers).
type Session struct {
	Device *gpu.Device
	cache  map[string]any
	frees  []func() error
	step   func(string)
	detail string
}

// Launched counts one launch for the progress report.
func (s *Session) Launched() { s.step(s.detail) }

// Kernel compiles src (once per device) and returns the named kernel.
func (s *Session) Kernel(file string, src []byte, name string) (*gpu.Kernel, error) {
	key := "module\x00" + file
	m, ok := s.cache[key].(*gpu.Module)
	if !ok {
		var err error
		if m, err = s.Device.Compile(file, src); err != nil {
			return nil, err
		}
		s.cache[key] = m
	}
	return m.Kernel(name)
}

// Cached returns the value stored under key on this device, making it
// with make the first time; free, when not nil, releases it when the run
// ends.
func Cached[T any](s *Session, key string, make func() (T, error), free func(T) error) (T, error) {
	if v, ok := s.cache[key].(T); ok {
		return v, nil
	}
	v, err := make()
	if err != nil {
		return v, err
	}
	s.cache[key] = v
	if free != nil {
		s.frees = append(s.frees, func() error { return free(v) })
	}
	return v, nil
}

func (s *Session) free() {
	for _, f := range s.frees {
		f()
	}
	s.frees = nil
}

// LaunchJobs returns the jobs that make the launches of one cell of an
// experiment, warm-ups first: on the simulator a job per launch, so that
// they run concurrently (each seeded as if all had run in turn); on a GPU
// one job that makes them back to back. job(from, to) returns the job
// that makes the cell's launches from to to-1.
func (r *Runner) LaunchJobs(launches int, job func(from, to int) Job) []Job {
	if !r.Simulated() {
		return []Job{job(0, launches)}
	}
	jobs := make([]Job, launches)
	for l := range launches {
		jobs[l] = job(l, l+1)
	}
	return jobs
}
