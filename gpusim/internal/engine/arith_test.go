package engine

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// The generated arithmetic (arith_gen.go) is checked here against a
// reference written independently of the generator: integer results are
// computed with math/big and reduced to the type's width, float32 results
// in float64 and rounded once to float32 (exact for +, -, *, / since
// 53 >= 2*24+2 bits), float64 results by Go's IEEE arithmetic, integer to
// float conversions with big.Float, and C's rules (fminf, saturating
// float to integer conversions, division by zero without a trap) are
// spelled out case by case.

// kindInfo describes one register kind for the reference.
type kindInfo struct {
	k      cudac.Kind
	bits   uint
	signed bool
	float  bool
}

var testKinds = []kindInfo{
	{cudac.Int32, 32, true, false}, {cudac.Uint32, 32, false, false},
	{cudac.Int64, 64, true, false}, {cudac.Uint64, 64, false, false},
	{cudac.Float32, 32, false, true}, {cudac.Float64, 64, false, true},
}

// toBig decodes a register holding an integer of kind ki.
func (ki kindInfo) toBig(r uint64) *big.Int {
	if ki.bits == 32 {
		r = uint64(uint32(r))
		if ki.signed {
			return big.NewInt(int64(int32(uint32(r))))
		}
		return new(big.Int).SetUint64(r)
	}
	if ki.signed {
		return big.NewInt(int64(r))
	}
	return new(big.Int).SetUint64(r)
}

// wrap reduces v modulo 2^bits and encodes it as the register does (a
// 32-bit value zero-extended).
func (ki kindInfo) wrap(v *big.Int) uint64 {
	m := new(big.Int).Lsh(big.NewInt(1), ki.bits)
	r := new(big.Int).Mod(v, m) // non-negative
	return r.Uint64()
}

func (ki kindInfo) f(r uint64) float64 {
	if ki.bits == 32 {
		return float64(math.Float32frombits(uint32(r)))
	}
	return math.Float64frombits(r)
}

