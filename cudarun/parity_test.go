package cudarun

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/internal/coursekernels"
)

// The parity tests run every kernel of internal/coursekernels on the GPU and on the
// simulator (sim:h200) with the same inputs. Integer results and float
// results that are exact in any order of the atomics must be equal bit for
// bit; float results that depend on the order (or on expf's last bits) must
// agree within a tolerance stated, with its reason, where it is used.

// paritySim is the simulator profile the GPU results are compared with.
const paritySim = "sim:h200"

// parityCases maps each course kernel to the test that covers it;
// TestParityCoversCourseKernels checks that none is missing.
var parityCases = map[string]func(t *testing.T, sim, cuda *gpu.Device){
	"day26_sums.cu:sumGlobalAtomic":                   parityDay26,
	"day26_sums.cu:sumSharedAtomic":                   parityDay26,
	"day26_sums.cu:sumTreeAtomic":                     parityDay26,
	"softmax_denom.cu:onlineSoftmaxDenom_Atomic":      paritySoftmax,
	"softmax_denom.cu:onlineSoftmaxDenom_WarpShuffle": paritySoftmax,
	"hist_privatized.cu:histPrivatized":               parityHistogram,
	"hist_missing_barrier.cu:histMissingBarrier":      parityHistogram,
	"sliced_counter.cu:count_matches":                 paritySliced,
	"atomic_agg_inc.cu:filterPositive":                parityAggInc,
	"atomic_max_float.cu:maxFloatCAS":                 parityMaxFloat,
	"atomic_max_float.cu:maxFloatIntBits":             parityMaxFloat,
}

func TestParityCoversCourseKernels(t *testing.T) {
	for _, name := range coursekernels.Names() {
		prog, err := cudac.Compile(name, coursekernels.Source(name))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range prog.KernelNames() {
			if parityCases[name+":"+k] == nil {
				t.Errorf("course kernel %s:%s has no parity test", name, k)
			}
		}
	}
}

func TestParity(t *testing.T) {
	requireGPU(t)
	done := map[string]bool{}
	for _, key := range slices.Sorted(maps.Keys(parityCases)) {
		f := parityCases[key]
		fname := fmt.Sprintf("%p", f)
		if done[fname] {
			continue
		}
		done[fname] = true
		file, _, _ := strings.Cut(key, ".cu:")
		t.Run(file, func(t *testing.T) {
			sim, err := gpu.Open(paritySim)
			if err != nil {
				t.Fatal(err)
			}
			defer sim.Close()
			cuda, err := gpu.Open("cuda")
			if err != nil {
				t.Fatal(err)
			}
			defer cuda.Close()
			f(t, sim, cuda)
		})
	}
}

// courseKernel compiles a course kernel file on d and returns its kernel.
func courseKernel(t *testing.T, d *gpu.Device, file, name string) *gpu.Kernel {
	t.Helper()
	return compileKernel(t, d, file, coursekernels.Source(file), name)
}

