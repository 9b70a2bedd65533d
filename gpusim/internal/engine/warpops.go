package engine

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
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
// the CUDA programming guide makes both undefined.
func (x *exec) checkSyncMask(w *warp, mask uint32, pc int, what string) {
	alive := w.launched &^ w.exited
	if absent := mask & alive &^ w.mask; absent != 0 {
		w.blk.ctx.diags.add(gpu.Diagnostic{Kind: "warp-sync", Pos: x.k.PosOf(pc), Msg: fmt.Sprintf(
			"%s names lanes %s in its mask %#x, but they are not executing this call (a divergent branch or an earlier return); the result is undefined",
			what, laneSet(absent), mask)})
	}
	if outside := w.mask &^ mask; outside != 0 {
		w.blk.ctx.diags.add(gpu.Diagnostic{Kind: "warp-sync", Pos: x.k.PosOf(pc), Msg: fmt.Sprintf(
			"%s is executed by lanes %s, which its mask %#x leaves out; the result is undefined",
			what, laneSet(outside), mask)})
	}
}

func (x *exec) mkShfl(in *ir.Inst, pc int) step {
	mode := cudac.Builtin(in.Aux)
	dst, mk, vr, cr, wr := ri(in.Dst), ri(in.A), ri(in.B), ri(in.C), ri(in.Args[0])
	return func(w *warp) stop {
		r := w.regs
		d, masks, v, cs, widths := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[mk:]), (*[32]uint64)(r[vr:]), (*[32]uint64)(r[cr:]), (*[32]uint64)(r[wr:])
		first := bits.TrailingZeros32(w.mask)
		x.checkSyncMask(w, uint32(masks[first]), pc, mode.String())
		var out [32]uint64
		var stale uint32
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			width := int(int32(uint32(widths[l])))
			if width < 1 || width > 32 || width&(width-1) != 0 {
				w.blk.ctx.diags.add(gpu.Diagnostic{Kind: "warp-sync", Pos: x.k.PosOf(pc), Msg: fmt.Sprintf(
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
			w.blk.ctx.diags.add(gpu.Diagnostic{Kind: "warp-sync", Pos: x.k.PosOf(pc), Msg: fmt.Sprintf(
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
			mask := uint32((*[32]uint64)(r[mk:])[bits.TrailingZeros32(w.mask)])
			x.checkSyncMask(w, mask, pc, mode.String())
			part := w.mask & mask
			ballot := condBits(w, pr) & part
			switch mode {
			case cudac.BallotSync:
				res = uint64(ballot)
			case cudac.AnySync:
				res = b2u(ballot != 0)
			case cudac.AllSync:
				res = b2u(ballot == part)
			}
		}
		for m := w.mask; m != 0; m &= m - 1 {
			d[bits.TrailingZeros32(m)] = res
		}
		w.blk.ctx.count.Votes++
		return run
	}
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
		d, v := (*[32]uint64)(r[dst:]), (*[32]uint64)(r[vr:])
		mask := uint32((*[32]uint64)(r[mk:])[bits.TrailingZeros32(w.mask)])
		x.checkSyncMask(w, mask, pc, mode.String())
		part := w.mask & mask
		var out [32]uint64
		all := true
		first := v[bits.TrailingZeros32(w.mask)]
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			var same uint32
			for n := part; n != 0; n &= n - 1 {
				j := bits.TrailingZeros32(n)
				if v[j] == v[l] {
					same |= 1 << j
				}
			}
			out[l] = uint64(same)
			if v[l] != first {
				all = false
			}
		}
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			if mode == cudac.MatchAllSync {
				if all {
					d[l] = uint64(part)
				} else {
					d[l] = 0
				}
				(*[32]uint64)(r[pred:])[l] = b2u(all)
			} else {
				d[l] = out[l]
			}
		}
		w.blk.ctx.count.Votes++
		return run
	}
}

func (x *exec) mkSyncWarp(in *ir.Inst, pc int) step {
	mk := ri(in.A)
	return func(w *warp) stop {
		mask := uint32((*[32]uint64)(w.regs[mk:])[bits.TrailingZeros32(w.mask)])
		x.checkSyncMask(w, mask, pc, "__syncwarp")
		w.syncEpoch++
		w.blk.ctx.count.SyncWarps++
		return run
	}
}
