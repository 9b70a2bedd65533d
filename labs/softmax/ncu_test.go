package softmax

import (
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
)

// TestNCUL2 reads the lab's copy of Nsight Compute's L2 figures
// (scripts/check.sh keeps it the same as NCUEvidence's CSVs): the atomic
// kernel at 1,048,576 elements
// (calibration/evidence/2026-11-30-h200-ncu-l2/README.md: 1,806,109 sectors, a
// 90.0% hit rate, 94 slices, the busiest 1,050,741).
func TestNCUL2(t *testing.T) {
	f, ok, err := NCUL2(Atomic, 1<<20)
	if err != nil || !ok {
		t.Fatalf("NCUL2(atomic, 1M): %v, %v", ok, err)
	}
	if f.Sectors != 1806109 || f.HotSlice != 1050741 || f.Slices != 94 || f.HitRate != 0.9001 {
		t.Errorf("NCUL2(atomic, 1M) = %+v", f)
	}
	if _, ok, _ := NCUL2(Shuffle, 1000); ok {
		t.Error("NCUL2 found a launch the evidence does not have")
	}
}

// TestProfileOfH200ShowsNCU checks that the profile view of the h200
// profile at a profiled size sets Nsight Compute's L2 figures beside the
// model's.
func TestProfileOfH200ShowsNCU(t *testing.T) {
	dev, err := gpu.Open("sim:h200")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	const n = 1 << 16
	sw, err := Sweep(dev, SweepOptions{Sizes: []int{n}})
	if err != nil {
		t.Fatal(err)
	}
	s := ProfileOf(sw, n).String()
	for _, want := range []string{"profiled: Nsight Compute on the H200, cold L2", "88.5", "55.6 (52.2x the mean of 94 slices)"} {
		if !strings.Contains(s, want) {
			t.Errorf("the view does not show %q:\n%s", want, s)
		}
	}
}
