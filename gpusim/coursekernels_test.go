package gpusim_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/internal/coursekernels"
)

func courseKernel(t testing.TB, d *gpu.Device, file, name string) *gpu.Kernel {
	t.Helper()
	src := coursekernels.Source(file)
	if src == nil {
		t.Fatalf("no course kernel file %s", file)
	}
	m, err := d.Compile(file, src)
	if err != nil {
		t.Fatalf("compile %s: %v", file, err)
	}
	k, err := m.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestDay26ExactSums runs the Day 26 course page's three sums at the page's five sizes on
// input 0,1,2,3,...: every partial sum is an integer below 2^24, so every
// order of addition gives the same float, and the check is bitwise.
func TestDay26ExactSums(t *testing.T) {
	d := open(t, "sim:t4")
	sizes := []int{4096, 65536, 262144, 1048576, 4194304}
	if testing.Short() {
		sizes = sizes[:3]
	}
	for _, name := range []string{"sumGlobalAtomic", "sumSharedAtomic", "sumTreeAtomic"} {
		k := courseKernel(t, d, "day26_sums.cu", name)
		for _, n := range sizes {
			in := make([]float32, n)
			var ref float64
			for i := range in {
				in[i] = float32(i % 4)
				ref += float64(in[i])
			}
			total := zeros[float32](t, d, 1)
			launch(t, k, (n+255)/256, 256, upload(t, d, in), total, uint64(n))
			if got := download(t, total)[0]; got != float32(ref) {
				t.Errorf("%s n=%d: sum %v, want exactly %v", name, n, got, ref)
			}
		}
	}
}

func TestSoftmaxDenominators(t *testing.T) {
	d := open(t, "sim:t4")
	const n = 1 << 20
	rng := rand.New(rand.NewPCG(1, 2))
	in := make([]float32, n)
	var ref float64
	for i := range in {
		in[i] = float32(rng.Float64()*2 - 1)
		ref += math.Exp(float64(in[i]))
	}
	buf := upload(t, d, in)
	sums := map[string]float64{}
	for _, name := range []string{"onlineSoftmaxDenom_Atomic", "onlineSoftmaxDenom_WarpShuffle"} {
		k := courseKernel(t, d, "softmax_denom.cu", name)
		denom := zeros[float32](t, d, 1)
		launch(t, k, n/256, 256, buf, denom, n)
		sums[name] = float64(download(t, denom)[0])
		// The per-thread atomic adds a million terms of about 1.2 to one
		// float32 total: each addition rounds the total to its ulp (0.125
		// near 1.2e6), which bounds the relative error by about n*2^-24 and
		// is typically well under 1e-3. The tree's partial sums are small.
		if rel := math.Abs(sums[name]-ref) / ref; rel > 1e-3 {
			t.Errorf("%s: %v, reference %v (relative error %.2g)", name, sums[name], ref, rel)
		}
	}
	a, s := sums["onlineSoftmaxDenom_Atomic"], sums["onlineSoftmaxDenom_WarpShuffle"]
	if rel := math.Abs(a-s) / ref; rel > 1e-3 {
		t.Errorf("the two kernels disagree: %v vs %v", a, s)
	}
}

func TestPrivatizedHistogram(t *testing.T) {
	d := open(t, "sim:t4")
	const n, bins = 100000, 100
	rng := rand.New(rand.NewPCG(3, 4))
	data := make([]int32, n)
	want := make([]int32, bins)
	for i := range data {
		data[i] = int32(rng.IntN(bins))
		want[data[i]]++
	}
	k := courseKernel(t, d, "hist_privatized.cu", "histPrivatized")
	hist := zeros[int32](t, d, bins)
	res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(40), Block: gpu.D1(256), SharedBytes: bins * 4},
		upload(t, d, data), n, hist, bins)
	if err != nil {
		t.Fatal(err)
	}
	if got := download(t, hist); !slices.Equal(got, want) {
		t.Errorf("histogram %v\nwant %v", got, want)
	}
	if races := diagnostics(res, "race"); len(races) != 0 {
		t.Errorf("races in the correct histogram: %v", races)
	}
	if res.Counters.SharedAtomicOps != n {
		t.Errorf("shared atomics = %d, want %d", res.Counters.SharedAtomicOps, n)
	}
}

