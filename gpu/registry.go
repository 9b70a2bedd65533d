package gpu

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/warplab/warplab/gpu/driver"
)

var (
	registryMu sync.RWMutex
	registry   = map[string]driver.Backend{}
)

// Register makes a backend available under name ("sim", "cuda"). Backends
// call it from init; a program selects them with a blank import
// (import _ "github.com/warplab/warplab/gpusim"). It panics if name is taken.
// Package gpu/driver describes what a backend implements.
func Register(name string, b driver.Backend) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if b == nil {
		panic("gpu: Register backend is nil")
	}
	if _, dup := registry[name]; dup {
		panic("gpu: Register called twice for backend " + name)
	}
	registry[name] = b
}

// Backends returns the names of the registered backends, sorted.
func Backends() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func backend(name string) (driver.Backend, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	b, ok := registry[name]
	return b, ok
}

// EnvDevice is the environment variable Open("") reads.
const EnvDevice = "WARPLAB_DEVICE"

// DefaultSim is the spec Open("") falls back to when no GPU can be used.
const DefaultSim = "sim:t4"

// Open opens a device by spec:
//
//	"sim:t4", "sim:h200", "sim:t4?seed=7&order=deterministic"  the simulator
//	"cuda", "cuda:1", "cuda:1?fmad=false"                       a real GPU
//	""                                                          automatic
//
// The automatic choice reads WARPLAB_DEVICE; if that is empty it takes the
// first usable cuda device, else DefaultSim. Only the automatic choice falls
// back: an explicit "cuda" that cannot start is an error saying why. See
// Spec for the options.
func Open(spec string) (*Device, error) {
	s, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	return OpenSpec(s)
}

// OpenSpec opens the device s names; the zero Spec is the automatic
// choice, as Open("") is.
func OpenSpec(s Spec) (*Device, error) {
	if !s.IsAuto() {
		d, err := openSpec(s)
		if err != nil {
			return nil, fmt.Errorf("gpu: %w", err)
		}
		return d, nil
	}
	if env := os.Getenv(EnvDevice); env != "" {
		s, err := parseSpec(env)
		if err == nil && s.IsAuto() {
			err = errors.New("not a device spec")
		}
		var d *Device
		if err == nil {
			d, err = openSpec(s)
		}
		if err != nil {
			return nil, fmt.Errorf("gpu: %s=%s: %w", EnvDevice, env, err)
		}
		return d, nil
	}
	d, err := openSpec(autoSpec())
	if err != nil {
		return nil, fmt.Errorf("gpu: automatic device choice: %w", err)
	}
	return d, nil
}

// OpenContext opens the device s names, as OpenSpec does, bound to ctx:
// when ctx is done, a launch in progress on the device stops promptly
// (see Kernel.LaunchContext) and later launches fail at once. A grader
// gives a submission's device its deadline so, and every check, however
// many launches it makes, ends by then.
func OpenContext(ctx context.Context, s Spec) (*Device, error) {
	d, err := OpenSpec(s)
	if err != nil {
		return nil, err
	}
	d.ctx = ctx
	return d, nil
}

// Context returns the context the device was opened with (OpenContext),
// or context.Background(): a program that opens more devices for the same
// work, such as a fresh simulated device per job, opens them with it so
// that they stop at the same deadline.
func (d *Device) Context() context.Context {
	if d.ctx == nil {
		return context.Background()
	}
	return d.ctx
}

// openSpec opens a device; its errors have no "gpu: " prefix.
func openSpec(s Spec) (*Device, error) {
	b, ok := backend(s.backend)
	if !ok {
		return nil, fmt.Errorf("open %s: no backend %q (registered: %s)", s, s.backend, strings.Join(Backends(), ", "))
	}
	impl, err := b.Open(s.config())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", s, err)
	}
	return &Device{impl: impl, spec: s}, nil
}

// autoSpec is the automatic choice without WARPLAB_DEVICE: the first
// usable GPU, else DefaultSim.
func autoSpec() Spec {
	if b, ok := backend(backendCUDA); ok {
		for _, a := range b.Probe() {
			if !a.Usable {
				continue
			}
			if s, err := parseSpec(a.Spec); err == nil && !s.IsAuto() {
				return s
			}
		}
	}
	s, _ := parseSpec(DefaultSim)
	return s
}

// Availability is one device a backend offers, or the reason it offers none.
type Availability struct {
	Spec   string // the spec that opens it, e.g. "cuda:0", "sim:t4"
	Name   string // e.g. "NVIDIA H200", "Tesla T4 (gpusim profile t4, sm_75)"
	Usable bool
	Reason string // why not, when !Usable: "libcuda.so.1 not found", ...
}

// Devices reports every device of every registered backend, usable or not.
func Devices() []Availability {
	var all []Availability
	for _, name := range Backends() {
		b, _ := backend(name)
		for _, a := range b.Probe() {
			all = append(all, Availability(a))
		}
	}
	return all
}

// ErrNotImplemented is returned (wrapped) by a backend for a feature it does
// not support.
var ErrNotImplemented = driver.ErrNotImplemented
