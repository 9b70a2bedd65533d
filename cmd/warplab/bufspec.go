package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/warplab/warplab/gpu"
)

// elemTypes are the TYPE names of --buf and --scalar.
var elemTypes = map[string]bool{"f32": true, "f64": true, "i32": true, "u32": true, "i64": true, "u64": true,
	"i8": true, "u8": true, "bool": true}

const typeNames = "f32, f64, i32, u32, i64, u64, i8, u8, bool"

type initSpec struct {
	kind   string // zero, iota, mod, const, uniform, randint
	a, b   float64
	k      int64
	seed   uint64
	cint   int64
	cfloat float64
	cuint  uint64
}

type bufSpec struct {
	name  string
	typ   string
	count int
	init  initSpec
	null  bool // NAME=null: a null pointer
}

type scalarSpec struct {
	name  string
	value any
}

type printSpec struct {
	name  string
	count int // 0: all
}

func cutName(s string) (string, string, error) {
	name, rest, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return "", "", fmt.Errorf("want NAME=...")
	}
	return name, rest, nil
}

func parseBuf(s string) (bufSpec, error) {
	var b bufSpec
	name, rest, err := cutName(s)
	if err != nil {
		return b, fmt.Errorf("want NAME=TYPE:COUNT:INIT")
	}
	if rest == "null" {
		return bufSpec{name: name, null: true}, nil
	}
	parts := strings.SplitN(rest, ":", 3)
	if len(parts) < 2 {
		return b, fmt.Errorf("want NAME=TYPE:COUNT:INIT (INIT defaults to zero)")
	}
	b.name, b.typ = name, parts[0]
	if !elemTypes[b.typ] {
		return b, fmt.Errorf("unknown type %q (types: %s)", b.typ, typeNames)
	}
	b.count, err = strconv.Atoi(parts[1])
	if err != nil || b.count < 0 {
		return b, fmt.Errorf("count %q is not a non-negative integer", parts[1])
	}
	init := "zero"
	if len(parts) == 3 {
		init = parts[2]
	}
	b.init, err = parseInit(init, b.typ)
	return b, err
}

func parseInit(s, typ string) (initSpec, error) {
	f := strings.Split(s, ":")
	in := initSpec{kind: f[0]}
	argc := map[string]int{"zero": 0, "iota": 0, "mod": 1, "const": 1, "uniform": 3, "randint": 3}
	n, ok := argc[f[0]]
	if !ok {
		return in, fmt.Errorf("unknown INIT %q (zero, iota, mod:K, const:V, uniform:LO:HI:SEED, randint:LO:HI:SEED)", s)
	}
	if len(f)-1 != n {
		return in, fmt.Errorf("INIT %s takes %d values, got %d", f[0], n, len(f)-1)
	}
	var err error
	switch in.kind {
	case "mod":
		in.k, err = strconv.ParseInt(f[1], 10, 64)
		if err == nil && in.k <= 0 {
			err = fmt.Errorf("K must be positive")
		}
	case "const":
		var v any
		v, err = parseValue(typ, f[1])
		if err == nil {
			switch v := v.(type) {
			case float32:
				in.cfloat = float64(v)
			case float64:
				in.cfloat = v
			case int8:
				in.cint = int64(v)
			case int32:
				in.cint = int64(v)
			case int64:
				in.cint = v
			case uint8:
				in.cuint = uint64(v)
			case uint32:
				in.cuint = uint64(v)
			case uint64:
				in.cuint = v
			}
		}
	case "uniform", "randint":
		if in.a, err = strconv.ParseFloat(f[1], 64); err != nil {
			break
		}
		if in.b, err = strconv.ParseFloat(f[2], 64); err != nil {
			break
		}
		if in.seed, err = strconv.ParseUint(f[3], 10, 64); err != nil {
			break
		}
		if typ == "bool" && (in.kind != "randint" || in.a < 0 || in.b > 1) {
			err = fmt.Errorf("a bool buffer takes zero, const:true|false, mod:2 or randint:0:1:SEED")
		}
		if in.kind == "uniform" && typ != "f32" && typ != "f64" {
			err = fmt.Errorf("uniform makes floats; use randint for %s", typ)
		}
		if in.b < in.a {
			err = fmt.Errorf("HI %v is below LO %v", in.b, in.a)
		}
		if in.kind == "randint" && (in.a != math.Trunc(in.a) || in.b != math.Trunc(in.b)) {
			err = fmt.Errorf("randint bounds must be integers")
		}
	}
	if err == nil && typ == "bool" && (in.kind == "iota" || in.kind == "mod" && in.k > 2) {
		err = fmt.Errorf("a bool buffer takes zero, const:true|false, mod:2 or randint:0:1:SEED")
	}
	if err != nil {
		return in, fmt.Errorf("INIT %s: %w", s, err)
	}
	return in, nil
}

