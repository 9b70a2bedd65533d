package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
)

func init() {
	register(&command{name: "run", summary: "run one kernel from a .cu file", run: runCmd})
}

const runUsage = `usage: warplab run FILE.cu --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [flags]

Runs one kernel and prints the buffers you ask for, its time, how the time
was taken and where it came from. Buffers and scalars bind to the kernel's
parameters by name.

On a GPU the time is the labs' method: --warmup untimed launches (3), then
--reps timed ones (10), each timed by CUDA events around the launch; it
prints their median and their spread (min, max, mean, stdev). Before every
launch the buffers the kernel may write (pointers to non-const) get their
initial contents again, outside the timing, so a kernel that accumulates
does the same work each time and the printed outputs are one launch's.
--cold times one launch without warm-ups instead, as a program's first
launch runs. On the simulator the model is deterministic: one launch.
A launch that runs past --timeout (10s unless the device spec sets its
own timeout=) is stopped, and fails: on a GPU its helper process is
killed, on the simulator it stops where it is and names the line. A
--timeout given covers compiling too. A
simulated launch that runs longer than 2s shows its progress (blocks
finished) on stderr when stderr is a terminal, or always with --progress.

  --buf NAME=TYPE:COUNT:INIT   a device buffer (repeatable)
  --scalar NAME=TYPE:VALUE     a scalar argument (repeatable)
  --print NAME[:K]             print the first K elements (all by default, at most 1048576) after the launch (repeatable)

TYPE is f32, f64, i32, u32, i64, u64, i8, u8 or bool (one byte, 0 or 1).
INIT is one of
  zero  iota  mod:K (i % K)  const:V  uniform:LO:HI:SEED  randint:LO:HI:SEED
(uniform draws floats in [LO, HI); randint integers in [LO, HI]).
--buf NAME=null passes a null pointer.

--json writes an infinity or NaN as the string "Inf", "-Inf" or "NaN".

Example:
  warplab run sum.cu --kernel sumTreeAtomic --grid 16384 --block 256 \
      --buf in=f32:4194304:mod:4 --buf total=f32:1:zero --scalar n=u64:4194304 --print total

flags:`

// repeated collects a repeatable flag.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, " ") }
func (r *repeated) Set(s string) error { *r = append(*r, s); return nil }

type runOpts struct {
	file, kernel string
	device       gpu.Spec
	grid, block  gpu.Dim3
	shared       int
	bufs         []bufSpec
	scalars      []scalarSpec
	prints       []printSpec
	defines      []cudac.Option // --define, with DefineFlag
	includeDirs  []string
	seed         uint64
	seedSet      bool
	runs         int
	warmup, reps int  // -1: the device's default
	cold         bool // --cold: one launch, no warm-up
	timeout      time.Duration
	timeoutSet   bool
	progress     bool      // --progress: report progress on stderr whatever it is
	stderr       io.Writer // where --progress writes
	maxInstr     int64
	cooperative  bool
	json         bool
}

