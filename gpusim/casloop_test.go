package gpusim_test

import (
	"math"
	"os"
	"testing"

	"github.com/warplab/warplab/labs/cas"
)

// TestCASLoopFailures runs cas_wait.cu's CAS loop on the h200 profile at
// the contentions the H200 measured it at and compares the failed
// compares a warp with calibration/evidence/2026-11-30-h200-cas-wait
// (cas_wait.csv total): C = 4096 and 65,536 threads per word fit the
// profile's Cost.CASOrderedCycles (within 20%), C = 256 and 4M are
// validation (within 30%). Compared at issue, or in arrival order alone,
// the loop failed 1.4 to 5 times as often at 4096 and 65,536.
func TestCASLoopFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 4M threads four times")
	}
	// The loop is warplab fidelity's cas_loop, cas.cu's (and cas_wait.cu's)
	// float maximum over groups of C threads.
	src, err := os.ReadFile("fidelity/kernels/microbench.cu")
	if err != nil {
		t.Fatal(err)
	}
	d := open(t, "sim:h200")
	k := kernel(t, d, string(src), "cas_loop")
	const n = 1 << 22
	for _, c := range []struct {
		C    int
		want float64 // failed compares a warp on the H200
		tol  float64
	}{{256, 61.895, 1.3}, {4096, 27.361, 1.2}, {65536, 10.482, 1.2}, {n, 2.131, 1.3}} {
		init := make([]float32, n/c.C)
		for i := range init {
			init[i] = float32(math.Inf(-1))
		}
		m := upload(t, d, init)
		res := launch(t, k, n/256, 256, m, uint32(n), uint32(c.C))
		got := float64(res.Counters.CASFailures) / (n / 32)
		if r := got / c.want; r > c.tol || r < 1/c.tol {
			t.Errorf("C = %d: %.2f failed compares a warp, the H200 %.2f: ratio %.2f, want within %.0f%%", c.C, got, c.want, r, 100*(c.tol-1))
		}
		got32 := download(t, m)
		for g := 0; g < n/c.C && g < 4; g++ {
			want := float32(math.Inf(-1))
			for i := g * c.C; i < (g+1)*c.C; i++ {
				want = max(want, cas.Value(i, 0))
			}
			if got32[g] != want {
				t.Errorf("C = %d: group %d's maximum %v, want %v", c.C, g, got32[g], want)
			}
		}
	}
}
