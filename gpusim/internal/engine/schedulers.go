package engine

import (
	"math"
	"math/bits"
	"sort"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpusim/internal/ir"
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
//
// A replay after the schedule keeps what each warp did in the schedule,
// though, and in a work queue that is decided by the schedule: the
// warps pop their next items when their latencies say, so the items a
// warp gets do not depend on how busy its scheduler is, and the busiest
// schedulers end late (the lab's uneven queue at one item a pop: the
// busiest of 528 schedulers with 14% more slots than the mean, 0.155 ms
// against the H200's 0.146). On the GPU a warp whose scheduler is busy
// reaches its next pop later, and the others take the items. So where
// the machine says (Costs.SchedulerCharge), the schedule charges each
// warp's slots to its scheduler as it reaches a global atomic (charge,
// below), and the replay takes only what no atomic ended.

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
	for _, w := range b.warps {
		// What charge has charged is in the schedule already: the
		// replay takes the rest, from the last charge (the warp's start
		// where nothing was charged).
		slots := w.slots - w.chargedSlots
		if slots <= 0 || bits.OnesCount32(w.launched) == 0 {
			continue
		}
		x.warpRecs = append(x.warpRecs, warpRec{key: int32(x.schedulerOf(b, w)), start: w.chargedAt, end: w.clock, slots: slots})
	}
}

// schedulerOf is the scheduler warp w of block b issues from, numbered
// SM * Schedulers + the SM's scheduler: its slot among the SM's resident
// warps modulo the schedulers.
func (x *exec) schedulerOf(b *block, w *warp) int {
	n := x.m.Costs.Schedulers
	local := b.slot / x.m.SMs // the block's slot among its SM's
	return b.sm*n + (local*x.warpsPerBlock+w.idx)%n
}

// charge charges, where the machine models it (SchedulerCharge), the
// warp of block b whose global instruction the scheduler is about to
// allow with the issue slots it used since its last: its scheduler issues
// the slots charged to it one after another at SchedulerIPC a cycle, from
// no earlier than each warp's own span began, so while its warps ask for
// more than it issues, a warp reaches its global instruction when the
// scheduler has issued its slots, later than its latencies alone say.
// A warp's first global instruction is charged but not moved: when the
// first wave's warps reach theirs is the start order and
// FirstWaveJitter, fitted to where the H200's first pops land, issue of
// the code before them included (and Jitter past the first wave).
// Charges follow the events' order: a warp is charged only at its own
// arrival's event, so no charge reaches ahead of the others on its
// scheduler. It reports whether it moved the warp, and so the block's event (pushed
// again at its earliest warp's clock): the moved warp's atomic reaches
// the L2 later, and a work queue gives the next item to a warp whose
// scheduler is freer. The schedulers' replay (above) still prices what no
// global instruction ends: a warp's last span, and kernels without
// global instructions.
func (x *exec) charge(b *block, now int64) bool {
	if x.schedFree == nil {
		return false
	}
	w := b.pick()
	if w == nil || w.pend != pendGlobal || w.charged || w.clock > now || !x.chargeable(&x.k.Code[w.pc]) {
		// A warp whose clock is past the event's is held by the memory
		// system (a compare-and-swap waiting for its line): its slots
		// go with its next charge, or to the replay.
		b.picked = w
		return false
	}
	w.charged = true
	s := x.schedulerOf(b, w)
	slots := w.slots - w.chargedSlots
	free := max(x.schedFree[s], float64(w.chargedAt)) + slots/x.m.Costs.SchedulerIPC
	x.schedFree[s] = free
	w.chargedSlots = w.slots
	first := !w.chargedOnce
	w.chargedOnce = true
	late := int64(math.Ceil(free)) - w.clock
	if late <= 0 || first {
		w.chargedAt = w.clock
		b.picked = w // unmoved: still the block's earliest warp
		return false
	}
	w.clock += late
	w.chargedAt = w.clock
	b.yieldAt = b.pick().clock
	x.push(event{t: b.yieldAt, b: b})
	return true
}

// chargeable reports whether a warp's pending global instruction in is
// one charge charges at: an atomic, but not a compare-and-swap the L2
// serves (Costs.CASServed), whose warps' timing, and their ordered loads',
// is the line's service fitted to the H200's CAS loops (cas_wait.csv),
// the loops' issue included.
func (x *exec) chargeable(in *ir.Inst) bool {
	if in.Op != ir.Atom {
		return false
	}
	return !x.m.Costs.CASServed || cudac.Builtin(in.Aux) != cudac.AtomicCAS
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
