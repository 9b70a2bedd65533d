package driver

import (
	"context"
	"time"

	"github.com/warplab/warplab/cudac"
)

// Backend is a registered implementation: "sim" or "cuda".
type Backend interface {
	// Open opens the device cfg describes.
	Open(cfg Config) (Device, error)
	// Probe reports the devices this backend offers and whether each can be
	// opened, for `warplab devices` and for gpu.Open("")'s automatic choice.
	Probe() []Availability
}

// Config is a parsed, checked device spec: what gpu.Spec holds, as the
// backend named in it reads it. Fields of options the backend does not
// take are zero.
type Config struct {
	// Spec is the spec in canonical form ("sim:t4?seed=1"), for Info.Spec.
	Spec string
	// Device is the part after "BACKEND:": a simulator profile ("t4"), or
	// the device name of a backend other than sim and cuda.
	Device string
	// Ordinal is a GPU's ordinal: 1 for "cuda:1".
	Ordinal int
	// Seed seeds the order of atomics; launch k uses Seed+k.
	Seed uint64
	// Deterministic fixes the order of atomics (order=deterministic).
	Deterministic bool
	// FMAD allows contracting a*b+c into fused multiply-adds (fmad=true,
	// the default).
	FMAD bool
	// RaceCheck asks for shared-memory race reports (racecheck=true, the
	// simulator's default).
	RaceCheck bool
	// Budget is the warp-instruction budget of a launch; 0 for the
	// backend's default.
	Budget int64
	// ClockMHz is a fixed SM clock (clock=MHZ); 0 for the device's own.
	// BaseClock selects the device's base clock instead of its boost clock
	// (clock=base).
	ClockMHz  float64
	BaseClock bool
	// Timeout is the wall-clock limit of one launch (timeout=, 10 s by
	// default on a GPU, 60 s on the simulator); 0 for none. A launch past
	// it fails with a *LaunchError of Kind ErrTimeout.
	Timeout time.Duration
	// RelaxedMemory runs global memory under a weak model (memory=relaxed):
	// stores reach other blocks late and out of order, as PTX allows.
	RelaxedMemory bool
	// FineInterleave switches between a block's warps at shared-memory
	// loads and stores too (interleave=fine), after seeded delays.
	FineInterleave bool
	// GatedTiming times a GPU's launches behind a gate (timing=gated): the
	// start event and the launch wait in the stream until both are
	// queued, so that the time between the events is the GPU's alone.
	GatedTiming bool
}

// Availability is one device a backend offers, or the reason it offers none.
type Availability struct {
	Spec   string // the spec that opens it, e.g. "cuda:0", "sim:t4"
	Name   string // e.g. "NVIDIA H200", "gpusim Tesla T4 profile"
	Usable bool
	Reason string // why not, when !Usable: "libcuda.so.1 not found", ...
}

// Device is an open device of a backend.
type Device interface {
	Info() Info
	Capabilities() Capabilities
	// Alloc allocates size bytes of device memory, zeroed.
	Alloc(size int64) (Memory, error)
	// Compile prepares a checked program for launches.
	Compile(prog *cudac.Program) (Module, error)
	Close() error
}

// Memory is one device allocation.
type Memory interface {
	Size() int64
	ReadAt(p []byte, off int64) (int, error)
	WriteAt(p []byte, off int64) (int, error)
	Free() error
}

// Module is a compiled program.
type Module interface {
	// Launch runs fn, a kernel of the module's program, with arguments that
	// gpu has already checked against fn's parameters and a checked config.
	Launch(fn *cudac.Func, cfg LaunchConfig, args []ArgValue) (*Result, error)
}

// ModuleContext is a Module whose launches can be cancelled: when ctx is
// done, LaunchContext stops the launch promptly and returns an error
// that wraps ctx.Err() (a *LaunchError of Kind ErrTimeout when ctx's
// deadline passed). A Module without it is asked ctx.Err() before each
// launch, and the launch then runs to its end.
type ModuleContext interface {
	LaunchContext(ctx context.Context, fn *cudac.Func, cfg LaunchConfig, args []ArgValue) (*Result, error)
}

