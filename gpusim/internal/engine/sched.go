package engine

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// exec is one launch in progress.
type exec struct {
	cfg  *Config
	m    *Machine
	k    *ir.Kernel
	code []pcInfo
	mem  *Memory
	// issueW is each instruction's issue slots (issue.go), unrolled marks
	// the instructions of the loops nvcc unrolls.
	issueW   []float64
	unrolled []bool
	// spread says some loads take Costs.LoadSpread, spreadLow is its
	// least (loadspread.go).
	spread    bool
	spreadLow float64
	// smStores are the 128-byte lines each SM's global stores wrote,
	// smStoreSectors the further partly written sectors in them and
	// smStoreWhole their further whole sectors.
	smStores, smStoreSectors, smStoreWhole []int64
	// smLoads are the 128-byte lines each SM's global loads read.
	smLoads []int64
	// warpRecs are the finished warps, for the schedulers' term
	// (schedulers.go; nil when the machine does not model it).
	warpRecs []warpRec

	threadsPerBlock int
	warpsPerBlock   int
	sharedSize      int64
	blocks          int64
	nextBlock       int64
	resident        int
	// dispatch is the cycles an SM's block dispatch is held per block of
	// this launch (0: not modelled), and smFree when each SM's is free.
	dispatch int64
	smFree   []int64
	// smLive is the blocks resident on each SM: a block counts from its
	// start until the scheduler frees its slot.
	smLive []int
	// orderLoads: the kernel uses what its global atomics return, so a
	// warp's load of one global word (every active lane's address the
	// same: the read side of a contended counter, flag or maximum) waits
	// for the global scheduler like an atomic, and sees every atomic
	// earlier in virtual time (see usesAtomicResults).
	orderLoads bool
	// scoreboard: some loads are on the scoreboard (scoreboard.go).
	scoreboard bool

	heap   eventHeap
	seq    uint64
	free   []*block // finished blocks whose storage can be reused
	cycles int64
	atom   atomStats
	l2     l2Cache
	// serial: the kernel's phases run one after another whatever the
	// host's cores (see workersFor), so its contexts feed the L2 model
	// directly.
	serial bool

	// main is the context of everything the scheduler runs itself; the
	// contexts of blocks that ran elsewhere are merged into it.
	main *ctx
	// ready are blocks that have started but not yet run, in start order;
	// they run together, in parallel when the kernel allows (see batch.go).
	ready     []*block
	lookahead int64
	workers   int
	pool      []*ctx
	// lives sums the lifetimes of the finished blocks, for the batch window.
	lives, finished int64

	raceShift uint

	// gridWait are the blocks waiting at grid_group::sync(), and gridMax
	// the latest clock among their warps.
	gridWait []*block
	gridMax  int64

	// weak is the relaxed memory model's state (nil: sequential
	// consistency; see weak.go).
	weak *weakMem
	// lateEnd, lateGuard, lateLive, lateAtoms and lateAny plan the relaxed model's deferred
	// loads (see late.go); nil and false otherwise.
	lateEnd   []int32
	lateGuard []uint8
	lateLive  [][]ir.Reg
	lateAtoms []step // the deferrable atomics' steps, by pc
	lateAny   bool

	// perWarp is one warp's instruction budget; halt says why the launch
	// was stopped from outside (see watch.go), doneBlocks how many blocks
	// have finished, for progress reports.
	perWarp    int64
	halt       atomic.Int32
	doneBlocks atomic.Int64
	// schedFree is when each scheduler (SM * Schedulers + scheduler) has
	// issued every slot charged to it (SchedulerCharge; nil otherwise).
	schedFree []float64
	// filling is set while the first wave's blocks are placed, where
	// the machine bounds their warps' first jitter (FirstWaveJitter).
	filling bool
}

type event struct {
	t    int64
	seq  uint64
	b    *block // a block waiting to run a global instruction, or nil
	slot int    // a slot that became free, when b is nil
	sm   int
	// freed: the slot's block has left smLive already (a slot whose
	// start waits for the SM's dispatch).
	freed bool
}

// eventHeap is a min-heap of events by (t, seq). It is typed rather than
// driven through container/heap, whose Push and Pop box every event in an
// interface, an allocation per event on the scheduler's path. seq is
// unique, so the order is total and events pop in the same order whatever
// the heap's layout.
type eventHeap []event

