package gpu

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/warplab/warplab/gpu/driver"
)

// Spec is a parsed device spec: which backend, which device of it, and
// the device's options. The zero Spec is the automatic choice (see Open).
// A Spec is a value, compared with ==; WithSeed returns a changed copy.
//
// The text form is
//
//	BACKEND[:DEVICE][?OPTION=VALUE&...]
//
// where BACKEND is "sim" (DEVICE: a simulator profile, "t4" when omitted)
// or "cuda" (DEVICE: a GPU ordinal, 0 when omitted). The options are
//
//	seed=N                      sim: seeds the order of atomics; launch k uses N+k (default 1)
//	order=seeded|deterministic  sim: deterministic fixes the order of atomics (default seeded)
//	fmad=true|false             sim, cuda: contract a*b+c into fused multiply-adds, as nvcc does (default true)
//	racecheck=true|false        sim: report shared-memory races (default true)
//	budget=N                    sim: warp instructions a launch may run before it fails with ErrBudget (N > 0)
//	clock=boost|base|MHZ        sim: the SM clock the cost model runs at, MHZ from 100 to 5000 (default boost)
//	memory=sc|relaxed           sim: relaxed lets global stores reach other blocks late and out of order, as the PTX memory model allows (default sc)
//	interleave=coarse|fine      sim: fine also switches between a block's warps at shared-memory loads and stores, with seeded delays, so that races between warps change the results from seed to seed (default coarse)
//	timeout=DURATION            sim, cuda: wall-clock limit of one launch, 100ms to 24h such as 30s or 2m; 0 for none (default 10s on a GPU, 60s on the simulator)
//	timing=gated|ungated        cuda: how CUDA events time a launch: gated queues the start event and the launch behind a gate that the host opens once the stop event is queued, so that the time is the GPU's alone; ungated records them as the host submits them, and the time includes whatever the GPU waits for the launch to arrive (default gated)
//
// String spells a Spec in canonical form: the backend, the device and,
// for the simulator, the seed, then the options that differ from their
// defaults in the order above ("sim:t4?seed=7&order=deterministic").
// ParseSpec(s.String()) == s for every parsed s.
type Spec struct {
	backend   string
	profile   string // sim: the profile; another backend's device name
	ordinal   int    // cuda
	seed      uint64
	order     Order
	noFMA     bool
	noRace    bool
	budget    int64
	clock     Clock
	timeout   time.Duration // 0 the backend's default, noTimeout none
	memory    Memory
	fine      bool   // interleave=fine
	timing    string // "" the default (DefaultTiming), TimingGated or TimingUngated
	hasDevice bool   // another backend's spec named a device
}

// DefaultTimeout is the wall-clock limit of one launch on a GPU when the
// spec sets none (cuda?timeout=...). A lab's launches take microseconds
// to milliseconds and a student's slow kernel on a large input well under
// a second, so 10 s is far above any launch that will end, yet short
// enough that a notebook cell with an endless loop returns before its
// user gives up on it.
const DefaultTimeout = 10 * time.Second

// The ways a GPU's launch may be timed (timing=).
const (
	TimingGated   = "gated"
	TimingUngated = "ungated"
)

// DefaultTiming is how a GPU's launches are timed when the spec does not
// say (timing=): gated, the GPU's time alone. Ungated, an idle GPU
// timestamps the start event at once and then waits for the host to
// submit the launch, which added 5 to 20 us to the queue lab's launches
// on the H200, depending on the process that submits them
// (calibration/evidence/2026-11-30-h200-queue-timing-gated); the microbenchmarks
// (common.cuh's EvTimer) gate theirs the same way.
const DefaultTiming = TimingGated

// DefaultSimTimeout is the wall-clock limit of one simulated launch when
// the spec sets none (sim:t4?timeout=...). The simulator runs a lab's
// largest launch in a few seconds on a laptop; a minute stops an endless
// loop that its instruction budget has not caught (one that spins in
// every warp of a huge grid) while leaving a slow machine room.
// `warplab run` sets its own, shorter, limit (--timeout).
const DefaultSimTimeout = time.Minute

// Bounds on timeout=: below 100 ms a helper process's own start and a
// module's lazy loading could trip the limit; a day is more than any
// kernel of a course needs.
const (
	minTimeout = 100 * time.Millisecond
	maxTimeout = 24 * time.Hour
	noTimeout  = time.Duration(-1)
)