func TestMissingBarrierHistogram(t *testing.T) {
	d := open(t, "sim:t4")
	const n, bins = 8192, 64
	data := make([]int32, n)
	for i := range data {
		data[i] = int32(i % bins)
	}
	k := courseKernel(t, d, "hist_missing_barrier.cu", "histMissingBarrier")
	res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(8), Block: gpu.D1(256), SharedBytes: bins * 4},
		upload(t, d, data), n, zeros[int32](t, d, bins), bins)
	if err != nil {
		t.Fatal(err)
	}
	races := diagnostics(res, "race")
	if len(races) == 0 {
		t.Fatal("the missing __syncthreads() was not reported")
	}
	src := strings.Split(string(coursekernels.Source("hist_missing_barrier.cu")), "\n")
	line := func(n int) string { return strings.TrimSpace(src[n-1]) }
	r := races[0]
	a, b := line(r.Pos.Line), line(r.Other.Line)
	if !(strings.Contains(a+b, "localHist[b] = 0") && strings.Contains(a+b, "atomicAdd(&localHist")) {
		t.Errorf("race reported between %q and %q, want the zeroing and the atomicAdd", a, b)
	}
}

func TestSlicedCounter(t *testing.T) {
	d := open(t, "sim:t4")
	const n, key, nslices = 200000, 7, 8
	data := make([]int32, n)
	want := 0
	for i := range data {
		data[i] = int32(i * 31 % 13)
		if data[i] == key {
			want++
		}
	}
	k := courseKernel(t, d, "sliced_counter.cu", "count_matches")
	// PaddedCount is alignas(128): 16 unsigned long longs apart.
	slices := zeros[uint64](t, d, nslices*16)
	res := launch(t, k, 60, 256, upload(t, d, data), uint64(n), key, slices, nslices)
	got := download(t, slices)
	total := 0
	for s := 0; s < nslices; s++ {
		total += int(got[s*16])
		for j := 1; j < 16; j++ {
			if got[s*16+j] != 0 {
				t.Fatalf("padding of slice %d was written", s)
			}
		}
	}
	if total != want {
		t.Errorf("count = %d, want %d", total, want)
	}
	if c := res.Counters; c.GlobalAtomicLines != nslices || c.GlobalAtomicAddresses != nslices {
		t.Errorf("atomics touched %d addresses in %d lines, want %d in %d (one line each)",
			c.GlobalAtomicAddresses, c.GlobalAtomicLines, nslices, nslices)
	}
}

const aggIncTest = `
__global__ void aggOld(int n, int* olds, int* count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i % 3 != 0) olds[i] = atomicAggInc(count);
}
__global__ void plainOld(int n, int* olds, int* count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i % 3 != 0) olds[i] = atomicAdd(count, 1);
}`

