//go:build linux && cgo

package cudarun

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	gpudriver "github.com/warplab/warplab/gpu/driver"
)

func init() { gpu.Register("cuda", backend{}) }

type backend struct{}

// minDriver is the oldest driver API version cudarun accepts (CUDA 11.0).
const minDriver = 11000

// libs holds what loading the two libraries found; each is loaded once.
var libs struct {
	cudaOnce sync.Once
	cudaErr  error // libcuda missing, or cuInit failed
	driver   int   // cuDriverGetVersion: 13000 for CUDA 13.0

	nvrtcOnce  sync.Once
	nvrtcErr   error
	nvrtcPath  string
	nvrtcMajor int
	nvrtcMinor int
	nvrtcArchs []int
}

func loadCUDA() error {
	libs.cudaOnce.Do(func() {
		if err := loadCUDALib(); err != nil {
			libs.cudaErr = err
			return
		}
		libs.driver = cuDriverVersion()
		if err := cuInit(); err != nil {
			if errCode(err) == cudaErrorNoDevice {
				libs.cudaErr = fmt.Errorf("no CUDA device: %w", err)
			} else {
				libs.cudaErr = fmt.Errorf("the CUDA driver did not start: %w", err)
			}
		}
	})
	return libs.cudaErr
}

func loadNVRTC() error {
	libs.nvrtcOnce.Do(func() {
		p, err := loadNVRTCLib()
		if err != nil {
			libs.nvrtcErr = err
			return
		}
		libs.nvrtcPath = p
		libs.nvrtcMajor, libs.nvrtcMinor = nvrtcVersion()
		libs.nvrtcArchs = nvrtcArchs()
	})
	return libs.nvrtcErr
}

func nvrtcVersionString() string { return fmt.Sprintf("%d.%d", libs.nvrtcMajor, libs.nvrtcMinor) }

func driverVersionString() string {
	return fmt.Sprintf("%d.%d", libs.driver/1000, libs.driver%1000/10)
}

// archFor picks NVRTC's target for compute capability cc (90 for sm_90):
// sm_XY when NVRTC knows it, else compute_XY of the newest architecture it
// knows below cc, as PTX that the driver compiles.
func archFor(cc int) (string, error) {
	archs := libs.nvrtcArchs
	if len(archs) == 0 || slices.Contains(archs, cc) {
		return fmt.Sprintf("sm_%d", cc), nil
	}
	best := 0
	for _, a := range archs {
		if a <= cc && a > best {
			best = a
		}
	}
	if best == 0 {
		return "", fmt.Errorf("NVRTC %s cannot compile for sm_%d (it knows sm_%d to sm_%d); use an older CUDA toolkit's NVRTC (%s)",
			nvrtcVersionString(), cc, slices.Min(archs), slices.Max(archs), EnvNVRTC)
	}
	return fmt.Sprintf("compute_%d", best), nil
}

// usable says why the GPU with compute capability cc cannot be used, or nil.
func usable(cc int) error {
	if err := loadNVRTC(); err != nil {
		return err
	}
	if libs.driver < minDriver {
		return fmt.Errorf("driver too old: it supports CUDA %s; warplab needs CUDA 11.0 or later", driverVersionString())
	}
	if libs.driver/1000 < libs.nvrtcMajor {
		return fmt.Errorf("driver too old: it supports CUDA %s but NVRTC is %s, whose cubins it cannot load; update the driver, or set %s to an NVRTC of CUDA %d",
			driverVersionString(), nvrtcVersionString(), EnvNVRTC, libs.driver/1000)
	}
	_, err := archFor(cc)
	return err
}

// probe holds Probe's answer: the devices of a process do not change, and
// after a fault this process could no longer ask the driver.
var probe struct {
	once sync.Once
	list []gpudriver.Availability
}

// Probe reports the GPUs and whether each can be used.
func (backend) Probe() []gpudriver.Availability {
	probe.once.Do(func() { probe.list = probeDevices() })
	return slices.Clone(probe.list)
}

