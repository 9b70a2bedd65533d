package gpusim

import (
	"context"
	"fmt"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/internal/engine"
	"github.com/warplab/warplab/gpusim/internal/ir"
	"github.com/warplab/warplab/gpusim/profiles"
)

func init() { gpu.Register("sim", backend{}) }

type backend struct{}

func (backend) Open(cfg driver.Config) (driver.Device, error) {
	p, err := profiles.Get(cfg.Device)
	if err != nil {
		return nil, err
	}
	clock := p.ClockMHz
	switch {
	case cfg.ClockMHz > 0:
		clock = cfg.ClockMHz
	case cfg.BaseClock:
		if clock = p.Cost.BaseClockMHz; clock == 0 {
			return nil, fmt.Errorf("gpusim: option clock=base: profile %s has no base clock", p.Name)
		}
	}
	order := engine.Seeded
	if cfg.Deterministic {
		order = engine.Deterministic
	}
	return &device{cfg: cfg, prof: p, clock: clock, order: order, mem: engine.NewMemory(p.MemoryBytes, hostLimit())}, nil
}

func (backend) Probe() []driver.Availability {
	var out []driver.Availability
	for _, n := range profiles.Names() {
		p, _ := profiles.Get(n)
		out = append(out, driver.Availability{Spec: "sim:" + n, Name: p.Device + " (gpusim profile " + n + ", " + p.Arch + provenance(p) + ")", Usable: true})
	}
	return out
}

type device struct {
	cfg  driver.Config
	prof *profiles.Profile
	// clock is the SM clock the device runs at, in MHz.
	clock    float64
	order    engine.Order
	mem      *engine.Memory
	launches uint64
	closed   bool
}

func (d *device) Info() driver.Info {
	p := d.prof
	return driver.Info{
		Backend: "sim", Spec: d.cfg.Spec, Name: p.Device + " (gpusim profile " + p.Name + provenance(p) + ")",
		Arch: p.Arch, Profile: p.Name, SMs: p.SMs, WarpSize: 32,
		MaxThreadsPerBlock: p.MaxThreadsPerBlock, MaxSharedPerBlock: int(p.SharedPerBlock),
		MaxWarpsPerSM: p.MaxWarpsPerSM, ClockMHz: int(d.clock), MemoryBytes: p.MemoryBytes,
	}
}

// provenance is "; " and the profile's provenance where its parameters
// are unmeasured, so that whoever picks the profile sees it.
func provenance(p *profiles.Profile) string {
	if p.Unmeasured() {
		return "; " + p.Provenance
	}
	return ""
}

func (d *device) Capabilities() driver.Capabilities {
	return driver.Capabilities{ModelledTiming: true, Counters: true, Seeded: true, DeterministicOrder: true, RaceCheck: d.cfg.RaceCheck}
}

func (d *device) Close() error {
	d.closed = true
	return nil
}

func (d *device) Alloc(size int64) (driver.Memory, error) {
	a, err := d.mem.Alloc(size)
	if err != nil {
		return nil, fmt.Errorf("gpusim: %s: %w", d.Info().Name, err)
	}
	return &memory{dev: d, a: a}, nil
}

type memory struct {
	dev *device
	a   *engine.Alloc
}

func (m *memory) Size() int64 { return int64(len(m.a.Data)) }

func (m *memory) check(n int, off int64, what string) error {
	if m.a.Data == nil {
		return fmt.Errorf("gpusim: %s of freed memory", what)
	}
	if off < 0 || off+int64(n) > int64(len(m.a.Data)) {
		return fmt.Errorf("gpusim: %s of %d bytes at offset %d of a %d-byte buffer", what, n, off, len(m.a.Data))
	}
	return nil
}

func (m *memory) ReadAt(p []byte, off int64) (int, error) {
	if err := m.check(len(p), off, "read"); err != nil {
		return 0, err
	}
	return copy(p, m.a.Data[off:]), nil
}

func (m *memory) WriteAt(p []byte, off int64) (int, error) {
	if err := m.check(len(p), off, "write"); err != nil {
		return 0, err
	}
	return copy(m.a.Data[off:], p), nil
}

func (m *memory) Free() error {
	if m.a.Data == nil {
		return fmt.Errorf("gpusim: double free")
	}
	m.dev.mem.Free(m.a)
	return nil
}

type module struct {
	dev     *device
	prog    *cudac.Program
	kernels map[*cudac.Func]*ir.Kernel
	globals map[*cudac.Var]*engine.Alloc
}