func (h eventHeap) Len() int { return len(h) }

func (h eventHeap) less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].seq < h[j].seq
}

// push adds e.
func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	q := *h
	for j := len(q) - 1; j > 0; {
		i := (j - 1) / 2
		if !q.less(j, i) {
			break
		}
		q[i], q[j] = q[j], q[i]
		j = i
	}
}

// pop removes and returns the earliest event; the heap must not be empty.
func (h *eventHeap) pop() event {
	q := *h
	n := len(q) - 1
	q[0], q[n] = q[n], q[0]
	for i := 0; ; {
		j := 2*i + 1
		if j >= n {
			break
		}
		if r := j + 1; r < n && q.less(r, j) {
			j = r
		}
		if !q.less(j, i) {
			break
		}
		q[i], q[j] = q[j], q[i]
		i = j
	}
	e := q[n]
	*h = q[:n]
	return e
}

func (x *exec) push(e event) {
	x.seq++
	e.seq = x.seq
	x.heap.push(e)
}

// Run executes a launch. Memory writes land in cfg.Memory.
func Run(m *Machine, cfg *Config) (*Outcome, error) {
	k := cfg.Kernel
	x := &exec{cfg: cfg, m: m, k: k, mem: cfg.Memory}
	x.threadsPerBlock = cfg.Block.Count()
	x.warpsPerBlock = (x.threadsPerBlock + 31) / 32
	x.blocks = int64(cfg.Grid.Count())
	x.sharedSize = k.DynSharedOffset + cfg.SharedBytes
	if cfg.SharedBytes == 0 {
		x.sharedSize = k.SharedBytes
	}
	if err := x.checkLimits(); err != nil {
		return nil, err
	}
	if held := int64(m.SMs * x.resident); cfg.Cooperative && x.blocks > held {
		return nil, &driver.LaunchError{Kind: driver.ErrInvalidConfig, Kernel: k.Name, Msg: fmt.Sprintf(
			"a cooperative launch of %d blocks: %s holds at most %d blocks of this kernel at once (%d per SM on %d SMs)",
			x.blocks, m.Name, held, x.resident, m.SMs)}
	}
	budget := cfg.MaxInstructions
	x.perWarp = budget
	if budget <= 0 {
		budget = DefaultBudget(x.blocks * int64(x.warpsPerBlock))
		x.perWarp = min(budget, DefaultWarpBudget(k, x.blocks*int64(x.threadsPerBlock), x.mem.InUse()))
	}
	x.atom.init()
	x.l2.init(m.L2Bytes, m.L2Slices, m.L2Partitions, m.L2HashBytes)
	x.smStores = make([]int64, m.SMs)
	x.smStoreSectors = make([]int64, m.SMs)
	x.smStoreWhole = make([]int64, m.SMs)
	x.smLoads = make([]int64, m.SMs)
	x.raceShift = raceGranule(k)
	if cfg.Relaxed {
		x.weak = newWeakMem(m)
		x.planLate()
	}
	if err := x.compile(); err != nil {
		return nil, err
	}
	x.workers = workersFor(k)
	if x.weak != nil {
		// Stores reach memory at the blocks' own points: one goroutine
		// keeps their order the scheduler's.
		x.workers = 1
	}
	x.serial = x.weak != nil || hasGlobalStores(k)
	x.main = x.newCtx(budget)
	x.main.l2.direct = &x.l2
	x.orderLoads = usesAtomicResults(k)
	x.planLoadSpread()
	x.planScoreboard(x.unrolled)
	x.lookahead = x.minLookahead()
	if m.Costs.Schedulers > 0 && m.Costs.SchedulerIPC > 0 {
		// Room for every warp's record at once, rather than the copies of
		// append's growth over a large grid.
		x.warpRecs = make([]warpRec, 0, x.blocks*int64(x.warpsPerBlock))
		if m.Costs.SchedulerCharge {
			x.schedFree = make([]float64, m.SMs*m.Costs.Schedulers)
		}
	}

	// Registered before the watch's stop, so that it runs after it: the
	// watch may read the blocks until then.
	defer x.giveBlocks()
	x.takeBlocks()
	defer x.watch()()

	// Fill the resident slots, SM by SM in round robin, as the block
	// scheduler does, Stagger apart on each SM, each SM's first block
	// when the machine's FirstWave says; past the first wave an SM
	// starts one block per dispatch time, where the profile models it.
	x.dispatch = int64(math.Round(max(m.Costs.Dispatch, m.Costs.DispatchWarp*float64(x.warpsPerBlock))))
	x.smFree = make([]int64, m.SMs)
	x.smLive = make([]int, m.SMs)
	slots := m.SMs * x.resident
	firstWave := len(m.FirstWave) == m.SMs
	x.filling = firstWave && m.FirstWaveJitter > 0
	for s := 0; s < slots && x.nextBlock < x.blocks; s++ {
		sm, t := s%m.SMs, int64(s/m.SMs)*m.Costs.Stagger
		if firstWave {
			t += int64(m.FirstWave[sm])
		}
		x.startBlock(s, sm, t)
	}
	x.filling = false
	// The first wave's blocks start within a few stagger times of each
	// other: each runs beside all of its SM's.
	for _, b := range x.ready {
		b.peers = x.smLive[b.sm]
	}
	for x.main.err == nil {
		if x.halt.Load() != haltNone {
			x.halted(nil)
			break
		}
		// A started block cannot reach anything another block observes
		// before start+lookahead: events until then are safe to process.
		if len(x.ready) > 0 && (x.heap.Len() == 0 || x.heap[0].t >= x.ready[0].start+x.window()) {
			x.runReady()
			continue
		}
		if x.heap.Len() == 0 {
			break
		}
		e := x.heap.pop()
		if e.b == nil {
			if !e.freed {
				x.smLive[e.sm]--
			}
			if x.nextBlock >= x.blocks {
				continue
			}
			if x.dispatch > 0 {
				// The SM starts one block at a time: a slot freed while
				// its dispatch is busy waits for it.
				if free := x.smFree[e.sm]; e.t < free {
					x.push(event{t: free, slot: e.slot, sm: e.sm, freed: true})
					continue
				}
				x.smFree[e.sm] = e.t + x.dispatch
			}
			x.startBlock(e.slot, e.sm, e.t)
			continue
		}
		if x.charge(e.b, e.t) {
			continue
		}
		x.resume(e.b, true)
	}
	if x.main.err == nil && len(x.gridWait) > 0 {
		x.fail(x.gridWait[0].warps[0], -1, driver.ErrBarrierDivergence, fmt.Sprintf(
			"%d of the grid's %d blocks wait at grid_group::sync() for blocks that never reach it; the grid would hang",
			len(x.gridWait), x.blocks))
	}
	if x.main.err != nil {
		return nil, x.main.err
	}
	return x.outcome(), nil
}