func (ki kindInfo) encF(f float64) uint64 {
	if ki.bits == 32 {
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(f)
}

// cFmin and cFmax are C's fmin/fmax with -0 below +0.
func cFmin(x, y float64) float64 {
	switch {
	case math.IsNaN(x):
		return y
	case math.IsNaN(y):
		return x
	case x == y:
		if math.Signbit(x) {
			return x
		}
		return y
	case x < y:
		return x
	}
	return y
}

func cFmax(x, y float64) float64 {
	switch {
	case math.IsNaN(x):
		return y
	case math.IsNaN(y):
		return x
	case x == y:
		if math.Signbit(x) {
			return y
		}
		return x
	case x > y:
		return x
	}
	return y
}

var binOps = []ir.Op{ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Rem, ir.And, ir.Or, ir.Xor, ir.Shl, ir.Shr,
	ir.Min, ir.Max, ir.Eq, ir.Ne, ir.Lt, ir.Le, ir.Gt, ir.Ge}

func isCmp(op ir.Op) bool { return op >= ir.Eq && op <= ir.Ge && op != ir.Neg }

// refBinary is the reference result of x op y in registers of kind ki; ok
// is false where the operation does not exist for the kind.
func refBinary(op ir.Op, ki kindInfo, x, y uint64) (uint64, bool) {
	if ki.float {
		switch op {
		case ir.Rem, ir.And, ir.Or, ir.Xor, ir.Shl, ir.Shr:
			return 0, false
		}
		a, b := ki.f(x), ki.f(y)
		var r float64
		switch op {
		case ir.Add:
			r = a + b
		case ir.Sub:
			r = a - b
		case ir.Mul:
			r = a * b
		case ir.Div:
			r = a / b
		case ir.Min:
			r = cFmin(a, b)
		case ir.Max:
			r = cFmax(a, b)
		case ir.Eq:
			return b2u(a == b), true
		case ir.Ne:
			return b2u(a != b), true
		case ir.Lt:
			return b2u(a < b), true
		case ir.Le:
			return b2u(a <= b), true
		case ir.Gt:
			return b2u(a > b), true
		case ir.Ge:
			return b2u(a >= b), true
		}
		// For float32 the float64 result is exact or rounded once more,
		// which for these operations gives the correctly rounded float32.
		return ki.encF(r), true
	}
	a, b := ki.toBig(x), ki.toBig(y)
	allOnes := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), ki.bits), big.NewInt(1))
	switch op {
	case ir.Add:
		return ki.wrap(new(big.Int).Add(a, b)), true
	case ir.Sub:
		return ki.wrap(new(big.Int).Sub(a, b)), true
	case ir.Mul:
		return ki.wrap(new(big.Int).Mul(a, b)), true
	case ir.Div:
		if b.Sign() == 0 {
			return ki.wrap(allOnes), true // no trap: all ones
		}
		return ki.wrap(new(big.Int).Quo(a, b)), true // truncated, as C
	case ir.Rem:
		if b.Sign() == 0 {
			return ki.wrap(a), true // the dividend
		}
		return ki.wrap(new(big.Int).Rem(a, b)), true
	case ir.And:
		return ki.wrap(new(big.Int).And(ki.bitsOf(x), ki.bitsOf(y))), true
	case ir.Or:
		return ki.wrap(new(big.Int).Or(ki.bitsOf(x), ki.bitsOf(y))), true
	case ir.Xor:
		return ki.wrap(new(big.Int).Xor(ki.bitsOf(x), ki.bitsOf(y))), true
	case ir.Shl, ir.Shr:
		s := uint(uint32(y)) // the count is the low 32 bits
		if op == ir.Shl {
			if s >= ki.bits {
				return 0, true
			}
			return ki.wrap(new(big.Int).Lsh(a, s)), true
		}
		if s >= ki.bits {
			s = ki.bits // all bits shifted out: 0, or -1 for a negative signed value
		}
		return ki.wrap(new(big.Int).Rsh(a, s)), true // Rsh floors: arithmetic for signed
	case ir.Min:
		if a.Cmp(b) <= 0 {
			return ki.wrap(a), true
		}
		return ki.wrap(b), true
	case ir.Max:
		if a.Cmp(b) >= 0 {
			return ki.wrap(a), true
		}
		return ki.wrap(b), true
	}
	c := a.Cmp(b)
	switch op {
	case ir.Eq:
		return b2u(c == 0), true
	case ir.Ne:
		return b2u(c != 0), true
	case ir.Lt:
		return b2u(c < 0), true
	case ir.Le:
		return b2u(c <= 0), true
	case ir.Gt:
		return b2u(c > 0), true
	case ir.Ge:
		return b2u(c >= 0), true
	}
	return 0, false
}

// bitsOf is the register's value as an unsigned big integer of the width.
func (ki kindInfo) bitsOf(r uint64) *big.Int {
	if ki.bits == 32 {
		r = uint64(uint32(r))
	}
	return new(big.Int).SetUint64(r)
}

// refUnary is the reference of a unary operation.
func refUnary(op ir.Op, ki kindInfo, x uint64) (uint64, bool) {
	if ki.float {
		sign := uint64(1) << (ki.bits - 1)
		switch op {
		case ir.Neg:
			return ki.bitsOf(x).Uint64() ^ sign, true
		case ir.Abs:
			return ki.bitsOf(x).Uint64() &^ sign, true
		}
		return 0, false
	}
	a := ki.toBig(x)
	switch op {
	case ir.Neg:
		return ki.wrap(new(big.Int).Neg(a)), true
	case ir.Not:
		return ki.wrap(new(big.Int).Not(a)), true
	case ir.Abs:
		return ki.wrap(new(big.Int).Abs(a)), true // INT_MIN wraps to itself
	}
	return 0, false
}

