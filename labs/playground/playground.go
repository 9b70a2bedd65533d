package playground

import (
	"errors"
	"fmt"
	"html"
	"reflect"
	"strings"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs/profile"
)

// Options are a launch's shape and how often to time it; Run fills them
// from its grid and block sizes.
type Options struct {
	Grid, Block gpu.Dim3
	// SharedBytes is the dynamic shared memory per block.
	SharedBytes int
	// File names the source in messages; "" means "cell.cu".
	File string
	// WarmUps and Runs are the untimed and timed launches: 0 means 3 and
	// 10 on a GPU, none and 1 on the simulator (whose model is
	// deterministic); a negative WarmUps means none. Every buffer is
	// reset to its initial contents before each launch.
	WarmUps, Runs int
	// MaxInstructions bounds a simulated launch's warp instructions (0:
	// the device's default), which stops an endless loop.
	MaxInstructions int64
}

// Buffer is an argument that Run turns into a device buffer: a Go slice,
// or Zeros.
type Buffer interface {
	// upload allocates and fills the buffer on dev.
	upload(dev *gpu.Device) (deviceBuffer, error)
}

// deviceBuffer is a buffer on the device, resettable and readable.
type deviceBuffer interface {
	arg() any
	reset() error
	read() (any, error)
	free() error
}

type zeros[T gpu.Scalar] struct{ n int }

// Zeros returns an argument that Run binds as a zeroed buffer of n
// elements of T: an output.
func Zeros[T gpu.Scalar](n int) Buffer { return zeros[T]{n} }

func (z zeros[T]) upload(dev *gpu.Device) (deviceBuffer, error) {
	if z.n < 0 {
		return nil, fmt.Errorf("playground: Zeros(%d): negative length", z.n)
	}
	return sliceBuf(dev, make([]T, z.n))
}

type slice[T gpu.Scalar] []T

func (s slice[T]) upload(dev *gpu.Device) (deviceBuffer, error) { return sliceBuf(dev, []T(s)) }

type devBuf[T gpu.Scalar] struct {
	b    *gpu.Buffer[T]
	init []T
}

func sliceBuf[T gpu.Scalar](dev *gpu.Device, init []T) (deviceBuffer, error) {
	b, err := gpu.Upload(dev, init)
	if err != nil {
		return nil, err
	}
	return &devBuf[T]{b: b, init: append([]T(nil), init...)}, nil
}

func (d *devBuf[T]) arg() any           { return d.b }
func (d *devBuf[T]) reset() error       { return d.b.Write(d.init) }
func (d *devBuf[T]) read() (any, error) { return d.b.Download() }
func (d *devBuf[T]) free() error        { return d.b.Free() }

// asBuffer returns a slice argument as a Buffer.
func asBuffer(a any) (Buffer, bool) {
	switch s := a.(type) {
	case Buffer:
		return s, true
	case []float32:
		return slice[float32](s), true
	case []float64:
		return slice[float64](s), true
	case []int32:
		return slice[int32](s), true
	case []uint32:
		return slice[uint32](s), true
	case []int64:
		return slice[int64](s), true
	case []uint64:
		return slice[uint64](s), true
	case []int16:
		return slice[int16](s), true
	case []uint16:
		return slice[uint16](s), true
	case []int8:
		return slice[int8](s), true
	case []uint8:
		return slice[uint8](s), true
	}
	return nil, false
}

// Output is one buffer argument's contents after the last launch.
type Output struct {
	// Param is the kernel parameter the buffer was passed for.
	Param string `json:"param"`
	// Values is a []T of the buffer's element type.
	Values any `json:"values"`
}

// Launch is what Run returns: the result of the last launch and every
// buffer argument's contents after it.
type Launch struct {
	Result  *gpu.Result `json:"result"`
	Outputs []Output    `json:"outputs"`
	// WarmUps and Runs are the launches made; Ms the mean time of the
	// timed ones (the Result's time is the last one's).
	WarmUps int     `json:"warm_ups"`
	Runs    int     `json:"runs"`
	Ms      float64 `json:"ms"`
	device  gpu.Info
}

