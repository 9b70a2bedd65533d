package gputest

import (
	"fmt"
	"math"
	"slices"
)

// The atomics kernels give every thread a value derived from its index, so
// the expected results are folds over the indices, computed in Go. Every
// operation used is commutative and associative, or (the CAS loops, Inc and
// Dec) applies the same function n times, so the result does not depend on
// the order the hardware picks.

const atomicsN = 5000

func intValue(i int) int32 { return int32((i*7919)%2001 - 1000) }

func grid(n, block int) int { return (n + block - 1) / block }

const atomicsIntSrc = `
__global__ void atomicsInt(int* acc, int* old, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = (i * 7919) % 2001 - 1000;
    atomicAdd(&acc[0], v);
    atomicSub(&acc[1], v);
    atomicMin(&acc[2], v);
    atomicMax(&acc[3], v);
    atomicAnd(&acc[4], ~(1 << (i % 31)) | (v & 3));
    atomicOr(&acc[5], 1 << (i % 29));
    atomicXor(&acc[6], v);
    int seen = acc[7];
    int assumed;
    do {
        assumed = seen;
        seen = atomicCAS(&acc[7], assumed, assumed + 3);
    } while (seen != assumed);
    old[i] = atomicAdd(&acc[8], 1);
}`

func testAtomicsInt(e *env) {
	n := atomicsN
	acc := upload(e, []int32{0, 0, math.MaxInt32, math.MinInt32, -1, 0, 0, 0, 0})
	old := zeros[int32](e, n)
	e.launch(e.kernel(atomicsIntSrc, "atomicsInt"), grid(n, 128), 128, acc, old, n)
	want := []int32{0, 0, math.MaxInt32, math.MinInt32, -1, 0, 0, 0, 0}
	for i := 0; i < n; i++ {
		v := intValue(i)
		want[0] += v
		want[1] -= v
		want[2] = min(want[2], v)
		want[3] = max(want[3], v)
		want[4] &= ^(int32(1) << (i % 31)) | (v & 3)
		want[5] |= 1 << (i % 29)
		want[6] ^= v
		want[7] += 3
		want[8]++
	}
	got := download(e, acc)
	for i, op := range []string{"atomicAdd", "atomicSub", "atomicMin", "atomicMax", "atomicAnd", "atomicOr", "atomicXor", "atomicCAS loop (+3)", "atomicAdd (+1)"} {
		eq(e, fmt.Sprintf("int %s result", op), got[i], want[i])
	}
	olds := download(e, old)
	slices.Sort(olds)
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	sameSlice(e, "sorted old values returned by atomicAdd(&c, 1)", olds, perm)
}

const atomicsUnsignedSrc = `
__global__ void atomicsUnsigned(unsigned* acc, unsigned limInc, unsigned limDec, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = (unsigned)i * 2654435761u;
    atomicAdd(&acc[0], v);
    atomicSub(&acc[1], v);
    atomicMin(&acc[2], v);
    atomicMax(&acc[3], v);
    atomicInc(&acc[4], limInc);
    atomicDec(&acc[5], limDec);
    atomicAnd(&acc[6], v | 0x0f0f0f0fu);
    atomicOr(&acc[7], v & 0x8421u);
    atomicXor(&acc[8], v);
    unsigned seen = acc[9];
    unsigned assumed;
    do {
        assumed = seen;
        seen = atomicCAS(&acc[9], assumed, assumed * 3u + 1u);
    } while (seen != assumed);
    atomicInc(&acc[10], limInc);
    atomicDec(&acc[11], limDec);
}

__global__ void casShort(unsigned short* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned short seen = c[0];
    unsigned short assumed;
    do {
        assumed = seen;
        seen = atomicCAS(c, assumed, (unsigned short)(assumed + 1));
    } while (seen != assumed);
}`