func parseRunFlags(args []string, stderr io.Writer) (*runOpts, error) {
	fs := newFlags("run", runUsage, stderr)
	o := &runOpts{stderr: stderr}
	var grid, block string
	var bufs, scalars, prints, defines, includeDirs repeated
	fs.StringVar(&o.kernel, "kernel", "", "the kernel to launch (a template as NAME<ARGS>, e.g. sumTree<256>)")
	fs.StringVar(&grid, "grid", "", "grid size X[,Y,Z] in blocks")
	fs.StringVar(&block, "block", "", "block size X[,Y,Z] in threads")
	fs.IntVar(&o.shared, "shared", 0, "dynamic shared memory per block, in bytes")
	fs.Var(&bufs, "buf", "a buffer NAME=TYPE:COUNT:INIT (repeatable)")
	fs.Var(&scalars, "scalar", "a scalar NAME=TYPE:VALUE (repeatable)")
	fs.Var(&prints, "print", "print buffer NAME[:K] after each run (repeatable)")
	fs.Var(&defines, "define", "predefine a macro NAME=VALUE, or NAME as 1, like nvcc -D (repeatable)")
	fs.Var(&includeDirs, "include-dir", "a directory #include \"name\" searches after the source's own, like nvcc -I (repeatable)")
	fs.Var(&includeDirs, "I", "short for --include-dir")
	fs.TextVar(&o.device, "device", gpu.Spec{}, "device spec: sim:t4, sim:h200, cuda, ... (default: $WARPLAB_DEVICE, else a GPU, else sim:t4)")
	seed := fs.Uint64("seed", 1, "the simulator's seed for the first run; run i uses seed+i")
	fs.IntVar(&o.runs, "runs", 1, "repeat the whole measurement this many times, each on fresh buffers")
	fs.IntVar(&o.warmup, "warmup", -1, "untimed launches before the timed ones (default 3 on a GPU, 0 on the simulator)")
	fs.IntVar(&o.reps, "reps", -1, "timed launches, whose median is the time (default 10 on a GPU, 1 on the simulator, whose model is deterministic)")
	fs.BoolVar(&o.cold, "cold", false, "time one launch without warm-ups (--warmup 0 --reps 1): a cold first launch")
	fs.DurationVar(&o.timeout, "timeout", gpu.DefaultTimeout, "stop a launch that runs longer than this, such as 30s; 0 for no limit (the device option timeout=)")
	fs.BoolVar(&o.progress, "progress", false, "show a long launch's progress on stderr even when it is not a terminal")
	fs.Int64Var(&o.maxInstr, "max-instructions", 0, "warp-instruction budget per launch (0: the default)")
	fs.BoolVar(&o.json, "json", false, "print one JSON object per run")
	fs.BoolVar(&o.cooperative, "cooperative", false, "a cooperative launch: every block resident at once, as grid_group::sync() needs")

	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, err
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "seed":
			o.seedSet = true
		case "timeout":
			o.timeoutSet = true
		}
	})
	o.seed = *seed
	o.includeDirs = includeDirs
	if len(pos) != 1 {
		fs.Usage()
		return nil, fmt.Errorf("want exactly one .cu file, got %d arguments", len(pos))
	}
	o.file = pos[0]
	if o.kernel == "" {
		return nil, fmt.Errorf("missing --kernel NAME")
	}
	if o.grid, err = parseDim(grid, "--grid"); err != nil {
		return nil, err
	}
	if o.block, err = parseDim(block, "--block"); err != nil {
		return nil, err
	}
	if o.runs < 1 {
		return nil, fmt.Errorf("--runs %d: want at least 1", o.runs)
	}
	if o.cold && (o.warmup >= 0 || o.reps >= 0) {
		return nil, fmt.Errorf("--cold is --warmup 0 --reps 1: give either --cold or --warmup and --reps")
	}
	if o.warmup < -1 || o.warmup > maxLaunches {
		return nil, fmt.Errorf("--warmup %d: want 0 to %d", o.warmup, maxLaunches)
	}
	if o.reps == 0 || o.reps < -1 || o.reps > maxLaunches {
		return nil, fmt.Errorf("--reps %d: want 1 to %d", o.reps, maxLaunches)
	}
	if o.maxInstr < 0 {
		return nil, fmt.Errorf("--max-instructions %d: want a positive number of warp instructions, or 0 for the default", o.maxInstr)
	}
	if o.timeoutSet && o.timeout < 0 {
		return nil, fmt.Errorf("--timeout %v: want a positive duration, or 0 for no limit", o.timeout)
	}
	for _, s := range bufs {
		b, err := parseBuf(s)
		if err != nil {
			return nil, fmt.Errorf("--buf %s: %w", s, err)
		}
		o.bufs = append(o.bufs, b)
	}
	for _, s := range scalars {
		v, err := parseScalar(s)
		if err != nil {
			return nil, fmt.Errorf("--scalar %s: %w", s, err)
		}
		o.scalars = append(o.scalars, v)
	}
	for _, s := range prints {
		p, err := parsePrint(s)
		if err != nil {
			return nil, fmt.Errorf("--print %s: %w", s, err)
		}
		o.prints = append(o.prints, p)
	}
	if _, o.defines, err = parseDefines(defines); err != nil {
		return nil, err
	}
	return o, nil
}

