package engine

import (
	"testing"

	"github.com/warplab/warplab/gpu/driver"
)

// TestReplay checks the schedulers' fluid on warps whose answers follow
// from the definition: alone, or together under the scheduler's rate, a
// warp ends at its own end; oversubscribed, the warps share the rate.
func TestReplay(t *testing.T) {
	for _, c := range []struct {
		name string
		recs []warpRec
		ipc  float64
		want int64
	}{
		{"one warp", []warpRec{{start: 10, end: 110, slots: 50}}, 1, 110},
		{"two under the rate", []warpRec{{start: 0, end: 100, slots: 40}, {start: 0, end: 100, slots: 40}}, 1, 100},
		// Two warps each asking one slot a cycle share one: both take twice as long.
		{"two at twice the rate", []warpRec{{start: 0, end: 100, slots: 100}, {start: 0, end: 100, slots: 100}}, 1, 200},
		// Eight warps of a dependent chain at a quarter slot a cycle each
		// (an FMA every four cycles) take twice their time, as eight warps
		// a scheduler do on the H200 (sm_issue.csv: 9.4 cycles an FMA).
		{"eight chains", func() []warpRec {
			var r []warpRec
			for i := 0; i < 8; i++ {
				r = append(r, warpRec{start: 0, end: 4000, slots: 1000})
			}
			return r
		}(), 1, 8000},
		// A short warp slows a long one only while both run: the long one
		// loses half of the short one's 100 cycles of work.
		{"short and long", []warpRec{{start: 0, end: 1000, slots: 1000}, {start: 0, end: 100, slots: 100}}, 1, 1100},
		// Apart in time, nothing is shared.
		{"apart", []warpRec{{start: 0, end: 100, slots: 100}, {start: 200, end: 300, slots: 100}}, 1, 300},
		{"empty span", []warpRec{{start: 50, end: 50, slots: 3}}, 1, 50},
	} {
		if got := replay(c.recs, c.ipc); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// queueSrc is a work queue with uneven items (16 FMAs, one in 64 of them
// 2048), every warp popping one item a lane until the queue is empty.
const queueSrc = `
__global__ void q(unsigned* head, unsigned n, float* out) {
    for (;;) {
        unsigned i = atomicAdd(head, 1u);
        if (i >= n) break;
        float x = (float)(i & 255);
        int c = (i * 2654435761u >> 26) == 0 ? 2048 : 16;
        for (int j = 0; j < c; ++j) x = fmaf(x, 0.999f, 0.5f);
        out[i] = x;
    }
}`

// TestSchedulerCharge runs a work queue whose warps crowd their
// schedulers (16 a scheduler, as the queue lab's on the H200). Priced
// after the schedule alone, the schedule runs each warp at its latencies,
// faster than the schedulers can issue its slots, and who popped what is
// decided there; the replay adds the rest. Charged in the schedule, a
// warp reaches its next pop only once its scheduler has issued its slots:
// the schedule itself ends no earlier than the schedulers could issue the
// launch's slots, and leaves the replay next to nothing.
func TestSchedulerCharge(t *testing.T) {
	k := lower(t, "q.cu", queueSrc, "q")
	const n = 1 << 18 // 16 pops a lane, as the lab's at the H200's size
	run := func(charge bool) *Outcome {
		m := testMachine()
		m.Costs.Schedulers, m.Costs.SchedulerIPC, m.Costs.SchedulerCharge = 4, 1, charge
		mem := NewMemory(1<<30, 0)
		head, _ := mem.Alloc(4)
		out, _ := mem.Alloc(4 * n)
		o, err := Run(m, &Config{Kernel: k, Grid: driver.Dim3{X: 16, Y: 1, Z: 1}, Block: driver.Dim3{X: 1024, Y: 1, Z: 1},
			Params: []uint64{head.Base, n, out.Base}, Memory: mem, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	after, in := run(false), run(true)
	floor := int64(in.IssueSlots / 32) // 8 SMs' four schedulers at one slot a cycle
	t.Logf("after the schedule: schedule %d, schedulers %d; charged: schedule %d, schedulers %d; the slots over the schedulers %d",
		after.BlocksEnd, after.Schedulers.End, in.BlocksEnd, in.Schedulers.End, floor)
	if after.BlocksEnd >= floor || after.Schedulers.End <= after.BlocksEnd {
		t.Fatalf("priced after the schedule: schedule %d, schedulers %d, slots over the schedulers %d: the test's queue does not crowd them",
			after.BlocksEnd, after.Schedulers.End, floor)
	}
	if in.BlocksEnd < floor {
		t.Errorf("charged, the schedule ends at %d, before the schedulers could issue its slots (%d)", in.BlocksEnd, floor)
	}
	if float64(in.Schedulers.End) > 1.01*float64(in.BlocksEnd) {
		t.Errorf("charged, the replay still ends at %d, the schedule at %d: want it within 1%%", in.Schedulers.End, in.BlocksEnd)
	}
}
