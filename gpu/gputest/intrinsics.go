package gputest

import (
	"fmt"
	"math/bits"
)

// intrinsicsSrc computes the integer intrinsics, some through
// function-like macros as real kernels spell them.
const intrinsicsSrc = `
#define UMUL(a, b) __umul24((a), (b))
#define MUL(a, b) __mul24((a), (b))
#define OUT(k) out[(k) * n + i]
#define STORE(k, expr) OUT(k) = (unsigned)(expr)
#define CAT(a, b) a##b
__global__ void intrinsics(const unsigned* xs, const unsigned* ys, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = xs[i], y = ys[i];
    int sx = (int)x, sy = (int)y;
    unsigned s = x & 0x7777;
    STORE(0, MUL(sx, sy));
    STORE(1, UMUL(x, y));
    STORE(2, __mulhi(sx, sy));
    STORE(3, __umulhi(x, y));
    STORE(4, __funnelshift_l(x, y, i));
    STORE(5, __funnelshift_r(x, y, i));
    STORE(6, __funnelshift_lc(x, y, i));
    STORE(7, __funnelshift_rc(x, y, i));
    STORE(8, __byte_perm(x, y, s));
    STORE(9, __sad(sx, sy, 7u));
    STORE(10, __usad(x, y, 7u));
    STORE(11, __hadd(sx, sy));
    STORE(12, __rhadd(sx, sy));
    STORE(13, __brev(x));
    STORE(14, __clz(sx));
    STORE(15, __ffs(sx));
    STORE(16, CAT(__po, pc)(x));
    STORE(17, __uhadd(x, y) + __urhadd(x, y));
}`

func testIntegerIntrinsics(e *env) {
	const n = 96
	xs, ys := make([]uint32, n), make([]uint32, n)
	seed := uint32(12345)
	next := func() uint32 {
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		return seed
	}
	for i := range xs {
		xs[i], ys[i] = next(), next()
		if i%5 == 0 {
			xs[i] &= 0xff // small values too
		}
		if i == 7 {
			xs[i] = 0
		}
	}
	out := zeros[uint32](e, 18*n)
	e.launch(e.kernel(intrinsicsSrc, "intrinsics"), 3, 32, upload(e, xs), upload(e, ys), out, int32(n))
	got := download(e, out)
	sext24 := func(v uint32) int64 { return int64(int32(v<<8) >> 8) }
	abs := func(v int64) int64 {
		if v < 0 {
			return -v
		}
		return v
	}
	for i := 0; i < n; i++ {
		x, y := xs[i], ys[i]
		sx, sy := int32(x), int32(y)
		hilo := uint64(y)<<32 | uint64(x)
		s := x & 0x7777
		var perm uint32
		for b := 0; b < 4; b++ {
			sel := (s >> (4 * b)) & 7
			perm |= uint32(hilo>>(8*sel)&0xff) << (8 * b)
		}
		sh, shc := uint(i&31), uint(min(i, 32))
		ffs := uint32(0)
		if x != 0 {
			ffs = uint32(bits.TrailingZeros32(x) + 1)
		}
		want := []uint32{
			uint32(sext24(x) * sext24(y)),
			(x & 0xffffff) * (y & 0xffffff),
			uint32((int64(sx) * int64(sy)) >> 32),
			uint32((uint64(x) * uint64(y)) >> 32),
			uint32((hilo << sh) >> 32),
			uint32(hilo >> sh),
			uint32((hilo << shc) >> 32),
			uint32(hilo >> shc),
			perm,
			uint32(abs(int64(sx)-int64(sy))) + 7,
			uint32(abs(int64(x)-int64(y))) + 7,
			uint32((int64(sx) + int64(sy)) >> 1),
			uint32((int64(sx) + int64(sy) + 1) >> 1),
			bits.Reverse32(x),
			uint32(bits.LeadingZeros32(x)),
			ffs,
			uint32(bits.OnesCount32(x)),
			uint32((uint64(x)+uint64(y))>>1) + uint32((uint64(x)+uint64(y)+1)>>1),
		}
		for k, w := range want {
			if g := got[k*n+i]; g != w {
				e.Errorf("intrinsic %d for x=%#x y=%#x (i=%d): %#x, want %#x", k, x, y, i, g, w)
			}
		}
	}
}

const cudaArchSrc = `
__global__ void arch(int* out) {
#if __CUDA_ARCH__ >= 800
    out[1] = 1;
#else
    out[1] = 0;
#endif
    out[0] = __CUDA_ARCH__;
}`

// testCUDAArch checks that __CUDA_ARCH__ is the device's compute
// capability, as nvcc and NVRTC define it.
func testCUDAArch(e *env) {
	arch := e.d.Info().Arch
	var major, minor int
	if _, err := fmt.Sscanf(arch, "sm_%1d%d", &major, &minor); err != nil {
		e.Fatalf("device arch %q is not sm_XY", arch)
	}
	want := int32(major*100 + minor*10)
	out := zeros[int32](e, 2)
	e.launch(e.kernel(cudaArchSrc, "arch"), 1, 1, out)
	got := download(e, out)
	eq(e, "__CUDA_ARCH__", got[0], want)
	eq(e, "#if __CUDA_ARCH__ >= 800", got[1], int32(map[bool]int{true: 1}[want >= 800]))
}

const memcpySrc = `
struct Rec { int id; float w; double x; };
__global__ void copyRecs(const Rec* in, Rec* out, unsigned char* bytes) {
    Rec r;
    memcpy(&r, &in[threadIdx.x], sizeof(Rec));
    r.id += 100;
    memcpy(&out[threadIdx.x], &r, sizeof r);
    memset(bytes + threadIdx.x * 3, threadIdx.x + 1, 3);
}`

// testDeviceMemcpy checks memcpy and memset in device code.
func testDeviceMemcpy(e *env) {
	const n = 8
	in := make([]int32, 4*n) // Rec is 16 bytes: id, w, x
	for i := range in {
		in[i] = int32(i * 3)
	}
	out, bytes := zeros[int32](e, 4*n), zeros[uint8](e, 3*n)
	e.launch(e.kernel(memcpySrc, "copyRecs"), 1, n, upload(e, in), out, bytes)
	want := make([]int32, len(in))
	copy(want, in)
	for r := 0; r < n; r++ {
		want[4*r] += 100
	}
	sameSlice(e, "records", download(e, out), want)
	wantBytes := make([]uint8, 3*n)
	for i := range wantBytes {
		wantBytes[i] = uint8(i/3 + 1)
	}
	sameSlice(e, "bytes", download(e, bytes), wantBytes)
}
