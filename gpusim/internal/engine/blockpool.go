package engine

import "sync"

// Blocks' storage (registers, shared memory, local memory, the race
// shadow) outlives a launch: a lab launches the same kernel hundreds of
// times, and a launch of a few thousand blocks makes only its resident
// slots' worth, so allocating them afresh for every launch was a large
// part of the simulator's garbage. A finished launch returns its blocks to
// a pool keyed by their shape; the next launch of that shape takes them
// back cleared to exactly what newBlock makes (every register, every byte
// of shared and local memory zero, every counter and epoch at its start),
// so a launch never sees anything of an earlier one.

// blockShape is what a block's storage depends on.
type blockShape struct {
	threads, regs, stack int
	local, shared        int64
	scoreboard, race     bool
	raceShift            uint
}

// blockPools holds a *sync.Pool of []*block per blockShape.
var blockPools sync.Map

func (x *exec) blockShape() blockShape {
	return blockShape{threads: x.threadsPerBlock, regs: x.k.NumRegs, local: x.k.LocalBytes, stack: x.k.MaxStack + 1,
		shared: x.sharedSize, scoreboard: x.scoreboard, race: x.cfg.RaceCheck && x.sharedSize > 0, raceShift: x.raceShift}
}

// pooled reports whether the launch's blocks come from and go back to the
// pool: not under the relaxed model, whose blocks carry store buffers.
func (x *exec) pooled() bool { return x.weak == nil }

// takeBlocks fills x.free from the pool, at the launch's start.
func (x *exec) takeBlocks() {
	if !x.pooled() {
		return
	}
	p, ok := blockPools.Load(x.blockShape())
	if !ok {
		return
	}
	bs, _ := p.(*sync.Pool).Get().([]*block)
	for _, b := range bs {
		x.resetBlock(b)
	}
	x.free = bs
}

// giveBlocks returns a finished launch's blocks to the pool.
func (x *exec) giveBlocks() {
	if !x.pooled() || x.main.err != nil || len(x.free) == 0 {
		return
	}
	p, _ := blockPools.LoadOrStore(x.blockShape(), &sync.Pool{})
	p.(*sync.Pool).Put(x.free)
	x.free = nil
}

// resetBlock makes b, a block of an earlier launch of the same shape, what
// newBlock would make for x.
func (x *exec) resetBlock(b *block) {
	clear(b.shared)
	clear(b.queues)
	if rs := b.race; rs != nil {
		clear(rs.w)
		clear(rs.r)
		clear(rs.wpc)
		clear(rs.rpc)
	}
	*b = block{x: x, shared: b.shared, queues: b.queues, queueStore: b.queueStore[:0], race: b.race, warps: b.warps}
	for i, w := range b.warps {
		clear(w.regs)
		clear(w.local)
		clear(w.stack)
		clear(w.ready)
		*w = warp{blk: b, idx: i, regs: w.regs, local: w.local, stack: w.stack, ready: w.ready, ways: w.ways[:0], launched: w.launched}
	}
}
