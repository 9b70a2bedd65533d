package engine

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// laneSet spells a set of lanes as ranges: "0-15, 20".
func laneSet(m uint32) string {
	var parts []string
	for m != 0 {
		lo := bits.TrailingZeros32(m)
		hi := lo
		for hi+1 < 32 && m&(1<<(hi+1)) != 0 {
			hi++
		}
		if lo == hi {
			parts = append(parts, fmt.Sprint(lo))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", lo, hi))
		}
		m &^= (1<<(hi-lo+1) - 1) << lo
	}
	return strings.Join(parts, ", ")
}

// checkSyncMask reports a warp-synchronous call whose mask names lanes that
// are not executing it, or that is executed by lanes its mask leaves out:
// the CUDA programming guide makes both undefined. lanes are the lanes
// that execute the call with this mask.
func (x *exec) checkSyncMask(w *warp, mask, lanes uint32, pc int, what string) {
	alive := w.launched &^ w.exited
	if absent := mask & alive &^ lanes; absent != 0 {
		w.blk.ctx.diags.add(driver.Diagnostic{Kind: "warp-sync", Pos: x.k.PosOf(pc), Msg: fmt.Sprintf(
			"%s names lanes %s in its mask %#x, but they are not executing this call with that mask (a divergent branch, an earlier return or another mask); the result is undefined",
			what, laneSet(absent), mask)})
	}
	if outside := lanes &^ mask; outside != 0 {
		w.blk.ctx.diags.add(driver.Diagnostic{Kind: "warp-sync", Pos: x.k.PosOf(pc), Msg: fmt.Sprintf(
			"%s is executed by lanes %s, which its mask %#x leaves out; the result is undefined",
			what, laneSet(outside), mask)})
	}
}

// checkLaneMasks checks the masks of a warp-synchronous call. The lanes
// may pass different masks (each tile of a warp its own): each mask is
// checked against the lanes that pass it. It returns the mask and true
// when every active lane passes the same one.
func (x *exec) checkLaneMasks(w *warp, masks *[32]uint64, pc int, what string) (uint32, bool) {
	first := uint32(masks[bits.TrailingZeros32(w.mask)])
	uniform := true
	for m := w.mask; m != 0; m &= m - 1 {
		if uint32(masks[bits.TrailingZeros32(m)]) != first {
			uniform = false
			break
		}
	}
	if uniform {
		x.checkSyncMask(w, first, w.mask, pc, what)
		return first, true
	}
	for todo := w.mask; todo != 0; {
		mask := uint32(masks[bits.TrailingZeros32(todo)])
		var lanes uint32
		for m := todo; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			if uint32(masks[l]) == mask {
				lanes |= 1 << l
			}
		}
		todo &^= lanes
		x.checkSyncMask(w, mask, lanes, pc, what)
	}
	return 0, false
}

func (x *exec) mkShfl(in *ir.Inst, pc int) step {
	mode := cudac.Builtin(in.Aux)
	dst, mk, vr, cr, wr := ri(in.Dst), ri(in.A), ri(in.B), ri(in.C), ri(in.Args[0])
	return func(w *warp) stop {
		r := w.regs
		d, masks, v, cs, widths := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[mk:]), (*[32]uint64)(r[vr:]), (*[32]uint64)(r[cr:]), (*[32]uint64)(r[wr:])
		x.checkLaneMasks(w, masks, pc, mode.String())
		var out [32]uint64
		var stale uint32
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			width := int(int32(uint32(widths[l])))
			if width < 1 || width > 32 || width&(width-1) != 0 {
				w.blk.ctx.diags.add(driver.Diagnostic{Kind: "warp-sync", Pos: x.k.PosOf(pc), Msg: fmt.Sprintf(
					"%s width %d is not a power of two between 1 and 32; the result is undefined (treated as 32)", mode, width)})
				width = 32
			}
			c := int(int32(uint32(cs[l])))
			lo, hi := l&^(width-1), l|(width-1)
			src := l
			switch mode {
			case cudac.ShflSync:
				src = lo + c&(width-1)
			case cudac.ShflUpSync:
				if s := l - int(uint32(cs[l])); s >= lo {
					src = s
				}
			case cudac.ShflDownSync:
				if s := l + int(uint32(cs[l])); s <= hi {
					src = s
				}
			case cudac.ShflXorSync:
				if s := l ^ c; s >= 0 && s <= hi && s < 32 {
					src = s
				}
			}
			if w.mask&(1<<src) == 0 {
				stale |= 1 << src
			}
			out[l] = v[src]
		}
		if stale != 0 {
			w.blk.ctx.diags.add(driver.Diagnostic{Kind: "warp-sync", Pos: x.k.PosOf(pc), Msg: fmt.Sprintf(
				"%s reads lanes %s, which are not active here; their value is undefined", mode, laneSet(stale))})
		}
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			d[l] = out[l]
		}
		w.blk.ctx.count.Shuffles++
		return run
	}
}

