package gpu

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
)

// Device is an open device: the simulator with a profile, or a real GPU.
// A Device is not safe for concurrent use.
type Device struct {
	impl   driver.Device
	spec   Spec
	closed bool
	ctx    context.Context // OpenContext's, or nil
}

// Info describes a device.
type Info struct {
	Backend  string `json:"backend"` // "sim" or "cuda"
	Spec     string `json:"spec"`    // the spec that opened it, normalised
	Name     string `json:"name"`    // "NVIDIA H200", "Tesla T4 (gpusim profile t4)"
	Arch     string `json:"arch"`    // "sm_90"
	Profile  string `json:"profile"` // the simulator's profile, "" on a GPU
	SMs      int    `json:"sms"`     // multiprocessors
	WarpSize int    `json:"warp_size"`
	// MaxThreadsPerBlock and MaxSharedPerBlock are the launch limits;
	// MaxSharedPerBlock counts static and dynamic shared memory together.
	MaxThreadsPerBlock int `json:"max_threads_per_block"`
	MaxSharedPerBlock  int `json:"max_shared_per_block"`
	// MaxWarpsPerSM is the most warps resident on one multiprocessor, for
	// occupancy; 0 where the backend does not report it.
	MaxWarpsPerSM int   `json:"max_warps_per_sm,omitempty"`
	ClockMHz      int   `json:"clock_mhz"`
	MemoryBytes   int64 `json:"memory_bytes"`
}

// Capabilities says what a device can do, for labs to consult.
type Capabilities struct {
	// MeasuredTiming: Result.Timing comes from CUDA events on real hardware.
	MeasuredTiming bool `json:"measured_timing"`
	// GatedTiming: the start event and the launch wait behind a gate until
	// the stop event is queued too (timing=gated), so that the time is the
	// GPU's alone, without the host's submission of the launch.
	GatedTiming bool `json:"gated_timing"`
	// ModelledTiming: Result.Timing comes from a cost model.
	ModelledTiming bool `json:"modelled_timing"`
	// Counters: Result.Counters is filled in.
	Counters bool `json:"counters"`
	// Seeded: the order of atomics is a function of a seed, so a launch can
	// be replayed exactly.
	Seeded bool `json:"seeded"`
	// DeterministicOrder: the device can fix the order of atomics
	// (sim:...?order=deterministic).
	DeterministicOrder bool `json:"deterministic_order"`
	// RaceCheck: shared-memory races are reported in Result.Diagnostics.
	RaceCheck bool `json:"race_check"`
}

// Info describes the device.
func (d *Device) Info() Info { return Info(d.impl.Info()) }

// Capabilities says what the device can do.
func (d *Device) Capabilities() Capabilities { return Capabilities(d.impl.Capabilities()) }

// Spec returns the spec that opened the device, the automatic choice
// resolved: Spec().WithSeed(n) opens the same device with another seed.
func (d *Device) Spec() Spec { return d.spec }

// String returns the device's name and spec.
func (d *Device) String() string {
	i := d.impl.Info()
	return fmt.Sprintf("%s (%s)", i.Name, i.Spec)
}

// Close releases the device. Buffers and modules of a closed device must not
// be used.
func (d *Device) Close() error {
	if d.closed {
		return nil
	}
	d.closed = true
	return d.impl.Close()
}

// Compile checks a CUDA C source and prepares it for launches. filename
// appears in diagnostics ("sum.cu:12:9: ..."). A source error is returned as
// a cudac.ErrorList.
//
// The source sees __CUDA_ARCH__ as the device's compute capability (900 on
// an sm_90 device or profile); a cudac.Define of it wins.
func (d *Device) Compile(filename string, src []byte, opts ...cudac.Option) (*Module, error) {
	return d.CompileContext(context.Background(), filename, src, opts...)
}

// CompileContext is Compile stopped when ctx is done: the front end looks
// at ctx as it goes (cudac.Context), so a time limit covers compiling a
// long source, not only running it.
func (d *Device) CompileContext(ctx context.Context, filename string, src []byte, opts ...cudac.Option) (*Module, error) {
	opts = append([]cudac.Option{cudac.Arch(d.impl.Info().Arch), cudac.Context(ctx)}, opts...)
	prog, err := cudac.Compile(filename, src, opts...)
	if err != nil {
		return nil, err
	}
	impl, err := d.impl.Compile(prog)
	if err != nil {
		return nil, err
	}
	return &Module{dev: d, prog: prog, impl: impl}, nil
}