func (d *device) Compile(prog *cudac.Program) (driver.Module, error) {
	m := &module{dev: d, prog: prog, kernels: map[*cudac.Func]*ir.Kernel{}, globals: map[*cudac.Var]*engine.Alloc{}}
	for _, v := range prog.Globals {
		a, err := d.mem.Alloc(max(v.T.Size(), 1))
		if err != nil {
			return nil, fmt.Errorf("%s: gpusim: %s: module variable %s (%s): %w", v.P, d.Info().Name, v.Name, v.T, err)
		}
		a.Name = "module variable " + v.Name
		initGlobal(a.Data, v)
		m.globals[v] = a
	}
	return m, nil
}

// initGlobal writes a module variable's constant initialiser: one value
// per scalar leaf, in memory order.
func initGlobal(data []byte, v *cudac.Var) {
	leaves := ir.FirstLeaves(v.T, len(v.Init))
	for i, c := range v.Init {
		if c == nil || i >= len(leaves) {
			continue
		}
		leaf := leaves[i]
		k := leaf.T.Kind
		if k == cudac.Pointer {
			k = cudac.Uint64
		}
		bits := ir.ConvertBits(k, c.T.Kind, constBits(c))
		for b := int64(0); b < leaf.T.Size(); b++ {
			data[leaf.Off+b] = byte(bits >> (8 * b))
		}
	}
}

// constBits encodes a constant as register bits of its own type.
func constBits(c *cudac.Const) uint64 {
	switch c.T.Kind {
	case cudac.Float32, cudac.Float64:
		return ir.FromFloat(c.T.Kind, c.Float)
	}
	return uint64(c.Int)
}

func (m *module) kernel(fn *cudac.Func) (*ir.Kernel, error) {
	if k, ok := m.kernels[fn]; ok {
		return k, nil
	}
	k, err := ir.Lower(m.prog, fn, ir.Options{NoFMA: !m.dev.cfg.FMAD})
	if err != nil {
		return nil, fmt.Errorf("gpusim: %w", err)
	}
	m.kernels[fn] = k
	return k, nil
}

func (m *module) Launch(fn *cudac.Func, cfg driver.LaunchConfig, args []driver.ArgValue) (*driver.Result, error) {
	return m.LaunchContext(context.Background(), fn, cfg, args)
}

// LaunchContext is Launch stopped by ctx, or by the device's time limit
// (driver.Config.Timeout), within a few thousand warp instructions.
func (m *module) LaunchContext(ctx context.Context, fn *cudac.Func, cfg driver.LaunchConfig, args []driver.ArgValue) (*driver.Result, error) {
	d := m.dev
	if d.closed {
		return nil, fmt.Errorf("gpusim: device is closed")
	}
	k, err := m.kernel(fn)
	if err != nil {
		return nil, err
	}
	params := make([]uint64, len(args))
	for i, a := range args {
		if mem, ok := a.Mem.(*memory); ok && mem != nil {
			if mem.dev != d {
				return nil, fmt.Errorf("gpusim: launch %s: argument %s is a buffer of another device", fn.Name, a.Param.Name)
			}
			if mem.a.Data == nil {
				return nil, fmt.Errorf("gpusim: launch %s: argument %s is a freed buffer", fn.Name, a.Param.Name)
			}
			mem.a.Name = a.Param.Name
			params[i] = mem.a.Base + uint64(a.Offset)
			continue
		}
		params[i] = ir.ConvertBits(a.Param.T.Kind, a.Param.T.Kind, a.Bits)
	}
	globals := make([]uint64, len(k.Globals))
	for i, v := range k.Globals {
		a, ok := m.globals[v]
		if !ok {
			return nil, fmt.Errorf("gpusim: launch %s: module variable %s was not allocated", fn.Name, v.Name)
		}
		globals[i] = a.Base
	}
	seed := d.cfg.Seed + d.launches
	d.launches++
	budget := cfg.MaxInstructions
	if budget == 0 {
		budget = d.cfg.Budget
	}
	mach := machine(d.prof, d.clock)
	out, err := engine.Run(mach, &engine.Config{
		Kernel: k, Grid: cfg.Grid, Block: cfg.Block, SharedBytes: int64(cfg.SharedBytes),
		Params: params, Memory: d.mem, Globals: globals, Seed: seed, Order: d.order,
		MaxInstructions: budget, RaceCheck: d.cfg.RaceCheck, Cooperative: cfg.Cooperative,
		Relaxed: d.cfg.RelaxedMemory, Fine: d.cfg.FineInterleave, Ctx: ctx, Timeout: d.cfg.Timeout, Progress: cfg.Progress,
	})
	if err != nil {
		return nil, err
	}
	l2Reloads(d.prof, out)
	res := &driver.Result{
		Device:      d.Info().Name,
		Seed:        seed,
		Counters:    &out.Counters,
		Printf:      out.Printf,
		Diagnostics: out.Diagnostics,
	}
	if res.Diagnostics == nil {
		res.Diagnostics = []driver.Diagnostic{}
	}
	res.Timing = model(d.prof, d.clock, out)
	return res, nil
}
