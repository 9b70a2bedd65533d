package engine

import (
	"container/heap"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// Blocks run in batches. A block that has just started cannot do anything
// another block observes (a global atomic, a volatile access, a fence, its
// own end) before lookahead cycles have passed, and typically does nothing
// of the kind for about a block's lifetime: the scheduler processes events
// up to the earliest ready block's start plus that window, then runs every
// ready block's phase up to its first such point. (Past the strict
// lookahead, a batch may hand the scheduler an event earlier than one it
// has already processed; events stay in virtual-time order within a
// window of a block's lifetime, and the choice is deterministic.) A phase
// touches only its block and its own context, so the phases of a batch run
// side by side on the host's cores when the kernel has no plain global
// stores (whose order between blocks would then depend on the host); their
// contexts are merged in batch order. The batches, and so every result,
// counter and message, are the same whatever the number of cores.

// window is how far past the earliest ready block's start the scheduler
// processes events before running the ready blocks: the strict lookahead,
// or the mean lifetime of the blocks finished so far if longer.
func (x *exec) window() int64 {
	if x.finished == 0 {
		return x.lookahead
	}
	return max(x.lookahead, x.lives/x.finished)
}

// pcCount is how many times one instruction ran: warp executions and the
// lanes active in them.
type pcCount struct{ warps, lanes int64 }

// ctx is what a phase's instructions update besides its block.
type ctx struct {
	count       driver.Counters
	execs       []pcCount // per instruction: warp and lane executions
	diags       diagSet
	printfs     []printfRec
	printfBytes int
	printfCut   int // printf lines dropped past maxPrintfBytes
	executed    int64
	budget      int64 // the most warp instructions this context may execute
	// spent, shared by the contexts of a batch, counts their instructions
	// together in steps of spendStep, so that an endless loop in many
	// blocks at once stops after the budget, not after a budget per block.
	spent  *atomic.Int64
	err    error
	caches []*Alloc // per instruction: the allocation its last global access hit
	// storeLines counts the 128-byte lines the global stores wrote, one
	// per line a warp's store touches (issue.go's l1 stores term).
	storeLines int64
	// storeSectors counts the further partly written sectors of those
	// lines (partialSectors), storeWhole their further whole sectors (the
	// sectors beyond each line's first that the store writes all of).
	storeSectors, storeWhole int64
	// loadLines counts the 128-byte lines the global loads read, one per
	// line a warp's load touches (the l1 loads term); l1HitSectors the
	// sectors they read from granules their lanes had loaded last (see
	// dramBytes).
	loadLines, l1HitSectors int64
	// loneBytes are the DRAM bytes of the granules global loads moved
	// without the other granule of their 128-byte line.
	loneBytes int64
	// movedLoad are the DRAM bytes of the granules global loads moved
	// were the L2 to hold none of them; the L2 model's misses are a share
	// of them, and the lone bytes are taken in the same share.
	movedLoad int64
	// atomWavefronts counts the shared-memory wavefronts of shared
	// atomics (see atomWavefronts), in 64ths of a wavefront, so that sums
	// of fractions do not depend on the order blocks are merged in.
	atomWavefronts int64
	// l2 logs the global accesses that reach the L2, in order, for the
	// residency model (l2cache.go).
	l2 l2Log
}

// globalLoad adds a warp's global load to the counts of the L1 and DRAM
// terms: the 128-byte lines it touched, and what dramBytes returned (the
// granules moved, the sectors the L1 served, the lone granules' bytes).
func (c *ctx) globalLoad(lines, moved, l1Hits, lone int64) {
	c.loadLines += lines
	c.l1HitSectors += l1Hits
	c.loneBytes += lone
	c.movedLoad += moved
}

func (x *exec) newCtx(budget int64) *ctx {
	n := len(x.code)
	c := &ctx{execs: make([]pcCount, n), caches: make([]*Alloc, n), budget: budget}
	if x.serial {
		c.l2.direct = &x.l2
	}
	return c
}

// workerCtx returns a cleared context for a batch phase.
func (x *exec) workerCtx(budget int64) *ctx {
	if n := len(x.pool); n > 0 {
		c := x.pool[n-1]
		x.pool = x.pool[:n-1]
		c.count = driver.Counters{}
		clear(c.execs)
		c.diags = diagSet{}
		c.printfs = c.printfs[:0]
		c.printfBytes, c.printfCut, c.executed, c.budget, c.err, c.spent = 0, 0, 0, budget, nil, nil
		c.storeLines, c.storeSectors, c.storeWhole, c.loadLines, c.l1HitSectors, c.atomWavefronts, c.loneBytes, c.movedLoad = 0, 0, 0, 0, 0, 0, 0, 0
		c.l2.list = c.l2.list[:0]
		return c
	}
	return x.newCtx(budget)
}

// runReady runs the ready blocks' phases and schedules what they left.
func (x *exec) runReady() {
	batch := x.ready
	x.ready = nil
	remaining := x.main.budget - x.main.executed
	var spent atomic.Int64
	for _, b := range batch {
		b.ctx = x.workerCtx(remaining)
		b.ctx.spent = &spent
	}
	if x.workers > 1 && len(batch) > 1 {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range min(x.workers, len(batch)) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := next.Add(1) - 1; i < int64(len(batch)); i = next.Add(1) - 1 {
					x.phase(batch[i], false)
				}
			}()
		}
		wg.Wait()
	} else {
		for _, b := range batch {
			x.phase(b, false)
		}
	}
	for _, b := range batch {
		c := b.ctx
		b.ctx = x.main
		x.merge(c, b)
		x.pool = append(x.pool, c)
		x.after(b)
		if x.main.err != nil {
			return
		}
	}
	x.ready = batch[:0]
}

