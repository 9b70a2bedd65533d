package gpusim_test

import (
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/internal/ncu"
	"github.com/warplab/warplab/labs/softmax"
)

// ncuL2Dir holds Nsight Compute's L2 counters of l2probe.cu's launches on
// the H200 (calibration/scripts/ncu-l2.sh): copies of the CSVs of
// calibration/evidence/2026-11-30-h200-ncu-l2 that these tests read.
const ncuL2Dir = "testdata/ncu-l2/"

// ncuRow is one launch's figures from the ncu CSVs.
type ncuRow struct {
	sectors, hot, fromSMs, fabric, hitPct float64
}

// readNCU reads metric columns of ncu's raw CSV by launch ID.
func readNCU(t *testing.T, file string, metrics ...string) map[int][]float64 {
	t.Helper()
	f, err := os.Open(ncuL2Dir + file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err := ncu.Raw(f, metrics...)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return out
}

func ncuL2(t *testing.T) map[int]ncuRow {
	core := readNCU(t, "ncu-core.csv", "lts__t_sectors.sum", "lts__t_sectors.max", "lts__t_sector_hit_rate.pct")
	ops := readNCU(t, "ncu-ops.csv", "lts__t_sectors_srcunit_tex.sum")
	fab := readNCU(t, "ncu-fabric.csv", "lts__t_sectors_srcunit_ltcfabric.sum")
	out := map[int]ncuRow{}
	for id, c := range core {
		out[id] = ncuRow{sectors: c[0], hot: c[1], hitPct: c[2], fromSMs: ops[id][0], fabric: fab[id][0]}
	}
	return out
}

// l2ProbeSrc is l2probe.cu's kernels that the test runs: the softmax
// lab's three, which l2probe.cu includes from the lab, and its own.
var l2ProbeSrc = softmax.Source(softmax.Atomic).Text + "\n" + softmax.Source(softmax.Shared).Text + "\n" +
	softmax.Source(softmax.Shuffle).Text + l2ProbeOwnSrc

// l2ProbeOwnSrc is l2probe.cu's own kernels.
const l2ProbeOwnSrc = `
__global__ void l2_stride(const unsigned* in, unsigned mask, unsigned stride, int iters, unsigned* out) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
    unsigned s = 0;
    for (int k = 0; k < iters; ++k) s += in[((t + (unsigned)k * T) * stride) & mask];
    out[t] = s;
}
__global__ void copy_stream(const float* __restrict__ in, float* __restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
__global__ void hot_lines(float* c, unsigned k) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x & 31) == 0) atomicAdd(&c[((t >> 5) % k) * 32], 1.0f);
}`

// TestL2AgainstNsightCompute runs l2probe.cu's launches on the H200
// profile and compares the L2 model with what Nsight Compute measured
// (calibration/evidence/2026-11-30-h200-ncu-l2): the hit rate
// (lts__t_sector_hit_rate), the sector accesses (lts__t_sectors) and the
// busiest slice's share of them (lts__t_sectors.max / .sum). The hot_lines
// rows are calibration (Profile.L2HashBytes comes from them); the others
// are validation: nothing was fitted to them.
//
// The profiler also counts a few thousand sectors a launch that come from
// neither the SMs nor the other partition (instruction and constant
// fetches, which the model leaves out): the sector accesses are compared
// with the SMs' and the partitions' (within 10%), and where the others are
// more than 5% of the launch's sectors the busiest slice's share is taken
// over those too (within 3 points and 15%). The hit rate is compared
// within 3 points except on the launches listed with the reason it is not
// expected to agree.
func TestL2AgainstNsightCompute(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 15 launches of up to 17M loads: about 30 s")
	}
	meas := ncuL2(t)
	d := open(t, "sim:h200")
	m, err := d.Compile("l2probe.cu", []byte(l2ProbeSrc))
	if err != nil {
		t.Fatal(err)
	}
	k := func(name string) *gpu.Kernel {
		kk, err := m.Kernel(name)
		if err != nil {
			t.Fatal(err)
		}
		return kk
	}
	type cell struct {
		id    int
		name  string
		calib bool
		run   func() *gpu.Result
		// miss, when set, says why the hit rate is not expected to agree.
		miss string
	}
	// The profiler's hit rate counts lookups the model does not: its SM
	// reads of a cold stream hit 0 of 8,192 and 0 of 131,072 sectors
	// (ncu-lookup.csv, srcunit_tex_op_read_lookup_hit), as modelled, yet
	// the launch's hit rate is 10 to 34%: the other units' sectors and
	// lookups of the partition traffic that the model does not count.
	const coldStream = "a cold stream: the profiler's SM reads miss every sector, as modelled; the hits it reports are other lookups (ncu-lookup.csv)"
	var cells []cell
	x := zeros[float32](t, d, 1<<20)
	denom := zeros[float32](t, d, 1)
	for i, n := range []int{1 << 16, 1 << 20} {
		for j, name := range []string{"denomAtomic", "denomShared", "denomShuffle"} {
			c := cell{id: 3*i + j, name: fmt.Sprintf("%s n=%d", name, n), run: func() *gpu.Result {
				return launch(t, k(name), n/256, 256, x, denom, int32(n))
			}}
			if j > 0 {
				c.miss = coldStream
			}
			cells = append(cells, c)
		}
	}
	buf := zeros[uint32](t, d, 1<<22)
	out := zeros[uint32](t, d, 1056*256)
	for i, s := range []uint32{1, 8, 32} {
		c := cell{id: 9 + i, name: fmt.Sprintf("l2_stride s=%d", s), run: func() *gpu.Result {
			return launch(t, k("l2_stride"), 1056, 256, buf, uint32(1<<22-1), s, int32(64), out)
		}}
		if s == 1 {
			c.miss = "neighbouring warps' loads share lines, which the H200's L1 serves 9.4% of the time (ncu-lookup.csv) and the model's L1 never: more of the re-reads reach the L2 and hit there"
		}
		cells = append(cells, c)
	}
	counters := zeros[float32](t, d, 128*32)
	for i, kk := range []uint32{1, 2, 8, 32, 128} {
		cells = append(cells, cell{id: 19 + i, name: fmt.Sprintf("hot_lines k=%d", kk), calib: true, run: func() *gpu.Result {
			return launch(t, k("hot_lines"), 2048, 256, counters, kk)
		}, miss: "the profiler's hit rate is over 100% (it counts more hits than sectors)"})
	}
	for _, c := range cells {
		res := c.run()
		got, want := res.Counters, meas[c.id]
		rate, _ := got.L2HitRate()
		share, _, _ := got.L2HotSliceShare()
		other := want.sectors - want.fromSMs - want.fabric
		// The measured figures over the sectors the model has.
		wantShare := want.hot / want.sectors
		if other > 0.05*want.sectors {
			wantShare = want.hot / (want.fromSMs + want.fabric)
		}
		kind := "validation"
		if c.calib {
			kind = "calibration"
		}
		t.Logf("%-22s %-11s sectors %9d vs %9.0f (%.0f of them other units'); hit rate %5.1f%% vs %5.1f%%; busiest slice %5.1f%% vs %5.1f%%",
			c.name, kind, got.L2Sectors, want.sectors, other, 100*rate, want.hitPct, 100*share, 100*wantShare)
		if r := float64(got.L2Sectors) / (want.fromSMs + want.fabric); r < 0.9 || r > 1.1 {
			t.Errorf("%s: %d sector accesses, ncu %.0f from the SMs and the other partition: ratio %.2f, want within 10%%", c.name, got.L2Sectors, want.fromSMs+want.fabric, r)
		}
		if c.miss != "" {
			t.Logf("%s: hit rate not compared: %s", c.name, c.miss)
		} else if math.Abs(100*rate-want.hitPct) > 3 {
			t.Errorf("%s: modelled hit rate %.1f%%, ncu %.1f%%: want within 3 points", c.name, 100*rate, want.hitPct)
		}
		if math.Abs(share-wantShare) > 0.03+0.15*wantShare {
			t.Errorf("%s: busiest slice %.1f%% of the sectors, ncu %.1f%%: want within 3 points and 15%%", c.name, 100*share, 100*wantShare)
		}
	}
}