// Order is how a simulated device orders atomics to one address.
type Order uint8

const (
	// OrderSeeded draws the order from the launch's seed, so it changes
	// from seed to seed as it changes from run to run on a GPU.
	OrderSeeded Order = iota
	// OrderDeterministic fixes the order (by block and warp index).
	OrderDeterministic
)

func (o Order) String() string {
	if o == OrderDeterministic {
		return "deterministic"
	}
	return "seeded"
}

// Memory is the memory model a simulated device runs global memory under.
type Memory uint8

const (
	// MemorySC is sequential consistency: a global store is visible to
	// every block as soon as it executes, and loads read the latest value.
	MemorySC Memory = iota
	// MemoryRelaxed is a weak model within what PTX allows: a block's
	// plain and relaxed global stores reach other blocks after a seeded
	// delay and out of order, and a load may return a value that was
	// current since the block's last acquire; __threadfence(), release
	// and acquire atomics at device scope restore the order.
	MemoryRelaxed
)

func (m Memory) String() string {
	if m == MemoryRelaxed {
		return "relaxed"
	}
	return "sc"
}

// Interleave is how finely a simulated device interleaves the warps of a
// block.
type Interleave uint8

const (
	// InterleaveCoarse switches between a block's warps only where they
	// reach something the others observe in order: an atomic, a volatile
	// access, a fence, a barrier. Plain shared-memory accesses between
	// those points run without a switch, so the warp that reaches them
	// first finishes them first.
	InterleaveCoarse Interleave = iota
	// InterleaveFine also switches at every plain shared-memory load and
	// store, after a seeded delay there (a warp scheduler's choice among
	// ready warps), so that two warps' unordered accesses to shared
	// memory land in an order that changes from seed to seed: a missing
	// __syncthreads() gives wrong results for some seeds, as it may on a
	// GPU. Its timings are not calibrated.
	InterleaveFine
)

func (i Interleave) String() string {
	if i == InterleaveFine {
		return "fine"
	}
	return "coarse"
}

// Clock is the SM clock a simulated device runs its cost model at: the
// profile's boost clock (the zero Clock), its base clock, or a frequency.
type Clock struct {
	// MHz is a fixed frequency, 0 for the profile's own clock.
	MHz float64
	// Base selects the profile's base clock instead of its boost clock.
	Base bool
}

func (c Clock) String() string {
	switch {
	case c.MHz > 0:
		return strconv.FormatFloat(c.MHz, 'g', -1, 64)
	case c.Base:
		return "base"
	}
	return "boost"
}

// The backends whose devices and options the spec grammar knows.
const (
	backendSim  = "sim"
	backendCUDA = "cuda"
)

// defaultSimProfile is the profile of "sim" with no device; defaultSeed
// the seed of a simulator spec with none.
const (
	defaultSimProfile = "t4"
	defaultSeed       = 1
)

// specOption is one option of the spec grammar.
type specOption struct {
	name     string
	backends []string
	// parse sets the option on s from its value.
	parse func(s *Spec, v string) error
	// value spells the option's value; "" when it is at its default.
	value func(s Spec) string
}

