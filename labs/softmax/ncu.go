package softmax

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/warplab/warplab/internal/ncu"
	"github.com/warplab/warplab/labs/profile"
)

// ncuCoreCSV and ncuProbeCSV are verbatim copies of Nsight Compute's L2
// counters of l2probe.cu's launches on the H200 and of the launch list
// (a test keeps them the same as the evidence): the lab's three kernels
// at n = 65,536, 1,048,576 and 16,777,216, 256 threads per block, each
// profiled once from a cold L2.
//
//go:embed h200/ncu-core.csv
var ncuCoreCSV string

//go:embed h200/l2probe.csv
var ncuProbeCSV string

// NCUEvidence names where the L2 figures come from.
const NCUEvidence = "calibration/evidence/2026-11-30-h200-ncu-l2"

// ncuKernels maps l2probe.cu's kernel names to the lab's.
var ncuKernels = map[string]Kernel{"denomAtomic": Atomic, "denomShared": Shared, "denomShuffle": Shuffle}

// ncuKey is a launch of the lab's kernels that Nsight Compute profiled.
type ncuKey struct {
	kernel Kernel
	n      int
}

// NCUL2 returns Nsight Compute's L2 figures for the lab's kernel at size n
// with 256 threads per block on the H200, and false when the evidence has
// no such launch.
func NCUL2(kernel Kernel, n int) (*profile.L2Figures, bool, error) {
	all, err := ncuL2()
	if err != nil {
		return nil, false, err
	}
	f, ok := all[ncuKey{kernel, n}]
	return f, ok, nil
}

// ncuL2 reads the embedded evidence.
func ncuL2() (map[ncuKey]*profile.L2Figures, error) {
	ids := map[int]ncuKey{}
	for i, line := range strings.Split(ncuProbeCSV, "\n") {
		f := strings.Split(strings.TrimSpace(line), ",")
		if len(f) != 8 || f[1] != "softmax" {
			continue
		}
		id, err1 := strconv.Atoi(f[0])
		n, err2 := strconv.Atoi(f[3])
		k, ok := ncuKernels[f[2]]
		if err1 != nil || err2 != nil || !ok || f[6] != "256" {
			return nil, fmt.Errorf("softmax: %s/l2probe.csv:%d: unexpected launch %q", NCUEvidence, i+1, line)
		}
		ids[id] = ncuKey{k, n}
	}
	metrics, err := ncu.Raw(strings.NewReader(ncuCoreCSV), "lts__t_sectors.sum", "lts__t_sectors.max", "lts__t_sectors.avg", "lts__t_sector_hit_rate.pct")
	if err != nil {
		return nil, fmt.Errorf("softmax: %s/ncu-core.csv: %w", NCUEvidence, err)
	}
	out := map[ncuKey]*profile.L2Figures{}
	for id, key := range ids {
		vals, ok := metrics[id]
		if !ok {
			continue
		}
		if vals[2] == 0 {
			return nil, fmt.Errorf("softmax: %s/ncu-core.csv: launch %d has no sectors", NCUEvidence, id)
		}
		out[key] = &profile.L2Figures{
			HitRate: vals[3] / 100, Sectors: int64(vals[0]), HotSlice: int64(vals[1]),
			Slices: int(vals[0]/vals[2] + 0.5),
			Source: "Nsight Compute on the H200, cold L2",
		}
	}
	return out, nil
}
