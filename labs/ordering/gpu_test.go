package ordering

import (
	"testing"

	_ "github.com/warplab/warplab/cudarun"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labtest"
)

// TestOnGPU runs the lab on a real GPU with the H200 microbenchmark's
// shape (132 x 4 pairs, 64 trials, 50 launches per variant): every spin
// completes, the device-scope fence and the cuda::atomic_ref
// release/acquire flag (kernels/mp.cu through NVRTC, <cuda/atomic>
// included) never read stale (the model forbids it), and the simulator's relaxed model runs beside the measurement. How
// often the other variants read stale is what the GPU did, logged and
// written, not asserted: the model allows it, the hardware may not show
// it. The scope experiment's atomicAdd never loses an update; what
// atomicAdd_block between blocks did is logged. With WARPLAB_GPU_REPORT=DIR it writes the report there as text and
// JSON.
func TestOnGPU(t *testing.T) {
	dev := testenv.Open(t, testenv.GPU(t))
	r, err := Lab(dev, Options{Publish: PublishOptions{Pairs: 528, Trials: 64, Launches: 50, Progress: labs.NoProgress()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", r)
	labtest.WriteReport(t, "ordering", r)
	if r.Publish.Simulated {
		t.Fatal("the GPU's counts are marked simulated")
	}
	ran := map[Variant]bool{}
	for _, row := range r.Publish.Rows {
		ran[row.Variant] = true
		t.Logf("%s on the GPU: %d of %d stale", row.Variant.Short(), row.Stale, row.Trials)
		if row.Timeouts > 0 {
			t.Errorf("%s: %d spins gave up on the GPU", row.Variant.Short(), row.Timeouts)
		}
		if row.Variant.Correct() && row.Stale > 0 {
			t.Errorf("%s: %d stale reads on the GPU; device-scope fences forbid them", row.Variant.Short(), row.Stale)
		}
	}
	for _, v := range Variants() {
		if !ran[v] {
			t.Errorf("variant %s did not run on the GPU", v.Short())
		}
	}
	// The scope experiment: device-scope atomics never lose an update;
	// what atomicAdd_block did between blocks is logged, not asserted
	// (allowed to lose updates, not promised to).
	if r.Scope == nil || r.Scope.Simulated || len(r.Scope.Rows) != 2 {
		t.Fatalf("scope experiment on the GPU: %+v", r.Scope)
	}
	if d := r.Scope.Rows[0]; d.Kernel != CountDevice || d.Short > 0 {
		t.Errorf("atomicAdd lost updates on the GPU: %+v", d)
	}
	t.Logf("atomicAdd_block between blocks on the GPU: %d of %d launches short, %d updates lost",
		r.Scope.Rows[1].Short, r.Scope.Rows[1].Launches, r.Scope.Rows[1].Lost)
	if r.ScopeAllowed == nil || !r.ScopeAllowed.Simulated {
		t.Fatal("no simulated scope experiment beside the measurement")
	}
	// Store and load buffering: the rows PTX forbids never; the allowed ones logged.
	if r.Litmus == nil || r.Litmus.Simulated {
		t.Fatalf("litmus on the GPU: %+v", r.Litmus)
	}
	for _, row := range r.Litmus.Rows {
		t.Logf("%s on the GPU: %d of %d pairs %s", row.Kernel, row.Weak, row.Trials, row.Outcome)
		if !row.Allowed && row.Weak > 0 {
			t.Errorf("%s: %d weak outcomes on the GPU; the fences forbid them", row.Kernel, row.Weak)
		}
	}
	if r.Allowed == nil || !r.Allowed.Simulated {
		t.Fatal("no simulated relaxed model beside the measurement")
	}
	for _, row := range r.Allowed.Rows {
		if (row.Stale == 0) != row.Variant.Correct() {
			t.Errorf("simulated %s: %d stale reads", row.Variant.Short(), row.Stale)
		}
	}
}