// Module is a compiled source.
type Module struct {
	dev  *Device
	prog *cudac.Program
	impl driver.Module
}

// Program returns the checked program.
func (m *Module) Program() *cudac.Program { return m.prog }

// KernelNames lists the module's kernels; a template is spelled with its
// parameters ("sumTree<N>").
func (m *Module) KernelNames() []string { return m.prog.KernelNames() }

// Kernel looks a kernel up by name; a template kernel is instantiated by
// naming its arguments ("sumTree<256>").
func (m *Module) Kernel(name string) (*Kernel, error) {
	fn, err := m.prog.Kernel(name)
	if err != nil {
		return nil, err
	}
	return &Kernel{mod: m, fn: fn}, nil
}

// Kernel is one launchable kernel of a module.
type Kernel struct {
	mod *Module
	fn  *cudac.Func
}

// Name returns the kernel's name ("sumTree<256>").
func (k *Kernel) Name() string { return k.fn.Name }

// Func returns the kernel's checked declaration: its parameters and body.
func (k *Kernel) Func() *cudac.Func { return k.fn }

// Dim3 is a grid or block shape. A zero Y or Z counts as 1.
type Dim3 struct {
	X, Y, Z int
}

// D1 returns the one-dimensional shape (x, 1, 1).
func D1(x int) Dim3 { return Dim3{X: x, Y: 1, Z: 1} }

// Norm returns d with zero Y and Z replaced by 1.
func (d Dim3) Norm() Dim3 {
	if d.Y == 0 {
		d.Y = 1
	}
	if d.Z == 0 {
		d.Z = 1
	}
	return d
}

// Count returns X*Y*Z.
func (d Dim3) Count() int {
	d = d.Norm()
	return d.X * d.Y * d.Z
}

func (d Dim3) String() string {
	d = d.Norm()
	switch {
	case d.Y == 1 && d.Z == 1:
		return fmt.Sprint(d.X)
	case d.Z == 1:
		return fmt.Sprintf("%d,%d", d.X, d.Y)
	}
	return fmt.Sprintf("%d,%d,%d", d.X, d.Y, d.Z)
}

// LaunchConfig is a launch's shape and options. The zero values of the
// options mean "the device's default".
type LaunchConfig struct {
	Grid, Block Dim3
	// SharedBytes is the dynamic shared memory per block, for
	// extern __shared__ arrays.
	SharedBytes int
	// MaxInstructions bounds the warp instructions a simulated launch may
	// execute (0: the device's default); a launch past it fails with
	// ErrBudget, which is how the simulator stops an endless loop.
	MaxInstructions int64
	// Cooperative asks for a cooperative launch (cuLaunchCooperativeKernel):
	// every block of the grid is resident at once, so a kernel may call
	// cooperative_groups::grid_group::sync(). A kernel that does must be
	// launched so; a grid larger than the device holds at once is
	// ErrInvalidConfig.
	Cooperative bool
	// Progress, if set, shows how far a long launch has got: a simulated
	// launch that runs longer than two seconds reports the blocks it has
	// finished to Update ("blocks" as the detail), and Done when it ends.
	// *charts.Progress implements it: a line updated in place in a
	// notebook or on a terminal.
	Progress Progress
}

// launchProgressKey is the context key of WithLaunchProgress.
type launchProgressKey struct{}

// WithLaunchProgress returns a copy of ctx that carries p: every launch on
// a device opened with it (OpenContext) and no Progress of its own
// reports to p, so that a program running a lab's many launches can show
// how far the current one has got without the lab's help.
func WithLaunchProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, launchProgressKey{}, p)
}

// Progress receives the progress of a long launch (LaunchConfig.Progress).
// Update may be called from another goroutine than the launch's.
type Progress interface {
	// Update reports that done of total steps are finished; detail says
	// what the steps are.
	Update(done, total int, detail string)
	// Done ends the report.
	Done()
}

// Launch runs the kernel. Each argument binds to the next parameter: a
// *Buffer[T] (or a BufferView) to a T* parameter, a Go number to a scalar
// parameter (converted when the value fits the parameter's type exactly),
// nil to a pointer parameter (a null pointer). Trailing parameters with
// default arguments may be left out. Wrong types or counts are errors
// before anything runs. A fault during the
// launch (an illegal address, barrier divergence, the instruction budget) is a
// *LaunchError.
func (k *Kernel) Launch(cfg LaunchConfig, args ...any) (*Result, error) {
	return k.LaunchContext(context.Background(), cfg, args...)
}

