package main

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
)

// elemTypes are the TYPE names of --buf and --scalar.
var elemTypes = map[string]bool{"f32": true, "f64": true, "i32": true, "u32": true, "i64": true, "u64": true,
	"i8": true, "u8": true, "bool": true}

const typeNames = "f32, f64, i32, u32, i64, u64, i8, u8, bool"

type initSpec struct {
	kind   string  // zero, iota, mod, const, uniform, randint
	a, b   float64 // uniform's LO and HI
	k      int64
	seed   uint64
	cint   int64
	cfloat float64
	cuint  uint64
	// randint's LO and the number of values from LO to HI (0 for all
	// 2^64), as two's-complement bits: LO + draw wraps as the type does.
	lo, span uint64
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
	b.init, err = parseInit(init, b.typ, b.count)
	return b, err
}

// elemRange is the range of values of a TYPE.
type elemRange struct {
	min  *big.Int // integers: the least and greatest value
	max  *big.Int
	fmax float64 // floats: the greatest finite magnitude
	text string  // the range in words
}

func rangeOf(typ string) elemRange {
	ints := func(min, max *big.Int) elemRange {
		return elemRange{min: min, max: max, text: fmt.Sprintf("%v to %v", min, max)}
	}
	switch typ {
	case "f32":
		return elemRange{fmax: math.MaxFloat32, text: "finite, magnitude at most 3.4028235e+38"}
	case "f64":
		return elemRange{fmax: math.MaxFloat64, text: "finite, magnitude at most 1.7976931348623157e+308"}
	case "i8":
		return ints(big.NewInt(math.MinInt8), big.NewInt(math.MaxInt8))
	case "u8":
		return ints(big.NewInt(0), big.NewInt(math.MaxUint8))
	case "bool":
		return ints(big.NewInt(0), big.NewInt(1))
	case "i32":
		return ints(big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32))
	case "u32":
		return ints(big.NewInt(0), big.NewInt(math.MaxUint32))
	case "i64":
		return ints(big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64))
	}
	return ints(big.NewInt(0), new(big.Int).SetUint64(math.MaxUint64)) // u64
}

// contains reports whether the integer v is a value of the type.
func (r elemRange) contains(v *big.Int) bool {
	if r.min == nil {
		f, _ := new(big.Float).SetInt(v).Float64()
		return math.Abs(f) <= r.fmax
	}
	return v.Cmp(r.min) >= 0 && v.Cmp(r.max) <= 0
}

// outOfRange is the error for value (as written) of what, outside typ.
func outOfRange(what, value, typ string) error {
	return fmt.Errorf("%s %s is out of range for %s (%s)", what, value, typ, rangeOf(typ).text)
}

// parseInit reads an INIT for count elements of typ, checking that every
// value it makes is one of typ.
func parseInit(s, typ string, count int) (initSpec, error) {
	in, err := parseInitValues(s, typ, count)
	if err != nil {
		return in, fmt.Errorf("INIT %s: %w", s, err)
	}
	return in, nil
}

const boolInits = "a bool buffer takes zero, const:true|false, mod:2 or randint:0:1:SEED"

func parseInitValues(s, typ string, count int) (initSpec, error) {
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
	r := rangeOf(typ)
	switch in.kind {
	case "iota":
		if typ == "bool" {
			return in, fmt.Errorf(boolInits)
		}
		if last := big.NewInt(int64(count) - 1); count > 0 && !r.contains(last) {
			return in, fmt.Errorf("the last value, %v, is out of range for %s (%s): use mod:K to wrap", last, typ, r.text)
		}
	case "mod":
		var err error
		if in.k, err = strconv.ParseInt(f[1], 10, 64); err != nil {
			return in, fmt.Errorf("K %q is not an integer", f[1])
		}
		if in.k <= 0 {
			return in, fmt.Errorf("K must be positive")
		}
		if typ == "bool" && in.k > 2 {
			return in, fmt.Errorf(boolInits)
		}
		if last := big.NewInt(min(in.k, int64(count)) - 1); count > 0 && !r.contains(last) {
			return in, fmt.Errorf("K %d makes values up to %v, out of range for %s (%s)", in.k, last, typ, r.text)
		}
	case "const":
		v, err := parseValue(typ, f[1])
		if err != nil {
			return in, valueError("V", f[1], typ, err)
		}
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
	case "uniform":
		if typ != "f32" && typ != "f64" {
			return in, fmt.Errorf("uniform makes floats; use randint for %s", typ)
		}
		var err error
		if in.a, err = parseBound("LO", f[1], typ, r); err != nil {
			return in, err
		}
		if in.b, err = parseBound("HI", f[2], typ, r); err != nil {
			return in, err
		}
		if in.b < in.a {
			return in, fmt.Errorf("HI %v is below LO %v", in.b, in.a)
		}
		if math.IsInf(in.b-in.a, 0) {
			return in, fmt.Errorf("HI - LO is %v - %v, not a finite float64: narrow the range", in.b, in.a)
		}
	case "randint":
		lo, err := parseIntBound("LO", f[1], typ, r)
		if err != nil {
			return in, err
		}
		hi, err := parseIntBound("HI", f[2], typ, r)
		if err != nil {
			return in, err
		}
		if typ == "bool" && (lo.Sign() < 0 || hi.Cmp(big.NewInt(1)) > 0) {
			return in, fmt.Errorf(boolInits)
		}
		if hi.Cmp(lo) < 0 {
			return in, fmt.Errorf("HI %v is below LO %v", hi, lo)
		}
		in.a, _ = new(big.Float).SetInt(lo).Float64()
		in.b, _ = new(big.Float).SetInt(hi).Float64()
		in.lo = bits64(lo)
		in.span = bits64(hi) - in.lo + 1
	}
	if in.kind == "uniform" || in.kind == "randint" {
		var err error
		if in.seed, err = strconv.ParseUint(f[3], 10, 64); err != nil {
			return in, fmt.Errorf("SEED %q is not an integer from 0 to %d", f[3], uint64(math.MaxUint64))
		}
	}
	return in, nil
}

