package profiles

import (
	"fmt"
	"sort"
	"strings"
)

// Profile describes one GPU to the simulator.
type Profile struct {
	// Name is the profile's key in specs ("t4" in "sim:t4").
	Name string
	// Device is the GPU's marketing name; Arch its compute capability.
	Device string
	Arch   string

	SMs                int
	MaxThreadsPerBlock int
	MaxThreadsPerSM    int
	MaxBlocksPerSM     int
	MaxWarpsPerSM      int
	// SharedPerSM is the shared memory blocks on one SM can use together;
	// SharedPerBlock the most one block gets without an opt-in attribute.
	SharedPerSM    int64
	SharedPerBlock int64
	RegsPerSM      int
	ClockMHz       float64
	MemoryBytes    int64
	// DRAMGBps is the peak DRAM bandwidth; L2Bytes the L2 cache size.
	DRAMGBps float64
	L2Bytes  int64

	// Sources names where each parameter comes from, by field name.
	Sources map[string]string
}

// Source kinds, prefixes of the Sources entries.
const (
	Datasheet  = "datasheet: "
	Measured   = "measured: "
	Calibrated = "calibrated: "
	Guide      = "CUDA programming guide: "
)

var all = map[string]*Profile{}

func register(p *Profile) {
	if _, dup := all[p.Name]; dup {
		panic("profiles: duplicate " + p.Name)
	}
	all[p.Name] = p
}

// Get returns the named profile.
func Get(name string) (*Profile, error) {
	p, ok := all[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("no device profile %q (profiles: %s)", name, strings.Join(Names(), ", "))
	}
	return p, nil
}

// Names lists the profiles, sorted.
func Names() []string {
	var n []string
	for k := range all {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}
