package engine

import (
	"fmt"
	"math/bits"

	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// raceShadow finds shared-memory data races in one block, the way
// compute-sanitizer's racecheck does: two accesses to the same bytes by
// different threads, at least one a plain store (an atomic is a store that
// does not race with other atomics), with no __syncthreads() between them
// (and, for two threads of one warp, no __syncwarp()).
//
// For every granule of shared memory it keeps the last write and the first
// read since that barrier epoch, packed as epoch<<32 | warpSync<<16 | tid<<1 | flag,
// with the instruction of each for the report. Epochs are numbered across
// the whole launch, so a block reusing a slot never sees its predecessor's
// accesses.
type raceShadow struct {
	shift uint // log2 of the granule size: 2 (words) or 0 (bytes)
	w, r  []uint64
	wpc   []int32
	rpc   []int32
}

func newRaceShadow(size int64, shift uint) *raceShadow {
	n := (size + 1<<shift - 1) >> shift
	return &raceShadow{shift: shift, w: make([]uint64, n), r: make([]uint64, n),
		wpc: make([]int32, n), rpc: make([]int32, n)}
}

// raceGranule chooses the shadow granularity for a kernel: words, unless
// it makes sub-word accesses that may be to shared memory.
func raceGranule(k *ir.Kernel) uint {
	for i := range k.Code {
		in := &k.Code[i]
		switch in.Op {
		case ir.Ld, ir.St, ir.Atom:
			if in.Space != ir.SpaceGlobal && in.Space != ir.SpaceLocal && kindSize(in.T) < 4 {
				return 0
			}
		}
	}
	return 2
}

func pack(epoch uint32, sync uint32, tid int, flag bool) uint64 {
	v := uint64(epoch)<<32 | uint64(sync&0xffff)<<16 | uint64(tid)<<1
	if flag {
		v |= 1
	}
	return v
}

func unpack(v uint64) (epoch uint32, sync uint32, tid int, flag bool) {
	return uint32(v >> 32), uint32(v>>16) & 0xffff, int(v>>1) & 0x7fff, v&1 != 0
}

// ordered reports whether a recorded access happens before the current one
// by thread tid of warp w.
func ordered(rec uint64, w *warp, tid int) bool {
	epoch, sync, t, _ := unpack(rec)
	if epoch != w.blk.epoch || t == tid {
		return true
	}
	return t/32 == tid/32 && sync != w.syncEpoch&0xffff
}

func (s *raceShadow) read(x *exec, w *warp, l int, off, size uint64, pc int) {
	tid := w.idx*32 + l
	for g := off >> s.shift; g <= (off+size-1)>>s.shift; g++ {
		if rec := s.w[g]; rec != 0 && !ordered(rec, w, tid) {
			_, _, t, atomic := unpack(rec)
			verb := "wrote"
			if atomic {
				verb = "atomically updated"
			}
			x.reportRace(w, l, off, pc, int(s.wpc[g]), t, verb, "reads")
		}
		rd := s.r[g]
		if epoch, _, t, _ := unpack(rd); rd == 0 || epoch != w.blk.epoch {
			s.r[g] = pack(w.blk.epoch, w.syncEpoch, tid, false)
			s.rpc[g] = int32(pc)
		} else if t != tid {
			s.r[g] = rd | 1 // several readers
		}
	}
}

func (s *raceShadow) write(x *exec, w *warp, l int, off, size uint64, pc int, atomic bool) {
	tid := w.idx*32 + l
	verb := "writes"
	if atomic {
		verb = "atomically updates"
	}
	for g := off >> s.shift; g <= (off+size-1)>>s.shift; g++ {
		if rec := s.w[g]; rec != 0 && !ordered(rec, w, tid) {
			_, _, t, wasAtomic := unpack(rec)
			if !(atomic && wasAtomic) {
				prev := "wrote"
				if wasAtomic {
					prev = "atomically updated"
				}
				x.reportRace(w, l, off, pc, int(s.wpc[g]), t, prev, verb)
			}
		}
		if rd := s.r[g]; rd != 0 {
			epoch, _, t, multi := unpack(rd)
			if epoch == w.blk.epoch && (multi || t != tid) && !ordered(rd&^1, w, tid) {
				x.reportRace(w, l, off, pc, int(s.rpc[g]), t, "read", verb)
			}
		}
		s.w[g] = pack(w.blk.epoch, w.syncEpoch, tid, atomic)
		s.wpc[g] = int32(pc)
	}
}

func (x *exec) reportRace(w *warp, l int, off uint64, pc, otherPC, otherTid int, otherVerb, verb string) {
	here, there := x.k.PosOf(pc), x.k.PosOf(otherPC)
	if w.blk.ctx.diags.has("race", here, there) {
		// Reported already (or the list is full): a racy loop reaches
		// here at every trip, and the message is most of the cost.
		return
	}
	bd := x.cfg.Block
	dim := func(t int) string {
		if bd.Y == 1 && bd.Z == 1 {
			return fmt.Sprintf("thread %d", t)
		}
		return fmt.Sprintf("thread (%d,%d,%d)", t%bd.X, t/bd.X%bd.Y, t/(bd.X*bd.Y))
	}
	sep := "no __syncthreads() between them"
	if otherTid/32 == w.idx {
		sep = "no __syncthreads() or __syncwarp() between them (threads of one warp are not in lockstep on Volta and later)"
	}
	w.blk.ctx.diags.add(driver.Diagnostic{
		Kind:  "race",
		Pos:   here,
		Other: there,
		Msg: fmt.Sprintf("shared-memory race on %s in block (%d,%d,%d): %s %s it at line %d and %s %s it at line %d, with %s",
			x.sharedPlace(off), w.blk.id.X, w.blk.id.Y, w.blk.id.Z, dim(otherTid), otherVerb, there.Line,
			dim(w.idx*32+l), verb, here.Line, sep),
	})
}

// sharedPlace names a shared-memory byte offset: "tile[12]" or "blockSum".
func (x *exec) sharedPlace(off uint64) string {
	for _, v := range x.k.SharedVars {
		size := v.Size
		if v.Dynamic {
			size = x.cfg.SharedBytes
		}
		if int64(off) >= v.Offset && int64(off) < v.Offset+size {
			if v.ElemSize > 0 && v.ElemSize < size || v.Dynamic {
				return fmt.Sprintf("%s[%d]", v.Name, (int64(off)-v.Offset)/max(v.ElemSize, 1))
			}
			return v.Name
		}
	}
	return fmt.Sprintf("shared byte %d", off)
}

// readWarp checks and records a warp's shared-memory read; offs holds the
// active lanes' offsets. The common case, no access by another thread
// since the last barrier, is handled inline.
func (s *raceShadow) readWarp(x *exec, w *warp, offs *[32]uint64, size uint64, pc int) {
	epoch := w.blk.epoch
	base := w.idx * 32
	for m := w.mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		off := offs[l]
		g := off >> s.shift
		if g == (off+size-1)>>s.shift {
			tid := base + l
			rec, rd := s.w[g], s.r[g]
			if uint32(rec>>32) != epoch || int(rec>>1)&0x7fff == tid {
				// No unordered write: record the read.
				switch {
				case uint32(rd>>32) != epoch:
					s.r[g] = pack(epoch, w.syncEpoch, tid, false)
					s.rpc[g] = int32(pc)
				case int(rd>>1)&0x7fff != tid:
					s.r[g] = rd | 1
				}
				continue
			}
		}
		s.read(x, w, l, off, size, pc)
	}
}