// specOptions lists the options in their canonical order.
var specOptions = []specOption{
	{"seed", []string{backendSim},
		func(s *Spec, v string) (err error) {
			if s.seed, err = strconv.ParseUint(v, 10, 64); err != nil {
				return fmt.Errorf("want a whole number from 0 to %d", uint64(1<<64-1))
			}
			return nil
		},
		func(s Spec) string { return strconv.FormatUint(s.seed, 10) }},
	{"order", []string{backendSim},
		func(s *Spec, v string) error {
			switch v {
			case "seeded":
				s.order = OrderSeeded
			case "deterministic":
				s.order = OrderDeterministic
			default:
				return fmt.Errorf("want seeded or deterministic")
			}
			return nil
		},
		func(s Spec) string {
			if s.order == OrderSeeded {
				return ""
			}
			return s.order.String()
		}},
	{"fmad", []string{backendSim, backendCUDA},
		func(s *Spec, v string) error {
			b, err := parseBool(v)
			s.noFMA = !b
			return err
		},
		func(s Spec) string { return falseOrEmpty(s.noFMA) }},
	{"racecheck", []string{backendSim},
		func(s *Spec, v string) error {
			b, err := parseBool(v)
			s.noRace = !b
			return err
		},
		func(s Spec) string { return falseOrEmpty(s.noRace) }},
	{"budget", []string{backendSim},
		func(s *Spec, v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return fmt.Errorf("want a positive number of warp instructions")
			}
			s.budget = n
			return nil
		},
		func(s Spec) string {
			if s.budget == 0 {
				return ""
			}
			return strconv.FormatInt(s.budget, 10)
		}},
	{"clock", []string{backendSim},
		func(s *Spec, v string) error {
			switch v {
			case "boost":
				s.clock = Clock{}
			case "base":
				s.clock = Clock{Base: true}
			default:
				mhz, err := strconv.ParseFloat(v, 64)
				if err != nil || !(mhz >= 100 && mhz <= 5000) {
					return fmt.Errorf("want boost, base or MHz from 100 to 5000")
				}
				s.clock = Clock{MHz: mhz}
			}
			return nil
		},
		func(s Spec) string {
			if s.clock == (Clock{}) {
				return ""
			}
			return s.clock.String()
		}},
	{"memory", []string{backendSim},
		func(s *Spec, v string) error {
			switch v {
			case "sc":
				s.memory = MemorySC
			case "relaxed":
				s.memory = MemoryRelaxed
			default:
				return fmt.Errorf("want sc or relaxed")
			}
			return nil
		},
		func(s Spec) string {
			if s.memory == MemorySC {
				return ""
			}
			return s.memory.String()
		}},
	{"interleave", []string{backendSim},
		func(s *Spec, v string) error {
			switch v {
			case "coarse":
				s.fine = false
			case "fine":
				s.fine = true
			default:
				return fmt.Errorf("want coarse or fine")
			}
			return nil
		},
		func(s Spec) string {
			if !s.fine {
				return ""
			}
			return InterleaveFine.String()
		}},
	{"timeout", []string{backendSim, backendCUDA},
		func(s *Spec, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || (d > 0 && (d < minTimeout || d > maxTimeout)) {
				return fmt.Errorf("want a duration from %v to %v such as 30s or 2m, or 0 for no limit", minTimeout, maxTimeout)
			}
			s.timeout = s.normTimeout(d)
			return nil
		},
		func(s Spec) string {
			switch s.timeout {
			case 0:
				return ""
			case noTimeout:
				return "0"
			}
			return s.timeout.String()
		}},
	{"timing", []string{backendCUDA},
		func(s *Spec, v string) error {
			switch v {
			case TimingGated, TimingUngated:
			default:
				return fmt.Errorf("want %s or %s", TimingGated, TimingUngated)
			}
			s.timing = ""
			if v != DefaultTiming {
				s.timing = v
			}
			return nil
		},
		func(s Spec) string { return s.timing }},
}

// normTimeout turns a limit into the Spec field: 0 (none) into
// noTimeout, the backend's default into 0.
func (s Spec) normTimeout(d time.Duration) time.Duration {
	switch d {
	case 0:
		return noTimeout
	case s.defaultTimeout():
		return 0
	}
	return d
}

// defaultTimeout is the backend's launch time limit when the spec sets
// none: DefaultTimeout on a GPU, DefaultSimTimeout on the simulator.
func (s Spec) defaultTimeout() time.Duration {
	if s.backend == backendSim {
		return DefaultSimTimeout
	}
	return DefaultTimeout
}

func parseBool(v string) (bool, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("want true or false")
}

func falseOrEmpty(b bool) string {
	if b {
		return "false"
	}
	return ""
}