func testAtomicsUnsigned(e *env) {
	n := atomicsN
	const limInc, limDec = 7, 5
	init := []uint32{0, 0, math.MaxUint32, 0, 0, 0, math.MaxUint32, 0, 0, 1, 100, 100}
	acc := upload(e, init)
	m := e.module(atomicsUnsignedSrc)
	e.launch(kernelOf(e, m, "atomicsUnsigned"), grid(n, 256), 256, acc, uint32(limInc), uint32(limDec), n)
	want := slices.Clone(init)
	inc := func(old, val uint32) uint32 {
		if old >= val {
			return 0
		}
		return old + 1
	}
	dec := func(old, val uint32) uint32 {
		if old == 0 || old > val {
			return val
		}
		return old - 1
	}
	for i := 0; i < n; i++ {
		v := uint32(i) * 2654435761
		want[0] += v
		want[1] -= v
		want[2] = min(want[2], v)
		want[3] = max(want[3], v)
		want[4] = inc(want[4], limInc)
		want[5] = dec(want[5], limDec)
		want[6] &= v | 0x0f0f0f0f
		want[7] |= v & 0x8421
		want[8] ^= v
		want[9] = want[9]*3 + 1
		want[10] = inc(want[10], limInc)
		want[11] = dec(want[11], limDec)
	}
	got := download(e, acc)
	for i, op := range []string{"atomicAdd", "atomicSub", "atomicMin", "atomicMax", "atomicInc from 0", "atomicDec from 0",
		"atomicAnd", "atomicOr", "atomicXor", "atomicCAS loop (3x+1)", "atomicInc from 100", "atomicDec from 100"} {
		eq(e, fmt.Sprintf("unsigned %s result", op), got[i], want[i])
	}

	c := zeros[uint16](e, 1)
	e.launch(kernelOf(e, m, "casShort"), grid(1000, 128), 128, c, 1000)
	eq(e, "unsigned short atomicCAS loop (+1) result", download(e, c)[0], uint16(1000))
}

const atomics64Src = `
__global__ void atomics64(unsigned long long* u, long long* s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long v = (unsigned long long)i * 0x9E3779B97F4A7C15ull;
    long long w = (long long)(v >> 3) - (1LL << 60);
    atomicAdd(&u[0], v);
    atomicMin(&u[1], v);
    atomicMax(&u[2], v);
    atomicAnd(&u[3], v | 0xff00ff00ff00ff00ull);
    atomicOr(&u[4], v & 0x0101010101010101ull);
    atomicXor(&u[5], v);
    unsigned long long seen = u[6];
    unsigned long long assumed;
    do {
        assumed = seen;
        seen = atomicCAS(&u[6], assumed, assumed * 5ull + 3ull);
    } while (seen != assumed);
    atomicAdd(&u[7], 1ull);
    atomicMin(&s[0], w);
    atomicMax(&s[1], w);
}`

func testAtomics64(e *env) {
	n := atomicsN
	initU := []uint64{0, math.MaxUint64, 0, math.MaxUint64, 0, 0, 7, 0}
	initS := []int64{math.MaxInt64, math.MinInt64}
	u, s := upload(e, initU), upload(e, initS)
	e.launch(e.kernel(atomics64Src, "atomics64"), grid(n, 128), 128, u, s, n)
	wu, ws := slices.Clone(initU), slices.Clone(initS)
	for i := 0; i < n; i++ {
		v := uint64(i) * 0x9E3779B97F4A7C15
		w := int64(v>>3) - 1<<60
		wu[0] += v
		wu[1] = min(wu[1], v)
		wu[2] = max(wu[2], v)
		wu[3] &= v | 0xff00ff00ff00ff00
		wu[4] |= v & 0x0101010101010101
		wu[5] ^= v
		wu[6] = wu[6]*5 + 3
		wu[7]++
		ws[0] = min(ws[0], w)
		ws[1] = max(ws[1], w)
	}
	gu, gs := download(e, u), download(e, s)
	for i, op := range []string{"atomicAdd", "atomicMin", "atomicMax", "atomicAnd", "atomicOr", "atomicXor", "atomicCAS loop (5x+3)", "atomicAdd (+1)"} {
		eq(e, fmt.Sprintf("unsigned long long %s result", op), gu[i], wu[i])
	}
	eq(e, "long long atomicMin result", gs[0], ws[0])
	eq(e, "long long atomicMax result", gs[1], ws[1])
}

