package engine

import (
	"cmp"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// The relaxed memory model (Config.Relaxed, the spec's memory=relaxed).
//
// Under sequential consistency a global store is in memory as soon as it
// executes. Under the relaxed model each block has a store buffer: its
// plain and volatile global stores wait there, each until a seeded virtual
// time a little after it executed, and reach memory (become visible to
// other blocks) when the block next reaches a memory access, a fence or an
// order point at or after that time, in the order of those times: late,
// and out of program order across addresses. Stores to one address keep
// their order (the buffer holds one entry per address). The block's own
// loads read its buffer first, so a block always sees its own stores (the
// model is stronger than PTX inside a block, which is allowed: it shows a
// subset of the behaviours PTX allows).
//
// Loads may be stale too. Every store that reaches memory gets the next
// number of a launch-wide sequence, and memory keeps, per address, the
// values those stores replaced. A block's horizon is the sequence number
// at its last acquire; a global load may return any value its address held
// since the later of the horizon and the newest write to it this block has
// seen (so reads of one address never go back in time), drawn from the
// warp's seeded generator.
//
// What restores order, as the PTX model says for device scope:
//   - __threadfence() and __threadfence_system() drain the buffer (release)
//     and move the horizon to now (acquire); __threadfence_block() orders
//     nothing another block observes;
//   - an atomic first drains the block's buffered stores to its own
//     addresses (coherence), and reads and writes memory itself;
//   - grid_group::sync() drains every block and moves every horizon;
//   - a warp's exit drains its block's buffer (a kernel's stores are all
//     visible when it ends).
//
// Load buffering (each of two threads' loads reads the store the other
// makes after its own load) is allowed by PTX for plain, volatile and
// relaxed accesses; late.go produces it by satisfying a load late, after
// the independent stores that follow it.

// maxBuffered is the most stores a block's buffer holds; a store beyond it
// drains the buffer first.
const maxBuffered = 64

// maxHist is how many replaced values memory keeps per address, and
// maxHistAddrs how many addresses: forgetting history only makes loads
// fresher, which the model allows.
const (
	maxHist      = 16
	maxHistAddrs = 1 << 16
)

// weakMem is the relaxed model's launch-wide state.
type weakMem struct {
	seq   uint64
	hist  map[uint64][]histEntry
	delay uint64 // stores wait up to this many cycles in a buffer
	// owners are, per address, the blocks whose buffers hold a store to
	// it; kept only for kernels with deferred loads (late.go).
	owners map[uint64][]*block
}

// histEntry is one store that reached memory: its sequence number and the
// bits it replaced.
type histEntry struct {
	seq  uint64
	old  uint64
	size uint8
}

// storeBuf is a block's buffer of stores not yet visible to other blocks.
type storeBuf struct {
	ents    []bufEntry
	horizon uint64
	// seen is, per address, the newest write to it the block has read or
	// made visible.
	seen map[uint64]uint64
	// crossed counts the block's deferred loads that have crossed a
	// block-scope fence (late.go).
	crossed int
}

type bufEntry struct {
	addr uint64
	p    unsafe.Pointer
	val  uint64
	due  int64
	size uint8
}

func newWeakMem(m *Machine) *weakMem {
	return &weakMem{hist: map[uint64][]histEntry{}, delay: uint64(max(4*m.Costs.Global, 64)), owners: map[uint64][]*block{}}
}

// resetBuf prepares a starting block's buffer.
func (x *exec) resetBuf(b *block) {
	if b.wb == nil {
		b.wb = &storeBuf{seen: map[uint64]uint64{}}
	}
	b.wb.ents = b.wb.ents[:0]
	b.wb.horizon = x.weak.seq
	b.wb.crossed = 0
	clear(b.wb.seen)
	for _, w := range b.warps {
		if w.late == nil {
			w.late = &lateLoad{}
		}
		w.late.mask, w.late.crossed, w.late.stalled = 0, false, false
	}
}

func overlaps(a, as, b, bs uint64) bool { return a < b+bs && b < a+as }

// bufStore buffers lane l's global store.
func (x *exec) bufStore(w *warp, addr, size uint64, p unsafe.Pointer, v uint64) {
	wb := w.blk.wb
	for i := range wb.ents {
		e := &wb.ents[i]
		if e.addr == addr && uint64(e.size) == size {
			e.val = v
			return
		}
		if overlaps(e.addr, uint64(e.size), addr, size) {
			x.drainAll(w.blk)
			break
		}
	}
	if len(wb.ents) >= maxBuffered {
		x.drainAll(w.blk)
	}
	w.rng = splitmix(w.rng)
	wb.ents = append(wb.ents, bufEntry{addr: addr, p: p, val: v, size: uint8(size), due: w.clock + int64(w.rng%(x.weak.delay+1))})
	if x.lateAny {
		x.weak.owners[addr] = append(x.weak.owners[addr], w.blk)
	}
}

// drainDue makes the buffered stores due by time t visible, earliest first.
func (x *exec) drainDue(b *block, t int64) {
	wb := b.wb
	if len(wb.ents) == 0 {
		return
	}
	x.drain(b, func(e *bufEntry) bool { return e.due <= t })
}

// drainAll makes every buffered store visible, earliest due first.
func (x *exec) drainAll(b *block) {
	if len(b.wb.ents) > 0 {
		x.drain(b, func(*bufEntry) bool { return true })
	}
}

// drainAddrs makes visible the buffered stores that overlap an active
// lane's access of size bytes at ad[l].
func (x *exec) drainAddrs(w *warp, ad *[32]uint64, size uint64) {
	wb := w.blk.wb
	if len(wb.ents) == 0 {
		return
	}
	x.drain(w.blk, func(e *bufEntry) bool {
		for m := w.mask; m != 0; m &= m - 1 {
			if overlaps(e.addr, uint64(e.size), ad[bits.TrailingZeros32(m)], size) {
				return true
			}
		}
		return false
	})
}

func (x *exec) drain(b *block, pick func(*bufEntry) bool) {
	wb := b.wb
	var out []bufEntry
	keep := wb.ents[:0]
	for _, e := range wb.ents {
		if pick(&e) {
			out = append(out, e)
		} else {
			keep = append(keep, e)
		}
	}
	wb.ents = keep
	slices.SortStableFunc(out, func(a, b bufEntry) int { return cmp.Compare(a.due, b.due) })
	for _, e := range out {
		x.publish(wb, e.addr, e.p, uint64(e.size), e.val)
		if x.lateAny {
			x.disown(b, e.addr)
		}
	}
}

// disown records that b's buffer no longer holds a store to addr.
func (x *exec) disown(b *block, addr uint64) {
	o := x.weak.owners[addr]
	for i, ob := range o {
		if ob == b {
			o[i] = o[len(o)-1]
			o = o[:len(o)-1]
			break
		}
	}
	if len(o) == 0 {
		delete(x.weak.owners, addr)
	} else {
		x.weak.owners[addr] = o
	}
}

// publish writes a store to memory, recording the value it replaces.
func (x *exec) publish(wb *storeBuf, addr uint64, p unsafe.Pointer, size, v uint64) {
	wm := x.weak
	wm.seq++
	if len(wm.hist) >= maxHistAddrs {
		clear(wm.hist)
	}
	h := wm.hist[addr]
	if len(h) >= maxHist {
		h = append(h[:0], h[1:]...)
	}
	wm.hist[addr] = append(h, histEntry{seq: wm.seq, old: rawBits(p, size), size: uint8(size)})
	storeBits(p, size, v)
	wb.seen[addr] = wm.seq
}

func rawBits(p unsafe.Pointer, size uint64) uint64 {
	switch size {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

// asKind converts a store's bits to what a load of kind k returns.
func asKind(v, size uint64, k cudac.Kind) uint64 {
	var tmp uint64
	storeBits(unsafe.Pointer(&tmp), size, v)
	return loadBits(unsafe.Pointer(&tmp), k)
}

// weakLoad returns what lane l's global load of kind k at addr reads: its
// block's buffered store, or a value the address held since the block's
// lower bound for it.
func (x *exec) weakLoad(w *warp, addr, size uint64, p unsafe.Pointer, k cudac.Kind) uint64 {
	wb := w.blk.wb
	for i := range wb.ents {
		e := &wb.ents[i]
		if e.addr == addr && uint64(e.size) == size {
			return asKind(e.val, size, k)
		}
		if overlaps(e.addr, uint64(e.size), addr, size) {
			x.drainAll(w.blk)
			break
		}
	}
	h := x.weak.hist[addr]
	lb := max(wb.horizon, wb.seen[addr])
	i := len(h)
	for i > 0 && h[i-1].seq > lb {
		i--
	}
	if i == len(h) {
		return loadBits(p, k)
	}
	for _, e := range h[i:] {
		if uint64(e.size) != size {
			wb.seen[addr] = h[len(h)-1].seq
			return loadBits(p, k)
		}
	}
	// Any of the values from h[i].old (current at lb) to the current one.
	w.rng = splitmix(w.rng)
	j := i + int(w.rng%uint64(len(h)-i+1))
	if j == len(h) {
		wb.seen[addr] = h[len(h)-1].seq
		return loadBits(p, k)
	}
	if j > i {
		wb.seen[addr] = h[j-1].seq
	}
	return asKind(h[j].old, size, k)
}

// acquire moves a block's horizon to now: its later loads see every store
// that reached memory before.
func (x *exec) acquire(b *block) { b.wb.horizon = x.weak.seq }

// mkLoadWeak is mkLoad under the relaxed model: every lane takes the
// checked path, and global lanes read through weakLoad.
func (x *exec) mkLoadWeak(in *ir.Inst, pc int) step {
	dst, a := ri(in.Dst), ri(in.A)
	off, k := in.Imm, in.T
	size := kindSize(k)
	// An atomic load (Order set) is ordered among the blocks like a
	// volatile one; weakAfter gives it its order.
	volatile := in.Flags&ir.FlagVolatile != 0 || in.Order != cudac.OrderDefault
	hintShared := in.Space == ir.SpaceShared
	order, scope := in.Order, in.Scope
	acc := access{"load", pc}
	// lateOK: the load may be satisfied late (late.go).
	lateOK := x.lateEnd != nil && x.lateEnd[pc] >= 0
	return func(w *warp) stop {
		if volatile {
			if st := orderPoint(w, hintShared); st != run {
				return st
			}
		}
		x.drainDue(w.blk, w.clock)
		r := w.regs
		d, ad := (*[32]uint64)(r[dst:]), addrRegs(r, a)
		cache := &w.blk.ctx.caches[pc]
		var st memStats
		var lateAddrs [32]uint64
		var latePs [32]unsafe.Pointer
		late := lateOK
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			addr := ad[l] + off
			p, sp := x.resolve(w, l, addr, size, cache, acc)
			if p == nil {
				return stopFault
			}
			switch sp {
			case spShared:
				d[l] = loadBits(p, k)
				so := addr - ir.SharedBase
				st.add(sp, so)
				if rs := w.blk.race; rs != nil {
					rs.read(x, w, l, so, size, pc)
				}
				late = false
				continue
			case spGlobal:
				if lateOK {
					lateAddrs[l], latePs[l] = addr, p
				} else {
					d[l] = x.weakLoad(w, addr, size, p, k)
				}
			default:
				d[l] = loadBits(p, k)
				late = false
			}
			st.add(sp, addr)
		}
		switch {
		case late:
			x.deferLoad(w, pc, false, k, size, &lateAddrs, &latePs)
		case lateOK:
			// Some lanes were not global: the global ones read now.
			for m := w.mask; m != 0; m &= m - 1 {
				if l := bits.TrailingZeros32(m); latePs[l] != nil {
					d[l] = x.weakLoad(w, lateAddrs[l], size, latePs[l], k)
				}
			}
		}
		w.blk.ctx.l2.part = w.blk.part
		countMem(w.blk.ctx, &st, size, false)
		x.weakAfter(w, order, scope)
		return run
	}
}

// weakBefore is what an ordered access (cuda::atomic_ref's, an atomic
// with a memory order) does before it under the relaxed model: a release
// of device or system scope makes the block's earlier stores visible to
// every block first; a block-scope release orders nothing another block
// observes (the buffer is the block's own, so the block already sees its
// stores in order).
func (x *exec) weakBefore(w *warp, order cudac.MemoryOrder, scope cudac.Scope) {
	if order.Releases() && scope.AcrossBlocks() {
		x.settleCrossed(w, nil, 0, 0)
		x.drainAll(w.blk)
	}
}

// weakAfter is what an ordered access does after it: an acquire of device
// or system scope moves the block's horizon, so its later loads see every
// store that reached memory before; a sequentially consistent store also
// reaches memory at once.
func (x *exec) weakAfter(w *warp, order cudac.MemoryOrder, scope cudac.Scope) {
	if !scope.AcrossBlocks() {
		return
	}
	if order == cudac.OrderSeqCst {
		x.settleCrossed(w, nil, 0, 0)
		x.drainAll(w.blk)
	}
	if order.Acquires() {
		x.acquire(w.blk)
	}
}

// mkStoreWeak is mkStore under the relaxed model: global lanes' stores go
// to the block's buffer.
func (x *exec) mkStoreWeak(in *ir.Inst, pc int) step {
	a, b := ri(in.A), ri(in.B)
	off, k := in.Imm, in.T
	size := kindSize(k)
	// An atomic store (Order set) is ordered like a volatile one;
	// weakBefore and weakAfter give it its order.
	volatile := in.Flags&ir.FlagVolatile != 0 || in.Order != cudac.OrderDefault
	hintShared := in.Space == ir.SpaceShared
	order, scope := in.Order, in.Scope
	atomic := order != cudac.OrderDefault
	acc := access{"store", pc}
	return func(w *warp) stop {
		if volatile {
			if st := orderPoint(w, hintShared); st != run {
				return st
			}
		}
		x.weakBefore(w, order, scope)
		r := w.regs
		v, ad := (*[32]uint64)(r[b:]), addrRegs(r, a)
		if st := x.settleCrossed(w, ad, off, size); st != run {
			return st
		}
		cache := &w.blk.ctx.caches[pc]
		var st memStats
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			addr := ad[l] + off
			p, sp := x.resolve(w, l, addr, size, cache, acc)
			if p == nil {
				return stopFault
			}
			switch sp {
			case spShared:
				storeBits(p, size, v[l])
				so := addr - ir.SharedBase
				st.add(sp, so)
				if rs := w.blk.race; rs != nil {
					rs.write(x, w, l, so, size, pc, atomic)
				}
				continue
			case spGlobal:
				x.bufStore(w, addr, size, p, v[l])
			default:
				storeBits(p, size, v[l])
			}
			st.add(sp, addr)
		}
		w.blk.ctx.l2.part = w.blk.part
		countMem(w.blk.ctx, &st, size, true)
		x.drainDue(w.blk, w.clock)
		x.weakAfter(w, order, scope)
		return run
	}
}

// weakAtom wraps an atomic's step: the block's buffered stores to the
// atomic's addresses reach memory first, so that the atomic reads them; a
// release at device or system scope makes all of them visible first, and
// an acquire there moves the block's horizon after (scope.go).
func (x *exec) weakAtom(in *ir.Inst, inner step) step {
	a := ri(in.A)
	size := kindSize(in.T)
	order, scope := in.Order, in.Scope
	return func(w *warp) stop {
		x.drainDue(w.blk, w.clock)
		x.weakBefore(w, order, scope)
		if st := x.settleCrossed(w, addrRegs(w.regs, a), 0, size); st != run {
			return st
		}
		x.drainAddrs(w, addrRegs(w.regs, a), size)
		st := inner(w)
		if st == run {
			x.weakAfter(w, order, scope)
		}
		return st
	}
}

// weakFence is a fence's effect under the relaxed model: a device or
// system fence drains the buffer (release) and moves the horizon
// (acquire), or one of the two for an acquire-only or release-only fence
// (cuda::atomic_thread_fence); a block fence orders nothing another block
// observes.
func (x *exec) weakFence(w *warp, scope cudac.Scope, order cudac.MemoryOrder) {
	if !scope.AcrossBlocks() {
		x.drainDue(w.blk, w.clock)
		return
	}
	if order == cudac.OrderDefault {
		order = cudac.OrderSeqCst
	}
	if order.Releases() {
		x.settleCrossed(w, nil, 0, 0)
		x.drainAll(w.blk)
	} else {
		x.drainDue(w.blk, w.clock)
	}
	if order.Acquires() {
		x.acquire(w.blk)
	}
}
