package gpusim

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpusim/internal/engine"
	"github.com/warplab/warplab/gpusim/internal/ir"
	"github.com/warplab/warplab/gpusim/profiles"
)

func init() { gpu.Register("sim", backend{}) }

type backend struct{}

// Options are a simulated device's settings, parsed from its spec.
type Options struct {
	Profile string
	// ClockMHz runs the profile at another SM clock (0: its boost clock).
	ClockMHz  float64
	Seed      uint64
	Order     engine.Order
	NoFMA     bool
	RaceCheck bool
	Budget    int64
}

// ParseSpec parses the config part of a "sim:..." spec.
func ParseSpec(config string) (Options, error) {
	o := Options{Profile: "t4", Seed: 1, RaceCheck: true}
	name, query, _ := strings.Cut(config, "?")
	if name != "" {
		o.Profile = strings.ToLower(name)
	}
	if _, err := profiles.Get(o.Profile); err != nil {
		return o, err
	}
	vals, err := url.ParseQuery(query)
	if err != nil {
		return o, fmt.Errorf("bad options %q: %v", query, err)
	}
	for key, vs := range vals {
		v := vs[len(vs)-1]
		switch key {
		case "seed":
			o.Seed, err = strconv.ParseUint(v, 10, 64)
		case "order":
			switch v {
			case "deterministic":
				o.Order = engine.Deterministic
			case "seeded":
				o.Order = engine.Seeded
			default:
				err = fmt.Errorf("want seeded or deterministic")
			}
		case "fmad":
			var b bool
			b, err = strconv.ParseBool(v)
			o.NoFMA = !b
		case "racecheck":
			o.RaceCheck, err = strconv.ParseBool(v)
		case "budget":
			o.Budget, err = strconv.ParseInt(v, 10, 64)
		case "clock":
			p, _ := profiles.Get(o.Profile)
			switch v {
			case "boost":
				o.ClockMHz = 0
			case "base":
				if o.ClockMHz = p.Cost.BaseClockMHz; o.ClockMHz == 0 {
					err = fmt.Errorf("profile %s has no base clock", p.Name)
				}
			default:
				o.ClockMHz, err = strconv.ParseFloat(v, 64)
				if err == nil && (o.ClockMHz < 100 || o.ClockMHz > 5000) {
					err = fmt.Errorf("want MHz between 100 and 5000, base or boost")
				}
			}
		default:
			err = fmt.Errorf("unknown option (options: seed, order, fmad, racecheck, budget, clock)")
		}
		if err != nil {
			return o, fmt.Errorf("option %s=%s: %v", key, v, err)
		}
	}
	return o, nil
}

// Spec spells the options as a spec, normalised.
func (o Options) Spec() string {
	s := fmt.Sprintf("sim:%s?seed=%d", o.Profile, o.Seed)
	if o.Order == engine.Deterministic {
		s += "&order=deterministic"
	}
	if o.NoFMA {
		s += "&fmad=false"
	}
	if !o.RaceCheck {
		s += "&racecheck=false"
	}
	if o.Budget > 0 {
		s += fmt.Sprintf("&budget=%d", o.Budget)
	}
	if o.ClockMHz > 0 {
		s += fmt.Sprintf("&clock=%g", o.ClockMHz)
	}
	return s
}

func (backend) Open(config string) (gpu.BackendDevice, error) {
	o, err := ParseSpec(config)
	if err != nil {
		return nil, err
	}
	p, _ := profiles.Get(o.Profile)
	return &device{opts: o, prof: p, mem: engine.NewMemory(p.MemoryBytes)}, nil
}

func (backend) Probe() []gpu.Availability {
	var out []gpu.Availability
	for _, n := range profiles.Names() {
		p, _ := profiles.Get(n)
		out = append(out, gpu.Availability{Spec: "sim:" + n, Name: p.Device + " (gpusim profile " + n + ", " + p.Arch + ")", Usable: true})
	}
	return out
}

type device struct {
	opts     Options
	prof     *profiles.Profile
	mem      *engine.Memory
	launches uint64
	closed   bool
}

// clock is the SM clock the device runs at, in MHz.
func (d *device) clock() float64 {
	if d.opts.ClockMHz > 0 {
		return d.opts.ClockMHz
	}
	return d.prof.ClockMHz
}

func (d *device) Info() gpu.Info {
	p := d.prof
	return gpu.Info{
		Backend: "sim", Spec: d.opts.Spec(), Name: p.Device + " (gpusim profile " + p.Name + ")",
		Arch: p.Arch, Profile: p.Name, SMs: p.SMs, WarpSize: 32,
		MaxThreadsPerBlock: p.MaxThreadsPerBlock, MaxSharedPerBlock: int(p.SharedPerBlock),
		ClockMHz: int(d.clock()), MemoryBytes: p.MemoryBytes,
	}
}

func (d *device) Capabilities() gpu.Capabilities {
	return gpu.Capabilities{ModelledTiming: true, Counters: true, Seeded: true, DeterministicOrder: true, RaceCheck: d.opts.RaceCheck}
}

func (d *device) Close() error {
	d.closed = true
	return nil
}

func (d *device) Alloc(size int64) (gpu.BackendMemory, error) {
	a, err := d.mem.Alloc(size)
	if err != nil {
		return nil, fmt.Errorf("gpusim: %v", err)
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

func (d *device) Compile(prog *cudac.Program) (gpu.BackendModule, error) {
	m := &module{dev: d, prog: prog, kernels: map[*cudac.Func]*ir.Kernel{}, globals: map[*cudac.Var]*engine.Alloc{}}
	for _, v := range prog.Globals {
		a, err := d.mem.Alloc(max(v.T.Size(), 1))
		if err != nil {
			return nil, fmt.Errorf("gpusim: module variable %s: %v", v.Name, err)
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
	leaves := ir.Leaves(v.T)
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
	k, err := ir.Lower(m.prog, fn, ir.Options{NoFMA: m.dev.opts.NoFMA})
	if err != nil {
		return nil, fmt.Errorf("gpusim: %v", err)
	}
	m.kernels[fn] = k
	return k, nil
}

func (m *module) Launch(fn *cudac.Func, cfg gpu.LaunchConfig, args []gpu.ArgValue) (*gpu.Result, error) {
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
	seed := d.opts.Seed + d.launches
	d.launches++
	budget := cfg.MaxInstructions
	if budget == 0 {
		budget = d.opts.Budget
	}
	mach := machine(d.prof, d.clock())
	out, err := engine.Run(mach, &engine.Config{
		Kernel: k, Grid: cfg.Grid, Block: cfg.Block, SharedBytes: int64(cfg.SharedBytes),
		Params: params, Memory: d.mem, Globals: globals, Seed: seed, Order: d.opts.Order,
		MaxInstructions: budget, RaceCheck: d.opts.RaceCheck,
	})
	if err != nil {
		return nil, err
	}
	res := &gpu.Result{
		Device:      d.Info().Name,
		Seed:        seed,
		Counters:    &out.Counters,
		Printf:      out.Printf,
		Diagnostics: out.Diagnostics,
	}
	if res.Diagnostics == nil {
		res.Diagnostics = []gpu.Diagnostic{}
	}
	res.Timing = Model(d.prof, d.clock(), out)
	return res, nil
}