// Run compiles src on dev and launches kernel on a one-dimensional grid of
// grid blocks of block threads, binding args to the kernel's parameters
// (see the package documentation).
func Run(dev *gpu.Device, src, kernel string, grid, block int, args ...any) (*Launch, error) {
	return RunWith(dev, src, kernel, Options{Grid: gpu.D1(grid), Block: gpu.D1(block)}, args...)
}

// RunWith is Run with a launch shape of up to three dimensions, dynamic
// shared memory and timing options.
func RunWith(dev *gpu.Device, src, kernel string, o Options, args ...any) (l *Launch, err error) {
	if dev == nil {
		return nil, errors.New("playground: no device")
	}
	if o.File == "" {
		o.File = "cell.cu"
	}
	mod, err := dev.Compile(o.File, []byte(src))
	if err != nil {
		return nil, err
	}
	k, err := mod.Kernel(kernel)
	if err != nil {
		return nil, fmt.Errorf("playground: %v (the source defines %s)", err, strings.Join(mod.KernelNames(), ", "))
	}
	if len(args) != len(k.Func().Params) {
		return nil, fmt.Errorf("playground: %s takes %d arguments (%s), got %d", kernel, len(k.Func().Params), paramList(k), len(args))
	}
	warm, runs, err := counts(dev.Capabilities(), o.WarmUps, o.Runs)
	if err != nil {
		return nil, err
	}
	bound := make([]any, len(args))
	bufs := map[int]deviceBuffer{}
	defer func() {
		for _, b := range bufs {
			b.free()
		}
	}()
	for i, a := range args {
		b, ok := asBuffer(a)
		if !ok {
			bound[i] = a
			continue
		}
		db, err := b.upload(dev)
		if err != nil {
			return nil, fmt.Errorf("playground: argument %d (%s): %v", i+1, k.Func().Params[i].Name, err)
		}
		bufs[i] = db
		bound[i] = db.arg()
	}
	// A launch longer than two seconds shows its progress in the cell.
	cfg := gpu.LaunchConfig{Grid: o.Grid, Block: o.Block, SharedBytes: o.SharedBytes, MaxInstructions: o.MaxInstructions,
		Progress: charts.NewProgress("launch " + kernel)}
	l = &Launch{WarmUps: warm, Runs: runs, device: dev.Info()}
	var sum float64
	for i := range warm + runs {
		if i > 0 {
			for _, b := range bufs {
				if err := b.reset(); err != nil {
					return nil, fmt.Errorf("playground: resetting the buffers: %v", err)
				}
			}
		}
		res, err := k.Launch(cfg, bound...)
		if err != nil {
			return nil, err
		}
		if i >= warm {
			sum += res.Timing.Ms
		}
		l.Result = res
	}
	l.Ms = sum / float64(runs)
	for i := range args {
		b, ok := bufs[i]
		if !ok {
			continue
		}
		v, err := b.read()
		if err != nil {
			return nil, fmt.Errorf("playground: reading %s: %v", k.Func().Params[i].Name, err)
		}
		l.Outputs = append(l.Outputs, Output{Param: k.Func().Params[i].Name, Values: v})
	}
	return l, nil
}

func paramList(k *gpu.Kernel) string {
	var ps []string
	for _, p := range k.Func().Params {
		ps = append(ps, p.T.String()+" "+p.Name)
	}
	return strings.Join(ps, ", ")
}

// counts resolves WarmUps and Runs for a device.
func counts(caps gpu.Capabilities, warm, runs int) (int, int, error) {
	if runs < 0 {
		return 0, 0, fmt.Errorf("playground: Runs %d: want at least 1 (0 for the default)", runs)
	}
	if warm < 0 {
		warm = 0
	} else if warm == 0 && caps.MeasuredTiming {
		warm = 3
	}
	if runs == 0 {
		runs = 1
		if caps.MeasuredTiming {
			runs = 10
		}
	}
	return warm, runs, nil
}

