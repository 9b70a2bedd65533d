package gpu

import "github.com/warplab/warplab/cudac"

// The interfaces in this file are implemented by backends (gpusim, cudarun)
// and used by this package only, the way database/sql/driver is used by
// database/sql. Users of warplab call Open and the types in gpu.go.

// Backend is a registered implementation: "sim" or "cuda".
type Backend interface {
	// Open opens the device spec names; spec.Backend() is the name the
	// backend was registered under.
	Open(spec Spec) (BackendDevice, error)
	// Probe reports the devices this backend offers and whether each can be
	// opened, for `warplab devices` and for Open("")'s automatic choice.
	Probe() []Availability
}

// Availability is one device a backend offers, or the reason it offers none.
type Availability struct {
	Spec   string // the spec that opens it, e.g. "cuda:0", "sim:t4"
	Name   string // e.g. "NVIDIA H200", "gpusim Tesla T4 profile"
	Usable bool
	Reason string // why not, when !Usable: "libcuda.so.1 not found", ...
}

// BackendDevice is an open device of a backend.
type BackendDevice interface {
	Info() Info
	Capabilities() Capabilities
	// Alloc allocates size bytes of device memory, zeroed.
	Alloc(size int64) (BackendMemory, error)
	// Compile prepares a checked program for launches.
	Compile(prog *cudac.Program) (BackendModule, error)
	Close() error
}

// BackendMemory is one device allocation.
type BackendMemory interface {
	Size() int64
	ReadAt(p []byte, off int64) (int, error)
	WriteAt(p []byte, off int64) (int, error)
	Free() error
}

// BackendModule is a compiled program.
type BackendModule interface {
	// Launch runs fn, a kernel of the module's program, with arguments that
	// gpu has already checked against fn's parameters and a checked config.
	Launch(fn *cudac.Func, cfg LaunchConfig, args []ArgValue) (*Result, error)
}

// ArgValue is one kernel argument, bound to its parameter and converted to
// the parameter's type.
type ArgValue struct {
	Param *cudac.Var
	// Mem is the allocation a pointer argument points into, nil for a null
	// pointer or a scalar; Offset is the byte offset into it.
	Mem    BackendMemory
	Offset int64
	// Bits is a scalar argument's value as the parameter's type, in the low
	// Param.T.Size() bytes (floats as their IEEE bits).
	Bits uint64
}
