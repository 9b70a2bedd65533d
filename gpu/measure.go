package gpu

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// How a kernel's time is taken, on a GPU by default: untimed warm-up
// launches, then timed repetitions, each timed by CUDA events recorded
// just before and just after the launch (gated or not: see the spec option
// timing=). The labs and `warplab run` share these numbers and Method's
// description of them.
const (
	DefaultWarmUps = 3
	DefaultReps    = 10
)

// The statistics a Method may report over its timed repetitions.
const (
	StatMedian = "median"
	StatMean   = "mean"
)

// Method is how a time is taken from launches of a kernel: WarmUps
// untimed launches, then Reps timed ones, summarised by Statistic. Timer
// says what times one launch.
type Method struct {
	WarmUps   int    `json:"warm_ups"`
	Reps      int    `json:"repetitions"`
	Statistic string `json:"statistic"` // StatMedian or StatMean
	// Timer is TimerGated or TimerEvents on a GPU, TimerModel on the
	// simulator.
	Timer string `json:"timer"`
	// Measured: the times are a GPU's (Capabilities.MeasuredTiming).
	Measured bool `json:"measured"`
}

// The Timer of each kind of device: a GPU whose launches are timed
// gated (timing=gated) or not, the simulator.
const (
	TimerGated  = "CUDA events around each launch, gated (the GPU's time, not the host's submission)"
	TimerEvents = "CUDA events around each launch"
	TimerModel  = "the cost model"
)

// MethodOf is the method of warmUps warm-ups and reps timed launches
// taken as they are (0 warm-ups is none), on a device whose times are
// measured or modelled: for describing launches already made. A measured
// method's Timer is TimerEvents, which is true of gated and ungated
// launches alike (a committed reference may be either); NewMethod takes
// the exact one from the device's Capabilities.
func MethodOf(measured bool, warmUps, reps int, stat string) Method {
	m := Method{WarmUps: warmUps, Reps: reps, Statistic: stat, Timer: TimerModel, Measured: measured}
	if measured {
		m.Timer = TimerEvents
	}
	return m
}

// timerOf is the Timer of a device with caps.
func timerOf(caps Capabilities) string {
	switch {
	case !caps.MeasuredTiming:
		return TimerModel
	case caps.GatedTiming:
		return TimerGated
	}
	return TimerEvents
}

// DefaultMethod is the method for a device: on a GPU the median of
// DefaultReps launches after DefaultWarmUps warm-ups; where the time is
// modelled, one launch, since the model is deterministic.
func DefaultMethod(caps Capabilities) Method {
	m, _ := NewMethod(caps, 0, 0, StatMedian)
	return m
}

// NewMethod returns the method for a device with warmUps warm-ups and
// reps timed repetitions, as the labs' options spell them: 0 for the
// device's default (on a GPU DefaultWarmUps and DefaultReps; where the
// time is modelled no warm-up and one launch), a negative warmUps for
// none. stat is StatMedian or StatMean.
func NewMethod(caps Capabilities, warmUps, reps int, stat string) (Method, error) {
	if reps < 0 {
		return Method{}, fmt.Errorf("gpu: %d timed repetitions: want at least 1 (0 for the default)", reps)
	}
	if stat != StatMedian && stat != StatMean {
		return Method{}, fmt.Errorf("gpu: statistic %q: want %s or %s", stat, StatMedian, StatMean)
	}
	m := MethodOf(caps.MeasuredTiming, warmUps, reps, stat)
	m.Timer = timerOf(caps)
	switch {
	case m.WarmUps < 0:
		m.WarmUps = 0
	case m.WarmUps == 0 && m.Measured:
		m.WarmUps = DefaultWarmUps
	}
	if m.Reps == 0 {
		m.Reps = 1
		if m.Measured {
			m.Reps = DefaultReps
		}
	}
	return m, nil
}

// Cold returns the method of one launch without warm-ups: what a GPU
// shows the first time a kernel runs (module loading, cold caches and
// clocks), for comparison with the warm default.
func Cold(caps Capabilities) Method {
	m, _ := NewMethod(caps, -1, 1, StatMedian)
	return m
}

// Launches returns the launches the method makes, warm-ups included.
func (m Method) Launches() int { return m.WarmUps + m.Reps }