func probeDevices() []gpudriver.Availability {
	if err := loadCUDA(); err != nil {
		return []gpudriver.Availability{{Spec: "cuda", Name: "CUDA GPU", Reason: err.Error()}}
	}
	n, err := cuDeviceCount()
	if err != nil || n == 0 {
		why := "no CUDA device"
		if err != nil {
			why += ": " + err.Error()
		}
		return []gpudriver.Availability{{Spec: "cuda", Name: "CUDA GPU", Reason: why}}
	}
	var out []gpudriver.Availability
	for i := 0; i < n; i++ {
		a := gpudriver.Availability{Spec: fmt.Sprintf("cuda:%d", i)}
		d, err := cuDevice(i)
		if err != nil {
			a.Name, a.Reason = "CUDA GPU", err.Error()
			out = append(out, a)
			continue
		}
		cc := cuAttr(d, attrCCMajor)*10 + cuAttr(d, attrCCMinor)
		a.Name = fmt.Sprintf("%s (sm_%d, %d SMs, driver %s", cuDeviceName(d), cc, cuAttr(d, attrMultiprocessors), driverVersionString())
		if err := usable(cc); err != nil {
			a.Name += ")"
			a.Reason = err.Error()
		} else {
			a.Name += ", NVRTC " + nvrtcVersionString() + ")"
			a.Usable = true
		}
		out = append(out, a)
	}
	return out
}

// gpuState is one GPU as this process uses it: the driver that reaches
// it, shared by every gpu.Device open on it, and the generation of that
// driver, which a fault advances.
type gpuState struct {
	mu      sync.Mutex
	ordinal int
	info    gpudriver.Info
	arch    string
	drv     driver // nil after a fault, until the next call starts a helper
	gated   driver // the driver whose timing gate is set up, if any
	gen     int
	lost    string // what the last fault was: "an illegal address in kernel k"
	// helper starts a helper process for the GPU and returns its driver;
	// startWorker for the ordinal (a test gives a fake).
	helper func() (driver, error)
	// gateImage returns the gate kernel's image; nil compiles gateSource
	// for arch with NVRTC (a test gives a fake).
	gateImage func() ([]byte, error)
}

var (
	statesMu sync.Mutex
	states   = map[int]*gpuState{}
)

// state returns the GPU's shared state, creating its context on first
// use: in a helper process when inHelper (a device with a time limit,
// which only a process of its own can enforce), else in this process.
func state(ordinal int, inHelper bool) (*gpuState, error) {
	statesMu.Lock()
	defer statesMu.Unlock()
	if s, ok := states[ordinal]; ok {
		return s, nil
	}
	if err := loadCUDA(); err != nil {
		return nil, err
	}
	n, err := cuDeviceCount()
	if err != nil {
		return nil, err
	}
	if ordinal >= n {
		return nil, fmt.Errorf("no device cuda:%d: this machine has %d CUDA device(s)", ordinal, n)
	}
	d, err := cuDevice(ordinal)
	if err != nil {
		return nil, err
	}
	cc := cuAttr(d, attrCCMajor)*10 + cuAttr(d, attrCCMinor)
	if err := usable(cc); err != nil {
		return nil, err
	}
	arch, _ := archFor(cc)
	name := cuDeviceName(d)
	shared := cuAttr(d, attrMaxSharedOptin)
	if shared == 0 {
		shared = cuAttr(d, attrMaxSharedPerBlock)
	}
	s := &gpuState{ordinal: ordinal, arch: arch, info: gpudriver.Info{
		Backend: "cuda", Name: name, Arch: fmt.Sprintf("sm_%d", cc),
		SMs: cuAttr(d, attrMultiprocessors), WarpSize: cuAttr(d, attrWarpSize),
		MaxThreadsPerBlock: cuAttr(d, attrMaxThreadsPerBlock), MaxSharedPerBlock: shared,
		ClockMHz: cuAttr(d, attrClockRate) / 1000, MemoryBytes: cuTotalMem(d),
	}}
	s.helper = func() (driver, error) { return startWorker(ordinal) }
	if inHelper {
		s.drv, err = s.helper()
	} else {
		s.drv, err = newLocalDriver(ordinal)
	}
	if err != nil {
		return nil, err
	}
	states[ordinal] = s
	return s, nil
}

