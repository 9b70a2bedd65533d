package kernelcheck

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Config is the checker's settings, read from labs.Settings by ConfigFrom
// or filled in directly; DefaultConfig returns the defaults.
type Config struct {
	// Sizes are the element counts the kernel runs at, smallest first.
	Sizes []int
	// Seeds are the simulator's scheduler seeds; every size runs under
	// each.
	Seeds []uint64
	// Budget is the most warp instructions one launch may execute.
	Budget int64
	// TimeLimit is the most wall-clock time one launch may take.
	TimeLimit time.Duration
	// Tolerance is the relative error allowed against the double
	// reference.
	Tolerance float64
	// ElementsPerAtomic sets the default contention budget: at most
	// ceil(n / ElementsPerAtomic) global atomics per launch. 0 leaves the
	// part out unless the harness has its own budget.
	ElementsPerAtomic int
	// MaxSlowdown fails the time part when the kernel's modelled time is
	// more than this many times the reference's; 0 only reports it.
	MaxSlowdown float64
	// MinSpeedup fails the part PartSpeedup unless the kernel's modelled
	// time is at least this many times below the harness's baseline's; 0
	// leaves the part out.
	MinSpeedup float64
	// Profile is the simulator profile to check on ("t4"); empty means
	// the profile of the device passed to Check, or the one predicting it.
	Profile string
	// Memory is the simulator's memory model: gpu.MemoryRelaxed checks a
	// kernel that publishes data between blocks against every reordering
	// the PTX model allows, seed by seed (the zero value is sequential
	// consistency).
	Memory gpu.Memory
}

// The checker's option names.
const (
	OptSizes             = "sizes"
	OptSeeds             = "seeds"
	OptBudget            = "budget"
	OptTimeLimit         = "time-limit-ms"
	OptTolerance         = "tolerance"
	OptElementsPerAtomic = "elements-per-atomic"
	OptMaxSlowdown       = "max-slowdown"
	OptMinSpeedup        = "min-speedup"
	OptMemory            = "memory"
)

// MaxSize bounds the sizes an instructor may ask for: a check must stay a
// matter of seconds on the simulator.
const MaxSize = 1 << 22

// DefaultConfig returns the default settings: three sizes that are not
// multiples of 32 nor of any block size, three seeds, a budget of 4
// million warp instructions and 10 s per launch, a relative tolerance of
// 1e-4, at most one global atomic per 32 elements and a report-only time.
func DefaultConfig() Config {
	return Config{
		Sizes:             []int{1000, 4133, 100003},
		Seeds:             []uint64{1, 2, 3},
		Budget:            4_000_000,
		TimeLimit:         10 * time.Second,
		Tolerance:         1e-4,
		ElementsPerAtomic: 32,
	}
}

// Options returns the checker's settings with c's values as defaults, for
// an Exercise's Options.
func (c Config) Options() []labs.Option {
	seeds := make([]string, len(c.Seeds))
	for i, s := range c.Seeds {
		seeds[i] = strconv.FormatUint(s, 10)
	}
	return []labs.Option{
		{Name: OptSizes, Kind: labs.Ints, Default: labkit.JoinInts(c.Sizes), Max: MaxSize,
			Usage: "element counts the kernel runs at (hidden checks use others)"},
		{Name: OptSeeds, Kind: labs.Ints, Default: strings.Join(seeds, ","), Max: 1 << 30,
			Usage: "simulator scheduler seeds; every size runs under each"},
		{Name: OptBudget, Kind: labs.Int, Default: strconv.FormatInt(c.Budget, 10), Max: 1 << 30,
			Usage: "most warp instructions one launch may execute"},
		{Name: OptTimeLimit, Kind: labs.Int, Default: strconv.FormatInt(c.TimeLimit.Milliseconds(), 10), Max: 600_000,
			Usage: "most wall-clock milliseconds one launch may take"},
		{Name: OptTolerance, Kind: labs.Float, Default: strconv.FormatFloat(c.Tolerance, 'g', -1, 64),
			Usage: "relative error allowed against the double reference"},
		{Name: OptElementsPerAtomic, Kind: labs.Int, Default: strconv.Itoa(max(1, c.ElementsPerAtomic)), Max: 1 << 30,
			Usage: "contention budget: at most ceil(n / this) global atomics per launch"},
		{Name: OptMaxSlowdown, Kind: labs.Float, Default: strconv.FormatFloat(c.MaxSlowdown, 'g', -1, 64),
			Usage: "fail when the modelled time is more than this many times the reference's (0: report only)"},
		{Name: OptMinSpeedup, Kind: labs.Float, Default: strconv.FormatFloat(c.MinSpeedup, 'g', -1, 64),
			Usage: "the part \"faster than the baseline\" wants the kernel this many times faster than the lesson's baseline kernel (0: no such part)"},
		{Name: OptMemory, Kind: labs.String, Default: c.Memory.String(),
			Usage: "the simulator's memory model: sc (sequentially consistent) or relaxed (stores reach other blocks late and out of order, as PTX allows)"},
	}
}