// limit returns the time limit of one launch on the device spec opens:
// --timeout when it is given; else the spec's own timeout= option; else
// --timeout's default (10s), on the simulator too, whose device default
// (a minute) suits the labs rather than one kernel at a prompt.
func (o *runOpts) limit(spec gpu.Spec) time.Duration {
	if !o.timeoutSet && (spec.Backend() != "sim" || spec.Timeout() != gpu.DefaultSimTimeout) {
		return spec.Timeout()
	}
	return o.timeout
}

// maxPrint is the most elements one --print prints: each costs a string
// on the host, so printing a large buffer whole would cost many times
// its size in host memory.
const maxPrint = 1 << 20

// maxLaunches bounds --warmup and --reps.
const maxLaunches = 100000

// method resolves --warmup, --reps and --cold for dev: unset flags take
// the device's default (gpu.DefaultMethod), the median of the timed
// launches.
func (o *runOpts) method(caps gpu.Capabilities) gpu.Method {
	if o.cold {
		return gpu.Cold(caps)
	}
	m := gpu.DefaultMethod(caps)
	if o.warmup >= 0 {
		m.WarmUps = o.warmup
	}
	if o.reps >= 0 {
		m.Reps = o.reps
	}
	return m
}

func parseDim(s, flagName string) (gpu.Dim3, error) {
	if s == "" {
		return gpu.Dim3{}, fmt.Errorf("missing %s X[,Y,Z]", flagName)
	}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return gpu.Dim3{}, fmt.Errorf("%s %s: at most three dimensions", flagName, s)
	}
	v := []int{1, 1, 1}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 {
			return gpu.Dim3{}, fmt.Errorf("%s %s: %q is not a positive integer", flagName, s, p)
		}
		v[i] = n
	}
	return gpu.Dim3{X: v[0], Y: v[1], Z: v[2]}, nil
}

func runCmd(args []string, stdout, stderr io.Writer) error {
	o, err := parseRunFlags(args, stderr)
	if err != nil {
		return err
	}
	src, err := cudac.ReadSource(o.file)
	if err != nil {
		return err
	}
	spec, err := deviceSpec(o.device, o.seed, o.seedSet)
	if err != nil {
		return err
	}
	if o.timeoutSet {
		if spec, err = spec.WithTimeout(o.timeout); err != nil {
			return usagef("--timeout: %v", err)
		}
	}
	dev, err := gpu.OpenSpec(spec)
	if err != nil {
		if o.device.IsAuto() && o.seedSet && os.Getenv(gpu.EnvDevice) != "" {
			// deviceSpec read the spec from the environment.
			return fmt.Errorf("$%s=%s: %w", gpu.EnvDevice, os.Getenv(gpu.EnvDevice), err)
		}
		return err
	}
	if lim := o.limit(dev.Spec()); dev.Spec().Timeout() != lim {
		// The automatic choice, or a simulator left at its own default
		// limit: open it again with the command's.
		limited, err := dev.Spec().WithTimeout(lim)
		if err != nil {
			return usagef("--timeout: %v", err)
		}
		dev.Close()
		if dev, err = gpu.OpenSpec(limited); err != nil {
			return err
		}
	}
	defer dev.Close()
	// A --timeout given covers compiling the source, and on the
	// simulator the first run's launch with it: a 100,000-line kernel is
	// stopped in the front end as an endless loop is in the launch. The
	// default limit does not: compiling is linear in the source, which
	// is at most 4 MiB, and a loaded machine must not fail a good one.
	ctx := context.Background()
	if lim := dev.Spec().Timeout(); lim > 0 && o.timeoutSet {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, lim, fmt.Errorf("ran past the time limit of %v, compiling included (raise it with --timeout, 0 for none)", lim))
		defer cancel()
	}
	copts := append(append([]cudac.Option(nil), o.defines...), localIncludes(o.file, o.includeDirs)...)
	mod, err := dev.CompileContext(ctx, o.file, src, copts...)
	if err != nil {
		return err
	}
	k, err := mod.Kernel(o.kernel)
	if err != nil {
		return err
	}
	if err := o.checkNames(k.Func()); err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	meth := o.method(dev.Capabilities())
	for run := 0; run < o.runs; run++ {
		lctx := context.Background()
		if run == 0 && dev.Spec().Backend() == "sim" {
			lctx = ctx
		}
		rec, err := o.launch(lctx, dev, k, meth)
		if err != nil {
			return err
		}
		rec.Run = run + 1
		if o.json {
			if err := enc.Encode(rec); err != nil {
				return err
			}
		} else {
			printRun(stdout, o, rec)
		}
		for _, d := range rec.Diagnostics {
			fmt.Fprintf(stderr, "warning: %s\n", d)
		}
	}
	return nil
}