// ArgValue is one kernel argument, bound to its parameter and converted to
// the parameter's type.
type ArgValue struct {
	Param *cudac.Var
	// Mem is the allocation a pointer argument points into, nil for a null
	// pointer or a scalar; Offset is the byte offset into it.
	Mem    Memory
	Offset int64
	// Bits is a scalar argument's value as the parameter's type, in the low
	// Param.T.Size() bytes (floats as their IEEE bits).
	Bits uint64
}

// Dim3 is a grid or block shape; in a LaunchConfig no dimension is zero.
type Dim3 struct {
	X, Y, Z int
}

// Count returns X*Y*Z.
func (d Dim3) Count() int { return d.X * d.Y * d.Z }

// LaunchConfig is a checked launch shape.
type LaunchConfig struct {
	Grid, Block Dim3
	// SharedBytes is the dynamic shared memory per block.
	SharedBytes int
	// MaxInstructions bounds the warp instructions of a simulated launch;
	// 0 for the device's default.
	MaxInstructions int64
	// Cooperative asks for a cooperative launch: every block resident at
	// once, so grid_group::sync() works; gpu has checked that a kernel
	// calling it is launched so.
	Cooperative bool
	// Progress, if set, receives the blocks finished of the grid's total
	// while a long launch runs, from any goroutine; the backend reports
	// only launches that run longer than ProgressAfter.
	Progress func(done, total int64)
}

// ProgressAfter is how long a launch runs before its backend reports its
// progress: a launch shorter than this shows nothing.
const ProgressAfter = 2 * time.Second

// Info describes a device; gpu.Info documents the fields.
type Info struct {
	Backend            string `json:"backend"`
	Spec               string `json:"spec"`
	Name               string `json:"name"`
	Arch               string `json:"arch"`
	Profile            string `json:"profile"`
	SMs                int    `json:"sms"`
	WarpSize           int    `json:"warp_size"`
	MaxThreadsPerBlock int    `json:"max_threads_per_block"`
	MaxSharedPerBlock  int    `json:"max_shared_per_block"`
	MaxWarpsPerSM      int    `json:"max_warps_per_sm,omitempty"`
	ClockMHz           int    `json:"clock_mhz"`
	MemoryBytes        int64  `json:"memory_bytes"`
}

// Capabilities says what a device can do; gpu.Capabilities documents the
// fields.
type Capabilities struct {
	MeasuredTiming bool `json:"measured_timing"`
	// GatedTiming: a measured launch's CUDA events and the launch wait
	// behind a gate until all three are queued (timing=gated), so that the
	// time is the GPU's alone.
	GatedTiming        bool `json:"gated_timing"`
	ModelledTiming     bool `json:"modelled_timing"`
	Counters           bool `json:"counters"`
	Seeded             bool `json:"seeded"`
	DeterministicOrder bool `json:"deterministic_order"`
	RaceCheck          bool `json:"race_check"`
}

// Result is what a backend's launch returns; gpu adds the kernel, the
// shape and the arguments.
type Result struct {
	// Device is the name of the device that ran the launch.
	Device string
	// Seed is the seed that ordered the simulator's atomics; 0 on a GPU.
	Seed   uint64
	Timing Timing
	// Counters are the simulator's counters; nil when not counted.
	Counters *Counters
	// Printf is the device printf output, in thread order.
	Printf string
	// Diagnostics are problems found that did not stop the launch.
	Diagnostics []Diagnostic
}

// Timing is a kernel time and where it came from; gpu.Timing documents
// the fields.
type Timing struct {
	Ms        float64
	Source    string
	Measured  bool
	Breakdown []TimeComponent
}

// TimeComponent is one resource's share of a modelled time.
type TimeComponent struct {
	Resource string
	Ms       float64
	Detail   string
}

// Diagnostic is a problem found during a launch that did not stop it;
// gpu.Diagnostic documents the fields.
type Diagnostic struct {
	Kind  string
	Pos   cudac.Pos
	Other cudac.Pos
	Msg   string
}

// Queuer is a Device that models two launches of one stream timed
// between one pair of events, from the times of each launch alone: a
// simulator. A backend that measures times does not implement it.
type Queuer interface {
	Queued(first, second Timing) (Timing, error)
}
