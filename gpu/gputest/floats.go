package gputest

import "math"

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

// testMinMax checks fminf/fmaxf and fmin/fmax as C defines them: a NaN
// operand yields the other operand and two NaNs a NaN; and -0 is below +0,
// whichever side each is on, as the GPU's min and max order them.
func testMinMax(e *env) {
	nan, inf := math.NaN(), math.Inf(1)
	negz := math.Copysign(0, -1)
	cases := []struct{ a, b, min, max float64 }{
		{nan, 1, 1, 1}, {1, nan, 1, 1}, {nan, -inf, -inf, -inf}, {nan, nan, nan, nan},
		{negz, 0, negz, 0}, {0, negz, negz, 0}, {negz, negz, negz, negz},
		{-inf, 3, -inf, 3}, {2, 3, 2, 3}, {3, -2, -2, 3}, {inf, nan, inf, inf},
	}
	n := len(cases)
	a, b := make([]float32, n), make([]float32, n)
	da, db := make([]float64, n), make([]float64, n)
	for i, c := range cases {
		a[i], b[i], da[i], db[i] = float32(c.a), float32(c.b), c.a, c.b
	}
	out, dout := zeros[float32](e, 2*n), zeros[float64](e, 2*n)
	e.launch(e.kernel(minMaxSrc, "minmax"), 1, 32, upload(e, a), upload(e, b), out, upload(e, da), upload(e, db), dout, n)
	got, dgot := download(e, out), download(e, dout)
	for i, c := range cases {
		for j, fn := range []string{"min", "max"} {
			want := []float64{c.min, c.max}[j]
			if g := float64(got[2*i+j]); !sameFloat(g, want) {
				e.Errorf("f%sf(%g, %g) = %g, want %g", fn, c.a, c.b, g, want)
			}
			if g := dgot[2*i+j]; !sameFloat(g, want) {
				e.Errorf("f%s(%g, %g) = %g, want %g", fn, c.a, c.b, g, want)
			}
		}
	}
}

// sameFloat: equal with the same sign, or both NaN.
func sameFloat(x, want float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(x)
	}
	return x == want && math.Signbit(x) == math.Signbit(want)
}

const cvtSrc = `
__global__ void cvt(const double* d, const float* f, long long* sl, unsigned long long* ul, long long* fl, unsigned long long* fu,
                    int* si, unsigned* ui, int* fsi, unsigned* fui, int n) {
    int i = threadIdx.x;
    if (i < n) {
        sl[i] = (long long)d[i];
        ul[i] = (unsigned long long)d[i];
        fl[i] = (long long)f[i];
        fu[i] = (unsigned long long)f[i];
        si[i] = (int)d[i];
        ui[i] = (unsigned)d[i];
        fsi[i] = (int)f[i];
        fui[i] = (unsigned)f[i];
    }
}`

// testConversions checks conversions from double and float to 64- and
// 32-bit integers as the GPU does them (PTX cvt.rzi): toward zero,
// saturating at the type's range, negative to unsigned 0. A NaN gives 0
// from a float to 32 bits, but the sign bit alone (0x80000000) from a
// double to 32 bits and 0x8000000000000000 from either to 64 bits, as the
// H200 does (calibration/evidence/2026-11-30-h200-nan-conversions.txt).
func testConversions(e *env) {
	nan, inf := math.NaN(), math.Inf(1)
	xs := []float64{1e300, -1e300, inf, -inf, nan, 0x1p63, -0x1p63, 1.8e19, 2e19, 0x1p64, -1.5, -0.75, 0.99,
		123456789012.7, 4294967295.9, 4294967296, 2147483647.5, -2147483648.9, -2147483649, 16777217}
	n := len(xs)
	fv := make([]float32, n)
	for i, x := range xs {
		fv[i] = float32(x)
	}
	sl, ul, fl, fu := zeros[int64](e, n), zeros[uint64](e, n), zeros[int64](e, n), zeros[uint64](e, n)
	si, ui, fsi, fui := zeros[int32](e, n), zeros[uint32](e, n), zeros[int32](e, n), zeros[uint32](e, n)
	e.launch(e.kernel(cvtSrc, "cvt"), 1, 32, upload(e, xs), upload(e, fv), sl, ul, fl, fu, si, ui, fsi, fui, n)
	gsl, gul, gfl, gfu := download(e, sl), download(e, ul), download(e, fl), download(e, fu)
	gsi, gui, gfsi, gfui := download(e, si), download(e, ui), download(e, fsi), download(e, fui)
	for i, x := range xs {
		f := float64(fv[i]) // the float conversions convert the value rounded to float
		if w := saturate(x, 64, true, false); uint64(gsl[i]) != w {
			e.Errorf("(long long)%g = %d, want %d", x, gsl[i], int64(w))
		}
		if w := saturate(x, 64, false, false); gul[i] != w {
			e.Errorf("(unsigned long long)%g = %d, want %d", x, gul[i], w)
		}
		if w := saturate(f, 64, true, true); uint64(gfl[i]) != w {
			e.Errorf("(long long)%gf = %d, want %d", f, gfl[i], int64(w))
		}
		if w := saturate(f, 64, false, true); gfu[i] != w {
			e.Errorf("(unsigned long long)%gf = %d, want %d", f, gfu[i], w)
		}
		if w := saturate(x, 32, true, false); uint64(uint32(gsi[i])) != w {
			e.Errorf("(int)%g = %d, want %d", x, gsi[i], int32(uint32(w)))
		}
		if w := saturate(x, 32, false, false); uint64(gui[i]) != w {
			e.Errorf("(unsigned)%g = %d, want %d", x, gui[i], w)
		}
		if w := saturate(f, 32, true, true); uint64(uint32(gfsi[i])) != w {
			e.Errorf("(int)%gf = %d, want %d", f, gfsi[i], int32(uint32(w)))
		}
		if w := saturate(f, 32, false, true); uint64(gfui[i]) != w {
			e.Errorf("(unsigned)%gf = %d, want %d", f, gfui[i], w)
		}
	}
}

// saturate is the bit pattern of x converted toward zero to an integer of
// the given width and signedness, saturating; fromFloat says x was a float
// (rather than a double), which decides what a NaN gives.
func saturate(x float64, bits uint, signed, fromFloat bool) uint64 {
	mask := uint64(1)<<(bits-1)<<1 - 1 // all ones of the width
	if math.IsNaN(x) {
		if bits == 32 && fromFloat {
			return 0
		}
		return 1 << (bits - 1)
	}
	lo, hi := 0.0, math.Ldexp(1, int(bits)) // the range is [lo, hi)
	if signed {
		lo, hi = -math.Ldexp(1, int(bits)-1), math.Ldexp(1, int(bits)-1)
	}
	t := math.Trunc(x)
	switch {
	case t < lo:
		return uint64(int64(lo)) & mask
	case t >= hi:
		if signed {
			return uint64(1)<<(bits-1) - 1
		}
		return mask
	case t < 0:
		return uint64(int64(t)) & mask
	}
	return uint64(t) & mask
}
