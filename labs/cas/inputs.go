package cas

import (
	"math"

	"github.com/warplab/warplab/labs/internal/labkit"
)

// Value returns thread i's value for a seed, as the H200 microbenchmark
// draws them: a random sign and a magnitude below 1000, negatives below
// -1, and -0.0 about once in 1024.
func Value(i int, seed uint64) float32 {
	h := labkit.Lowbias32(uint32(i) ^ 0x6a09e667 ^ uint32(seed) ^ uint32(seed>>32)*0x9e3779b9)
	if h&1023 == 7 {
		return float32(math.Copysign(0, -1))
	}
	mag := float32(h>>8) * (1.0 / 16777216.0) * 1000
	if h&1 != 0 {
		return -mag - 1
	}
	return mag
}

// Values returns n values for a seed.
func Values(n int, seed uint64) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = Value(i, seed)
	}
	return v
}

// negInf is the value every group's maximum starts at.
var negInf = float32(math.Inf(-1))

// Maxima returns the maximum of each group of C values, ignoring NaNs
// (like fmaxf); a group of NaNs only keeps -infinity.
func Maxima(v []float32, C int) []float32 {
	groups := (len(v) + C - 1) / C
	m := make([]float32, groups)
	for g := range m {
		m[g] = negInf
	}
	for i, x := range v {
		if x > m[i/C] {
			m[i/C] = x
		}
	}
	return m
}

// same reports whether got is the maximum want: equal as floats, so -0.0
// and +0.0 are both right where the maximum is a zero.
func same(got, want float32) bool { return got == want }