// LaunchContext is Launch stopped by ctx: when ctx is done the launch
// stops promptly (the simulator checks between a few thousand warp
// instructions) and returns an error that wraps ctx.Err(), a *LaunchError
// of Kind ErrTimeout when ctx's deadline passed. A backend that cannot
// stop a launch midway checks ctx before it starts. The device's own
// time limit (Spec.Timeout) applies as well.
func (k *Kernel) LaunchContext(ctx context.Context, cfg LaunchConfig, args ...any) (*Result, error) {
	if dc := k.mod.dev.ctx; dc != nil && dc != ctx {
		// The device's context (OpenContext) stops the launch too.
		var cancel context.CancelFunc
		if dl, ok := dc.Deadline(); ok {
			ctx, cancel = context.WithDeadline(ctx, dl)
		} else {
			ctx, cancel = context.WithCancel(ctx)
		}
		stop := context.AfterFunc(dc, cancel)
		defer stop()
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("gpu: launch %s: %w", k.fn.Name, err)
	}
	if k.mod.dev.closed {
		return nil, fmt.Errorf("gpu: launch %s: device is closed", k.fn.Name)
	}
	vals, err := bind(k.fn, args)
	if err != nil {
		return nil, err
	}
	cfg.Grid, cfg.Block = cfg.Grid.Norm(), cfg.Block.Norm()
	if err := k.checkConfig(cfg); err != nil {
		return nil, err
	}
	dcfg := driver.LaunchConfig{
		Grid: driver.Dim3(cfg.Grid), Block: driver.Dim3(cfg.Block),
		SharedBytes: cfg.SharedBytes, MaxInstructions: cfg.MaxInstructions, Cooperative: cfg.Cooperative,
	}
	var reported atomic.Bool
	if cfg.Progress == nil && k.mod.dev.ctx != nil {
		// The default of every launch on the device (WithLaunchProgress).
		if p, ok := k.mod.dev.ctx.Value(launchProgressKey{}).(Progress); ok {
			cfg.Progress = p
		}
	}
	if p := cfg.Progress; p != nil {
		dcfg.Progress = func(done, total int64) {
			reported.Store(true)
			p.Update(int(done), int(total), "blocks")
		}
	}
	var dres *driver.Result
	if mc, ok := k.mod.impl.(driver.ModuleContext); ok {
		dres, err = mc.LaunchContext(ctx, k.fn, dcfg, vals)
	} else {
		dres, err = k.mod.impl.Launch(k.fn, dcfg, vals)
	}
	if reported.Load() {
		cfg.Progress.Done()
	}
	if err != nil {
		return nil, launchErrorFrom(err)
	}
	res := resultFrom(dres)
	res.Kernel = k.fn.Name
	res.Grid, res.Block, res.SharedBytes = cfg.Grid, cfg.Block, cfg.SharedBytes
	res.Args = make([]Arg, len(args))
	for i, a := range args {
		res.Args[i] = Arg{Name: k.fn.Params[i].Name, Value: a}
	}
	return res, nil
}

func (k *Kernel) checkConfig(cfg LaunchConfig) error {
	info := k.mod.dev.Info()
	bad := func(format string, a ...any) error {
		return &LaunchError{Kind: ErrInvalidConfig, Kernel: k.fn.Name, Msg: fmt.Sprintf(format, a...)}
	}
	for _, d := range []struct {
		what string
		v    Dim3
	}{{"grid", cfg.Grid}, {"block", cfg.Block}} {
		if d.v.X <= 0 || d.v.Y <= 0 || d.v.Z <= 0 {
			return bad("%s %s has a dimension below 1", d.what, d.v)
		}
	}
	if n := cfg.Block.Count(); info.MaxThreadsPerBlock > 0 && n > info.MaxThreadsPerBlock {
		return bad("block %s has %d threads; %s allows at most %d", cfg.Block, n, info.Name, info.MaxThreadsPerBlock)
	}
	if cfg.Block.Z > 64 {
		return bad("block z dimension %d exceeds 64", cfg.Block.Z)
	}
	if cfg.Grid.Y > 65535 || cfg.Grid.Z > 65535 {
		return bad("grid %s: y and z may not exceed 65535", cfg.Grid)
	}
	if int64(cfg.Grid.X) > 1<<31-1 {
		return bad("grid x dimension %d exceeds 2^31-1", cfg.Grid.X)
	}
	if cfg.SharedBytes < 0 {
		return bad("dynamic shared memory %d bytes is negative", cfg.SharedBytes)
	}
	if !cfg.Cooperative && cudac.UsesGridSync(k.fn) {
		return bad("%s calls grid_group::sync(), which needs a cooperative launch (LaunchConfig.Cooperative, warplab run --cooperative)", k.fn.Name)
	}
	if len(k.fn.DynShared) > 0 && cfg.SharedBytes == 0 {
		return bad("%s declares extern __shared__ %s but the launch gives 0 bytes of dynamic shared memory", k.fn.Name, k.fn.DynShared[0].Name)
	}
	return nil
}