// String describes the method, in the same words wherever a time is
// printed: "median of 10 launches after 3 warm-ups, CUDA events around
// each launch".
func (m Method) String() string {
	var s string
	switch {
	case m.Reps == 1 && m.WarmUps == 0 && m.Timer == TimerGated:
		// cudarun never gates a kernel's first launch (loading the kernel
		// may wait for the gate).
		return "one cold launch, no warm-up, CUDA events around it, gated unless it is the kernel's first launch in the process"
	case m.Reps == 1 && m.WarmUps == 0 && m.Measured:
		s = "one cold launch, no warm-up"
	case m.Reps == 1 && m.WarmUps == 0:
		return "one launch, " + m.Timer + ": the model is deterministic, so one launch suffices"
	case m.Reps == 1:
		s = fmt.Sprintf("one launch after %s", plural(m.WarmUps, "warm-up"))
	default:
		s = fmt.Sprintf("%s of %d launches", m.Statistic, m.Reps)
		if m.WarmUps > 0 {
			s += " after " + plural(m.WarmUps, "warm-up")
		}
	}
	if m.WarmUps == 0 && m.Timer == TimerGated {
		return s + ", " + m.Timer + ", except a kernel's first launch in the process"
	}
	return s + ", " + m.Timer
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Stats summarises the times of timed repetitions, in milliseconds.
type Stats struct {
	N      int     `json:"n"`
	Median float64 `json:"median_ms"`
	Mean   float64 `json:"mean_ms"`
	Min    float64 `json:"min_ms"`
	Max    float64 `json:"max_ms"`
	// Stdev is the sample standard deviation; 0 for fewer than two.
	Stdev float64 `json:"stdev_ms"`
}

// Summarize returns the statistics of ms; the zero Stats for none.
func Summarize(ms []float64) Stats {
	if len(ms) == 0 {
		return Stats{}
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	st := Stats{N: len(s), Min: s[0], Max: s[len(s)-1]}
	if len(s)%2 == 1 {
		st.Median = s[len(s)/2]
	} else {
		st.Median = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	for _, x := range s {
		st.Mean += x
	}
	st.Mean /= float64(len(s))
	if len(s) > 1 {
		var ss float64
		for _, x := range s {
			ss += (x - st.Mean) * (x - st.Mean)
		}
		st.Stdev = math.Sqrt(ss / float64(len(s)-1))
	}
	return st
}

// Of returns the statistic stat (StatMedian or StatMean) of s.
func (s Stats) Of(stat string) float64 {
	if stat == StatMean {
		return s.Mean
	}
	return s.Median
}

// Measurement is what Measure measured.
type Measurement struct {
	Method Method `json:"method"`
	// Ms is the method's statistic of the timed repetitions.
	Ms    float64 `json:"ms"`
	Stats Stats   `json:"stats"`
	// Times are the timed repetitions' times, in launch order.
	Times []float64 `json:"times_ms"`
	// Last is the last timed launch's result: its outputs, printf,
	// counters and diagnostics.
	Last *Result `json:"-"`
}

// Measure launches k as m says: m.WarmUps untimed launches, then m.Reps
// timed ones, with the arguments args returns for each launch i (0 to
// m.Launches()-1, warm-ups first). args runs before its launch and outside
// anything timed: a kernel that accumulates into its outputs gets fresh
// or re-initialised buffers from it, so every launch does the same work.
// A failed launch stops the measurement and is returned as it is.
func (k *Kernel) Measure(cfg LaunchConfig, m Method, args func(i int) ([]any, error)) (*Measurement, error) {
	return k.MeasureContext(context.Background(), cfg, m, args)
}

// MeasureContext is Measure with every launch stopped when ctx is done
// (LaunchContext).
func (k *Kernel) MeasureContext(ctx context.Context, cfg LaunchConfig, m Method, args func(i int) ([]any, error)) (*Measurement, error) {
	if m.Reps < 1 || m.WarmUps < 0 {
		return nil, fmt.Errorf("gpu: measure %s: %d warm-ups and %d repetitions: want at least 0 and 1", k.fn.Name, m.WarmUps, m.Reps)
	}
	out := &Measurement{Method: m, Times: make([]float64, 0, m.Reps)}
	for i := range m.Launches() {
		a, err := args(i)
		if err != nil {
			return nil, err
		}
		res, err := k.LaunchContext(ctx, cfg, a...)
		if err != nil {
			return nil, err
		}
		if i >= m.WarmUps {
			out.Times = append(out.Times, res.Timing.Ms)
			out.Last = res
		}
	}
	out.Stats = Summarize(out.Times)
	out.Ms = out.Stats.Of(m.Statistic)
	return out, nil
}