// spendStep is how many instructions a batch context counts at a time
// into the batch's shared count.
const spendStep = 1 << 12

// merge adds a phase's context to the main one.
func (x *exec) merge(c *ctx, b *block) {
	m := x.main
	// The L2 sees the phase's accesses in batch order (the scheduler's
	// own went to it as they happened).
	x.l2.feed(&c.l2)
	x.smStores[b.sm] += c.storeLines
	x.smStoreSectors[b.sm] += c.storeSectors
	x.smStoreWhole[b.sm] += c.storeWhole
	x.smLoads[b.sm] += c.loadLines
	m.l1HitSectors += c.l1HitSectors
	m.loneBytes += c.loneBytes
	m.movedLoad += c.movedLoad
	m.atomWavefronts += c.atomWavefronts
	addCounters(&m.count, &c.count)
	for pc, n := range c.execs {
		m.execs[pc].warps += n.warps
		m.execs[pc].lanes += n.lanes
	}
	for _, d := range c.diags.list {
		m.diags.add(d)
	}
	m.printfs = append(m.printfs, c.printfs...)
	m.printfBytes += c.printfBytes
	m.printfCut += c.printfCut
	m.executed += c.executed
	if m.err == nil {
		m.err = c.err
	}
	if m.err == nil && m.executed > m.budget {
		// Each phase may use what was left when the batch began; together
		// they went over (b.ctx is the main context again).
		x.overBudget(b.warps[0])
	}
}

// workersFor says how many goroutines may run a kernel's phases: one when
// it stores to global memory with plain stores, whose order between blocks
// would then be the host's.
func workersFor(k *ir.Kernel) int {
	if hasGlobalStores(k) {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), 8)
}

// hasGlobalStores reports whether a kernel may store to global memory with
// plain stores.
func hasGlobalStores(k *ir.Kernel) bool {
	for i := range k.Code {
		if in := &k.Code[i]; in.Op == ir.St && in.Space != ir.SpaceShared && in.Space != ir.SpaceLocal {
			return true
		}
	}
	return false
}