func (x *exec) checkLimits() error {
	m := x.m
	bad := func(kind error, format string, a ...any) error {
		return &driver.LaunchError{Kind: kind, Kernel: x.k.Name, Msg: fmt.Sprintf(format, a...)}
	}
	if x.threadsPerBlock > m.MaxThreadsPerBlock {
		return bad(driver.ErrInvalidConfig, "%d threads per block; %s allows %d", x.threadsPerBlock, m.Name, m.MaxThreadsPerBlock)
	}
	if x.sharedSize > m.SharedPerBlock {
		return bad(driver.ErrOutOfResources, "the block needs %d bytes of shared memory (%d static + %d dynamic); %s allows %d per block",
			x.sharedSize, x.k.SharedBytes, x.cfg.SharedBytes, m.Name, m.SharedPerBlock)
	}
	r := m.MaxBlocksPerSM
	r = min(r, m.MaxThreadsPerSM/(x.warpsPerBlock*32))
	r = min(r, m.MaxWarpsPerSM/x.warpsPerBlock)
	if x.sharedSize > 0 {
		r = min(r, int(m.SharedPerSM/x.sharedSize))
	}
	if m.RegsPerSM > 0 {
		// Registers: our register count stands in for the compiler's,
		// capped at a typical 32..64 so that the IR's temporaries do not
		// distort occupancy.
		regs := min(max(x.k.NumRegs, 32), 64)
		r = min(r, m.RegsPerSM/(regs*x.warpsPerBlock*32))
	}
	if r < 1 {
		return bad(driver.ErrOutOfResources, "a block of %d threads with %d bytes of shared memory does not fit on an SM of %s",
			x.threadsPerBlock, x.sharedSize, m.Name)
	}
	x.resident = r
	return nil
}

