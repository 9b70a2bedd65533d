package gpusim_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
)

// The fine interleaving of a block's warps (interleave=fine): a race
// between warps on shared memory changes the results from seed to seed,
// while kernels whose shared accesses are ordered stay exact.

const fineHistSrc = `
__global__ void hist(const int* bin, int n, unsigned* hist, int bins) {
    extern __shared__ unsigned local[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    BARRIER;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&local[bin[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (local[b] != 0) atomicAdd(&hist[b], local[b]);
}

// tree sums blockDim.x values per block in shared memory, the last five
// steps within warp 0 ordered by __syncwarp().
__global__ void tree(const int* in, int* out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 2; k >= 32; k /= 2) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 32) {
        for (int k = 16; k > 0; k /= 2) {
            int v = s[t] + s[t + k];
            __syncwarp();
            s[t] = v;
            __syncwarp();
        }
    }
    if (t == 0) out[blockIdx.x] = s[0];
}`

const (
	fineBins   = 1024
	fineBlocks = 16
	fineN      = fineBlocks * 256
)

// fineHist runs the histogram (with or without its first barrier) on
// spec and returns the counts.
func fineHist(t *testing.T, spec string, barrier bool) []uint32 {
	t.Helper()
	b := ""
	if barrier {
		b = "__syncthreads()"
	}
	d := open(t, spec)
	k := kernel(t, d, strings.ReplaceAll(fineHistSrc, "BARRIER", b), "hist")
	bins := make([]int32, fineN)
	for i := range bins {
		bins[i] = int32(uint32(i)*2654435761>>7) % fineBins
	}
	hist := zeros[uint32](t, d, fineBins)
	res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(fineBlocks), Block: gpu.D1(256), SharedBytes: 4 * fineBins}, upload(t, d, bins), int32(fineN), hist, int32(fineBins))
	if err != nil {
		t.Fatal(err)
	}
	if races := len(diagnostics(res, "race")); races == 0 && !barrier {
		t.Errorf("%s: no race reported for the histogram without its barrier", spec)
	} else if races > 0 && barrier {
		t.Errorf("%s: a race reported for the histogram with its barrier", spec)
	}
	return download(t, hist)
}

func wantHist() []uint32 {
	h := make([]uint32, fineBins)
	for i := range fineN {
		h[int32(uint32(i)*2654435761>>7)%fineBins]++
	}
	return h
}

func TestFineInterleavingShowsMissingBarrier(t *testing.T) {
	want := wantHist()
	wrong := 0
	for seed := 1; seed <= 6; seed++ {
		spec := fmt.Sprintf("sim:h200?seed=%d&interleave=fine", seed)
		got := fineHist(t, spec, false)
		if !slices.Equal(got, want) {
			wrong++
			if again := fineHist(t, spec, false); !slices.Equal(again, got) {
				t.Errorf("%s: two launches of one seed counted differently", spec)
			}
		}
		if coarse := fineHist(t, fmt.Sprintf("sim:h200?seed=%d", seed), false); !slices.Equal(coarse, want) {
			t.Errorf("seed %d: coarse interleaving counted wrong; the default schedule changed", seed)
		}
	}
	if wrong == 0 {
		t.Errorf("fine interleaving: the histogram without its barrier counted right under every seed")
	}
	t.Logf("%d of 6 seeds counted wrong", wrong)
}

func TestFineInterleavingKeepsOrderedKernelsExact(t *testing.T) {
	want := wantHist()
	in := make([]int32, fineN)
	sums := make([]int32, fineBlocks)
	for i := range in {
		in[i] = int32(i%97) - 40
		sums[i/256] += in[i]
	}
	for seed := 1; seed <= 12; seed++ {
		for _, opt := range []string{"", "&order=deterministic", "&memory=relaxed"} {
			spec := fmt.Sprintf("sim:h200?seed=%d&interleave=fine%s", seed, opt)
			if got := fineHist(t, spec, true); !slices.Equal(got, want) {
				t.Fatalf("%s: the histogram with its barrier counted wrong", spec)
			}
			d := open(t, spec)
			k := kernel(t, d, strings.ReplaceAll(fineHistSrc, "BARRIER", ""), "tree")
			out := zeros[int32](t, d, fineBlocks)
			res := launch(t, k, fineBlocks, 256, upload(t, d, in), out)
			if got := download(t, out); !slices.Equal(got, sums) {
				t.Fatalf("%s: tree sums %v, want %v", spec, got, sums)
			}
			if r := diagnostics(res, "race"); len(r) > 0 {
				t.Fatalf("%s: race reported in the tree sum: %v", spec, r[0])
			}
		}
	}
}