// optionNames lists the options backend accepts, in canonical order.
func optionNames(backend string) []string {
	var names []string
	for _, o := range specOptions {
		if contains(o.backends, backend) {
			names = append(names, o.name)
		}
	}
	return names
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ParseSpec parses a device spec such as "sim:t4", "sim:h200?seed=7&order=deterministic",
// "cuda" or "cuda:1?fmad=false"; "" is the automatic choice. A malformed
// spec, an option the backend does not take, or a bad option value is an
// error naming the spec and what is wrong with it. Whether the backend is
// registered and the device exists is checked by Open.
func ParseSpec(text string) (Spec, error) {
	s, err := parseSpec(text)
	if err != nil {
		return Spec{}, fmt.Errorf("gpu: device spec %q: %v", text, err)
	}
	return s, nil
}

func parseSpec(text string) (Spec, error) {
	var s Spec
	if text == "" {
		return s, nil
	}
	head, query, hasQuery := strings.Cut(text, "?")
	name, device, hasDevice := strings.Cut(head, ":")
	if !validName(name) {
		return s, fmt.Errorf("want BACKEND[:DEVICE][?OPTION=VALUE&...] with a backend such as sim or cuda")
	}
	s.backend = name
	switch name {
	case backendSim:
		s.profile, s.seed = defaultSimProfile, defaultSeed
		if hasDevice {
			device = strings.ToLower(device)
			if !validName(device) {
				return s, fmt.Errorf("bad profile %q: want a profile name such as sim:t4", device)
			}
			s.profile = device
		}
	case backendCUDA:
		if hasDevice {
			n, err := strconv.Atoi(device)
			if err != nil || n < 0 {
				return s, fmt.Errorf("bad device ordinal %q: want a number such as cuda:1", device)
			}
			s.ordinal = n
		}
	default:
		if hasDevice {
			if !validName(device) {
				return s, fmt.Errorf("bad device name %q", device)
			}
			s.profile, s.hasDevice = device, true
		}
	}
	if !hasQuery {
		return s, nil
	}
	if query == "" {
		return s, fmt.Errorf("empty option list after ?")
	}
	seen := map[string]bool{}
	for _, kv := range strings.Split(query, "&") {
		key, val, ok := strings.Cut(kv, "=")
		if !ok || key == "" {
			return s, fmt.Errorf("option %q: want NAME=VALUE", kv)
		}
		opt := lookupOption(key)
		if opt == nil || !contains(opt.backends, name) {
			names := optionNames(name)
			if len(names) == 0 {
				return s, fmt.Errorf("unknown option %s: backend %s takes no options", key, name)
			}
			return s, fmt.Errorf("unknown option %s (%s options: %s)", key, name, strings.Join(names, ", "))
		}
		if seen[key] {
			return s, fmt.Errorf("option %s given twice", key)
		}
		seen[key] = true
		if err := opt.parse(&s, val); err != nil {
			return s, fmt.Errorf("option %s=%s: %v", key, val, err)
		}
	}
	return s, nil
}

func lookupOption(name string) *specOption {
	for i := range specOptions {
		if specOptions[i].name == name {
			return &specOptions[i]
		}
	}
	return nil
}

// validName reports whether s is a backend, profile or device name:
// letters, digits, '_' and '-', starting with a letter or digit.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		case (r == '_' || r == '-') && i > 0:
		default:
			return false
		}
	}
	return true
}

// SimSpec returns the spec of the simulator with the named profile and
// every option at its default: SimSpec("h200") is ParseSpec("sim:h200").
// Whether the profile exists is checked by Open.
func SimSpec(profile string) (Spec, error) {
	if !validName(profile) {
		return Spec{}, fmt.Errorf("gpu: simulator profile %q: want a profile name such as t4", profile)
	}
	return Spec{backend: backendSim, profile: strings.ToLower(profile), seed: defaultSeed}, nil
}

// String returns the spec in canonical form; "" for the automatic choice.
func (s Spec) String() string {
	var b strings.Builder
	b.WriteString(s.backend)
	switch {
	case s.backend == backendSim:
		b.WriteString(":" + s.profile)
	case s.backend == backendCUDA:
		b.WriteString(":" + strconv.Itoa(s.ordinal))
	case s.hasDevice:
		b.WriteString(":" + s.profile)
	}
	sep := "?"
	for _, o := range specOptions {
		if !contains(o.backends, s.backend) {
			continue
		}
		if v := o.value(s); v != "" {
			b.WriteString(sep + o.name + "=" + v)
			sep = "&"
		}
	}
	return b.String()
}

// MarshalText returns the canonical form, so a Spec is a flag.TextVar and
// a JSON string.
func (s Spec) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText parses text as ParseSpec does.
func (s *Spec) UnmarshalText(text []byte) error {
	p, err := ParseSpec(string(text))
	if err != nil {
		return err
	}
	*s = p
	return nil
}

// IsAuto reports whether s is the automatic choice, the zero Spec.
func (s Spec) IsAuto() bool { return s.backend == "" }

// Backend returns the backend's name: "sim", "cuda", or "" for the
// automatic choice.
func (s Spec) Backend() string { return s.backend }

// Profile returns the simulator profile ("t4"), or the device name of a
// backend other than sim and cuda; "" for cuda.
func (s Spec) Profile() string { return s.profile }

