package engine

import (
	"math/bits"
	"sort"
)

// What the warps that share a scheduler cost each other. The virtual-time
// schedule runs each warp at its instructions' latencies, as if it had its
// scheduler to itself. An SM has Costs.Schedulers schedulers (four on the
// H200), each issuing Costs.SchedulerIPC warp instructions a cycle, and a
// warp issues from the one its slot belongs to (slot % schedulers): a
// dependent FMA chain takes 4.4 cycles an FMA with up to four warps a
// scheduler and 9.4 with eight (sm_issue.csv), the scheduler's issue rate
// shared. Where the warps that have work crowd a scheduler, it, not their
// latencies, sets the time: a work queue at one item a pop, whose 64 warps
// a SM all work, or at large batches, whose winning warps gather on the
// SMs whose blocks start first (queue_sm.csv: up to 10 a scheduler at
// k = 64; l2sm.csv: the first of each TPC's two SMs; the machine's
// FirstWave start times make them gather here too).
//
// The schedulers' term replays each scheduler's warps as a fluid: a warp
// alone runs from its start to its end in the schedule, asking for its
// issue slots at an even rate over that span; while the warps active on a
// scheduler ask for more than it issues, all of them advance at the
// fraction it can give. The warps keep their starts (a slot's next block
// is not pushed back), so the term is the latest end of any warp so
// replayed; on a scheduler that is never oversubscribed it is the
// schedule's own.

// SchedulerLoad is the schedulers' term of a launch.
type SchedulerLoad struct {
	// End is the cycle the last warp ends when the warps that share a
	// scheduler slow each other down (0: not modelled).
	End int64
	// Busiest is the scheduler whose last warp ends last: its SM, its
	// warps that issued, and the slots they issued.
	SM, Warps int
	Slots     float64
}

// warpRec is one finished warp, for the schedulers' term.
type warpRec struct {
	key        int32 // SM * schedulers + scheduler
	start, end int64
	slots      float64
}

// recordWarps keeps a finished block's warps for the schedulers' term.
func (x *exec) recordWarps(b *block) {
	n := x.m.Costs.Schedulers
	if n <= 0 || x.m.Costs.SchedulerIPC <= 0 {
		return
	}
	local := b.slot / x.m.SMs // the block's slot among its SM's
	for _, w := range b.warps {
		if w.slots <= 0 || bits.OnesCount32(w.launched) == 0 {
			continue
		}
		sched := (local*x.warpsPerBlock + w.idx) % n
		x.warpRecs = append(x.warpRecs, warpRec{key: int32(b.sm*n + sched), start: w.start, end: w.clock, slots: w.slots})
	}
}

// schedulers replays every scheduler's warps (see above).
func (x *exec) schedulers() SchedulerLoad {
	recs := x.warpRecs
	if len(recs) == 0 {
		return SchedulerLoad{}
	}
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].key != recs[j].key {
			return recs[i].key < recs[j].key
		}
		return recs[i].start < recs[j].start
	})
	var out SchedulerLoad
	for i := 0; i < len(recs); {
		j := i
		var slots float64
		for j < len(recs) && recs[j].key == recs[i].key {
			slots += recs[j].slots
			j++
		}
		if end := replay(recs[i:j], x.m.Costs.SchedulerIPC); end > out.End {
			n := x.m.Costs.Schedulers
			out = SchedulerLoad{End: end, SM: int(recs[i].key) / n, Warps: j - i, Slots: slots}
		}
		i = j
	}
	return out
}

// replay runs one scheduler's warps, sorted by start, as a fluid at ipc
// issue slots a cycle and returns when the last ends.
func replay(recs []warpRec, ipc float64) int64 {
	// progress is the schedule's time the active warps have covered since
	// the first started: each active warp ends when progress reaches its
	// start's progress plus its span.
	var (
		active   finishHeap
		rate     float64 // the active warps' issue slots a cycle, alone
		t        float64 // real (contended) time
		progress float64
		last     float64
	)
	speed := func() float64 {
		if rate <= ipc {
			return 1
		}
		return ipc / rate
	}
	i := 0
	for i < len(recs) || len(active) > 0 {
		// The next arrival, and the next end at the current speed.
		nextStart := -1.0
		if i < len(recs) {
			nextStart = float64(recs[i].start)
		}
		if len(active) == 0 {
			t = max(t, nextStart)
		}
		nextEnd := -1.0
		if len(active) > 0 {
			nextEnd = t + (active[0].at-progress)/speed()
		}
		if nextStart >= 0 && (nextEnd < 0 || nextStart <= nextEnd) {
			progress += (nextStart - t) * speed()
			t = nextStart
			r := recs[i]
			i++
			span := float64(r.end - r.start)
			if span <= 0 {
				last = max(last, float64(r.end))
				continue
			}
			active.push(finish{at: progress + span, rate: r.slots / span})
			rate += r.slots / span
			continue
		}
		progress = active[0].at
		t = nextEnd
		f := active.pop()
		rate -= f.rate
		if len(active) == 0 {
			rate = 0
		}
		last = max(last, t)
	}
	return int64(last + 0.5)
}

type finish struct{ at, rate float64 }

// finishHeap is a min-heap of finishes by at. Its push and pop are
// container/heap's Push and Pop, step for step (so finishes with the same
// at pop in the same order, and rate sums the same floats in the same
// order), without boxing each finish in an interface.
type finishHeap []finish

func (h *finishHeap) push(f finish) {
	*h = append(*h, f)
	q := *h
	for j := len(q) - 1; j > 0; {
		i := (j - 1) / 2
		if !(q[j].at < q[i].at) {
			break
		}
		q[i], q[j] = q[j], q[i]
		j = i
	}
}

func (h *finishHeap) pop() finish {
	q := *h
	n := len(q) - 1
	q[0], q[n] = q[n], q[0]
	for i := 0; ; {
		j := 2*i + 1
		if j >= n {
			break
		}
		if r := j + 1; r < n && q[r].at < q[j].at {
			j = r
		}
		if !(q[j].at < q[i].at) {
			break
		}
		q[i], q[j] = q[j], q[i]
		i = j
	}
	f := q[n]
	*h = q[:n]
	return f
}