// Options returns the checker's settings with the default values.
func Options() []labs.Option { return DefaultConfig().Options() }

// ConfigFrom reads a Config from settings resolved against Options.
func ConfigFrom(s labs.Settings) (Config, error) {
	c := DefaultConfig()
	var err error
	if c.Sizes, err = s.Ints(OptSizes); err != nil {
		return c, err
	}
	seeds, err := s.Ints(OptSeeds)
	if err != nil {
		return c, err
	}
	c.Seeds = c.Seeds[:0]
	for _, x := range seeds {
		c.Seeds = append(c.Seeds, uint64(x))
	}
	b, err := s.Int(OptBudget)
	if err != nil {
		return c, err
	}
	c.Budget = int64(b)
	ms, err := s.Int(OptTimeLimit)
	if err != nil {
		return c, err
	}
	c.TimeLimit = time.Duration(ms) * time.Millisecond
	if c.Tolerance, err = s.Float(OptTolerance); err != nil {
		return c, err
	}
	if c.ElementsPerAtomic, err = s.Int(OptElementsPerAtomic); err != nil {
		return c, err
	}
	if c.MaxSlowdown, err = s.Float(OptMaxSlowdown); err != nil {
		return c, err
	}
	if c.MinSpeedup, err = s.Float(OptMinSpeedup); err != nil {
		return c, err
	}
	switch m := s.Text(OptMemory); m {
	case "", "sc":
		c.Memory = gpu.MemorySC
	case "relaxed":
		c.Memory = gpu.MemoryRelaxed
	default:
		return c, fmt.Errorf("kernelcheck: memory %q: want sc or relaxed", m)
	}
	return c, c.validate()
}

func (c Config) validate() error {
	switch {
	case len(c.Sizes) == 0:
		return fmt.Errorf("kernelcheck: no sizes to check at")
	case len(c.Seeds) == 0:
		return fmt.Errorf("kernelcheck: no seeds to check with")
	case c.Budget < 1:
		return fmt.Errorf("kernelcheck: budget %d: want at least 1 warp instruction", c.Budget)
	case c.TimeLimit <= 0:
		return fmt.Errorf("kernelcheck: time limit %v: want more than 0", c.TimeLimit)
	case c.Tolerance < 0 || c.Tolerance >= 1:
		return fmt.Errorf("kernelcheck: tolerance %g: want at least 0 and below 1", c.Tolerance)
	case c.ElementsPerAtomic < 0:
		return fmt.Errorf("kernelcheck: elements per atomic %d: want at least 0", c.ElementsPerAtomic)
	case c.MinSpeedup < 0 || c.MinSpeedup != c.MinSpeedup:
		return fmt.Errorf("kernelcheck: min speedup %g: want at least 0", c.MinSpeedup)
	case c.MaxSlowdown < 0:
		return fmt.Errorf("kernelcheck: max slowdown %g: want at least 0", c.MaxSlowdown)
	}
	for _, n := range c.Sizes {
		if n < 1 || n > MaxSize {
			return fmt.Errorf("kernelcheck: size %d: want 1 to %d", n, MaxSize)
		}
	}
	return nil
}