func TestAtomicAggInc(t *testing.T) {
	d := open(t, "sim:t4")
	src := string(coursekernels.Source("atomic_agg_inc.cu")) + aggIncTest
	m, err := d.Compile("agg.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	const n = 10000
	olds := map[string][]int32{}
	for _, name := range []string{"aggOld", "plainOld"} {
		k, err := m.Kernel(name)
		if err != nil {
			t.Fatal(err)
		}
		o := upload(t, d, slices.Repeat([]int32{-1}, n))
		count := zeros[int32](t, d, 1)
		res := launch(t, k, (n+127)/128, 128, n, o, count)
		var got []int32
		for i, v := range download(t, o) {
			if i%3 != 0 {
				got = append(got, v)
			}
		}
		slices.Sort(got)
		olds[name] = got
		if c := download(t, count)[0]; int(c) != len(got) {
			t.Errorf("%s: count %d, want %d", name, c, len(got))
		}
		if name == "aggOld" && res.Counters.GlobalAtomicOps >= int64(len(got)) {
			t.Errorf("atomicAggInc issued %d atomics for %d increments; it should issue one per warp", res.Counters.GlobalAtomicOps, len(got))
		}
	}
	if !slices.Equal(olds["aggOld"], olds["plainOld"]) {
		t.Errorf("atomicAggInc's old values differ from atomicAdd's as a set")
	}
	for i, v := range olds["aggOld"] {
		if int(v) != i {
			t.Fatalf("old values are not 0..%d: position %d holds %d", len(olds["aggOld"])-1, i, v)
		}
	}
	// The seed's own kernel: compaction of the positive values.
	in := make([]int32, n)
	var pos []int32
	for i := range in {
		in[i] = int32(i%7 - 3)
		if in[i] > 0 {
			pos = append(pos, in[i])
		}
	}
	out := zeros[int32](t, d, n)
	count := zeros[int32](t, d, 1)
	launch(t, courseKernel(t, d, "atomic_agg_inc.cu", "filterPositive"), (n+255)/256, 256, upload(t, d, in), n, out, count)
	c := download(t, count)[0]
	got := download(t, out)[:c]
	slices.Sort(got)
	slices.Sort(pos)
	if !slices.Equal(got, pos) {
		t.Errorf("filterPositive kept %d values, want the %d positive ones", len(got), len(pos))
	}
}

// TestAtomicMaxFloat checks the atomic-operations reference's claim that its atomicMaxFloat "is
// only correct for non-negative floats". The CAS loop compares the values as
// floats (cur >= value, with cur = __int_as_float(assumed)): integer bits are
// only compared for equality, by atomicCAS, which is exact for any float.
// So the loop is right for negative values. The variant that really breaks
// is a plain integer atomicMax on the float's bits: for negative floats the
// integer order is reversed.
func TestAtomicMaxFloat(t *testing.T) {
	d := open(t, "sim:t4")
	cas := courseKernel(t, d, "atomic_max_float.cu", "maxFloatCAS")
	ints := courseKernel(t, d, "atomic_max_float.cu", "maxFloatIntBits")
	rng := rand.New(rand.NewPCG(5, 6))
	mixed := make([]float32, 5000)
	for i := range mixed {
		mixed[i] = float32(rng.Float64()*200 - 150) // mostly negative
	}
	negative := make([]float32, 5000)
	for i := range negative {
		negative[i] = -1 - float32(rng.Float64()*100)
	}
	for _, tc := range []struct {
		name        string
		in          []float32
		intBitsOK   bool // integer atomicMax happens to be right
		description string
	}{
		{"mixed", mixed, true, "mixed signs with a positive maximum: positive floats order like their bits"},
		{"negative", negative, false, "all negative: integer order of the bits is reversed"},
	} {
		want := slices.Max(tc.in)
		init := float32(math.Inf(-1))
		for _, k := range []*gpu.Kernel{cas, ints} {
			res := upload(t, d, []float32{init})
			launch(t, k, (len(tc.in)+255)/256, 256, upload(t, d, tc.in), len(tc.in), res)
			got := download(t, res)[0]
			switch {
			case k == cas && got != want:
				t.Errorf("%s: the CAS loop gave %v, want %v", tc.name, got, want)
			case k == ints && tc.intBitsOK && got != want:
				t.Errorf("%s (%s): integer atomicMax gave %v, want %v", tc.name, tc.description, got, want)
			case k == ints && !tc.intBitsOK && got == want:
				t.Errorf("%s (%s): integer atomicMax gave the right %v; the test input does not show the bug", tc.name, tc.description, got)
			}
		}
	}
}