// minLookahead is the fewest cycles from a block's start to anything
// another block observes: the shortest path, by instruction cost, from the
// kernel's first instruction to a global atomic, a volatile global access, a
// fence or the end of a warp. Waiting at barriers and jitter only add.
func (x *exec) minLookahead() int64 {
	code := x.k.Code
	n := len(code)
	const inf = int64(1) << 62
	dist := make([]int64, n)
	for i := range dist {
		dist[i] = inf
	}
	done := make([]bool, n)
	dist[0] = 0
	best := inf
	// Dijkstra's algorithm with a binary heap of (distance, instruction):
	// O(n log n) in the kernel's length, where a linear scan for the
	// nearest instruction made a 50,000-statement kernel quadratic.
	q := &distHeap{{0, 0}}
	for q.Len() > 0 {
		top := heap.Pop(q).(distItem)
		u := top.i
		if done[u] || top.d != dist[u] {
			continue // a stale entry
		}
		if dist[u] >= best {
			break
		}
		done[u] = true
		if observed(&code[u]) || x.orderLoads && globalLoad(&code[u]) || x.lateEnd != nil && x.lateEnd[u] >= 0 {
			best = min(best, dist[u])
			continue
		}
		d := dist[u] + x.code[u].cost
		for _, v := range successors(code, u) {
			if v >= 0 && v < n && d < dist[v] {
				dist[v] = d
				heap.Push(q, distItem{d, v})
			}
		}
	}
	if best == inf {
		return 0
	}
	return best
}

// distItem is an instruction and a distance to it, in minLookahead's heap.
type distItem struct {
	d int64
	i int
}

// distHeap is a min-heap of distItems by distance, then instruction.
type distHeap []distItem

func (h distHeap) Len() int { return len(h) }
func (h distHeap) Less(a, b int) bool {
	return h[a].d < h[b].d || h[a].d == h[b].d && h[a].i < h[b].i
}
func (h distHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *distHeap) Push(x any)   { *h = append(*h, x.(distItem)) }
func (h *distHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// observed reports whether an instruction is one the scheduler orders
// between blocks, or ends a warp.
func observed(in *ir.Inst) bool {
	switch in.Op {
	case ir.Atom:
		return in.Space != ir.SpaceShared
	case ir.Ld, ir.St:
		return in.Flags&ir.FlagVolatile != 0 && in.Space != ir.SpaceShared
	case ir.Fence, ir.Exit, ir.End, ir.Trap:
		return true
	case ir.Bar:
		return in.Aux == int32(cudac.GridSync)
	}
	return false
}

// globalLoad reports whether an instruction is a plain load that may read
// global memory.
func globalLoad(in *ir.Inst) bool {
	return in.Op == ir.Ld && in.Space != ir.SpaceShared && in.Space != ir.SpaceLocal
}

// usesAtomicResults reports whether a kernel has a global atomic whose
// returned value it uses (a compare-and-swap loop, a ticket, a queue's
// pop). Its warp-uniform global loads are then ordered like its atomics:
// a plain load may legally return an older value, but on a GPU it returns
// what the L2 holds when the load gets there, and a CAS loop's failures
// depend on it (calibration/evidence/2026-11-30-h200-cas-timeline-sm-issue: the
// later a warp of a group starts, the fewer of its lanes read the initial
// value and the fewer CAS it fails).
func usesAtomicResults(k *ir.Kernel) bool {
	for i := range k.Code {
		if in := &k.Code[i]; in.Op == ir.Atom && in.Dst != ir.NoReg && in.Space != ir.SpaceShared && in.Space != ir.SpaceLocal {
			return true
		}
	}
	return false
}

// successors are the instructions that can follow instruction i.
func successors(code []ir.Inst, i int) []int {
	in := &code[i]
	switch in.Op {
	case ir.Jmp, ir.Break, ir.Continue, ir.Return:
		return []int{int(in.Target)}
	case ir.Loop, ir.Func, ir.Switch:
		return []int{i + 1}
	}
	if in.Op.IsControl() {
		return []int{i + 1, int(in.Target)}
	}
	return []int{i + 1}
}