func newBuf[T gpu.Scalar](t *testing.T, d *gpu.Device, n int) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.NewBuffer[T](d, n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func upload[T gpu.Scalar](t *testing.T, d *gpu.Device, data []T) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.Upload(d, data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func download[T gpu.Scalar](t *testing.T, b *gpu.Buffer[T]) []T {
	t.Helper()
	v, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func run1D(t *testing.T, k *gpu.Kernel, grid, block, shared int, args ...any) {
	t.Helper()
	if _, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(block), SharedBytes: shared}, args...); err != nil {
		t.Fatalf("launch %s: %v", k.Name(), err)
	}
}

// kahan returns the sum of xs in double precision, compensated.
func kahan(xs []float32) float64 {
	var s, c float64
	for _, x := range xs {
		y := float64(x) - c
		u := s + y
		c = (u - s) - y
		s = u
	}
	return s
}

func relErr(got float32, want float64) float64 { return math.Abs(float64(got)-want) / math.Abs(want) }

// ulp32 is the spacing of float32 values at x.
func ulp32(x float64) float64 {
	f := float32(math.Abs(x))
	return float64(math.Nextafter32(f, float32(math.Inf(1))) - f)
}

// roundingBound is the worst-case error of adding n positive float32
// terms whose exact sum is sum, in any order: each addition rounds by at
// most half an ulp of a partial sum, and no partial sum exceeds sum; extra
// is the terms' own error.
func roundingBound(n int, sum, extra float64) float64 {
	return float64(n-1)*ulp32(sum)/2 + extra
}

// backendSpread is how far two backends' float sums may differ: they
// round the same additions, in different orders. docs/measurements.md's T4
// determinism table shows what the order alone does to a sum of 4M
// inexact floats: at most 2.7e-5 relative (167.5 of 6289253) with one
// atomic per element, less with block sums; 1e-4 allows for it with margin.
const backendSpread = 1e-4

// checkInexactSum checks two backends' float sums of the same terms:
// each within bound of the exact sum ref, and within backendSpread of
// each other.
func checkInexactSum(t *testing.T, what string, sim, gpu float32, ref, bound float64) {
	t.Helper()
	for who, v := range map[string]float32{"sim": sim, "GPU": gpu} {
		if e := math.Abs(float64(v) - ref); e > bound {
			t.Errorf("%s on %s: %v, exact %.3f: error %.3g over the worst-case rounding bound %.3g", what, who, v, ref, e, bound)
		}
	}
	if d := relErr(sim, float64(gpu)); d > backendSpread {
		t.Errorf("%s: sim %v and GPU %v differ by %.2g relative, over %.0e", what, sim, gpu, d, backendSpread)
	}
	t.Logf("%s: sim %v GPU %v exact %.3f (relative errors %.2g and %.2g; bound %.2g; sim-GPU %.2g)",
		what, sim, gpu, ref, relErr(sim, ref), relErr(gpu, ref), bound/ref, relErr(sim, float64(gpu)))
}

// sumN is the length of the sums' inputs: a little over 2^20, so the
// last block is partial.
const sumN = 1<<20 + 5

// sumInputs returns the two inputs the sums are compared on: 0,1,2,3
// repeated, whose float32 sum is exact in any order, and 1.5 + 0.1k, whose
// every addition rounds.
func sumInputs() (exact, inexact []float32) {
	exact = make([]float32, sumN)
	inexact = make([]float32, sumN)
	for i := range exact {
		exact[i] = float32(i % 4)
		inexact[i] = 1.5 + float32(i%7)*0.1
	}
	return exact, inexact
}

func parityDay26(t *testing.T, sim, cuda *gpu.Device) {
	exact, inexact := sumInputs()
	for _, name := range []string{"sumGlobalAtomic", "sumSharedAtomic", "sumTreeAtomic"} {
		sum := func(d *gpu.Device, in []float32) float32 {
			k := courseKernel(t, d, "day26_sums.cu", name)
			total := newBuf[float32](t, d, 1)
			run1D(t, k, (sumN+255)/256, 256, 0, upload(t, d, in), total, uint64(sumN))
			return download(t, total)[0]
		}
		// Input 0,1,2,3: every partial sum is an integer below 2^24, exact
		// in any order: bitwise equal to the integer sum on both.
		want := float32(kahan(exact))
		s, c := sum(sim, exact), sum(cuda, exact)
		if math.Float32bits(s) != math.Float32bits(want) || math.Float32bits(c) != math.Float32bits(want) {
			t.Errorf("%s exact input: sim %v, GPU %v, want %v bit for bit", name, s, c, want)
		}
		// Input 1.5 + 0.1k: every addition rounds, in an order each backend
		// picks, so neither result is exact and they need not be equal.
		ref := kahan(inexact)
		s, c = sum(sim, inexact), sum(cuda, inexact)
		checkInexactSum(t, name+" inexact input", s, c, ref, roundingBound(sumN, ref, 0))
	}
}

func paritySoftmax(t *testing.T, sim, cuda *gpu.Device) {
	const n = 1 << 20
	rng := rand.New(rand.NewPCG(26, 1))
	in := make([]float32, n)
	for i := range in {
		in[i] = float32(rng.Float64()*4 - 2)
	}
	var ref float64
	for _, x := range in {
		ref += math.Exp(float64(x))
	}
	for _, name := range []string{"onlineSoftmaxDenom_Atomic", "onlineSoftmaxDenom_WarpShuffle"} {
		denom := func(d *gpu.Device) float32 {
			k := courseKernel(t, d, "softmax_denom.cu", name)
			out := newBuf[float32](t, d, 1)
			run1D(t, k, n/256, 256, 0, upload(t, d, in), out, n)
			return download(t, out)[0]
		}
		s, c := denom(sim), denom(cuda)
		// CUDA's expf is within 2 ulp of exp (the CUDA C++ Programming
		// Guide's table of single-precision functions), so each term adds
		// at most 2 ulp of e^2 to the summation's own rounding.
		checkInexactSum(t, name, s, c, ref, roundingBound(n, ref, float64(n)*2*ulp32(math.Exp(2))))
	}
}

func parityHistogram(t *testing.T, sim, cuda *gpu.Device) {
	const n, bins, grid, block = 1 << 18, 64, 64, 256
	data := make([]int32, n)
	want := make([]int32, bins)
	for i := range data {
		data[i] = int32((i*7 + i/1000) % bins)
		want[data[i]]++
	}
	hist := func(d *gpu.Device, name, file string) []int32 {
		k := courseKernel(t, d, file, name)
		out := newBuf[int32](t, d, bins)
		run1D(t, k, grid, block, 4*bins, upload(t, d, data), n, out, bins)
		return download(t, out)
	}
	// The privatised histogram is integer atomics only: exact on both.
	s, c := hist(sim, "histPrivatized", "hist_privatized.cu"), hist(cuda, "histPrivatized", "hist_privatized.cu")
	if !slices.Equal(s, want) || !slices.Equal(c, want) {
		t.Errorf("histPrivatized: sim %v\nGPU %v\nwant %v", s, c, want)
	}
	// Without its barrier the histogram races: a zeroing store may wipe
	// counts another thread already added, never add any. Neither backend
	// can be held to exact counts, only to never counting too many.
	s, c = hist(sim, "histMissingBarrier", "hist_missing_barrier.cu"), hist(cuda, "histMissingBarrier", "hist_missing_barrier.cu")
	var lostSim, lostGPU int32
	for b := range want {
		if s[b] > want[b] || c[b] > want[b] {
			t.Errorf("histMissingBarrier bin %d: sim %d GPU %d, more than the %d there are", b, s[b], c[b], want[b])
		}
		lostSim += want[b] - s[b]
		lostGPU += want[b] - c[b]
	}
	t.Logf("histMissingBarrier lost counts: sim %d, GPU %d (of %d)", lostSim, lostGPU, n)
}

func paritySliced(t *testing.T, sim, cuda *gpu.Device) {
	const n, key, slicesN = 1 << 20, 3, 8
	data := make([]int32, n)
	var want uint64
	for i := range data {
		data[i] = int32(i % 10)
		if data[i] == key {
			want++
		}
	}
	count := func(d *gpu.Device) []uint64 {
		k := courseKernel(t, d, "sliced_counter.cu", "count_matches")
		padded := newBuf[uint64](t, d, slicesN*16) // 128 bytes per slice
		run1D(t, k, 128, 256, 0, upload(t, d, data), uint64(n), key, padded, slicesN)
		all := download(t, padded)
		out := make([]uint64, slicesN)
		for s := range out {
			out[s] = all[16*s]
		}
		return out
	}
	s, c := count(sim), count(cuda)
	var total uint64
	for _, v := range c {
		total += v
	}
	if !slices.Equal(s, c) || total != want {
		t.Errorf("count_matches slices: sim %v GPU %v; GPU total %d, want %d", s, c, total, want)
	}
}

func parityAggInc(t *testing.T, sim, cuda *gpu.Device) {
	const n = 100000
	in := make([]int32, n)
	var want []int32
	for i := range in {
		in[i] = int32((i*37)%201 - 100)
		if in[i] > 0 {
			want = append(want, in[i])
		}
	}
	slices.Sort(want)
	filter := func(d *gpu.Device) (int32, []int32) {
		k := courseKernel(t, d, "atomic_agg_inc.cu", "filterPositive")
		out, cnt := newBuf[int32](t, d, n), newBuf[int32](t, d, 1)
		run1D(t, k, (n+255)/256, 256, 0, upload(t, d, in), n, out, cnt)
		c := download(t, cnt)[0]
		got := download(t, out)[:max(0, min(int(c), n))]
		slices.Sort(got)
		return c, got
	}
	// The order of the output is the atomics' order: compare it sorted.
	sc, sv := filter(sim)
	cc, cv := filter(cuda)
	if sc != int32(len(want)) || cc != int32(len(want)) || !slices.Equal(sv, want) || !slices.Equal(cv, want) {
		t.Errorf("filterPositive: count sim %d GPU %d, want %d; values equal: sim %v GPU %v",
			sc, cc, len(want), slices.Equal(sv, want), slices.Equal(cv, want))
	}
}

func parityMaxFloat(t *testing.T, sim, cuda *gpu.Device) {
	const n = 200000
	rng := rand.New(rand.NewPCG(3, 7))
	in := make([]float32, n)
	var want float32
	for i := range in {
		in[i] = float32(rng.Float64() * 1000) // non-negative: what both kernels require
		want = max(want, in[i])
	}
	for _, name := range []string{"maxFloatCAS", "maxFloatIntBits"} {
		mx := func(d *gpu.Device) float32 {
			k := courseKernel(t, d, "atomic_max_float.cu", name)
			out := newBuf[float32](t, d, 1)
			run1D(t, k, (n+255)/256, 256, 0, upload(t, d, in), n, out)
			return download(t, out)[0]
		}
		s, c := mx(sim), mx(cuda)
		if math.Float32bits(s) != math.Float32bits(want) || math.Float32bits(c) != math.Float32bits(want) {
			t.Errorf("%s: sim %v GPU %v, want %v bit for bit", name, s, c, want)
		}
	}
}

// TestLabParity runs the lab kernels on the GPU and on the simulator.
// Every lab kernel so far is a sum with the Day 26 signature
// (const float* in, float* total, size_t n), a template over its block size
// or not; those are compared as parityDay26 compares the Day 26 sums. A
// kernel of another shape is compiled on both and reported as having no
// parity recipe yet.
func TestLabParity(t *testing.T) {
	// The test binary runs in cudarun's directory of a whole tree: no
	// kernels there means the run compares nothing, which must not pass.
	files, err := filepath.Glob("../labs/*/kernels/*.cu")
	if err != nil || len(files) == 0 {
		t.Fatalf("no lab kernels (../labs/*/kernels/*.cu) to compare: %v; run the test from cudarun/ in a full checkout", err)
	}
	requireGPU(t)
	sim, err := gpu.Open(paritySim)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	cuda := openGPU(t, "cuda")
	exact, inexact := sumInputs()
	wantExact := float32(kahan(exact))
	ref := kahan(inexact)
	compared := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		ms, err := sim.Compile(name, src)
		if err != nil {
			t.Fatalf("%s on the simulator: %v", f, err)
		}
		mc, err := cuda.Compile(name, src)
		if err != nil {
			t.Fatalf("%s on the GPU: %v", f, err)
		}
		for _, kname := range ms.KernelNames() {
			instances := []string{kname}
			blocks := []int{256}
			if base, _, isTmpl := strings.Cut(kname, "<"); isTmpl {
				instances = []string{base + "<64>", base + "<256>", base + "<1024>"}
				blocks = []int{64, 256, 1024}
			}
			for i, inst := range instances {
				ks, err := ms.Kernel(inst)
				if err != nil {
					t.Errorf("%s: %v", inst, err)
					continue
				}
				if !isSumSignature(ks.Func()) {
					t.Logf("%s %s: %s has no parity recipe; it compiles on both", f, inst, ks.Func().Signature())
					continue
				}
				kc, err := mc.Kernel(inst)
				if err != nil {
					t.Fatal(err)
				}
				block := blocks[i]
				sum := func(d *gpu.Device, k *gpu.Kernel, in []float32) float32 {
					total := newBuf[float32](t, d, 1)
					run1D(t, k, (sumN+block-1)/block, block, 0, upload(t, d, in), total, uint64(sumN))
					return download(t, total)[0]
				}
				what := fmt.Sprintf("%s %s block %d", name, inst, block)
				s, c := sum(sim, ks, exact), sum(cuda, kc, exact)
				if math.Float32bits(s) != math.Float32bits(wantExact) || math.Float32bits(c) != math.Float32bits(wantExact) {
					t.Errorf("%s exact input: sim %v, GPU %v, want %v bit for bit", what, s, c, wantExact)
				}
				s, c = sum(sim, ks, inexact), sum(cuda, kc, inexact)
				checkInexactSum(t, what+" inexact input", s, c, ref, roundingBound(sumN, ref, 0))
				compared++
			}
		}
	}
	if compared == 0 {
		t.Errorf("%d lab kernel files, and not one kernel compared", len(files))
	}
	t.Logf("%d kernel instances of %d files compared on the GPU and %s", compared, len(files), paritySim)
}

// isSumSignature reports whether fn is (const float*, float*, size_t).
func isSumSignature(fn *cudac.Func) bool {
	p := fn.Params
	return len(p) == 3 && p[0].T.Kind == cudac.Pointer && p[0].T.Elem.Kind == cudac.Float32 &&
		p[1].T.Kind == cudac.Pointer && p[1].T.Elem.Kind == cudac.Float32 && p[2].T.Kind == cudac.Uint64
}