// Ordinal returns the GPU ordinal of a cuda spec; 0 for other backends.
func (s Spec) Ordinal() int { return s.ordinal }

// Seed returns the seed of a simulator spec: launch k of the device orders
// its atomics with Seed()+k. It is 0 for backends without seeds.
func (s Spec) Seed() uint64 { return s.seed }

// Seeded reports whether the backend takes a seed (the simulator).
func (s Spec) Seeded() bool { return s.backend == backendSim }

// Order returns how a simulator orders atomics.
func (s Spec) Order() Order { return s.order }

// FMAD reports whether a*b+c may be contracted into fused multiply-adds,
// as nvcc does by default.
func (s Spec) FMAD() bool { return !s.noFMA }

// RaceCheck reports whether a simulator reports shared-memory races.
func (s Spec) RaceCheck() bool { return s.backend == backendSim && !s.noRace }

// Budget returns the warp instructions a simulated launch may run; 0 for
// the simulator's default.
func (s Spec) Budget() int64 { return s.budget }

// Memory returns the memory model of a simulated device.
func (s Spec) Memory() Memory { return s.memory }

// Interleave returns how finely a simulator interleaves a block's warps.
func (s Spec) Interleave() Interleave {
	if s.fine {
		return InterleaveFine
	}
	return InterleaveCoarse
}

// Clock returns the SM clock of a simulator's cost model.
func (s Spec) Clock() Clock { return s.clock }

// Timeout returns the wall-clock limit of one launch: the timeout option,
// the backend's default when it is not set (DefaultTimeout on a GPU,
// DefaultSimTimeout on the simulator), 0 for none (timeout=0) and for
// backends without the option.
func (s Spec) Timeout() time.Duration {
	switch {
	case s.backend != backendCUDA && s.backend != backendSim || s.timeout == noTimeout:
		return 0
	case s.timeout == 0:
		return s.defaultTimeout()
	}
	return s.timeout
}

// Timing returns how a GPU's launches are timed, TimingGated or
// TimingUngated; "" for backends that do not measure.
func (s Spec) Timing() string {
	switch {
	case s.backend != backendCUDA:
		return ""
	case s.timing == "":
		return DefaultTiming
	}
	return s.timing
}

// WithTimeout returns the same device with another launch time limit, 0
// for none. A spec whose backend has no such limit (the automatic choice,
// another backend) is returned unchanged; a limit outside the option's
// bounds (100ms to 24h) is an error.
func (s Spec) WithTimeout(d time.Duration) (Spec, error) {
	if s.backend != backendCUDA && s.backend != backendSim {
		return s, nil
	}
	if d < 0 || (d > 0 && (d < minTimeout || d > maxTimeout)) {
		return s, fmt.Errorf("gpu: time limit %v: want %v to %v, or 0 for no limit", d, minTimeout, maxTimeout)
	}
	s.timeout = s.normTimeout(d)
	return s, nil
}

// WithSeed returns the same device with another seed. A spec whose
// backend takes no seed (a GPU orders atomics as its hardware does) is
// returned unchanged.
func (s Spec) WithSeed(seed uint64) Spec {
	if s.Seeded() {
		s.seed = seed
	}
	return s
}

// WithMemory returns the same device under another memory model. A spec
// whose backend is not the simulator (a GPU has its own) is returned
// unchanged.
func (s Spec) WithMemory(m Memory) Spec {
	if s.backend == backendSim {
		s.memory = m
	}
	return s
}

// WithInterleave returns the same device with another interleaving of
// warps. A spec whose backend is not the simulator is returned unchanged.
func (s Spec) WithInterleave(i Interleave) Spec {
	if s.backend == backendSim {
		s.fine = i == InterleaveFine
	}
	return s
}

// config is the spec as its backend reads it.
func (s Spec) config() driver.Config {
	return driver.Config{
		Spec: s.String(), Device: s.profile, Ordinal: s.ordinal, Seed: s.seed,
		Deterministic: s.order == OrderDeterministic, FMAD: s.FMAD(), RaceCheck: s.RaceCheck(),
		Budget: s.budget, ClockMHz: s.clock.MHz, BaseClock: s.clock.Base,
		Timeout:        s.Timeout(),
		RelaxedMemory:  s.memory == MemoryRelaxed,
		FineInterleave: s.fine,
		GatedTiming:    s.Timing() == TimingGated,
	}
}
