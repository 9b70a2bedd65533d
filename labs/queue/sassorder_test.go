package queue

import (
	"testing"

	"github.com/warplab/warplab/gpusim/sassorder"
)

// TestRecordedSASS checks that the simulator finds the lab's kernels'
// recorded SASS (gpusim/sassorder/sm_90) and reads the order the H200's
// ptxas gave them: the memory descriptor's ULDC before the head's LDC
// (calibration/evidence/2026-12-01-h200-prolog). It fails when queue.cu changes
// without its kernels being re-recorded.
func TestRecordedSASS(t *testing.T) {
	src := []byte(Kernels().Text)
	for _, k := range []string{PerThread.Kernel(), PerWarp.Kernel()} {
		e, ok := sassorder.Lookup("sm_90", k, src)
		if !ok {
			t.Errorf("no recorded SASS for %s of %s (SHA-256 %s): %s changed since its SASS was recorded; on a machine with NVRTC and cuobjdump (the CUDA toolkit), from the repository root, run\n\t%s\nthen commit the file it writes and remove %s's old one from gpusim/sassorder/sm_90",
				k, "labs/queue/"+kernelFile, sassorder.SourceSHA256(src)[:12], "labs/queue/"+kernelFile, sassorder.RecordCommand("labs/queue/"+kernelFile, k, "sm_90"), k)
			continue
		}
		if !e.Order.ConstFirst {
			t.Errorf("%s: %s's SASS loads the head (%s) before any ULDC, want the descriptor's ULDC first as the H200 evidence recorded", e.Path, k, e.Order.LastLDC)
		}
	}
}
