package labkit

import (
	"fmt"
	"math"
	"strconv"
)

// KahanSum returns the sum of xs in float64 with Kahan's compensated
// summation: a reference that no order of float32 additions can beat.
func KahanSum(xs []float32) float64 {
	var sum, c float64
	for _, x := range xs {
		y := float64(x) - c
		t := sum + y
		c = (t - sum) - y
		sum = t
	}
	return sum
}

// ExactInFloat32 reports whether every float32 sum of the non-negative
// integers of xs, in any order, is exact: true when they are integers and
// their total is at most 2^24, where float32 still holds every integer.
func ExactInFloat32(xs []float32) bool {
	var total float64
	for _, x := range xs {
		if x < 0 || x != float32(math.Trunc(float64(x))) {
			return false
		}
		total += float64(x)
	}
	return total <= 1<<24
}

// FormatFloat32 formats f in the fewest digits that read back as the
// same float32.
func FormatFloat32(f float32) string {
	return strconv.FormatFloat(float64(f), 'f', -1, 32)
}

// Mean returns the mean of xs and their sample standard deviation (0 for
// fewer than two).
func Mean(xs []float64) (mean, stdev float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}

// JSONFloat32 is a float32 that encoding/json can carry whatever its
// value: a JSON number when it is finite (-0 keeps its sign), and the
// strings "+Inf", "-Inf" and "NaN" where JSON has no number.
type JSONFloat32 float32

// MarshalJSON implements json.Marshaler.
func (f JSONFloat32) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return []byte(strconv.Quote(strconv.FormatFloat(x, 'g', -1, 32))), nil
	}
	return []byte(FormatFloat32(float32(f))), nil
}

// UnmarshalJSON implements json.Unmarshaler: a number, or one of the
// strings MarshalJSON writes.
func (f *JSONFloat32) UnmarshalJSON(b []byte) error {
	s := string(b)
	if u, err := strconv.Unquote(s); err == nil {
		if u != "+Inf" && u != "-Inf" && u != "NaN" {
			return fmt.Errorf("labkit: float32 %s: want a number, \"+Inf\", \"-Inf\" or \"NaN\"", s)
		}
		s = u
	}
	x, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return fmt.Errorf("labkit: float32 %s: not a number", b)
	}
	*f = JSONFloat32(x)
	return nil
}

// JSONFloat32s converts xs for encoding.
func JSONFloat32s(xs []float32) []JSONFloat32 {
	out := make([]JSONFloat32, len(xs))
	for i, x := range xs {
		out[i] = JSONFloat32(x)
	}
	return out
}
