package engine

//go:generate go run gen_arith.go

import (
	"math"
)

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Integer division and remainder by zero do not trap on a GPU: the result
// is all ones (as the hardware's division sequence gives) and the
// remainder is the dividend.
func divI32(x, y int32) int32 {
	if y == 0 {
		return -1
	}
	return x / y
}
func divU32(x, y uint32) uint32 {
	if y == 0 {
		return math.MaxUint32
	}
	return x / y
}
func divI64(x, y int64) int64 {
	if y == 0 {
		return -1
	}
	return x / y
}
func divU64(x, y uint64) uint64 {
	if y == 0 {
		return math.MaxUint64
	}
	return x / y
}
func remI32(x, y int32) int32 {
	if y == 0 {
		return x
	}
	return x % y
}
func remU32(x, y uint32) uint32 {
	if y == 0 {
		return x
	}
	return x % y
}
func remI64(x, y int64) int64 {
	if y == 0 {
		return x
	}
	return x % y
}
func remU64(x, y uint64) uint64 {
	if y == 0 {
		return x
	}
	return x % y
}

func absI32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}
func absU32(x uint32) uint32 { return x }
func absI64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
func absU64(x uint64) uint64 { return x }

// fmin and fmax follow C's fminf/fmaxf: a NaN operand yields the other.
func fminF32(x, y float32) float32 {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case x == 0 && y == 0:
		if math.Signbit(float64(x)) {
			return x
		}
		return y
	case x < y:
		return x
	}
	return y
}
func fmaxF32(x, y float32) float32 {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case x == 0 && y == 0:
		if math.Signbit(float64(x)) {
			return y
		}
		return x
	case x > y:
		return x
	}
	return y
}
func fminF64(x, y float64) float64 {
	if x != x {
		return y
	}
	if y != y {
		return x
	}
	return math.Min(x, y)
}
func fmaxF64(x, y float64) float64 {
	if x != x {
		return y
	}
	if y != y {
		return x
	}
	return math.Max(x, y)
}

// Float to integer conversions truncate toward zero and saturate, as PTX
// cvt.rzi does. A NaN gives what the H200 gives
// (calibration/evidence/2026-11-30-h200-nan-conversions.txt): 0 from a float to a
// 32-bit integer, the bit pattern 0x80000000 from a double to a 32-bit
// integer (d2I32, d2U32), and 0x8000000000000000 from either to a 64-bit
// integer.
func f2I32(f float64) int32 {
	switch {
	case f != f:
		return 0
	case f <= math.MinInt32:
		return math.MinInt32
	case f >= math.MaxInt32:
		return math.MaxInt32
	}
	return int32(f)
}
func f2U32(f float64) uint32 {
	switch {
	case f != f, f <= 0:
		return 0
	case f >= math.MaxUint32:
		return math.MaxUint32
	}
	return uint32(f)
}
func d2I32(f float64) int32 {
	if f != f {
		return math.MinInt32
	}
	return f2I32(f)
}
func d2U32(f float64) uint32 {
	if f != f {
		return 1 << 31
	}
	return f2U32(f)
}
func f2I64(f float64) int64 {
	switch {
	case f != f:
		return math.MinInt64
	case f <= -9223372036854775808.0:
		return math.MinInt64
	case f >= 9223372036854775808.0:
		return math.MaxInt64
	}
	return int64(f)
}
func f2U64(f float64) uint64 {
	switch {
	case f != f:
		return 1 << 63
	case f <= 0:
		return 0
	case f >= 18446744073709551616.0:
		return math.MaxUint64
	}
	return uint64(f)
}

// fma32 computes a*b+c with a single rounding to float32. The product of two
// floats is exact in float64; the sum is computed with round-to-odd, which
// makes the final rounding to float32 correct (53 >= 24 + 2 bits).
//
// Round-to-odd changes only the last bit of the sum, and only when that
// bit is 0: the float32 rounding of the sum can then differ only where
// the sum lies exactly halfway between two float32s (its low 29 bits
// 1<<28, for a float32-normal magnitude). Every other sum, Inf and NaN
// included, rounds straight to the same float32, with no TwoSum.
func fma32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	cc := float64(c)
	s := p + cc
	if u := math.Float64bits(s); u>>52&0x7ff >= 1023-126 && u&(1<<29-1) != 1<<28 {
		return float32(s)
	}
	if math.IsInf(s, 0) || s != s {
		return float32(s)
	}
	// TwoSum: s + e == p + cc exactly.
	bb := s - p
	e := (p - (s - bb)) + (cc - bb)
	if e != 0 {
		u := math.Float64bits(s)
		if u&1 == 0 {
			if (e > 0) == (s > 0) {
				u++
			} else {
				u--
			}
			s = math.Float64frombits(u)
		}
	}
	return float32(s)
}

// ftz32 flushes a subnormal float to a zero of the same sign, as the
// global float atomic add does (PTX atom.add.f32 flushes subnormal inputs
// and results).
func ftz32(f float32) float32 {
	if b := math.Float32bits(f); b&0x7f80_0000 == 0 {
		return math.Float32frombits(b & 0x8000_0000)
	}
	return f
}