// parseValue parses a scalar of a TYPE into the Go type of that width.
func parseValue(typ, s string) (any, error) {
	switch typ {
	case "f32":
		f, err := strconv.ParseFloat(s, 32)
		return float32(f), err
	case "f64":
		return strconv.ParseFloat(s, 64)
	case "i32":
		i, err := strconv.ParseInt(s, 0, 32)
		return int32(i), err
	case "u32":
		u, err := strconv.ParseUint(s, 0, 32)
		return uint32(u), err
	case "i64":
		return strconv.ParseInt(s, 0, 64)
	case "u64":
		return strconv.ParseUint(s, 0, 64)
	case "i8":
		i, err := strconv.ParseInt(s, 0, 8)
		return int8(i), err
	case "u8":
		u, err := strconv.ParseUint(s, 0, 8)
		return uint8(u), err
	case "bool":
		b, err := strconv.ParseBool(s)
		if b {
			return uint8(1), err
		}
		return uint8(0), err
	}
	return nil, fmt.Errorf("unknown type %q (types: %s)", typ, typeNames)
}

func parseScalar(s string) (scalarSpec, error) {
	name, rest, err := cutName(s)
	if err != nil {
		return scalarSpec{}, fmt.Errorf("want NAME=TYPE:VALUE")
	}
	typ, val, ok := strings.Cut(rest, ":")
	if !ok {
		return scalarSpec{}, fmt.Errorf("want NAME=TYPE:VALUE")
	}
	v, err := parseValue(typ, val)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok {
			err = fmt.Errorf("%q is not a valid %s (%v)", val, typ, ne.Err)
		}
		return scalarSpec{}, err
	}
	return scalarSpec{name: name, value: v}, nil
}

func parsePrint(s string) (printSpec, error) {
	name, k, ok := strings.Cut(s, ":")
	p := printSpec{name: name}
	if name == "" {
		return p, fmt.Errorf("want NAME[:K]")
	}
	if ok {
		n, err := strconv.Atoi(k)
		if err != nil || n < 1 {
			return p, fmt.Errorf("K %q is not a positive integer", k)
		}
		p.count = n
	}
	return p, nil
}

// hostBuffer is a device buffer of any element type.
type hostBuffer interface {
	arg() any
	values(k int) ([]string, error)
	// reset writes the buffer's initial contents again.
	reset() error
	free()
}

type typedBuffer[T gpu.Scalar] struct {
	b    *gpu.Buffer[T]
	init initSpec // the initial contents, generated again for reset
	bits int      // 32 or 64, for formatting floats
}

func (t *typedBuffer[T]) arg() any     { return t.b }
func (t *typedBuffer[T]) free()        { t.b.Free() }
func (t *typedBuffer[T]) reset() error { return t.write(false) }