// startBlock makes the next block resident in a slot at time t; it runs
// with the next batch of ready blocks.
func (x *exec) startBlock(slot, sm int, t int64) {
	lin := x.nextBlock
	x.nextBlock++
	var b *block
	if n := len(x.free); n > 0 {
		b = x.free[n-1]
		x.free = x.free[:n-1]
	} else {
		b = x.newBlock()
	}
	g := x.cfg.Grid
	b.slot, b.sm, b.linear = slot, sm, lin
	b.part = uint8(sm * max(x.m.L2Partitions, 1) / x.m.SMs)
	x.smLive[sm]++
	b.peers = x.smLive[sm]
	b.id = driver.Dim3{X: int(lin % int64(g.X)), Y: int(lin / int64(g.X) % int64(g.Y)), Z: int(lin / int64(g.X*g.Y))}
	b.start, b.end = t, t
	b.arrived, b.barCnt, b.barLane = 0, 0, 0
	b.live = len(b.warps)
	clear(b.queues)
	b.queueStore = b.queueStore[:0]
	// Epochs number a slot's barrier intervals: a new block's accesses are
	// never ordered after its predecessor's in the race shadow.
	b.epoch++
	b.ctx = x.main
	if x.weak != nil {
		x.resetBuf(b)
	}
	for _, w := range b.warps {
		x.initWarp(w, t)
	}
	x.main.count.Blocks++
	x.ready = append(x.ready, b)
}

func (x *exec) newBlock() *block {
	b := &block{x: x, shared: make([]byte, x.sharedSize), queues: map[uint64]int32{}}
	if x.cfg.RaceCheck && x.sharedSize > 0 {
		b.race = newRaceShadow(x.sharedSize, x.raceShift)
	}
	// The block's warps and their registers are each one allocation, side
	// by side in memory: the scheduler's picks scan the warps, and a
	// block's first instructions write every warp's registers.
	nregs := x.k.NumRegs * 32
	ws := make([]warp, x.warpsPerBlock)
	regs := make([]uint64, nregs*x.warpsPerBlock)
	for i := range ws {
		w := &ws[i]
		*w = warp{blk: b, idx: i, regs: regs[i*nregs : (i+1)*nregs : (i+1)*nregs], stack: make([]entry, x.k.MaxStack+1)}
		if x.scoreboard {
			w.ready = make([]int64, x.k.NumRegs)
		}
		if x.k.LocalBytes > 0 {
			w.local = make([]byte, x.k.LocalBytes*32)
		}
		n := min(32, x.threadsPerBlock-i*32)
		w.launched = uint32(1<<n - 1)
		b.warps = append(b.warps, w)
	}
	return b
}

func (x *exec) initWarp(w *warp, t int64) {
	w.pc = 0
	w.mask = w.launched
	w.exited, w.parked, w.sp = 0, 0, 0
	w.state = runnable
	w.pend = pendNone
	w.cleared = false
	w.casHeld = -1
	w.loadHeld = false
	w.syncEpoch = 0
	w.ways = w.ways[:0]
	w.clock = t
	if w.pendUntil != 0 {
		clear(w.ready)
		w.pendUntil = 0
	}
	w.start, w.slots = t, 0
	w.chargedAt, w.chargedSlots, w.charged, w.chargedOnce = t, 0, false, false
	w.printfs = 0
	w.left = min(x.perWarp, 1<<62)
	w.rng = splitmix(x.cfg.Seed ^ uint64(w.blk.linear)*0x9e3779b97f4a7c15 ^ uint64(w.idx)<<48)
	w.firstStop = x.filling
	x.main.count.Warps++
	x.main.count.Threads += int64(bits.OnesCount32(w.launched))
	// Parameters are broadcast to every lane.
	for i, r := range x.k.Params {
		v := x.cfg.Params[i]
		d := (*[32]uint64)(w.regs[int(r)*32:])
		for l := range d {
			d[l] = v
		}
	}
}

// pick returns the runnable warp with the lowest clock (the lowest index on
// a tie), or nil.
func (b *block) pick() *warp {
	var best *warp
	for _, w := range b.warps {
		if w.state == runnable && (best == nil || w.clock < best.clock) {
			best = w
		}
	}
	return best
}