// writeWarp checks and records a warp's shared-memory store.
func (s *raceShadow) writeWarp(x *exec, w *warp, offs *[32]uint64, size uint64, pc int) {
	epoch := w.blk.epoch
	base := w.idx * 32
	for m := w.mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		off := offs[l]
		g := off >> s.shift
		if g == (off+size-1)>>s.shift {
			tid := base + l
			rec, rd := s.w[g], s.r[g]
			if (uint32(rec>>32) != epoch || int(rec>>1)&0x7fff == tid) &&
				(uint32(rd>>32) != epoch || int(rd>>1)&0x7fff == tid && rd&1 == 0) {
				s.w[g] = pack(epoch, w.syncEpoch, tid, false)
				s.wpc[g] = int32(pc)
				continue
			}
		}
		s.write(x, w, l, off, size, pc, false)
	}
}

// seqOffsets returns the 32 lanes' offsets of consecutive elements of
// size bytes from o0.
func seqOffsets(o0, size uint64) (offs [32]uint64) {
	for l := range offs {
		offs[l] = o0 + uint64(l)*size
	}
	return offs
}

// readWarpSeq is readWarp for all 32 lanes reading consecutive elements
// of size bytes from offset o0 (aligned to size).
func (s *raceShadow) readWarpSeq(x *exec, w *warp, o0, size uint64, pc int) {
	if size != 1<<s.shift {
		offs := seqOffsets(o0, size)
		s.readWarp(x, w, &offs, size, pc)
		return
	}
	epoch := w.blk.epoch
	base := w.idx * 32
	g0 := o0 >> s.shift
	// Arrays of 32, so that the loop checks no bounds; packed is pack's
	// epoch and sync, the same for every lane.
	ws, rs, rpc := (*[32]uint64)(s.w[g0:]), (*[32]uint64)(s.r[g0:]), (*[32]int32)(s.rpc[g0:])
	packed := pack(epoch, w.syncEpoch, 0, false)
	for l := range ws {
		tid := base + l
		rec, rd := ws[l], rs[l]
		if uint32(rec>>32) != epoch || int(rec>>1)&0x7fff == tid {
			switch {
			case uint32(rd>>32) != epoch:
				rs[l] = packed | uint64(tid)<<1
				rpc[l] = int32(pc)
			case int(rd>>1)&0x7fff != tid:
				rs[l] = rd | 1
			}
			continue
		}
		s.read(x, w, l, o0+uint64(l)*size, size, pc)
	}
}