// deviceSpec applies --seed to the device spec: to --device, else to
// $WARPLAB_DEVICE, else to the default simulator. A GPU's spec has no seed
// (its order of atomics is the hardware's) and stays as it is.
func deviceSpec(spec gpu.Spec, seed uint64, seedSet bool) (gpu.Spec, error) {
	if !seedSet {
		return spec, nil
	}
	if spec.IsAuto() {
		text := os.Getenv(gpu.EnvDevice)
		if text == "" {
			text = gpu.DefaultSim
		}
		var err error
		if spec, err = gpu.ParseSpec(text); err != nil {
			return spec, fmt.Errorf("$%s: %w", gpu.EnvDevice, err)
		}
	}
	return spec.WithSeed(seed), nil
}

// checkNames reports buffers and scalars that name no parameter, and
// parameters nothing binds to.
func (o *runOpts) checkNames(fn *cudac.Func) error {
	params := map[string]*cudac.Var{}
	var names []string
	for _, p := range fn.Params {
		params[p.Name] = p
		names = append(names, p.T.String()+" "+p.Name)
	}
	bound := map[string]string{}
	for _, b := range o.bufs {
		if _, ok := params[b.name]; !ok {
			return fmt.Errorf("--buf %s: %s has no parameter %s; its parameters are: %s", b.name, fn.Name, b.name, strings.Join(names, ", "))
		}
		if prev, dup := bound[b.name]; dup {
			return fmt.Errorf("%s is given twice (%s and --buf)", b.name, prev)
		}
		bound[b.name] = "--buf"
	}
	for _, s := range o.scalars {
		if _, ok := params[s.name]; !ok {
			return fmt.Errorf("--scalar %s: %s has no parameter %s; its parameters are: %s", s.name, fn.Name, s.name, strings.Join(names, ", "))
		}
		if prev, dup := bound[s.name]; dup {
			return fmt.Errorf("%s is given twice (%s and --scalar)", s.name, prev)
		}
		bound[s.name] = "--scalar"
	}
	for _, p := range fn.Params {
		if _, ok := bound[p.Name]; !ok && !o.defaulted(fn, p) {
			hint := "--scalar " + p.Name + "=TYPE:VALUE"
			if p.T.Kind == cudac.Pointer {
				hint = "--buf " + p.Name + "=TYPE:COUNT:INIT"
			}
			return fmt.Errorf("parameter %s %s of %s is not given: pass %s", p.T, p.Name, fn.Name, hint)
		}
	}
	for _, p := range o.prints {
		found := false
		for _, b := range o.bufs {
			found = found || b.name == p.name
			if b.name == p.name && b.null {
				return fmt.Errorf("--print %s: %s is a null pointer", p.name, p.name)
			}
			if n := min(p.count, b.count); b.name == p.name && (n > maxPrint || p.count == 0 && b.count > maxPrint) {
				return fmt.Errorf("--print %s: %s has %d elements, more than warplab prints (%d): give --print %s:K with K up to %d",
					p.name, p.name, b.count, maxPrint, p.name, maxPrint)
			}
		}
		if !found {
			return fmt.Errorf("--print %s: no --buf named %s", p.name, p.name)
		}
	}
	return nil
}