// resume runs a granted block in the scheduler's own context.
func (x *exec) resume(b *block, granted bool) {
	b.ctx = x.main
	before, beforeSectors, beforeWhole, beforeLoads := x.main.storeLines, x.main.storeSectors, x.main.storeWhole, x.main.loadLines
	x.phase(b, granted)
	x.smStores[b.sm] += x.main.storeLines - before
	x.smStoreSectors[b.sm] += x.main.storeSectors - beforeSectors
	x.smStoreWhole[b.sm] += x.main.storeWhole - beforeWhole
	x.smLoads[b.sm] += x.main.loadLines - beforeLoads
	x.after(b)
}

// after schedules what a block's phase left: its next global event, or its
// slot's release.
func (x *exec) after(b *block) {
	switch {
	case x.main.err != nil:
	case b.yielded:
		x.push(event{t: b.yieldAt, b: b})
	case b.live > 0:
		x.gridArrive(b)
	default:
		x.finishBlock(b)
	}
}

// gridArrive records a block whose live warps all wait at
// grid_group::sync(), and releases the grid when every block is there.
// All the blocks of a cooperative launch are resident, so none has
// finished: one that has would never reach the barrier.
func (x *exec) gridArrive(b *block) {
	for _, w := range b.warps {
		if w.state == atBarrier {
			x.fail(w, -1, driver.ErrBarrierDivergence, fmt.Sprintf(
				"warps of block (%d,%d,%d) wait at __syncthreads() while the others wait at grid_group::sync(); the block would hang",
				b.id.X, b.id.Y, b.id.Z))
			return
		}
		if w.state == atGridBarrier {
			x.gridMax = max(x.gridMax, w.clock)
		}
	}
	if x.finished > 0 {
		x.fail(b.warps[0], -1, driver.ErrBarrierDivergence,
			"a block of the grid finished without reaching grid_group::sync(), which the others wait at; the grid would hang")
		return
	}
	x.gridWait = append(x.gridWait, b)
	if int64(len(x.gridWait)) < x.blocks {
		return
	}
	t := x.gridMax + x.m.Costs.Barrier + x.m.Costs.Launch
	if x.weak != nil {
		// The grid barrier orders memory at device scope.
		for _, gb := range x.gridWait {
			x.drainAll(gb)
		}
		for _, gb := range x.gridWait {
			x.acquire(gb)
		}
	}
	for _, gb := range x.gridWait {
		for _, w := range gb.warps {
			if w.state != atGridBarrier {
				continue
			}
			w.state = runnable
			w.clock = t
			w.syncEpoch++
			w.ways = w.ways[:0]
		}
		gb.epoch++
		x.main.count.Barriers++
		x.push(event{t: t, b: gb})
	}
	x.gridWait, x.gridMax = x.gridWait[:0], 0
}

// phase runs a block's warps until the block finishes, fails, or must wait
// for the global scheduler (b.yielded); granted says the global scheduler
// has just allowed its earliest warp's pending global instruction. It
// touches nothing outside the block and its context, so blocks' phases can
// run side by side.
func (x *exec) phase(b *block, granted bool) {
	b.yielded = false
	for b.ctx.err == nil {
		w := b.picked
		if w != nil {
			b.picked = nil
		} else {
			w = b.pick()
		}
		if w == nil {
			return
		}
		switch w.pend {
		case pendGlobal:
			if !granted {
				b.yielded, b.yieldAt = true, w.clock
				return
			}
			w.cleared = true
			w.charged = false
		case pendLocal:
			w.cleared = true
		}
		granted = false
		w.pend = pendNone
		switch x.runWarp(w) {
		case stopLocal:
			w.pend = pendLocal
			w.localAt = w.clock
			// The warps of a block reach a shared atomic in an order that
			// varies a little from run to run too.
			if x.cfg.Order == Seeded && x.m.Jitter > 0 {
				w.clock += int64(x.jitter(w)) / max(1, x.m.Costs.SharedJitterDivisor)
			}
		case stopGlobal:
			w.pend = pendGlobal
			// A compare-and-swap held for its line's service waits for
			// the line, not for a warp's arrival: no jitter.
			// A first-wave warp reaches its first global atomic in the
			// order its block started, give or take FirstWaveJitter.
			if x.cfg.Order == Seeded && x.m.Jitter > 0 && w.casHeld < 0 && !w.loadHeld {
				if w.firstStop && x.k.Code[w.pc].Op == ir.Atom {
					w.clock += int64(x.jitterUpTo(w, x.m.FirstWaveJitter))
				} else {
					w.clock += int64(x.jitter(w))
				}
			}
			w.firstStop = false
		case stopBarrier:
			x.arrive(b, w)
		case stopGridBarrier:
			w.state = atGridBarrier
		case stopExit:
			w.state = done
			b.live--
			b.end = max(b.end, w.clock)
			w.exitEpoch = b.epoch
			if x.weak != nil {
				x.drainAll(b)
			}
			if b.arrived > 0 && b.arrived == b.live {
				x.release(b)
			}
		case stopFault:
			return
		}
	}
}