// refCvt is the reference conversion of x from kind f to kind t.
func refCvt(t, f kindInfo, x uint64) uint64 {
	switch {
	case !f.float && !t.float:
		return t.wrap(f.toBig(x))
	case !f.float && t.float:
		bf := new(big.Float).SetInt(f.toBig(x))
		if t.bits == 32 {
			v, _ := bf.Float32() // nearest, ties to even
			return uint64(math.Float32bits(v))
		}
		v, _ := bf.Float64()
		return math.Float64bits(v)
	case f.float && t.float:
		v := f.f(x)
		if t.bits == 32 && !math.IsNaN(v) {
			r, _ := new(big.Float).SetFloat64(v).Float32()
			return uint64(math.Float32bits(r))
		}
		if t.bits == 32 {
			return uint64(math.Float32bits(float32(v)))
		}
		return math.Float64bits(v)
	}
	// float to integer: toward zero, saturating (PTX cvt.rzi). A NaN
	// gives what the H200 gives: 0 from a float to 32 bits, the sign bit
	// alone from a double to 32 bits and from either to 64 bits.
	v := f.f(x)
	if math.IsNaN(v) {
		if t.bits == 32 && f.bits == 32 {
			return 0
		}
		return uint64(1) << (t.bits - 1)
	}
	lo, hi := new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), t.bits), big.NewInt(1))
	if t.signed {
		lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), t.bits-1))
		hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), t.bits-1), big.NewInt(1))
	}
	var n *big.Int
	switch {
	case math.IsInf(v, 1):
		n = hi
	case math.IsInf(v, -1):
		n = lo
	default:
		n, _ = new(big.Float).SetFloat64(math.Trunc(v)).Int(nil)
		if n.Cmp(lo) < 0 {
			n = lo
		}
		if n.Cmp(hi) > 0 {
			n = hi
		}
	}
	return t.wrap(n)
}

// values are the operands tried for kind ki: edges and seeded random ones.
func values(ki kindInfo, rng *rand.Rand) []uint64 {
	var v []uint64
	if ki.float {
		fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.75, 3, 1e-40, -1e-310, 1e30, -3e38, 1e300,
			math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat32, math.SmallestNonzeroFloat32, 2147483648, 4294967296.5,
			-9223372036854775808, 1.8446744073709552e19, 16777217}
		for _, f := range fs {
			v = append(v, ki.encF(f))
		}
		for range 10 {
			v = append(v, ki.encF((rng.Float64()-0.5)*math.Pow(2, float64(rng.IntN(80)-40))))
		}
		return v
	}
	is := []int64{0, 1, -1, 2, 3, -7, 7, 31, 32, 33, 63, 64, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, 1 << 40, -(1 << 33) + 5}
	for _, i := range is {
		v = append(v, ki.wrap(big.NewInt(i)))
	}
	for range 10 {
		v = append(v, ki.wrap(new(big.Int).SetUint64(rng.Uint64())))
	}
	return v
}

// partial is the active mask of the partial-warp runs: the closures must
// write these lanes and leave the others alone.
const partial = 0x5a5a_c3c3

const sentinel = 0xdead_beef_dead_beef

// runWarp runs s on a warp whose registers 0..2 (32 lanes each) are dst,
// x and y, with the given active mask, and returns dst.
func runWarp(s step, xs, ys []uint64, mask uint32) [32]uint64 {
	w := &warp{regs: make([]uint64, 3*32), mask: mask, launched: 0xffff_ffff}
	for l := range 32 {
		w.regs[l] = sentinel
		w.regs[32+l] = xs[l%len(xs)]
		w.regs[64+l] = ys[l%len(ys)]
	}
	s(w)
	var d [32]uint64
	copy(d[:], w.regs[:32])
	return d
}

func sameFloatResult(ki kindInfo, got, want uint64) bool {
	if got == want {
		return true
	}
	// Any NaN is a NaN: the payload of a NaN result is not specified.
	return ki.float && math.IsNaN(ki.f(got)) && math.IsNaN(ki.f(want))
}