// defaulted reports whether p, which nothing binds to, takes its default
// argument: it has one, and so has every parameter after it that nothing
// binds to either (a launch leaves out trailing arguments only).
func (o *runOpts) defaulted(fn *cudac.Func, p *cudac.Var) bool {
	given := map[string]bool{}
	for _, b := range o.bufs {
		given[b.name] = true
	}
	for _, s := range o.scalars {
		given[s.name] = true
	}
	after := false
	for i, q := range fn.Params {
		if q == p {
			after = true
		}
		if after && (given[q.Name] || i >= len(fn.Defaults) || fn.Defaults[i] == nil) {
			return false
		}
	}
	return after
}

// outputValue is one printed element of an output in --json: a JSON
// number, or, for a float JSON has no number for, the string "Inf",
// "-Inf" or "NaN".
type outputValue string

// MarshalJSON writes v as a number, or as a string when JSON has no
// number for it.
func (v outputValue) MarshalJSON() ([]byte, error) {
	f, err := strconv.ParseFloat(string(v), 64)
	switch {
	case err == nil && math.IsNaN(f):
		return []byte(`"NaN"`), nil
	case err == nil && math.IsInf(f, 1):
		return []byte(`"Inf"`), nil
	case err == nil && math.IsInf(f, -1):
		return []byte(`"-Inf"`), nil
	case err == nil && json.Valid([]byte(v)):
		return []byte(v), nil
	}
	return json.Marshal(string(v))
}

// runRecord is one run's output, as --json prints it. Outputs, Seed,
// Counters, Diagnostics and Printf are the last timed launch's; Timing.Ms
// is the Method's statistic over the timed launches, whose times are
// TimesMs and whose spread is Stats.
type runRecord struct {
	Run      int                      `json:"run"`
	Kernel   string                   `json:"kernel"`
	Device   string                   `json:"device"`
	Seed     uint64                   `json:"seed"`
	Grid     gpu.Dim3                 `json:"grid"`
	Block    gpu.Dim3                 `json:"block"`
	Outputs  map[string][]outputValue `json:"outputs"`
	Counters *gpu.Counters            `json:"counters"`
	Timing   gpu.Timing               `json:"timing"`
	Method   gpu.Method               `json:"method"`
	// MethodText is Method in words, as the text output and the labs
	// print it.
	MethodText  string              `json:"method_text"`
	Stats       gpu.Stats           `json:"stats"`
	TimesMs     []float64           `json:"times_ms"`
	Diagnostics []gpu.Diagnostic    `json:"diagnostics"`
	Printf      string              `json:"printf"`
	order       []string            // the order of Outputs, for text
	texts       map[string][]string // the printed values, for text
}

// launch makes one run: fresh buffers, then the launches meth asks for,
// the buffers the kernel may write re-initialised before each.
func (o *runOpts) launch(ctx context.Context, dev *gpu.Device, k *gpu.Kernel, meth gpu.Method) (*runRecord, error) {
	bufs := map[string]hostBuffer{}
	defer func() {
		for _, b := range bufs {
			b.free()
		}
	}()
	for _, s := range o.bufs {
		b, err := s.make(dev)
		if err != nil {
			return nil, fmt.Errorf("--buf %s: %w", s.name, err)
		}
		bufs[s.name] = b
	}
	args := make([]any, len(k.Func().Params))
	for len(args) > 0 && o.defaulted(k.Func(), k.Func().Params[len(args)-1]) {
		args = args[:len(args)-1] // left to its default argument
	}
	var writable []hostBuffer // what a launch may change
	for i, p := range k.Func().Params[:len(args)] {
		if b, ok := bufs[p.Name]; ok {
			args[i] = b.arg()
			if !p.T.Const {
				writable = append(writable, b)
			}
			continue
		}
		for _, s := range o.scalars {
			if s.name == p.Name {
				args[i] = s.value
			}
		}
	}
	cfg := gpu.LaunchConfig{Grid: o.grid, Block: o.block, SharedBytes: o.shared, MaxInstructions: o.maxInstr, Cooperative: o.cooperative,
		Progress: o.progressTo(k.Name())}
	m, err := k.MeasureContext(ctx, cfg, meth, func(i int) ([]any, error) {
		if i > 0 { // the first launch has the fresh buffers
			for _, b := range writable {
				if err := b.reset(); err != nil {
					return nil, fmt.Errorf("re-initialising a buffer before launch %d: %w", i+1, err)
				}
			}
		}
		return args, nil
	})
	if err != nil {
		return nil, err
	}
	res := m.Last
	timing := res.Timing
	timing.Ms = m.Ms
	rec := &runRecord{Kernel: res.Kernel, Device: res.Device, Seed: res.Seed, Grid: res.Grid, Block: res.Block,
		Outputs: map[string][]outputValue{}, Counters: res.Counters, Timing: timing,
		Method: m.Method, MethodText: m.Method.String(), Stats: m.Stats, TimesMs: m.Times,
		Diagnostics: res.Diagnostics, Printf: res.Printf, texts: map[string][]string{}}
	for _, p := range o.prints {
		vals, err := bufs[p.name].values(p.count)
		if err != nil {
			return nil, err
		}
		nums := make([]outputValue, len(vals))
		for i, v := range vals {
			nums[i] = outputValue(v)
		}
		rec.Outputs[p.name] = nums
		rec.texts[p.name] = vals
		rec.order = append(rec.order, p.name)
	}
	return rec, nil
}