func (x *exec) jitter(w *warp) uint64 { return x.jitterUpTo(w, x.m.Jitter) }

// jitterUpTo draws the warp's next seeded delay, 0 to most cycles.
func (x *exec) jitterUpTo(w *warp, most int64) uint64 {
	w.rng = splitmix(w.rng)
	return w.rng % uint64(most+1)
}

func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (x *exec) finishBlock(b *block) {
	if len(x.gridWait) > 0 {
		x.fail(b.warps[0], -1, driver.ErrBarrierDivergence, fmt.Sprintf(
			"block (%d,%d,%d) finished without reaching grid_group::sync(), which other blocks wait at; the grid would hang",
			b.id.X, b.id.Y, b.id.Z))
		return
	}
	x.cycles = max(x.cycles, b.end)
	x.recordWarps(b)
	x.lives += b.end - b.start
	x.finished++
	x.doneBlocks.Store(x.finished)
	x.free = append(x.free, b)
	x.push(event{t: b.end + x.m.Costs.Refill, slot: b.slot, sm: b.sm})
}

// arrive records a warp at a barrier and releases the block when every
// live warp is there.
func (x *exec) arrive(b *block, w *warp) {
	if b.arrived == 0 {
		b.barPC = w.pc - 1
		b.barMax = w.clock
	} else if b.barPC != w.pc-1 {
		other := x.k.PosOf(int(b.barPC))
		x.fail(w, 0, driver.ErrBarrierDivergence, fmt.Sprintf(
			"warps of the block wait at different __syncthreads() calls (this one and %s); every thread of a block must reach the same barrier", other))
		return
	}
	w.state = atBarrier
	b.arrived++
	b.barMax = max(b.barMax, w.clock)
	if b.arrived == b.live {
		x.release(b)
	}
}

func (x *exec) release(b *block) {
	for _, w := range b.warps {
		if w.state == done && w.exitEpoch == b.epoch {
			x.skippedBarrier(b, w)
			if b.ctx.err != nil {
				return
			}
		}
	}
	t := b.barMax + x.releaseCycles(b)
	in := &x.k.Code[b.barPC]
	var res uint64
	switch in.Aux {
	case int32(cudac.SyncThreadsCount):
		res = uint64(b.barCnt)
	case int32(cudac.SyncThreadsAnd):
		if b.barCnt == b.barLane {
			res = 1
		}
	case int32(cudac.SyncThreadsOr):
		if b.barCnt > 0 {
			res = 1
		}
	}
	// The warps leave one after another, Costs.BarrierStagger apart, the
	// last at t: a warp waits at most until t, as before.
	n := 0
	for _, w := range b.warps {
		if w.state == atBarrier {
			n++
		}
	}
	rank := 0
	for _, w := range b.warps {
		if w.state != atBarrier {
			continue
		}
		w.state = runnable
		b.ctx.count.BarrierWaitCycles += b.barMax - w.clock
		w.clock = t - int64(math.Round(x.m.Costs.BarrierStagger*float64(n-1-rank)))
		rank++
		w.syncEpoch++
		w.ways = w.ways[:0]
		if in.Dst != ir.NoReg {
			d := (*[32]uint64)(w.regs[int(in.Dst)*32:])
			for m := w.mask; m != 0; m &= m - 1 {
				d[bits.TrailingZeros32(m)] = res
			}
		}
	}
	b.ctx.count.Barriers++
	b.epoch++
	b.arrived, b.barCnt, b.barLane = 0, 0, 0
}