const atomicsFloatSrc = `
__global__ void atomicsFloat(float* f, double* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd(&f[0], (float)(i % 16) * 0.25f);
    atomicAdd(&f[1], (float)(i % 5) - 2.0f);
    atomicAdd(&d[0], (double)i * 0.5);
    atomicAdd(&d[1], (double)(i % 3) - 1.0);
}`

// testAtomicsFloat adds values whose partial sums are all exactly
// representable (multiples of 1/4 far below 2^22), so the sums are exact in
// any order.
func testAtomicsFloat(e *env) {
	n := atomicsN
	f, d := zeros[float32](e, 2), zeros[float64](e, 2)
	e.launch(e.kernel(atomicsFloatSrc, "atomicsFloat"), grid(n, 256), 256, f, d, n)
	var wf0, wf1, wd0, wd1 float64
	for i := 0; i < n; i++ {
		wf0 += float64(i%16) * 0.25
		wf1 += float64(i%5) - 2
		wd0 += float64(i) * 0.5
		wd1 += float64(i%3) - 1
	}
	gf, gd := download(e, f), download(e, d)
	eq(e, "float atomicAdd of quarters", gf[0], float32(wf0))
	eq(e, "float atomicAdd of -2..2", gf[1], float32(wf1))
	eq(e, "double atomicAdd of halves", gd[0], wd0)
	eq(e, "double atomicAdd of -1..1", gd[1], wd1)
}

const atomicsSharedSrc = `
__global__ void atomicsShared(int* outI, unsigned* outU, float* outF, int n) {
    __shared__ int si[4];
    __shared__ unsigned su[3];
    __shared__ float sf;
    if (threadIdx.x == 0) {
        si[0] = 0; si[1] = INT_MAX; si[2] = INT_MIN; si[3] = 0;
        su[0] = 0; su[1] = 0; su[2] = 0xffffffffu;
        sf = 0.0f;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = (i * 7919) % 2001 - 1000;
        atomicAdd(&si[0], v);
        atomicMin(&si[1], v);
        atomicMax(&si[2], v);
        atomicXor(&si[3], v);
        atomicInc(&su[0], 9u);
        atomicAdd(&su[1], (unsigned)v);
        atomicAnd(&su[2], ~(1u << (threadIdx.x % 32)) | ((unsigned)i & 64u));
        atomicAdd(&sf, (float)(i % 8) * 0.5f);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int b = blockIdx.x;
        for (int k = 0; k < 4; k++) outI[b * 4 + k] = si[k];
        for (int k = 0; k < 3; k++) outU[b * 3 + k] = su[k];
        outF[b] = sf;
    }
}`

func testAtomicsShared(e *env) {
	n, block := 1000, 128
	blocks := grid(n, block)
	oi, ou, of := zeros[int32](e, 4*blocks), zeros[uint32](e, 3*blocks), zeros[float32](e, blocks)
	e.launch(e.kernel(atomicsSharedSrc, "atomicsShared"), blocks, block, oi, ou, of, n)
	gi, gu, gf := download(e, oi), download(e, ou), download(e, of)
	for b := 0; b < blocks; b++ {
		wi := []int32{0, math.MaxInt32, math.MinInt32, 0}
		wu := []uint32{0, 0, math.MaxUint32}
		var wf float64
		for t := 0; t < block; t++ {
			i := b*block + t
			if i >= n {
				break
			}
			v := intValue(i)
			wi[0] += v
			wi[1] = min(wi[1], v)
			wi[2] = max(wi[2], v)
			wi[3] ^= v
			if wu[0] >= 9 {
				wu[0] = 0
			} else {
				wu[0]++
			}
			wu[1] += uint32(v)
			wu[2] &= ^(uint32(1) << (t % 32)) | (uint32(i) & 64)
			wf += float64(i%8) * 0.5
		}
		for k, op := range []string{"atomicAdd", "atomicMin", "atomicMax", "atomicXor"} {
			eq(e, fmt.Sprintf("block %d shared int %s result", b, op), gi[b*4+k], wi[k])
		}
		for k, op := range []string{"atomicInc", "atomicAdd", "atomicAnd"} {
			eq(e, fmt.Sprintf("block %d shared unsigned %s result", b, op), gu[b*3+k], wu[k])
		}
		eq(e, fmt.Sprintf("block %d shared float atomicAdd result", b), gf[b], float32(wf))
	}
}