// Result is what a launch returns.
type Result struct {
	Kernel      string `json:"kernel"`
	Grid        Dim3   `json:"grid"`
	Block       Dim3   `json:"block"`
	SharedBytes int    `json:"shared_bytes"`
	// Device is the name of the device that ran the launch.
	Device string `json:"device"`
	// Seed is the seed that ordered the simulator's atomics; 0 on a GPU.
	Seed uint64 `json:"seed"`
	// Timing is the kernel's time, modelled or measured.
	Timing Timing `json:"timing"`
	// Counters are the simulator's counters; nil on a GPU.
	Counters *Counters `json:"counters,omitempty"`
	// Printf is the device printf output, in thread order: by block (x, then
	// y, then z), then thread, then call.
	Printf string `json:"printf"`
	// Diagnostics are problems found that did not stop the launch (races,
	// shuffles from inactive lanes).
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Args are the launch's arguments by parameter: the buffers hold the
	// kernel's outputs.
	Args []Arg `json:"-"`
}

// Arg is one argument of a launch: the parameter's name and what was
// passed for it (a *Buffer[T], a Ptr, a number or nil).
type Arg struct {
	Name  string
	Value any
}

// Arg returns what was passed for the named parameter, or nil.
func (r *Result) Arg(name string) any {
	for _, a := range r.Args {
		if a.Name == name {
			return a.Value
		}
	}
	return nil
}

// Timing is a kernel time and where it came from.
type Timing struct {
	Ms float64 `json:"ms"`
	// Source says where the time came from: "modelled, t4 profile" or
	// "measured, NVIDIA H200".
	Source   string `json:"source"`
	Measured bool   `json:"measured"`
	// Breakdown is the modelled time by resource, largest first; empty for a
	// measured time.
	Breakdown []TimeComponent `json:"breakdown,omitempty"`
}

// TimeComponent is one resource's share of a modelled time.
type TimeComponent struct {
	Resource string  `json:"resource"` // "dram", "l2 atomics", "issue", ...
	Ms       float64 `json:"ms"`
	Detail   string  `json:"detail,omitempty"`
}

// Diagnostic is a problem found during a launch that did not stop it.
type Diagnostic struct {
	Kind string    `json:"kind"` // "race", "shuffle", ...
	Pos  cudac.Pos `json:"pos"`
	// Other is the second source position of a two-sided problem (the other
	// access of a race).
	Other cudac.Pos `json:"other,omitzero"`
	Msg   string    `json:"msg"`
}

func (d Diagnostic) String() string {
	s := fmt.Sprintf("%s: %s: %s", d.Pos, d.Kind, d.Msg)
	if !d.Pos.IsValid() && d.Pos.File == "" {
		s = fmt.Sprintf("%s: %s", d.Kind, d.Msg) // of the whole launch
	}
	if d.Other.IsValid() {
		s += " (other access at " + d.Other.String() + ")"
	}
	return s
}

// FormatDiagnostics renders diagnostics one per line.
func FormatDiagnostics(ds []Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteString("\n")
	}
	return b.String()
}

// Queued returns the modelled time of two launches of one stream timed
// between one pair of CUDA events, from the device's modelled times of
// each launch alone: the second launch, queued while the first kernel
// runs, costs its kernel and the GPU's dispatch of a queued kernel rather
// than a whole launch. A device whose backend does not model it (one that
// measures) is an error.
func (d *Device) Queued(first, second Timing) (Timing, error) {
	q, ok := d.impl.(driver.Queuer)
	if !ok {
		return Timing{}, fmt.Errorf("gpu: %s does not model queued launches", d.spec)
	}
	t, err := q.Queued(timingTo(first), timingTo(second))
	if err != nil {
		return Timing{}, err
	}
	return timingFrom(t), nil
}