// releaseCycles is the time from a barrier's last warp arriving to the
// block's release: the more warps the barrier waits for, the longer
// (Costs.BarrierBase and BarrierWarp), or Costs.Barrier where the machine
// gives neither.
func (x *exec) releaseCycles(b *block) int64 {
	c := &x.m.Costs
	if c.BarrierBase == 0 && c.BarrierWarp == 0 {
		return c.Barrier
	}
	return int64(math.Round(c.BarrierBase + c.BarrierWarp*float64(b.arrived)))
}

// runWarp executes instructions until the warp stops. It checks one
// bound per instruction, the lower of the launch's budget and the warp's
// own; every spendStep instructions it also counts into the batch's
// shared budget and looks for a halt from outside (watch.go).
func (x *exec) runWarp(w *warp) stop {
	code := x.code
	c := w.blk.ctx
	execs := c.execs
	n := c.executed
	// The warp's own budget ends at warpEnd; the loop checks the lower of
	// that and the launch's. left is at most 2^62, so neither overflows.
	w.warpEnd = n + w.left
	stopAt := min(c.budget, w.warpEnd)
	// next is the count at which the loop looks past the instruction
	// next: past stopAt, or at the next multiple of spendStep; one
	// comparison an instruction rather than two.
	next := min(stopAt+1, (n/spendStep+1)*spendStep)
	for {
		pc := w.pc
		p := &code[pc]
		active := int64(bits.OnesCount32(w.mask))
		if w.pendUntil > w.clock {
			w.await(p)
		}
		w.pc = pc + 1
		st := p.fn(w)
		if st == stopGlobal || st == stopLocal {
			w.pc = pc // not executed yet
			c.executed = n
			w.left = w.warpEnd - n
			return st
		}
		e := &execs[pc]
		e.warps++
		e.lanes += active
		if p.lat > 0 {
			w.issued(p, p.dst)
		} else if w.loadExtra != 0 {
			w.clock += w.loadExtra
		}
		w.loadExtra = 0
		w.clock += p.cost
		w.slots += p.issue
		n++
		if st != run {
			c.executed = n
			w.left = w.warpEnd - n
			return st
		}
		if n >= next {
			if x.pastBound(w, n, stopAt) {
				return stopFault
			}
			next = min(stopAt+1, n+spendStep)
		}
	}
}

// pastBound is runWarp's check at count n, past stopAt or at a multiple
// of spendStep: it counts into the batch's shared budget, looks for a
// halt from outside, and fails the launch where one of them, or n past
// stopAt, says to stop.
func (x *exec) pastBound(w *warp, n, stopAt int64) bool {
	c := w.blk.ctx
	if n > stopAt || c.spent != nil && c.spent.Add(spendStep) > c.budget || x.halt.Load() != haltNone {
		c.executed = n
		w.left = w.warpEnd - n
		switch {
		case x.halt.Load() != haltNone:
			x.halted(w)
		case w.left < 0 && n <= c.budget:
			x.overWarpBudget(w)
		default:
			x.overBudget(w)
		}
		return true
	}
	return false
}

// overBudget fails the launch for running past its instruction budget.
func (x *exec) overBudget(w *warp) {
	x.fail(w, -1, driver.ErrBudget, fmt.Sprintf(
		"more than %d warp instructions executed (an endless loop?); block (%d,%d,%d) warp %d was here; raise the limit with --max-instructions or LaunchConfig.MaxInstructions",
		x.main.budget, w.blk.id.X, w.blk.id.Y, w.blk.id.Z, w.idx))
}

// fail records the launch's error at warp w's current instruction; lane
// says which thread to name (-1: none).
func (x *exec) fail(w *warp, lane int, kind error, msg string) {
	if w.blk.ctx.err != nil {
		return
	}
	e := &driver.LaunchError{Kind: kind, Kernel: x.k.Name, Msg: msg, Pos: w.pos()}
	if lane >= 0 {
		e.HasThread = true
		e.Block = w.blk.id
		e.Thread = w.thread(lane)
	}
	w.blk.ctx.err = e
}

// diagSet collects diagnostics, once per kind and place.
type diagSet struct {
	list []driver.Diagnostic
	seen map[diagKey]bool
}

const maxDiagnostics = 20

// diagKey is a diagnostic's kind and places, each place as its String
// names it (an invalid position by its file alone, "-" with none).
type diagKey struct {
	kind       string
	pos, other cudac.Pos
}