// checkLanes compares the lanes of d against want(l) under mask.
func checkLanes(t *testing.T, what string, ki kindInfo, d [32]uint64, mask uint32, want func(l int) uint64) {
	t.Helper()
	bad := 0
	for l := range 32 {
		w := uint64(sentinel)
		if mask&(1<<l) != 0 {
			w = want(l)
		}
		if !sameFloatResult(ki, d[l], w) && bad < 3 {
			t.Errorf("%s lane %d: got %#x, want %#x", what, l, d[l], w)
			bad++
		}
	}
}

func TestGeneratedBinary(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 17))
	for _, ki := range testKinds {
		vals := values(ki, rng)
		// All pairs, 32 lanes at a time.
		var xs, ys []uint64
		for _, x := range vals {
			for _, y := range vals {
				xs, ys = append(xs, x), append(ys, y)
			}
		}
		for len(xs)%32 != 0 {
			xs, ys = append(xs, vals[0]), append(ys, vals[1])
		}
		for _, op := range binOps {
			if _, ok := refBinary(op, ki, 0, 0); !ok {
				if mkBinary(op, ki.k, 0, 32, 64, 0, false) != nil {
					t.Errorf("%v %v: generated, but not an operation of the kind", op, ki.k)
				}
				continue
			}
			what := fmt.Sprintf("%v.%v", op, ki.k)
			s := mkBinary(op, ki.k, 0, 32, 64, 0, false)
			if s == nil {
				t.Errorf("%s: not generated", what)
				continue
			}
			cmp := mkCmpBits(op, ki.k, 32, 64, 0, false)
			if isCmp(op) != (cmp != nil) {
				t.Errorf("%s: compare-bits form generated %v, want %v", what, cmp != nil, isCmp(op))
			}
			for i := 0; i < len(xs); i += 32 {
				x, y := xs[i:i+32], ys[i:i+32]
				for _, mask := range []uint32{0xffff_ffff, partial} {
					d := runWarp(s, x, y, mask)
					checkLanes(t, what, ki, d, mask, func(l int) uint64 { r, _ := refBinary(op, ki, x[l], y[l]); return r })
					if cmp != nil {
						w := &warp{regs: make([]uint64, 96)}
						copy(w.regs[32:], x)
						copy(w.regs[64:], y)
						got := cmp(w, mask)
						var want uint32
						for l := range 32 {
							if r, _ := refBinary(op, ki, x[l], y[l]); r == 1 && mask&(1<<l) != 0 {
								want |= 1 << l
							}
						}
						if got != want {
							t.Errorf("%s compare bits: got %#x, want %#x", what, got, want)
						}
					}
				}
			}
			// The immediate forms: every value as the constant operand.
			for _, imm := range vals {
				s := mkBinary(op, ki.k, 0, 32, 64, imm, true)
				if s == nil {
					t.Errorf("%s: immediate form not generated", what)
					break
				}
				x := vals
				if len(x) > 32 {
					x = x[:32]
				}
				for _, mask := range []uint32{0xffff_ffff, partial} {
					d := runWarp(s, x, []uint64{0}, mask)
					checkLanes(t, what+" imm", ki, d, mask, func(l int) uint64 { r, _ := refBinary(op, ki, x[l%len(x)], imm); return r })
				}
				if cmp := mkCmpBits(op, ki.k, 32, 64, imm, true); cmp != nil {
					w := &warp{regs: make([]uint64, 96)}
					for l := range 32 {
						w.regs[32+l] = x[l%len(x)]
					}
					var want uint32
					for l := range 32 {
						if r, _ := refBinary(op, ki, x[l%len(x)], imm); r == 1 {
							want |= 1 << l
						}
					}
					if got := cmp(w, 0xffff_ffff); got != want {
						t.Errorf("%s imm compare bits: got %#x, want %#x", what, got, want)
					}
				}
			}
		}
	}
}

