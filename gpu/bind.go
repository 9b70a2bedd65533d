package gpu

import (
	"fmt"
	"math"
	"reflect"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
)

// bind checks args against fn's parameters and converts them for the
// backend.
func bind(fn *cudac.Func, args []any) ([]driver.ArgValue, error) {
	// Trailing parameters with default arguments may be left out.
	required := len(fn.Params)
	for required > 0 && required <= len(fn.Defaults) && fn.Defaults[required-1] != nil {
		required--
	}
	if len(args) > len(fn.Params) || len(args) < required {
		return nil, fmt.Errorf("gpu: launch %s: %d arguments for %d parameters: %s",
			fn.Name, len(args), len(fn.Params), fn.Signature())
	}
	vals := make([]driver.ArgValue, len(fn.Params))
	for i := len(args); i < len(fn.Params); i++ {
		k := fn.Defaults[i]
		vals[i] = driver.ArgValue{Param: fn.Params[i], Bits: uint64(k.Int) & sizeMask(k.T.Size())}
		switch k.T.Kind {
		case cudac.Float32:
			vals[i].Bits = uint64(math.Float32bits(float32(k.Float)))
		case cudac.Float64:
			vals[i].Bits = math.Float64bits(k.Float)
		}
	}
	for i, a := range args {
		p := fn.Params[i]
		v, err := bindOne(p, a)
		if err != nil {
			return nil, fmt.Errorf("gpu: launch %s: argument %d (%s %s): %w", fn.Name, i+1, p.T, p.Name, err)
		}
		vals[i] = v
	}
	return vals, nil
}

func bindOne(p *cudac.Var, a any) (driver.ArgValue, error) {
	v := driver.ArgValue{Param: p}
	t := p.T
	if t.Kind == cudac.Pointer {
		if a == nil {
			return v, nil // a null pointer
		}
		pa, ok := a.(pointerArg)
		if !ok {
			return v, fmt.Errorf("got %s, want a buffer (%s)", argDesc(a), t)
		}
		ptr := pa.pointer()
		if ptr.mem == nil {
			return v, fmt.Errorf("buffer has been freed")
		}
		elem := t.Elem
		// Pointers to void and to structs accept any buffer, like cudaMalloc'd memory.
		if elem.Kind != cudac.Void && elem.Kind != cudac.Struct && !sameRepr(elem.Kind, ptr.elem) {
			return v, fmt.Errorf("got a buffer of %s, want %s", ptr.elem, elem)
		}
		v.Mem, v.Offset = ptr.mem, ptr.off
		return v, nil
	}
	if !t.IsArithmetic() {
		return v, fmt.Errorf("parameters of type %s are not supported", t)
	}
	bits, err := scalarBits(t, a)
	if err != nil {
		return v, err
	}
	v.Bits = bits
	return v, nil
}

// sameRepr reports whether a buffer of kind b may bind to a pointer to a.
// char and unsigned char buffers are interchangeable with bool.
func sameRepr(a, b cudac.Kind) bool {
	if a == b {
		return true
	}
	byteKind := func(k cudac.Kind) bool { return k == cudac.Bool || k == cudac.Int8 || k == cudac.Uint8 }
	return byteKind(a) && byteKind(b)
}

// scalarBits converts a Go number to the parameter type t, refusing values
// that would change (a negative to an unsigned parameter, a fraction to an
// integer one, an integer too large to fit). A float64 may be passed to a
// float parameter: it is rounded, as C would.
func scalarBits(t *cudac.Type, a any) (uint64, error) {
	rv := reflect.ValueOf(a)
	if !rv.IsValid() {
		return 0, fmt.Errorf("got nil, want %s", t)
	}
	switch rv.Kind() {
	case reflect.Bool:
		if t.Kind != cudac.Bool {
			return 0, fmt.Errorf("got bool, want %s", t)
		}
		if rv.Bool() {
			return 1, nil
		}
		return 0, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intBits(t, rv.Int(), true, a)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			if t.Kind == cudac.Uint64 {
				return u, nil
			}
			return 0, fmt.Errorf("%v does not fit %s", a, t)
		}
		return intBits(t, int64(u), false, a)
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		switch t.Kind {
		case cudac.Float32:
			return uint64(math.Float32bits(float32(f))), nil
		case cudac.Float64:
			return math.Float64bits(f), nil
		}
		return 0, fmt.Errorf("got %s %v, want %s", argDesc(a), a, t)
	}
	return 0, fmt.Errorf("got %s, want %s", argDesc(a), t)
}

func intBits(t *cudac.Type, i int64, signed bool, a any) (uint64, error) {
	switch t.Kind {
	case cudac.Float32:
		f := float32(i)
		if int64(f) != i {
			return 0, fmt.Errorf("%v is not exactly representable as float", a)
		}
		return uint64(math.Float32bits(f)), nil
	case cudac.Float64:
		f := float64(i)
		if int64(f) != i {
			return 0, fmt.Errorf("%v is not exactly representable as double", a)
		}
		return math.Float64bits(f), nil
	case cudac.Bool:
		if i != 0 && i != 1 {
			return 0, fmt.Errorf("%v does not fit bool", a)
		}
		return uint64(i), nil
	}
	var lo, hi int64
	switch t.Kind {
	case cudac.Int8:
		lo, hi = math.MinInt8, math.MaxInt8
	case cudac.Uint8:
		lo, hi = 0, math.MaxUint8
	case cudac.Int16:
		lo, hi = math.MinInt16, math.MaxInt16
	case cudac.Uint16:
		lo, hi = 0, math.MaxUint16
	case cudac.Int32:
		lo, hi = math.MinInt32, math.MaxInt32
	case cudac.Uint32:
		lo, hi = 0, math.MaxUint32
	case cudac.Int64:
		lo, hi = math.MinInt64, math.MaxInt64
	case cudac.Uint64:
		lo, hi = 0, math.MaxInt64
	default:
		return 0, fmt.Errorf("got %s, want %s", argDesc(a), t)
	}
	if i < lo || i > hi {
		return 0, fmt.Errorf("%v does not fit %s", a, t)
	}
	return uint64(i) & sizeMask(t.Size()), nil
}

func sizeMask(size int64) uint64 {
	if size >= 8 {
		return math.MaxUint64
	}
	return 1<<(8*uint(size)) - 1
}

// argDesc names the type of a launch argument as CUDA spells it: a
// buffer as its pointer type ("unsigned long long*"), a Go number as the
// CUDA type of its width ("int" for int32, "long long" for int); a value
// that is neither as a Go type.
func argDesc(a any) string {
	if pa, ok := a.(pointerArg); ok {
		return pa.pointer().elem.String() + "*"
	}
	rv := reflect.ValueOf(a)
	if !rv.IsValid() {
		return "nil"
	}
	switch rv.Kind() {
	case reflect.Bool:
		return "bool"
	case reflect.Int8:
		return "signed char"
	case reflect.Uint8:
		return "unsigned char"
	case reflect.Int16:
		return "short"
	case reflect.Uint16:
		return "unsigned short"
	case reflect.Int32:
		return "int"
	case reflect.Uint32:
		return "unsigned int"
	case reflect.Int, reflect.Int64:
		return "long long"
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return "unsigned long long"
	case reflect.Float32:
		return "float"
	case reflect.Float64:
		return "double"
	}
	return fmt.Sprintf("a Go %T, which is no CUDA type", a)
}
