package gpusim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
)

const minMaxSrc = `
__global__ void minmax(const float* a, const float* b, float* out, const double* da, const double* db, double* dout, int n) {
    int i = threadIdx.x;
    if (i < n) {
        out[2 * i] = fminf(a[i], b[i]);
        out[2 * i + 1] = fmaxf(a[i], b[i]);
        dout[2 * i] = fmin(da[i], db[i]);
        dout[2 * i + 1] = fmax(da[i], db[i]);
    }
}`

// TestMinMaxNaNAndZeros checks fminf/fmaxf and fmin/fmax as C defines
// them: a NaN operand yields the other operand, two NaNs a NaN, and -0 is
// below +0 (the order PTX's min and max use), whichever side each is on.
func TestMinMaxNaNAndZeros(t *testing.T) {
	d := open(t, "sim:t4")
	nan, inf := math.NaN(), math.Inf(1)
	negz := math.Copysign(0, -1)
	cases := []struct {
		a, b, min, max float64
	}{
		{nan, 1, 1, 1},
		{1, nan, 1, 1},
		{nan, -inf, -inf, -inf},
		{nan, nan, nan, nan},
		{negz, 0, negz, 0},
		{0, negz, negz, 0},
		{negz, negz, negz, negz},
		{-inf, 3, -inf, 3},
		{2, 3, 2, 3},
		{3, -2, -2, 3},
		{inf, nan, inf, inf},
	}
	n := len(cases)
	a, b := make([]float32, n), make([]float32, n)
	da, db := make([]float64, n), make([]float64, n)
	for i, c := range cases {
		a[i], b[i], da[i], db[i] = float32(c.a), float32(c.b), c.a, c.b
	}
	out, dout := zeros[float32](t, d, 2*n), zeros[float64](t, d, 2*n)
	launch(t, kernel(t, d, minMaxSrc, "minmax"), 1, 32, upload(t, d, a), upload(t, d, b), out, upload(t, d, da), upload(t, d, db), dout, n)
	got, dgot := download(t, out), download(t, dout)
	same := func(x, want float64) bool {
		if math.IsNaN(want) {
			return math.IsNaN(x)
		}
		return x == want && math.Signbit(x) == math.Signbit(want)
	}
	for i, c := range cases {
		for j, fn := range []string{"min", "max"} {
			want := []float64{c.min, c.max}[j]
			if g := float64(got[2*i+j]); !same(g, want) {
				t.Errorf("f%sf(%g, %g) = %g, want %g", fn, c.a, c.b, g, want)
			}
			if g := dgot[2*i+j]; !same(g, want) {
				t.Errorf("f%s(%g, %g) = %g, want %g", fn, c.a, c.b, g, want)
			}
		}
	}
}

const cvt64Src = `
__global__ void cvt64(const double* d, const float* f, long long* sl, unsigned long long* ul, long long* fl, unsigned long long* fu, int* si, unsigned* ui, int n) {
    int i = threadIdx.x;
    if (i < n) {
        sl[i] = (long long)d[i];
        ul[i] = (unsigned long long)d[i];
        fl[i] = (long long)f[i];
        fu[i] = (unsigned long long)f[i];
        si[i] = (int)d[i];
        ui[i] = (unsigned)d[i];
    }
}`