// Values returns the contents of the buffer passed for parameter param
// after the last launch, as a []T, or an error naming the buffers there
// are.
func Values[T gpu.Scalar](l *Launch, param string) ([]T, error) {
	var names []string
	for _, o := range l.Outputs {
		if o.Param == param {
			v, ok := o.Values.([]T)
			if !ok {
				var zero T
				return nil, fmt.Errorf("playground: %s holds %T, not []%T", param, o.Values, zero)
			}
			return v, nil
		}
		names = append(names, o.Param)
	}
	return nil, fmt.Errorf("playground: no buffer was passed for %q (buffers: %s)", param, strings.Join(names, ", "))
}

// timing says how the launch was timed.
func (l *Launch) timing() string {
	t := l.Result.Timing
	if t.Measured {
		return fmt.Sprintf("%.4g ms, %s: the mean of %d launches after %d warm-ups (CUDA events)", l.Ms, t.Source, l.Runs, l.WarmUps)
	}
	return fmt.Sprintf("%.4g ms, %s", l.Ms, t.Source)
}

// OutputsTable returns every buffer's length, first values, sum, minimum
// and maximum.
func (l *Launch) OutputsTable() *charts.Table {
	t := charts.NewTable("Buffers after the launch",
		charts.Column{Header: "parameter"}, charts.Column{Header: "type"}, charts.Column{Header: "length"},
		charts.Column{Header: "first values"}, charts.Column{Header: "sum"},
		charts.Column{Header: "min"}, charts.Column{Header: "max"})
	for _, o := range l.Outputs {
		v := reflect.ValueOf(o.Values)
		n := v.Len()
		var first []string
		var sum, lo, hi float64
		for i := range n {
			x := toFloat(v.Index(i))
			if i < 8 {
				first = append(first, fmt.Sprint(v.Index(i).Interface()))
			}
			sum += x
			if i == 0 || x < lo {
				lo = x
			}
			if i == 0 || x > hi {
				hi = x
			}
		}
		if n > 8 {
			first = append(first, "…")
		}
		t.AddRow(charts.Text(o.Param), charts.Text(v.Type().Elem().String()), charts.Int(int64(n)),
			charts.Text(strings.Join(first, " ")), charts.Number(sum, fmt.Sprintf("%.7g", sum)),
			charts.Number(lo, fmt.Sprintf("%.7g", lo)), charts.Number(hi, fmt.Sprintf("%.7g", hi)))
	}
	t.AddNote("sum, min and max over every element, in float64.")
	return t
}

func toFloat(v reflect.Value) float64 {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return v.Float()
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int())
	}
	return float64(v.Uint())
}

// String returns the launch as text: its result (shape, time and
// breakdown, diagnostics, printf, counters) and its buffers.
func (l *Launch) String() string {
	return fmt.Sprintf("%s\ntimed: %s\n%s", l.Result, l.timing(), l.OutputsTable())
}

// HTML returns the launch as an HTML fragment: the buffers, then the
// result (time and breakdown, diagnostics, printf, counters).
func (l *Launch) HTML() string {
	return fmt.Sprintf(`<div class="warplab-playground">%s<div style="font-family:sans-serif;font-size:13px;margin:4px 0;">timed: %s</div>%s</div>`,
		l.OutputsTable().HTML(), html.EscapeString(l.timing()), l.Result.HTML())
}

// Profile returns the simulator's profile view of the launch (package
// labs/profile), or nil on a GPU, which has no counters.
func (l *Launch) Profile() *profile.View {
	if l.Result.Counters == nil {
		return nil
	}
	return profile.New(l.device, profile.FromResult(l.Result.Kernel, l.Result))
}

// BreakdownChart returns the modelled time by resource, or nil on a GPU.
func (l *Launch) BreakdownChart() *charts.BarChart {
	if p := l.Profile(); p != nil {
		return p.BreakdownChart()
	}
	return nil
}

// MixChart returns the instruction mix by class, or nil on a GPU.
func (l *Launch) MixChart() *charts.BarChart {
	if p := l.Profile(); p != nil {
		return p.MixChart()
	}
	return nil
}