// progressTo returns where a long launch reports its progress: stderr
// when it is a terminal (or a notebook's output), any stderr with
// --progress, nowhere otherwise.
func (o *runOpts) progressTo(kernel string) gpu.Progress {
	label := "warplab run " + kernel
	if o.progress {
		return charts.NewProgressTo(label, o.stderr)
	}
	return charts.NewProgress(label)
}

func printRun(w io.Writer, o *runOpts, r *runRecord) {
	fmt.Fprintf(w, "run %d of %d: %s<<<%s, %s>>> on %s", r.Run, o.runs, r.Kernel, r.Grid, r.Block, r.Device)
	if r.Counters != nil {
		fmt.Fprintf(w, ", seed %d", r.Seed)
	}
	fmt.Fprintln(w)
	for _, name := range r.order {
		vals := r.texts[name]
		fmt.Fprintf(w, "  %s[0:%d] = %s\n", name, len(vals), strings.Join(vals, " "))
	}
	fmt.Fprintf(w, "  time: %.4f ms (%s: %s)\n", r.Timing.Ms, r.Timing.Source, r.MethodText)
	if st := r.Stats; st.N > 1 {
		fmt.Fprintf(w, "  spread of the %d timed launches: min %.4f, max %.4f, mean %.4f, stdev %.4f ms\n", st.N, st.Min, st.Max, st.Mean, st.Stdev)
	}
	for _, c := range r.Timing.Breakdown {
		fmt.Fprintf(w, "    %-16s %9.4f ms  %s\n", c.Resource, c.Ms, c.Detail)
	}
	if c := r.Counters; c != nil {
		fmt.Fprintf(w, "  counters: %d warp instructions, %d global load sectors, %d global atomics (%d issued to the L2, longest chain %d on one address), %d shared atomics, %d barriers\n",
			c.WarpInstructions, c.GlobalLoadSectors, c.GlobalAtomicOps, c.GlobalAtomicIssued, c.GlobalAtomicMaxChain, c.SharedAtomicOps, c.Barriers)
	}
	if r.Printf != "" {
		fmt.Fprintf(w, "  printf:\n")
		for _, line := range strings.SplitAfter(strings.TrimSuffix(r.Printf, "\n"), "\n") {
			fmt.Fprintf(w, "    %s", line)
		}
		fmt.Fprintln(w)
	}
}

// formatValue prints a number the shortest way that reads back exactly,
// without an exponent for integral values.
func formatValue(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}

// localIncludes is the include policy of a source file given on the
// command line: #include "name" reads the regular files of the source's
// own directory tree and of each --include-dir tree, and nothing outside
// them (no absolute path, no ".." or symbolic link out, no FIFO or
// device, see cudac.IncludeRoot).
func localIncludes(file string, includeDirs []string) []cudac.Option {
	opts := []cudac.Option{cudac.IncludeRoot(filepath.Dir(file))}
	for _, dir := range includeDirs {
		opts = append(opts, cudac.IncludeRoot(dir), cudac.IncludeDir(dir))
	}
	return opts
}