// parseBound reads uniform's LO or HI, a finite value of the float typ.
func parseBound(what, s, typ string, r elemRange) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, outOfRange(what, s, typ)
	case err != nil:
		return 0, fmt.Errorf("%s %q is not a number", what, s)
	case math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > r.fmax:
		return 0, outOfRange(what, s, typ)
	}
	return v, nil
}

// parseIntBound reads randint's LO or HI, an integer value of typ (for
// a float type, one within the int64 range).
func parseIntBound(what, s, typ string, r elemRange) (*big.Int, error) {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return nil, fmt.Errorf("randint bounds must be integers: %s is %s", what, s)
		}
		return nil, fmt.Errorf("%s %q is not an integer", what, s)
	}
	if !r.contains(v) {
		return nil, outOfRange(what, s, typ)
	}
	if r.min == nil && !v.IsInt64() {
		return nil, fmt.Errorf("%s %s: randint for %s draws from the int64 range (%d to %d)", what, s, typ, int64(math.MinInt64), int64(math.MaxInt64))
	}
	return v, nil
}

// bits64 is v's two's-complement bits; v is within the int64 or the
// uint64 range.
func bits64(v *big.Int) uint64 {
	if v.IsInt64() {
		return uint64(v.Int64())
	}
	return v.Uint64()
}

// valueError explains err, parseValue's error for s: a value out of the
// range of typ (an integer, or a float too large) says so and gives the
// range.
func valueError(what, s, typ string, err error) error {
	var ne *strconv.NumError
	if !errors.As(err, &ne) {
		return err
	}
	_, isInt := new(big.Int).SetString(strings.TrimPrefix(strings.ToLower(s), "+"), 0)
	if errors.Is(err, strconv.ErrRange) || isInt && typ != "bool" {
		return outOfRange(what, s, typ)
	}
	return fmt.Errorf("%s %q is not a valid %s (%v)", what, s, typ, ne.Err)
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
		return scalarSpec{}, valueError("VALUE", val, typ, err)
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
		return func(int) T { return randint[T](rng, in.lo, in.span) }
	}
	return func(int) T { return 0 }
}

// defineSpec is one --define: a macro and its value.
type defineSpec struct{ name, value string }

// parseDefine reads --define NAME=VALUE, or NAME alone, which defines
// NAME as 1 as nvcc -D NAME does (NAME= defines it as empty).
func parseDefine(s string) (defineSpec, error) {
	name, value, ok := strings.Cut(s, "=")
	if !ok {
		value = "1"
	}
	if !cudac.IsIdentifier(name) {
		what := fmt.Sprintf("%q is not a macro name", name)
		if name == "" {
			what = "the macro name is empty"
		}
		return defineSpec{}, fmt.Errorf("--define %s: %s: want NAME or NAME=VALUE, NAME a letter or '_' then letters, digits or '_'", s, what)
	}
	if strings.ContainsAny(value, "\n\r") {
		return defineSpec{}, fmt.Errorf("--define %s: the value spans lines: a macro's value is one line", strings.ReplaceAll(strings.ReplaceAll(s, "\n", `\n`), "\r", `\r`))
	}
	return defineSpec{name: name, value: value}, nil
}

// parseDefines reads every --define, and the cudac options they make.
func parseDefines(list []string) ([]defineSpec, []cudac.Option, error) {
	var specs []defineSpec
	opts := []cudac.Option{cudac.DefineFlag("--define")}
	seen := map[string]string{}
	for _, s := range list {
		d, err := parseDefine(s)
		if err != nil {
			return nil, nil, err
		}
		if prev, dup := seen[d.name]; dup && prev != d.value {
			return nil, nil, fmt.Errorf("--define %s: %s is already defined as %q by an earlier --define", s, d.name, prev)
		}
		seen[d.name] = d.value
		specs = append(specs, d)
		opts = append(opts, cudac.Define(d.name, d.value))
	}
	return specs, opts, nil
}

// randint draws an integer from the span values from lo (two's-complement
// bits; span 0 for all 2^64) as a T.
func randint[T gpu.Scalar](rng *rand.Rand, lo, span uint64) T {
	var d uint64
	switch {
	case span == 0:
		d = rng.Uint64()
	case span <= math.MaxInt64:
		d = uint64(rng.Int64N(int64(span))) // the draws of earlier versions
	default:
		d = rng.Uint64N(span)
	}
	v := lo + d
	var zero T
	switch any(zero).(type) {
	case float32, float64, int8, int32, int64:
		return T(int64(v))
	}
	return T(v)
}