func (t *typedBuffer[T]) values(k int) ([]string, error) {
	n := t.b.Len()
	if k > 0 && k < n {
		n = k
	}
	vals := make([]T, n)
	if err := t.b.Read(vals); err != nil {
		return nil, err
	}
	out := make([]string, n)
	for i, v := range vals {
		switch x := any(v).(type) {
		case float32:
			out[i] = formatValue(float64(x), 32)
		case float64:
			out[i] = formatValue(x, 64)
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	return out, nil
}

// nullBuffer is --buf NAME=null: a null pointer argument.
type nullBuffer struct{}

func (nullBuffer) arg() any     { return nil }
func (nullBuffer) free()        {}
func (nullBuffer) reset() error { return nil }
func (nullBuffer) values(int) ([]string, error) {
	return nil, fmt.Errorf("a null pointer has no values")
}

func (s bufSpec) make(dev *gpu.Device) (hostBuffer, error) {
	if s.null {
		return nullBuffer{}, nil
	}
	switch s.typ {
	case "i8":
		return fill[int8](dev, s, 0)
	case "u8", "bool":
		return fill[uint8](dev, s, 0)
	case "f32":
		return fill[float32](dev, s, 32)
	case "f64":
		return fill[float64](dev, s, 64)
	case "i32":
		return fill[int32](dev, s, 0)
	case "u32":
		return fill[uint32](dev, s, 0)
	case "i64":
		return fill[int64](dev, s, 0)
	case "u64":
		return fill[uint64](dev, s, 0)
	}
	return nil, fmt.Errorf("unknown type %q", s.typ)
}

// fill allocates the buffer s describes and writes its initial contents.
// The device memory comes first, so a buffer the device cannot hold fails
// before the host spends anything on it; the contents are then generated
// a piece at a time (fillChunk elements), so a buffer costs its size in
// device memory plus one small host slice, and reset generates them again
// rather than keeping a copy.
func fill[T gpu.Scalar](dev *gpu.Device, s bufSpec, bits int) (hostBuffer, error) {
	b, err := gpu.NewBuffer[T](dev, s.count)
	if err != nil {
		return nil, err
	}
	t := &typedBuffer[T]{b: b, init: s.init, bits: bits}
	if err := t.write(true); err != nil {
		b.Free()
		return nil, err
	}
	return t, nil
}

// fillChunk is the elements fill generates at a time.
const fillChunk = 1 << 16

// write writes the initial contents; fresh says the buffer is still the
// zeroed memory NewBuffer returned, which the zero INIT leaves as it is.
func (t *typedBuffer[T]) write(fresh bool) error {
	in := t.init
	if in.kind == "zero" {
		if fresh {
			return nil
		}
		return t.b.Zero()
	}
	gen := generator[T](in)
	n := t.b.Len()
	chunk := make([]T, min(n, fillChunk))
	for i := 0; i < n; i += len(chunk) {
		c := chunk[:min(len(chunk), n-i)]
		for j := range c {
			c[j] = gen(i + j)
		}
		if err := t.b.WriteAt(i, c); err != nil {
			return err
		}
	}
	return nil
}

// generator returns element i of the contents in describes; it must be
// called for i = 0, 1, 2, ... in order (uniform and randint draw from one
// seeded stream).
func generator[T gpu.Scalar](in initSpec) func(i int) T {
	switch in.kind {
	case "iota":
		return func(i int) T { return T(i) }
	case "mod":
		return func(i int) T { return T(int64(i) % in.k) }
	case "const":
		var v T
		switch any(v).(type) {
		case float32, float64:
			v = T(in.cfloat)
		case int8, int32, int64:
			v = T(in.cint)
		default:
			v = T(in.cuint)
		}
		return func(int) T { return v }
	case "uniform":
		rng := rand.New(rand.NewPCG(in.seed, in.seed^0x5eed))
		return func(int) T { return T(in.a + (in.b-in.a)*rng.Float64()) }
	case "randint":
		rng := rand.New(rand.NewPCG(in.seed, in.seed^0x5eed))
		span := int64(in.b) - int64(in.a) + 1
		return func(int) T { return T(int64(in.a) + rng.Int64N(span)) }
	}
	return func(int) T { return 0 }
}