func (x *exec) mkVote(in *ir.Inst, pc int) step {
	mode := cudac.Builtin(in.Aux)
	dst, mk, pr := ri(in.Dst), ri(in.A), ri(in.B)
	return func(w *warp) stop {
		r := w.regs
		d := (*[32]uint64)(r[dst:])
		var res uint64
		if mode == cudac.ActiveMask {
			res = uint64(w.mask)
		} else {
			masks := (*[32]uint64)(r[mk:])
			mask, uniform := x.checkLaneMasks(w, masks, pc, mode.String())
			preds := condBits(w, pr)
			if !uniform {
				for m := w.mask; m != 0; m &= m - 1 {
					l := bits.TrailingZeros32(m)
					d[l] = vote(mode, preds, w.mask&uint32(masks[l]))
				}
				w.blk.ctx.count.Votes++
				return run
			}
			res = vote(mode, preds, w.mask&mask)
		}
		for m := w.mask; m != 0; m &= m - 1 {
			d[bits.TrailingZeros32(m)] = res
		}
		w.blk.ctx.count.Votes++
		return run
	}
}

// vote is a ballot, any or all of the predicates preds over the lanes part.
func vote(mode cudac.Builtin, preds, part uint32) uint64 {
	ballot := preds & part
	switch mode {
	case cudac.BallotSync:
		return uint64(ballot)
	case cudac.AnySync:
		return b2u(ballot != 0)
	}
	return b2u(ballot == part)
}

func (x *exec) mkMatch(in *ir.Inst, pc int) step {
	mode := cudac.Builtin(in.Aux)
	dst, mk, vr := ri(in.Dst), ri(in.A), ri(in.B)
	pred := -1
	if len(in.Args) > 0 {
		pred = ri(in.Args[0])
	}
	return func(w *warp) stop {
		r := w.regs
		d, v, masks := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[vr:]), (*[32]uint64)(r[mk:])
		x.checkLaneMasks(w, masks, pc, mode.String())
		var out [32]uint64
		var all uint32 // lanes whose group holds one value
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			part := w.mask & uint32(masks[l])
			var same uint32
			for n := part; n != 0; n &= n - 1 {
				j := bits.TrailingZeros32(n)
				if v[j] == v[l] {
					same |= 1 << j
				}
			}
			if mode == cudac.MatchAllSync {
				if same == part {
					all |= 1 << l
					same = part
				} else {
					same = 0
				}
			}
			out[l] = uint64(same)
		}
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			d[l] = out[l]
			if mode == cudac.MatchAllSync {
				(*[32]uint64)(r[pred:])[l] = b2u(all&(1<<l) != 0)
			}
		}
		w.blk.ctx.count.Votes++
		return run
	}
}

// mkReduce is __reduce_OP_sync: each lane gets the reduction of the
// values of the lanes in its mask (redux.sync, one warp instruction).
func (x *exec) mkReduce(in *ir.Inst, pc int) step {
	mode := cudac.Builtin(in.Aux)
	signed := in.T == cudac.Int32
	dst, mk, vr := ri(in.Dst), ri(in.A), ri(in.B)
	return func(w *warp) stop {
		r := w.regs
		d, v, masks := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[vr:]), (*[32]uint64)(r[mk:])
		mask, uniform := x.checkLaneMasks(w, masks, pc, mode.String())
		if uniform {
			res := reduceLanes(mode, signed, v, w.mask&mask)
			for m := w.mask; m != 0; m &= m - 1 {
				d[bits.TrailingZeros32(m)] = res
			}
		} else {
			var out [32]uint64
			for m := w.mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				out[l] = reduceLanes(mode, signed, v, w.mask&uint32(masks[l]))
			}
			for m := w.mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				d[l] = out[l]
			}
		}
		w.blk.ctx.count.Votes++
		return run
	}
}

// reduceLanes reduces the 32-bit values of the lanes in part; the result
// is in a register's form (an int sign-extended).
func reduceLanes(mode cudac.Builtin, signed bool, v *[32]uint64, part uint32) uint64 {
	var acc uint32
	first := true
	for m := part; m != 0; m &= m - 1 {
		x := uint32(v[bits.TrailingZeros32(m)])
		if first {
			acc, first = x, false
			continue
		}
		switch mode {
		case cudac.ReduceAddSync:
			acc += x
		case cudac.ReduceMinSync:
			if signed && int32(x) < int32(acc) || !signed && x < acc {
				acc = x
			}
		case cudac.ReduceMaxSync:
			if signed && int32(x) > int32(acc) || !signed && x > acc {
				acc = x
			}
		case cudac.ReduceAndSync:
			acc &= x
		case cudac.ReduceOrSync:
			acc |= x
		case cudac.ReduceXorSync:
			acc ^= x
		}
	}
	if signed {
		return uint64(int64(int32(acc)))
	}
	return uint64(acc)
}

func (x *exec) mkSyncWarp(in *ir.Inst, pc int) step {
	mk := ri(in.A)
	return func(w *warp) stop {
		x.checkLaneMasks(w, (*[32]uint64)(w.regs[mk:]), pc, "__syncwarp")
		w.syncEpoch++
		w.blk.ctx.count.SyncWarps++
		return run
	}
}