// do runs f with the state locked, starting a helper process first if a
// fault has retired the last driver.
func (s *gpuState) do(f func(drv driver) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drv == nil {
		w, err := s.helper()
		if err != nil {
			return fmt.Errorf("cudarun: %s after %s: %w", s.info.Name, s.lost, err)
		}
		s.drv = w
	}
	err := f(s.drv)
	if errors.Is(err, errHelperDied) {
		s.retire("the GPU helper process stopping")
	}
	return err
}

// retire gives up the driver after a fault that left its context
// unusable; what names the fault. Everything allocated or loaded before it
// is gone.
func (s *gpuState) retire(what string) {
	if s.drv == nil {
		return
	}
	s.gen++
	s.lost = what
	s.drv.close()
	s.drv = nil
}

// afterError retires the driver if err left its context unusable.
func (s *gpuState) afterError(err error, what string) {
	if c := errCode(err); c >= 0 && sticky(c) {
		s.retire(what)
	}
}

// current reports, under the lock, whether something of generation gen is
// still usable, and the error to give if not.
func (s *gpuState) current(gen int, what string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen != s.gen {
		return s.lostErr(what)
	}
	return nil
}

// lostErr is the error for using something from before a fault.
func (s *gpuState) lostErr(what string) error {
	return fmt.Errorf("cudarun: %s lost when the context was reset after %s", what, s.lost)
}

// Open opens the GPU spec names.
func (backend) Open(cfg gpudriver.Config) (gpudriver.Device, error) {
	s, err := state(cfg.Ordinal, cfg.Timeout > 0)
	if err != nil {
		return nil, fmt.Errorf("cudarun: no usable GPU for cuda:%d: %w", cfg.Ordinal, err)
	}
	if err := s.canLimit(cfg); err != nil {
		return nil, err
	}
	return &device{st: s, cfg: cfg, mems: map[*memory]bool{}}, nil
}

// canLimit reports whether the GPU can enforce cfg's time limit: not
// while this process itself holds its context, which it cannot kill.
func (s *gpuState) canLimit(cfg gpudriver.Config) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, local := s.drv.(*localDriver); local && cfg.Timeout > 0 {
		return fmt.Errorf("cudarun: cuda:%d with a %v time limit: this process already runs %s itself, opened with timeout=0, and a limit needs the GPU in a helper process it can kill; open every device of this GPU with a limit, or none",
			cfg.Ordinal, cfg.Timeout, s.info.Name)
	}
	return nil
}

type device struct {
	st     *gpuState
	cfg    gpudriver.Config
	mems   map[*memory]bool
	mods   []*module
	closed bool
}

func (d *device) Info() gpudriver.Info {
	i := d.st.info
	i.Spec = d.cfg.Spec
	return i
}

func (d *device) Capabilities() gpudriver.Capabilities {
	return gpudriver.Capabilities{MeasuredTiming: true, GatedTiming: d.cfg.GatedTiming}
}

// Close frees the device's memory and modules; what a fault took is
// already gone.
func (d *device) Close() error {
	if d.closed {
		return nil
	}
	d.closed = true
	s := d.st
	s.mu.Lock()
	defer s.mu.Unlock()
	for m := range d.mems {
		if !m.freed && m.gen == s.gen && m.ptr != 0 && s.drv != nil {
			s.drv.free(m.ptr)
		}
		m.freed = true
	}
	d.mems = nil
	for _, m := range d.mods {
		if m.loaded && m.gen == s.gen && s.drv != nil {
			s.drv.unloadModule(m.mod)
		}
		m.loaded = false
	}
	d.mods = nil
	return nil
}

type memory struct {
	dev   *device
	ptr   uint64
	size  int64
	gen   int
	freed bool
}