// writeWarpSeq is writeWarp for all 32 lanes writing consecutive elements
// of size bytes from offset o0 (aligned to size).
func (s *raceShadow) writeWarpSeq(x *exec, w *warp, o0, size uint64, pc int) {
	if size != 1<<s.shift {
		offs := seqOffsets(o0, size)
		s.writeWarp(x, w, &offs, size, pc)
		return
	}
	epoch := w.blk.epoch
	base := w.idx * 32
	g0 := o0 >> s.shift
	ws, rs, wpc := (*[32]uint64)(s.w[g0:]), (*[32]uint64)(s.r[g0:]), (*[32]int32)(s.wpc[g0:])
	packed := pack(epoch, w.syncEpoch, 0, false)
	for l := range ws {
		tid := base + l
		rec, rd := ws[l], rs[l]
		if (uint32(rec>>32) != epoch || int(rec>>1)&0x7fff == tid) &&
			(uint32(rd>>32) != epoch || int(rd>>1)&0x7fff == tid && rd&1 == 0) {
			ws[l] = packed | uint64(tid)<<1
			wpc[l] = int32(pc)
			continue
		}
		s.write(x, w, l, o0+uint64(l)*size, size, pc, false)
	}
}

// writeAtomic checks and records lane l's atomic update of shared memory
// at off. The common cases, no plain access by another thread since the
// barrier or only other atomics, are handled inline.
func (s *raceShadow) writeAtomic(x *exec, w *warp, l int, off, size uint64, pc int) {
	g := off >> s.shift
	if g == (off+size-1)>>s.shift {
		epoch := w.blk.epoch
		tid := w.idx*32 + l
		rec, rd := s.w[g], s.r[g]
		if (uint32(rec>>32) != epoch || int(rec>>1)&0x7fff == tid || rec&1 != 0) && uint32(rd>>32) != epoch {
			s.w[g] = pack(epoch, w.syncEpoch, tid, true)
			s.wpc[g] = int32(pc)
			return
		}
	}
	s.write(x, w, l, off, size, pc, true)
}