func keyOf(kind string, pos, other cudac.Pos) diagKey {
	norm := func(p cudac.Pos) cudac.Pos {
		if p.IsValid() {
			return p
		}
		if p.File == "" {
			return cudac.Pos{File: "-"}
		}
		return cudac.Pos{File: p.File}
	}
	return diagKey{kind, norm(pos), norm(other)}
}

// has reports whether add would drop a diagnostic of this kind and
// places, so that a caller can skip writing its message.
func (d *diagSet) has(kind string, pos, other cudac.Pos) bool {
	return len(d.list) >= maxDiagnostics || d.seen[keyOf(kind, pos, other)]
}

func (d *diagSet) add(g driver.Diagnostic) {
	key := keyOf(g.Kind, g.Pos, g.Other)
	if d.seen == nil {
		d.seen = map[diagKey]bool{}
	}
	if d.seen[key] || len(d.list) >= maxDiagnostics {
		return
	}
	d.seen[key] = true
	d.list = append(d.list, g)
}

func (x *exec) outcome() *Outcome {
	m := x.main
	c := &m.count
	c.ResidentBlocksPerSM = x.resident
	var issue float64
	perWave := int64(x.resident * x.m.SMs)
	c.Waves = (x.blocks + perWave - 1) / perWave
	for pc, n := range m.execs {
		if n.warps == 0 {
			continue
		}
		c.WarpInstructions += n.warps
		issue += float64(n.warps) * x.issueW[pc]
		c.ThreadInstructions += n.lanes
		*classOf(&c.ByClass, &x.k.Code[pc]) += n.warps
	}
	x.atom.fill(c)
	x.l2.fill(c)
	// The kernel ends when its last block has finished and the L2 has
	// served the last atomic.
	o := &Outcome{Counters: *c, Cycles: max(x.cycles, x.atom.drained), BlocksEnd: x.cycles, Schedulers: x.schedulers(),
		L2Drain: x.atom.drained, ResidentBlocks: x.resident, IssueSlots: issue,
		MaxSMLoadLines: slices.Max(x.smLoads), L1HitSectors: m.l1HitSectors, DRAMLoneBytes: x.l2.lone(m.loneBytes, m.movedLoad), SharedAtomicWavefronts: float64(m.atomWavefronts) / 64,
		SMBlocks: int(min(int64(x.resident), (x.blocks+int64(x.m.SMs)-1)/int64(x.m.SMs))), BlockThreads: x.threadsPerBlock,
		BlockShared: x.sharedSize}
	s := x.busiestStores()
	o.MaxSMStoreLines, o.MaxSMStoreSectors, o.MaxSMStoreWhole = x.smStores[s], x.smStoreSectors[s], x.smStoreWhole[s]
	for sm := range x.smStores {
		o.StoreLines += x.smStores[sm]
		o.StoreSectors += x.smStoreSectors[sm]
		o.StoreWhole += x.smStoreWhole[sm]
	}
	o.L2 = x.atom.l2Profile()
	o.Diagnostics = m.diags.list
	var cut int
	o.Printf, cut = printfText(m.printfs)
	if cut += m.printfCut; cut > 0 {
		// Past the diagnostics' limit too: output that is missing must
		// say so.
		o.Diagnostics = append(o.Diagnostics, driver.Diagnostic{Kind: "printf-cut", Msg: fmt.Sprintf(
			"printf output cut at %d bytes (the device's printf buffer, cudaLimitPrintfFifoSize): the output of %d printf calls is missing", maxPrintfBytes, cut)})
	}
	return o
}

// printfText orders printf output by block, thread and call, and cuts it
// at the device's buffer size.
func printfText(recs []printfRec) (string, int) {
	if len(recs) == 0 {
		return "", 0
	}
	sort.SliceStable(recs, func(i, j int) bool {
		a, b := recs[i], recs[j]
		if a.block != b.block {
			return a.block < b.block
		}
		if a.thread != b.thread {
			return a.thread < b.thread
		}
		return a.seq < b.seq
	})
	var sb strings.Builder
	for i, p := range recs {
		if sb.Len()+len(p.text) > maxPrintfBytes {
			return sb.String(), len(recs) - i
		}
		sb.WriteString(p.text)
	}
	return sb.String(), 0
}