func TestGeneratedUnary(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 18))
	for _, ki := range testKinds {
		vals := values(ki, rng)
		for _, op := range []ir.Op{ir.Neg, ir.Not, ir.Abs} {
			s := mkUnary(op, ki.k, 0, 32)
			if _, ok := refUnary(op, ki, 0); !ok {
				if s != nil {
					t.Errorf("%v.%v: generated, but not an operation of the kind", op, ki.k)
				}
				continue
			}
			if s == nil {
				t.Errorf("%v.%v: not generated", op, ki.k)
				continue
			}
			for i := 0; i < len(vals); i += 32 {
				x := vals[i:min(i+32, len(vals))]
				for _, mask := range []uint32{0xffff_ffff, partial} {
					d := runWarp(s, x, []uint64{0}, mask)
					checkLanes(t, fmt.Sprintf("%v.%v", op, ki.k), ki, d, mask, func(l int) uint64 { r, _ := refUnary(op, ki, x[l%len(x)]); return r })
				}
			}
		}
	}
}

func TestGeneratedConversions(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 19))
	for _, from := range testKinds {
		vals := values(from, rng)
		for _, to := range testKinds {
			s := mkCvt(to.k, from.k, 0, 32)
			if from.k == to.k {
				if s != nil {
					t.Errorf("%v to itself: generated", from.k)
				}
				continue
			}
			if s == nil {
				t.Errorf("%v to %v: not generated", from.k, to.k)
				continue
			}
			for i := 0; i < len(vals); i += 32 {
				x := vals[i:min(i+32, len(vals))]
				for _, mask := range []uint32{0xffff_ffff, partial} {
					d := runWarp(s, x, []uint64{0}, mask)
					checkLanes(t, fmt.Sprintf("%v to %v", from.k, to.k), to, d, mask, func(l int) uint64 { return refCvt(to, from, x[l%len(x)]) })
				}
			}
		}
	}
}

// FuzzGeneratedArithmetic checks one lane of any binary operation, any
// unary one and any conversion on fuzzed operands against the reference.
func FuzzGeneratedArithmetic(f *testing.F) {
	f.Add(uint8(0), uint8(4), uint64(0x3f800000), uint64(0x7fc00000))
	f.Add(uint8(3), uint8(0), uint64(0x80000000), uint64(0xffffffff))
	f.Add(uint8(9), uint8(2), uint64(1), uint64(64))
	f.Add(uint8(10), uint8(5), math.Float64bits(-0.0), math.Float64bits(0))
	f.Fuzz(func(t *testing.T, opi, ki uint8, x, y uint64) {
		k := testKinds[int(ki)%len(testKinds)]
		op := binOps[int(opi)%len(binOps)]
		if k.bits == 32 {
			x, y = uint64(uint32(x)), uint64(uint32(y))
		}
		if want, ok := refBinary(op, k, x, y); ok {
			d := runWarp(mkBinary(op, k.k, 0, 32, 64, 0, false), []uint64{x}, []uint64{y}, 1)
			if !sameFloatResult(k, d[0], want) {
				t.Errorf("%v.%v(%#x, %#x) = %#x, want %#x", op, k.k, x, y, d[0], want)
			}
		}
		uop := []ir.Op{ir.Neg, ir.Not, ir.Abs}[int(opi)%3]
		if want, ok := refUnary(uop, k, x); ok {
			d := runWarp(mkUnary(uop, k.k, 0, 32), []uint64{x}, []uint64{0}, 1)
			if !sameFloatResult(k, d[0], want) {
				t.Errorf("%v.%v(%#x) = %#x, want %#x", uop, k.k, x, d[0], want)
			}
		}
		to := testKinds[int(opi/32)%len(testKinds)]
		if to.k != k.k {
			d := runWarp(mkCvt(to.k, k.k, 0, 32), []uint64{x}, []uint64{0}, 1)
			if want := refCvt(to, k, x); !sameFloatResult(to, d[0], want) {
				t.Errorf("%v to %v of %#x = %#x, want %#x", k.k, to.k, x, d[0], want)
			}
		}
	})
}