// TestFloatToIntSaturation checks conversions from float and double to
// 64-bit (and 32-bit) integers as PTX's cvt.rzi does them: toward zero,
// saturating at the type's range, NaN to 0, negative to unsigned 0.
func TestFloatToIntSaturation(t *testing.T) {
	d := open(t, "sim:t4")
	const two63 = 9223372036854775808.0
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		x  float64
		sl int64
		ul uint64
		si int32
		ui uint32
	}{
		{1e300, math.MaxInt64, math.MaxUint64, math.MaxInt32, math.MaxUint32},
		{-1e300, math.MinInt64, 0, math.MinInt32, 0},
		{inf, math.MaxInt64, math.MaxUint64, math.MaxInt32, math.MaxUint32},
		{-inf, math.MinInt64, 0, math.MinInt32, 0},
		{nan, 0, 0, 0, 0},
		{two63, math.MaxInt64, 1 << 63, math.MaxInt32, math.MaxUint32},
		{-two63, math.MinInt64, 0, math.MinInt32, 0},
		{1.8e19, math.MaxInt64, 18000000000000000000, math.MaxInt32, math.MaxUint32},
		{2e19, math.MaxInt64, math.MaxUint64, math.MaxInt32, math.MaxUint32},
		{-1.5, -1, 0, -1, 0},
		{-0.75, 0, 0, 0, 0},
		{4294967295.9, 4294967295, 4294967295, math.MaxInt32, math.MaxUint32},
		{-2147483648.9, -2147483648, 0, math.MinInt32, 0},
		{123456789012.7, 123456789012, 123456789012, math.MaxInt32, math.MaxUint32},
	}
	n := len(cases)
	dv, fv := make([]float64, n), make([]float32, n)
	for i, c := range cases {
		dv[i], fv[i] = c.x, float32(c.x)
	}
	sl, ul := zeros[int64](t, d, n), zeros[uint64](t, d, n)
	fl, fu := zeros[int64](t, d, n), zeros[uint64](t, d, n)
	si, ui := zeros[int32](t, d, n), zeros[uint32](t, d, n)
	launch(t, kernel(t, d, cvt64Src, "cvt64"), 1, 32, upload(t, d, dv), upload(t, d, fv), sl, ul, fl, fu, si, ui, n)
	gsl, gul, gfl, gfu, gsi, gui := download(t, sl), download(t, ul), download(t, fl), download(t, fu), download(t, si), download(t, ui)
	for i, c := range cases {
		if gsl[i] != c.sl || gul[i] != c.ul || gsi[i] != c.si || gui[i] != c.ui {
			t.Errorf("double %g: (long long) %d (unsigned long long) %d (int) %d (unsigned) %d; want %d %d %d %d",
				c.x, gsl[i], gul[i], gsi[i], gui[i], c.sl, c.ul, c.si, c.ui)
		}
		// The float conversion is of the value rounded to float first;
		// its expectation follows from that value by the same rules.
		f := float64(fv[i])
		wantL, wantU := satI64(f), satU64(f)
		if gfl[i] != wantL || gfu[i] != wantU {
			t.Errorf("float %g: (long long) %d (unsigned long long) %d; want %d %d", f, gfl[i], gfu[i], wantL, wantU)
		}
	}
}

// satI64 and satU64 are the saturating conversions spelled with big
// constants, independently of the simulator's own.
func satI64(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= 0x1p63:
		return math.MaxInt64
	case f < -0x1p63:
		return math.MinInt64
	}
	return int64(math.Trunc(f))
}

func satU64(f float64) uint64 {
	switch {
	case math.IsNaN(f), f < 1:
		return 0
	case f >= 0x1p64:
		return math.MaxUint64
	}
	return uint64(math.Trunc(f))
}

// TestSpecOptionErrors checks that each malformed simulator spec is
// refused with an error naming what is wrong, and that the options that
// are right open a device whose spec says so.
func TestSpecOptionErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"sim:k80", "k80"},
		{"sim:t4?seed=x", "seed=x"},
		{"sim:t4?seed=-1", "seed=-1"},
		{"sim:t4?order=random", "want seeded or deterministic"},
		{"sim:t4?fmad=maybe", "fmad=maybe"},
		{"sim:t4?racecheck=2", "racecheck=2"},
		{"sim:t4?budget=lots", "budget=lots"},
		{"sim:t4?clock=50", "5000"},
		{"sim:t4?clock=fast", "clock=fast"},
		{"sim:h200?clock=base", "profile h200 has no base clock"},
		{"sim:t4?speed=2", "unknown option"},
		{"sim:t4?seed=1;x", "sim:t4?seed=1;x"},
	} {
		d, err := gpu.Open(tc.spec)
		if err == nil {
			d.Close()
			t.Errorf("%s opened; want an error", tc.spec)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want it to say %q", tc.spec, err, tc.want)
		}
	}
	for spec, want := range map[string]string{
		"sim:t4?seed=7&order=deterministic":                            "seed=7",
		"sim:T4?clock=base":                                            "sim:t4",
		"sim:h200?fmad=false&racecheck=false&budget=100000&clock=1500": "fmad=false",
	} {
		d, err := gpu.Open(spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		if got := d.Info().Spec; !strings.Contains(got, want) {
			t.Errorf("%s opened as %s; want it to contain %q", spec, got, want)
		}
		d.Close()
	}
}
