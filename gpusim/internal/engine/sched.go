package engine

import (
	"container/heap"
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// exec is one launch in progress.
type exec struct {
	cfg  *Config
	m    *Machine
	k    *ir.Kernel
	code []pcInfo
	mem  *Memory

	threadsPerBlock int
	warpsPerBlock   int
	sharedSize      int64
	blocks          int64
	nextBlock       int64
	resident        int

	executed int64
	budget   int64
	err      error

	heap    eventHeap
	seq     uint64
	free    []*block // finished blocks whose storage can be reused
	cycles  int64
	epochs  uint32
	count   gpu.Counters
	atom    atomStats
	printfs []printfRec
	diags   diagSet

	raceShift uint
}

type event struct {
	t    int64
	seq  uint64
	b    *block // a block waiting to run a global instruction, or nil
	slot int    // a slot that became free, when b is nil
	sm   int
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].seq < h[j].seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

func (x *exec) push(e event) {
	x.seq++
	e.seq = x.seq
	heap.Push(&x.heap, e)
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
	x.budget = cfg.MaxInstructions
	if x.budget <= 0 {
		x.budget = DefaultBudget(x.blocks * int64(x.warpsPerBlock))
	}
	x.atom.init()
	x.raceShift = raceGranule(k)
	if err := x.compile(); err != nil {
		return nil, err
	}

	// Fill the resident slots, SM by SM in round robin, as the block
	// scheduler does.
	slots := m.SMs * x.resident
	for s := 0; s < slots && x.nextBlock < x.blocks; s++ {
		x.startBlock(s, s%m.SMs, int64(s/m.SMs)*m.Costs.Launch/8)
	}
	for x.heap.Len() > 0 && x.err == nil {
		e := heap.Pop(&x.heap).(event)
		if e.b == nil {
			if x.nextBlock < x.blocks {
				x.startBlock(e.slot, e.sm, e.t)
			}
			continue
		}
		x.resume(e.b, true)
	}
	if x.err != nil {
		return nil, x.err
	}
	return x.outcome(), nil
}

func (x *exec) checkLimits() error {
	m := x.m
	bad := func(kind error, format string, a ...any) error {
		return &gpu.LaunchError{Kind: kind, Kernel: x.k.Name, Msg: fmt.Sprintf(format, a...)}
	}
	if x.threadsPerBlock > m.MaxThreadsPerBlock {
		return bad(gpu.ErrInvalidConfig, "%d threads per block; %s allows %d", x.threadsPerBlock, m.Name, m.MaxThreadsPerBlock)
	}
	if x.sharedSize > m.SharedPerBlock {
		return bad(gpu.ErrOutOfResources, "the block needs %d bytes of shared memory (%d static + %d dynamic); %s allows %d per block",
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
		return bad(gpu.ErrOutOfResources, "a block of %d threads with %d bytes of shared memory does not fit on an SM of %s",
			x.threadsPerBlock, x.sharedSize, m.Name)
	}
	x.resident = r
	return nil
}

// startBlock makes the next block resident in a slot at time t.
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
	b.id = gpu.Dim3{X: int(lin % int64(g.X)), Y: int(lin / int64(g.X) % int64(g.Y)), Z: int(lin / int64(g.X*g.Y))}
	b.start, b.end = t, t
	b.arrived, b.barCnt, b.barLane = 0, 0, 0
	b.live = len(b.warps)
	clear(b.queues)
	x.epochs++
	b.epoch = x.epochs
	for _, w := range b.warps {
		x.initWarp(w, t)
	}
	x.count.Blocks++
	x.resume(b, false)
}

func (x *exec) newBlock() *block {
	b := &block{x: x, shared: make([]byte, x.sharedSize), queues: map[uint64]*addrQueue{}}
	if x.cfg.RaceCheck && x.sharedSize > 0 {
		b.race = newRaceShadow(x.sharedSize, x.raceShift)
	}
	nregs := x.k.NumRegs * 32
	for i := 0; i < x.warpsPerBlock; i++ {
		w := &warp{blk: b, idx: i, regs: make([]uint64, nregs), stack: make([]entry, x.k.MaxStack+1)}
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
	w.syncEpoch = 0
	w.ways = w.ways[:0]
	w.clock = t
	w.rng = splitmix(x.cfg.Seed ^ uint64(w.blk.linear)*0x9e3779b97f4a7c15 ^ uint64(w.idx)<<48)
	x.count.Warps++
	x.count.Threads += int64(bits.OnesCount32(w.launched))
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

// resume runs a block's warps until the block finishes, fails, or must wait
// for the global scheduler; granted says the global scheduler has just
// allowed its earliest warp's pending global instruction.
func (x *exec) resume(b *block, granted bool) {
	for x.err == nil {
		w := b.pick()
		if w == nil {
			x.finishBlock(b)
			return
		}
		switch w.pend {
		case pendGlobal:
			if !granted {
				x.push(event{t: w.clock, b: b})
				return
			}
			w.cleared = true
		case pendLocal:
			w.cleared = true
		}
		granted = false
		w.pend = pendNone
		switch x.runWarp(w) {
		case stopLocal:
			w.pend = pendLocal
			// The warps of a block reach a shared atomic in an order that
			// varies a little from run to run too.
			if x.cfg.Order == Seeded && x.m.Jitter > 0 {
				w.clock += int64(x.jitter(w)) / 8
			}
		case stopGlobal:
			w.pend = pendGlobal
			if x.cfg.Order == Seeded && x.m.Jitter > 0 {
				w.clock += int64(x.jitter(w))
			}
		case stopBarrier:
			x.arrive(b, w)
		case stopExit:
			w.state = done
			b.live--
			b.end = max(b.end, w.clock)
			w.exitEpoch = b.epoch
			if b.arrived > 0 && b.arrived == b.live {
				x.release(b)
			}
		case stopFault:
			return
		}
	}
}

func (x *exec) jitter(w *warp) uint64 {
	w.rng = splitmix(w.rng)
	return w.rng % uint64(x.m.Jitter+1)
}

func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (x *exec) finishBlock(b *block) {
	x.cycles = max(x.cycles, b.end)
	x.free = append(x.free, b)
	x.push(event{t: b.end + x.m.Costs.Launch/4, slot: b.slot, sm: b.sm})
}

// arrive records a warp at a barrier and releases the block when every
// live warp is there.
func (x *exec) arrive(b *block, w *warp) {
	if b.arrived == 0 {
		b.barPC = w.pc - 1
		b.barMax = w.clock
	} else if b.barPC != w.pc-1 {
		other := x.k.PosOf(int(b.barPC))
		x.fail(w, 0, gpu.ErrBarrierDivergence, fmt.Sprintf(
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
			if x.err != nil {
				return
			}
		}
	}
	t := b.barMax + x.m.Costs.Barrier
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
	for _, w := range b.warps {
		if w.state != atBarrier {
			continue
		}
		w.state = runnable
		w.clock = t
		w.syncEpoch++
		w.ways = w.ways[:0]
		if in.Dst != ir.NoReg {
			d := (*[32]uint64)(w.regs[int(in.Dst)*32:])
			for m := w.mask; m != 0; m &= m - 1 {
				d[bits.TrailingZeros32(m)] = res
			}
		}
	}
	x.count.Barriers++
	x.epochs++
	b.epoch = x.epochs
	b.arrived, b.barCnt, b.barLane = 0, 0, 0
}

// runWarp executes instructions until the warp stops.
func (x *exec) runWarp(w *warp) stop {
	code := x.code
	n := x.executed
	for {
		pc := w.pc
		p := &code[pc]
		lanes := int64(bits.OnesCount32(w.mask))
		w.pc = pc + 1
		st := p.fn(w)
		if st == stopGlobal || st == stopLocal {
			w.pc = pc // not executed yet
			x.executed = n
			return st
		}
		p.execs++
		p.lanes += lanes
		w.clock += p.cost
		n++
		if st != run {
			x.executed = n
			return st
		}
		if n > x.budget {
			x.executed = n
			x.fail(w, 0, gpu.ErrBudget, fmt.Sprintf(
				"more than %d warp instructions executed (an endless loop?); block (%d,%d,%d) warp %d was here; raise the limit with --max-instructions or LaunchConfig.MaxInstructions",
				x.budget, w.blk.id.X, w.blk.id.Y, w.blk.id.Z, w.idx))
			return stopFault
		}
	}
}

// fail records the launch's error at warp w's current instruction; lane
// says which thread to name (-1: none).
func (x *exec) fail(w *warp, lane int, kind error, msg string) {
	if x.err != nil {
		return
	}
	e := &gpu.LaunchError{Kind: kind, Kernel: x.k.Name, Msg: msg, Pos: w.pos()}
	if lane >= 0 {
		e.HasThread = true
		e.Block = w.blk.id
		e.Thread = w.thread(lane)
	}
	x.err = e
}

// diagSet collects diagnostics, once per kind and place.
type diagSet struct {
	list []gpu.Diagnostic
	seen map[string]bool
}

const maxDiagnostics = 20

func (d *diagSet) add(g gpu.Diagnostic) {
	key := g.Kind + g.Pos.String() + g.Other.String()
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	if d.seen[key] || len(d.list) >= maxDiagnostics {
		return
	}
	d.seen[key] = true
	d.list = append(d.list, g)
}

func (x *exec) outcome() *Outcome {
	c := &x.count
	c.ResidentBlocksPerSM = x.resident
	perWave := int64(x.resident * x.m.SMs)
	c.Waves = (x.blocks + perWave - 1) / perWave
	for pc := range x.code {
		p := &x.code[pc]
		if p.execs == 0 {
			continue
		}
		c.WarpInstructions += p.execs
		c.ThreadInstructions += p.lanes
		*classOf(&c.ByClass, &x.k.Code[pc]) += p.execs
	}
	x.atom.fill(c)
	// The kernel ends when its last block has finished and the L2 has
	// served the last atomic.
	o := &Outcome{Counters: *c, Cycles: max(x.cycles, x.atom.drained), BlocksEnd: x.cycles,
		L2Drain: x.atom.drained, ResidentBlocks: x.resident}
	o.L2 = x.atom.l2Profile()
	o.Diagnostics = x.diags.list
	o.Printf = x.printfText()
	return o
}

func (x *exec) printfText() string {
	if len(x.printfs) == 0 {
		return ""
	}
	sort.SliceStable(x.printfs, func(i, j int) bool {
		a, b := x.printfs[i], x.printfs[j]
		if a.block != b.block {
			return a.block < b.block
		}
		if a.thread != b.thread {
			return a.thread < b.thread
		}
		return a.seq < b.seq
	})
	var sb strings.Builder
	for _, p := range x.printfs {
		sb.WriteString(p.text)
	}
	return sb.String()
}