func (d *device) Alloc(size int64) (gpudriver.Memory, error) {
	if d.closed {
		return nil, fmt.Errorf("cudarun: alloc: device is closed")
	}
	if size < 0 {
		return nil, fmt.Errorf("cudarun: alloc: negative size %d", size)
	}
	m := &memory{dev: d, size: size}
	err := d.st.do(func(drv driver) error {
		m.gen = d.st.gen
		if size == 0 {
			return nil
		}
		p, err := drv.alloc(size)
		if err != nil {
			d.st.afterError(err, "a failed allocation")
			return fmt.Errorf("cudarun: alloc %d bytes: %w", size, err)
		}
		m.ptr = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	d.mems[m] = true
	return m, nil
}

func (m *memory) Size() int64 { return m.size }

// usable checks that m can be used now; with the state locked.
func (m *memory) usable(what string) error {
	switch {
	case m.freed:
		return fmt.Errorf("cudarun: %s of freed memory", what)
	case m.gen != m.dev.st.gen:
		return m.dev.st.lostErr("buffer")
	}
	return nil
}

func (m *memory) span(n int, off int64, what string) error {
	if off < 0 || off+int64(n) > m.size {
		return fmt.Errorf("cudarun: %s of %d bytes at offset %d of a %d-byte buffer", what, n, off, m.size)
	}
	if m.freed {
		return fmt.Errorf("cudarun: %s of freed memory", what)
	}
	return m.dev.st.current(m.gen, "buffer")
}

func (m *memory) ReadAt(p []byte, off int64) (int, error) {
	if err := m.span(len(p), off, "read"); err != nil {
		return 0, err
	}
	err := m.dev.st.do(func(drv driver) error {
		if err := m.usable("read"); err != nil || len(p) == 0 {
			return err
		}
		if err := drv.read(p, m.ptr+uint64(off)); err != nil {
			m.dev.st.afterError(err, "a failed copy")
			return fmt.Errorf("cudarun: read %d bytes: %w", len(p), err)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

func (m *memory) WriteAt(p []byte, off int64) (int, error) {
	if err := m.span(len(p), off, "write"); err != nil {
		return 0, err
	}
	err := m.dev.st.do(func(drv driver) error {
		if err := m.usable("write"); err != nil || len(p) == 0 {
			return err
		}
		if err := drv.write(m.ptr+uint64(off), p); err != nil {
			m.dev.st.afterError(err, "a failed copy")
			return fmt.Errorf("cudarun: write %d bytes: %w", len(p), err)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Free releases the memory. Memory a fault took is gone already, so
// freeing it succeeds.
func (m *memory) Free() error {
	if m.freed {
		return fmt.Errorf("cudarun: double free")
	}
	s := m.dev.st
	s.mu.Lock()
	defer s.mu.Unlock()
	m.freed = true
	delete(m.dev.mems, m)
	if m.gen != s.gen || m.ptr == 0 || s.drv == nil {
		return nil
	}
	if err := s.drv.free(m.ptr); err != nil {
		return fmt.Errorf("cudarun: free: %w", err)
	}
	return nil
}

// ---- compiling ----

// images caches compiled images by cacheKey, for the life of the process.
var (
	imagesMu sync.Mutex
	images   = map[string]*Image{}
)

// compileImage compiles in with NVRTC, or returns the cached image.
func compileImage(in nvrtcInput, opts, names []string) (*Image, error) {
	file, src, text := in.file, in.src, in.text
	if err := loadNVRTC(); err != nil {
		return nil, fmt.Errorf("cudarun: %w", err)
	}
	key := cacheKey(text, in.headers, opts, names, nvrtcVersionString())
	imagesMu.Lock()
	defer imagesMu.Unlock()
	if img, ok := images[key]; ok {
		return img, nil
	}
	arch := strings.TrimPrefix(opts[0], "--gpu-architecture=")
	res, err := runNVRTC(text, in.headers, opts, names, strings.HasPrefix(arch, "compute_"))
	if err != nil {
		return nil, fmt.Errorf("cudarun: compile %s: %w", file, err)
	}
	if res.failed {
		return nil, parseLog(file, src, res.log, in.includes...)
	}
	img := &Image{Arch: arch, Data: res.image, PTX: res.ptx, Lowered: res.lowered, Log: res.log, NVRTC: nvrtcVersionString()}
	images[key] = img
	return img, nil
}

// Build compiles prog with NVRTC without loading it: it needs NVRTC, and a
// GPU only when opts.Arch is empty. `warplab sass` uses it.
func Build(prog *cudac.Program, opts BuildOptions) (*Image, error) {
	arch := opts.Arch
	if arch == "" {
		a, err := DeviceArch(0)
		if err != nil {
			return nil, err
		}
		arch = a
	}
	defines := opts.Defines
	if defines == nil {
		defines = programDefines(prog)
	}
	in, err := programInput(prog, defines)
	if err != nil {
		return nil, err
	}
	copts := append(compileOptions(arch, opts.NoFMA, defines), includeOptions(in.allText(), fileExists)...)
	return compileImage(in, copts, kernelNames(prog, opts.Kernels...))
}

// DeviceArch returns the target NVRTC would compile for on GPU ordinal:
// "sm_90".
func DeviceArch(ordinal int) (string, error) {
	if err := loadCUDA(); err != nil {
		return "", fmt.Errorf("cudarun: no GPU to take the architecture from (%w): name one, e.g. sm_90", err)
	}
	d, err := cuDevice(ordinal)
	if err != nil {
		return "", fmt.Errorf("cudarun: no GPU to take the architecture from (%w): name one, e.g. sm_90", err)
	}
	if err := loadNVRTC(); err != nil {
		return "", fmt.Errorf("cudarun: %w", err)
	}
	a, err := archFor(cuAttr(d, attrCCMajor)*10 + cuAttr(d, attrCCMinor))
	if err != nil {
		return "", fmt.Errorf("cudarun: %w", err)
	}
	return a, nil
}

type module struct {
	dev      *device
	prog     *cudac.Program
	in       nvrtcInput
	opts     []string
	names    []string
	img      *Image
	mod      uint64
	loaded   bool
	gen      int
	funcs    map[string]*function
	printf   bool // the source calls printf: capture descriptor 1
	usesTrap bool
}

type function struct {
	fnInfo
	dynLimit int // the MAX_DYNAMIC_SHARED_SIZE_BYTES set so far
}

func (d *device) Compile(prog *cudac.Program) (gpudriver.Module, error) {
	if d.closed {
		return nil, fmt.Errorf("cudarun: compile: device is closed")
	}
	defines := programDefines(prog)
	in, err := programInput(prog, defines)
	if err != nil {
		return nil, err
	}
	m := &module{
		dev:      d,
		prog:     prog,
		in:       in,
		opts:     compileOptions(d.st.arch, !d.cfg.FMAD, defines),
		names:    kernelNames(prog),
		funcs:    map[string]*function{},
		printf:   strings.Contains(string(prog.Source), "printf"),
		usesTrap: strings.Contains(string(prog.Source), "__trap"),
	}
	m.opts = append(m.opts, includeOptions(in.allText(), fileExists)...)
	img, err := compileImage(in, m.opts, m.names)
	if err != nil {
		return nil, err
	}
	m.img = img
	if err := d.st.do(m.load); err != nil {
		return nil, err
	}
	d.mods = append(d.mods, m)
	return m, nil
}

// load loads the image with drv, replacing what was loaded; inside do.
func (m *module) load(drv driver) error {
	st := m.dev.st
	if m.loaded && m.gen == st.gen {
		drv.unloadModule(m.mod)
	}
	m.loaded = false
	m.funcs = map[string]*function{}
	mod, err := drv.loadModule(m.img.Data)
	if err != nil {
		st.afterError(err, "a failed module load")
		return fmt.Errorf("cudarun: load %s (%s, NVRTC %s, driver %s): %w", m.prog.File, m.img.Arch, m.img.NVRTC, driverVersionString(), err)
	}
	m.mod, m.loaded, m.gen = mod, true, st.gen
	return nil
}

// function returns fn's handle, compiling a new template instance or
// reloading after a fault as needed; inside do.
func (m *module) function(drv driver, fn *cudac.Func) (*function, error) {
	if _, ok := m.img.Lowered[fn.Name]; !ok {
		names := kernelNames(m.prog, append(slices.Clone(m.names), fn.Name)...)
		img, err := compileImage(m.in, m.opts, names)
		if err != nil {
			return nil, err
		}
		m.img, m.names = img, names
		if err := m.load(drv); err != nil {
			return nil, err
		}
	}
	if !m.loaded || m.gen != m.dev.st.gen {
		if err := m.load(drv); err != nil {
			return nil, err
		}
	}
	if f, ok := m.funcs[fn.Name]; ok {
		return f, nil
	}
	fi, err := drv.function(m.mod, m.img.Lowered[fn.Name])
	if err != nil {
		return nil, fmt.Errorf("cudarun: kernel %s: %w", fn.Name, err)
	}
	f := &function{fnInfo: fi}
	m.funcs[fn.Name] = f
	return f, nil
}

// defaultDynamicShared is the shared memory a block may use without
// opting in to more (48 KiB on every architecture since Volta).
const defaultDynamicShared = 48 << 10

func (m *module) Launch(fn *cudac.Func, cfg gpudriver.LaunchConfig, args []gpudriver.ArgValue) (*gpudriver.Result, error) {
	return m.LaunchContext(context.Background(), fn, cfg, args)
}

// LaunchContext is Launch stopped by ctx as well as by the device's time
// limit. A device with a limit runs its launches in a helper process,
// which is killed when ctx is done first, as at the limit, and a deadline
// of ctx's earlier than the limit takes its place; a device without one
// (timeout=0) runs them in this process, where a kernel cannot be
// stopped: ctx is checked before the launch only.
func (m *module) LaunchContext(ctx context.Context, fn *cudac.Func, cfg gpudriver.LaunchConfig, args []gpudriver.ArgValue) (*gpudriver.Result, error) {
	d := m.dev
	if d.closed {
		return nil, fmt.Errorf("cudarun: launch %s: device is closed", fn.Name)
	}
	lim := launchLimit{limit: d.cfg.Timeout}
	if lim.limit > 0 {
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < lim.limit {
			lim.limit, lim.deadline = max(time.Until(dl), time.Millisecond), true
		}
		lim.stop, lim.cause = ctx.Done(), ctx.Err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("cudarun: launch %s: %w", fn.Name, err)
	}
	var res *gpudriver.Result
	err := d.st.do(func(drv driver) error {
		var err error
		res, err = m.launch(drv, fn, cfg, args, lim)
		return err
	})
	return res, err
}

// launchLimit is what stops one launch: the time limit, and whether it
// is the caller's deadline rather than the device's own; a channel that
// closes when the caller's context is done, and why it is.
type launchLimit struct {
	limit    time.Duration
	deadline bool
	stop     <-chan struct{}
	cause    func() error
}

// pastDeadline says whether the launch stopped because the caller's
// deadline passed: the limit taken from it ran out, or the context's own
// timer closed stop first (the two race when they are the same instant).
func (l launchLimit) pastDeadline(err error) bool {
	if errors.Is(err, errPastLimit) {
		return l.deadline
	}
	return errors.Is(err, errStopped) && l.cause != nil && errors.Is(l.cause(), context.DeadlineExceeded)
}

// launch runs inside do.
func (m *module) launch(drv driver, fn *cudac.Func, cfg gpudriver.LaunchConfig, args []gpudriver.ArgValue, lim launchLimit) (*gpudriver.Result, error) {
	st := m.dev.st
	slots := make([]uint64, len(args))
	for i, a := range args {
		if a.Param.T.Kind == cudac.Pointer {
			if a.Mem == nil {
				continue
			}
			mem, ok := a.Mem.(*memory)
			if !ok || mem.dev.st != st {
				return nil, fmt.Errorf("cudarun: launch %s: argument %s is a buffer of another device", fn.Name, a.Param.Name)
			}
			if err := mem.usable("use"); err != nil {
				return nil, fmt.Errorf("cudarun: launch %s: argument %s: %w", fn.Name, a.Param.Name, err)
			}
			slots[i] = mem.ptr + uint64(a.Offset)
			continue
		}
		slots[i] = a.Bits & sizeMask(a.Param.T.Size())
	}
	f, err := m.function(drv, fn)
	if err != nil {
		return nil, err
	}
	bad := func(kind error, format string, a ...any) error {
		return &gpudriver.LaunchError{Kind: kind, Kernel: fn.Name, Msg: fmt.Sprintf(format, a...)}
	}
	if n := cfg.Block.Count(); f.MaxThreads > 0 && n > f.MaxThreads {
		return nil, bad(gpudriver.ErrOutOfResources, "block of %d threads; the compiled kernel allows at most %d (its registers limit it)", n, f.MaxThreads)
	}
	if need := f.Static + cfg.SharedBytes; need > st.info.MaxSharedPerBlock {
		return nil, bad(gpudriver.ErrOutOfResources, "the block needs %d bytes of shared memory (%d static + %d dynamic); %s allows %d per block",
			need, f.Static, cfg.SharedBytes, st.info.Name, st.info.MaxSharedPerBlock)
	}
	if f.Static+cfg.SharedBytes > defaultDynamicShared && cfg.SharedBytes > f.dynLimit {
		if err := drv.setDynamicShared(f.H, cfg.SharedBytes); err != nil {
			return nil, bad(gpudriver.ErrOutOfResources, "cannot opt in to %d bytes of dynamic shared memory: %v", cfg.SharedBytes, err)
		}
		f.dynLimit = cfg.SharedBytes
	}
	if m.dev.cfg.GatedTiming {
		if err := st.setGate(drv); err != nil {
			return nil, fmt.Errorf("cudarun: launch %s: timing=gated: %w", fn.Name, err)
		}
	}
	g, b := cfg.Grid, cfg.Block
	lr, err := drv.launch(launchReq{
		Fn:   f.H,
		Grid: [3]uint32{uint32(g.X), uint32(g.Y), uint32(g.Z)}, Block: [3]uint32{uint32(b.X), uint32(b.Y), uint32(b.Z)},
		Shared: uint32(cfg.SharedBytes), Args: slots, CapturePrint: m.printf, Cooperative: cfg.Cooperative,
		Gated: m.dev.cfg.GatedTiming,
		limit: lim.limit, stop: lim.stop,
	})
	if lim.pastDeadline(err) {
		m.dev.st.retire(fmt.Sprintf("kernel %s ran past its caller's deadline", fn.Name))
		return nil, &gpudriver.LaunchError{Kind: gpudriver.ErrTimeout, Kernel: fn.Name, Msg: "the caller's deadline passed while it ran; " + helperKilled}
	}
	if errors.Is(err, errStopped) {
		m.dev.st.retire(fmt.Sprintf("kernel %s was cancelled", fn.Name))
		return nil, &gpudriver.LaunchError{Kind: context.Canceled, Kernel: fn.Name, Msg: "cancelled while it ran; " + helperKilled}
	}
	if errors.Is(err, errPastLimit) {
		return nil, m.pastLimit(fn)
	}
	if err != nil {
		return nil, m.fault(fn, err, lr.Stage == 1)
	}
	return &gpudriver.Result{
		Device:      st.info.Name,
		Timing:      gpudriver.Timing{Ms: float64(lr.Ms), Source: "measured, " + st.info.Name + lr.Gate.note(), Measured: true},
		Printf:      string(lr.Printf),
		Diagnostics: []gpudriver.Diagnostic{},
	}, nil
}

// gateKernel is the timing gate's kernel (see wl_launch): one thread that
// spins on a flag in mapped host memory until the host sets it, or until
// limit nanoseconds of the GPU's global timer have passed, when it sets
// the flag's second word.
const gateKernel = "warplab_gate"

const gateSource = `extern "C" __global__ void warplab_gate(volatile unsigned int *flag, unsigned long long limit) {
	unsigned long long t0, t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	while (flag[0] == 0) {
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
		if (t - t0 > limit) {
			flag[1] = 1;
			return;
		}
	}
}
`

// setGate sets up the timing gate on drv, compiling its kernel for the
// GPU first; inside do. A driver that replaces a retired one sets it up
// again.
func (s *gpuState) setGate(drv driver) error {
	if s.gated == drv {
		return nil
	}
	image := s.gateImage
	if image == nil {
		image = func() ([]byte, error) {
			in := nvrtcInput{file: "warplab_gate.cu", src: []byte(gateSource), text: gateSource}
			img, err := compileImage(in, compileOptions(s.arch, false, nil), []string{gateKernel})
			if err != nil {
				return nil, err
			}
			return img.Data, nil
		}
	}
	data, err := image()
	if err != nil {
		return fmt.Errorf("compiling the gate: %w", err)
	}
	if err := drv.setGate(data); err != nil {
		s.afterError(err, "setting up the timing gate")
		return fmt.Errorf("setting up the gate: %w", err)
	}
	s.gated = drv
	return nil
}

// note is what a Timing's Source adds for a launch that asked for the
// gate and did not have it.
func (g gateUse) note() string {
	switch g {
	case gateFirst:
		return " (not gated: the kernel's first launch)"
	case gateExpired:
		return " (the timing gate expired: the time includes the host's submission)"
	case gateOff:
		return " (not gated: an earlier launch's gate expired)"
	}
	return ""
}

// fault turns a failed launch into a *gpudriver.LaunchError and retires the
// driver when the failure left its context unusable. refused says
// cuLaunchKernel itself failed (the kernel never ran).
func (m *module) fault(fn *cudac.Func, err error, refused bool) error {
	code := errCode(err)
	if code < 0 {
		return fmt.Errorf("cudarun: launch %s: %w", fn.Name, err)
	}
	kind := launchKind(code, m.usesTrap)
	msg := fmt.Sprintf("%s: %s", cuErrorName(code), cuErrorString(code))
	if refused && code == cudaErrorInvalidValue {
		msg = "the driver refused the launch: " + msg
	}
	if sticky(code) {
		m.dev.st.retire(fmt.Sprintf("%s in kernel %s", faultNoun(kind), fn.Name))
		msg += "; the GPU context is gone: buffers allocated before this launch are lost, and the next call continues in a fresh helper process"
	}
	return &gpudriver.LaunchError{Kind: kind, Kernel: fn.Name, Msg: msg}
}

// pastLimit is the error of a launch of fn that ran past the device's
// time limit: its helper process is gone, and with it the context.
func (m *module) pastLimit(fn *cudac.Func) error {
	limit := m.dev.cfg.Timeout
	m.dev.st.retire(fmt.Sprintf("kernel %s ran past its %v time limit", fn.Name, limit))
	return &gpudriver.LaunchError{Kind: gpudriver.ErrTimeout, Kernel: fn.Name, Msg: fmt.Sprintf(
		"it was still running after %[2]v, the device's limit per launch (%[3]s?timeout=DURATION, or warplab run --timeout, changes it); %[1]s",
		helperKilled, limit, strings.SplitN(m.dev.cfg.Spec, "?", 2)[0])}
}

// helperKilled says what stopping a launch on a GPU cost.
const helperKilled = "the helper process that owned the GPU context was killed to stop it: buffers allocated before this launch are lost, and the next call continues in a fresh helper process"

// faultNoun names a fault for "lost when the context was reset after ...".
func faultNoun(kind error) string {
	switch kind {
	case gpudriver.ErrLaunchFailed:
		return "a launch failure"
	case gpudriver.ErrIllegalAddress, gpudriver.ErrInvalidConfig:
		return "an " + kind.Error()
	}
	return "a " + kind.Error()
}

func sizeMask(size int64) uint64 {
	if size >= 8 {
		return ^uint64(0)
	}
	return 1<<(8*uint(size)) - 1
}
