package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// fma32TwoSum is fma32 without its shortcut: round-to-odd by TwoSum for
// every sum.
func fma32TwoSum(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	cc := float64(c)
	s := p + cc
	if math.IsInf(s, 0) || s != s {
		return float32(s)
	}
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

// TestFMA32Shortcut checks fma32 bit for bit against round-to-odd on
// every sum, on seeded random operands of every magnitude and on operands
// built to make the sum land halfway between two float32s, where only
// round-to-odd rounds right.
func TestFMA32Shortcut(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	anyBits := func() float32 { return math.Float32frombits(rng.Uint32()) }
	check := func(a, b, c float32) {
		got, want := fma32(a, b, c), fma32TwoSum(a, b, c)
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("fma32(%g, %g, %g) = %g (%#x), want %g (%#x)", a, b, c, got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
	for range 1_000_000 {
		check(anyBits(), anyBits(), anyBits())
		check(rng.Float32()*2-1, rng.Float32()*2-1, rng.Float32()*2-1)
	}
	ties := 0
	for range 1_000_000 {
		// c rounds the distance from a*b to a float32 midpoint m, so that
		// the sum often lands on m.
		x := float64(rng.Float32()*2 - 1)
		_, exp := math.Frexp(x)
		m := x + math.Ldexp(1, exp-25)
		if rng.IntN(4) == 0 {
			// A midpoint between two float32 subnormals: an odd multiple
			// of 2^-150.
			m = math.Ldexp(float64(2*rng.IntN(1<<20)+1), -150)
		}
		a, b := rng.Float32()*2-1, float32(rng.IntN(64))/64
		if m < 0x1p-126 {
			a *= 0x1p-100 // a product near m
		}
		c := float32(m - float64(a)*float64(b))
		if float64(a)*float64(b)+float64(c) == m {
			ties++
		}
		check(a, b, c)
	}
	// A sum just below a midpoint m between two float32 subnormals, which
	// rounds to m in float64: a*b = 2^-150 - 2^-196, c = m - 2^-150.
	a := float32(math.Ldexp(1+0x1p-23, -75))
	b := float32(math.Ldexp(1-0x1p-23, -75))
	for range 1000 {
		k := 1<<22 | 2*rng.IntN(1<<21) + 1 // odd, so m rounds up to even, the exact sum down
		c := float32(math.Ldexp(float64(k), -149))
		check(a, b, c)
	}
	if ties < 1000 {
		t.Fatalf("only %d of the built sums were ties: the slow path went untested", ties)
	}
}

// BenchmarkFMA32 times fma32 over a warp's 32 lanes of seeded operands
// in [-1, 1), as an FMA instruction runs it, with BenchmarkFMA32TwoSum,
// round-to-odd on every sum, beside it.
func BenchmarkFMA32(b *testing.B)       { benchFMA32(b, fma32) }
func BenchmarkFMA32TwoSum(b *testing.B) { benchFMA32(b, fma32TwoSum) }

func benchFMA32(b *testing.B, f func(a, b, c float32) float32) {
	rng := rand.New(rand.NewPCG(5, 6))
	var p, q, d [32]float32
	for l := range p {
		p[l], q[l], d[l] = rng.Float32()*2-1, rng.Float32()*2-1, rng.Float32()*2-1
	}
	for b.Loop() {
		for l := range d {
			d[l] = f(p[l], q[l], d[l])
		}
	}
	if d[0] != d[0] {
		b.Fatal("NaN")
	}
}