const atomicExchSrc = `
__global__ void exch(int* slot, int* old, unsigned long long* uslot, unsigned long long* uold,
                     float* fslot, float* fold, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    old[i] = atomicExch(slot, i);
    uold[i] = atomicExch(uslot, (unsigned long long)i << 33);
    fold[i] = atomicExch(fslot, (float)i);
}`

// testAtomicExch checks that the values atomicExch returns, with the final
// value, are exactly the initial value and every value stored: each
// exchange hands on exactly one value.
func testAtomicExch(e *env) {
	n := 3000
	slot, old := upload(e, []int32{-1}), zeros[int32](e, n)
	uslot, uold := upload(e, []uint64{1}), zeros[uint64](e, n)
	fslot, fold := upload(e, []float32{-1}), zeros[float32](e, n)
	e.launch(e.kernel(atomicExchSrc, "exch"), grid(n, 128), 128, slot, old, uslot, uold, fslot, fold, n)

	gotI := append(download(e, old), download(e, slot)...)
	gotU := append(download(e, uold), download(e, uslot)...)
	gotF := append(download(e, fold), download(e, fslot)...)
	wantI, wantU, wantF := []int32{-1}, []uint64{1}, []float32{-1}
	for i := 0; i < n; i++ {
		wantI = append(wantI, int32(i))
		wantU = append(wantU, uint64(i)<<33)
		wantF = append(wantF, float32(i))
	}
	for _, s := range [][]int32{gotI, wantI} {
		slices.Sort(s)
	}
	for _, s := range [][]uint64{gotU, wantU} {
		slices.Sort(s)
	}
	for _, s := range [][]float32{gotF, wantF} {
		slices.Sort(s)
	}
	sameSlice(e, "int atomicExch values (sorted)", gotI, wantI)
	sameSlice(e, "unsigned long long atomicExch values (sorted)", gotU, wantU)
	sameSlice(e, "float atomicExch values (sorted)", gotF, wantF)
}

const scopedAtomicsSrc = `
__global__ void scoped(int* counts, unsigned* bits, float* sum) {
    __shared__ int local;
    if (threadIdx.x == 0) local = 0;
    __syncthreads();
    atomicAdd_block(&local, 1);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd_system(&counts[0], local);
    atomicAdd_system(&counts[1], 2);
    atomicOr_block(&bits[blockIdx.x], 1u << (threadIdx.x & 31));
    atomicMax_system(&counts[2], (int)(blockIdx.x * blockDim.x + threadIdx.x));
    atomicAdd_block(&sum[blockIdx.x], 0.5f);
    int old = atomicCAS_system(&counts[3], 0, 7);
    if (old != 0 && old != 7) atomicAdd(&counts[4], 1);
    atomicExch_block(&counts[5], 9);
}`

// testScopedAtomics checks the _block and _system atomics, which act as
// the plain ones for the threads of their scope. A _block atomic adds only
// to its own block's address: PTX does not make block-scope atomics of
// different blocks atomic with respect to each other, and the simulator's
// relaxed memory model loses such updates.
func testScopedAtomics(e *env) {
	const grid, block = 4, 64
	counts, bits, sum := zeros[int32](e, 6), zeros[uint32](e, grid), zeros[float32](e, grid)
	e.launch(e.kernel(scopedAtomicsSrc, "scoped"), grid, block, counts, bits, sum)
	sameSlice(e, "counts", download(e, counts), []int32{grid * block, 2 * grid * block, grid*block - 1, 7, 0, 9})
	sameSlice(e, "bits", download(e, bits), []uint32{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff})
	sameSlice(e, "sums", download(e, sum), []float32{block / 2, block / 2, block / 2, block / 2})
}
