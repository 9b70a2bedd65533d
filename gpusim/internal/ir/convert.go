package ir

import (
	"math"

	"github.com/warplab/warplab/cudac"
)

// ConvertBits converts a register value of kind from to kind to with C's
// rules as nvcc implements them: integers truncate and re-extend; floats
// round to nearest; float to integer truncates toward zero and saturates at
// the target's range, with NaN giving 0 (PTX cvt.rzi); anything to bool tests
// != 0.
func ConvertBits(to, from cudac.Kind, x uint64) uint64 {
	if to == cudac.Pointer {
		to = cudac.Uint64
	}
	if from == cudac.Pointer {
		from = cudac.Uint64
	}
	switch from {
	case cudac.Float32, cudac.Float64:
		var f float64
		if from == cudac.Float32 {
			f = float64(math.Float32frombits(uint32(x)))
		} else {
			f = math.Float64frombits(x)
		}
		return FromFloat(to, f)
	}
	// An integer source: its value as signed or unsigned 64 bits.
	var s int64
	var u uint64
	signed := false
	switch from {
	case cudac.Bool, cudac.Uint8, cudac.Uint16, cudac.Uint32:
		u = uint64(uint32(x))
	case cudac.Int8, cudac.Int16, cudac.Int32:
		s, signed = int64(int32(uint32(x))), true
	case cudac.Int64:
		s, signed = int64(x), true
	default:
		u = x
	}
	if signed {
		u = uint64(s)
	}
	switch to {
	case cudac.Bool:
		if u != 0 {
			return 1
		}
		return 0
	case cudac.Float32:
		if signed {
			return uint64(math.Float32bits(float32(s)))
		}
		return uint64(math.Float32bits(float32(u)))
	case cudac.Float64:
		if signed {
			return math.Float64bits(float64(s))
		}
		return math.Float64bits(float64(u))
	}
	return Canon(to, u)
}

// Canon truncates an integer to kind k's width and extends it to the
// register representation.
func Canon(k cudac.Kind, u uint64) uint64 {
	switch k {
	case cudac.Bool:
		if u != 0 {
			return 1
		}
		return 0
	case cudac.Int8:
		return uint64(uint32(int32(int8(u))))
	case cudac.Uint8:
		return uint64(uint8(u))
	case cudac.Int16:
		return uint64(uint32(int32(int16(u))))
	case cudac.Uint16:
		return uint64(uint16(u))
	case cudac.Int32, cudac.Uint32:
		return uint64(uint32(u))
	}
	return u
}

// FromFloat converts a float (exactly representable in float64) to kind k.
// f32 says the source was a float, for float-to-float conversions.
func FromFloat(k cudac.Kind, f float64) uint64 {
	switch k {
	case cudac.Float32:
		return uint64(math.Float32bits(float32(f)))
	case cudac.Float64:
		return math.Float64bits(f)
	case cudac.Bool:
		if f != 0 || math.IsNaN(f) {
			return 1
		}
		return 0
	}
	if math.IsNaN(f) {
		return 0
	}
	t := math.Trunc(f)
	switch k {
	case cudac.Uint64:
		if t <= 0 {
			return 0
		}
		if t >= 18446744073709551616.0 {
			return math.MaxUint64
		}
		return uint64(t)
	case cudac.Int64:
		if t <= -9223372036854775808.0 {
			return 1 << 63
		}
		if t >= 9223372036854775808.0 {
			return math.MaxInt64
		}
		return uint64(int64(t))
	}
	lo, hi := intRange(k)
	t = math.Max(lo, math.Min(hi, t))
	return Canon(k, uint64(int64(t)))
}

func intRange(k cudac.Kind) (float64, float64) {
	switch k {
	case cudac.Int8:
		return math.MinInt8, math.MaxInt8
	case cudac.Uint8:
		return 0, math.MaxUint8
	case cudac.Int16:
		return math.MinInt16, math.MaxInt16
	case cudac.Uint16:
		return 0, math.MaxUint16
	case cudac.Int32:
		return math.MinInt32, math.MaxInt32
	case cudac.Uint32:
		return 0, math.MaxUint32
	}
	return math.Inf(-1), math.Inf(1)
}
