package gpu

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
)

var (
	registryMu sync.RWMutex
	registry   = map[string]Backend{}
)

// Register makes a backend available under name ("sim", "cuda"). Backends
// call it from init; a program selects them with a blank import
// (import _ "github.com/warplab/warplab/gpusim"). It panics if name is taken.
func Register(name string, b Backend) {
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

func backend(name string) (Backend, bool) {
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
//	"cuda", "cuda:1"                                            a real GPU
//	""                                                          automatic
//
// The automatic choice reads WARPLAB_DEVICE; if that is empty it takes the
// first usable cuda device, else DefaultSim. Only the automatic choice falls
// back: an explicit "cuda" that cannot start is an error saying why.
func Open(spec string) (*Device, error) {
	if spec == "" {
		spec = os.Getenv(EnvDevice)
	}
	if spec == "" {
		spec = autoSpec()
	}
	name, config, _ := strings.Cut(spec, ":")
	b, ok := backend(name)
	if !ok {
		return nil, fmt.Errorf("gpu: open %q: no backend %q (registered: %s)", spec, name, strings.Join(Backends(), ", "))
	}
	impl, err := b.Open(config)
	if err != nil {
		return nil, fmt.Errorf("gpu: open %q: %w", spec, err)
	}
	return &Device{impl: impl, spec: spec}, nil
}

func autoSpec() string {
	if b, ok := backend("cuda"); ok {
		for _, a := range b.Probe() {
			if a.Usable {
				return a.Spec
			}
		}
	}
	return DefaultSim
}

// Devices reports every device of every registered backend, usable or not.
func Devices() []Availability {
	var all []Availability
	for _, name := range Backends() {
		b, _ := backend(name)
		all = append(all, b.Probe()...)
	}
	return all
}

// ErrNotImplemented is returned (wrapped) by a backend for a feature it does
// not support.
var ErrNotImplemented = errors.New("not implemented by this backend")
