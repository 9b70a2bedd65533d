package cudac

import (
	"fmt"
	"strings"
)

// This file checks cooperative groups (<cooperative_groups.h>). A group is
// a value of a group type (see GroupKind): a 64-bit handle that says what
// the group is at run time and, for a group inside one warp, its lane
// mask. Every operation on a group is lowered here to the built-ins the
// backends already have (__syncthreads, __syncwarp, the shuffles, votes
// and __match_any_sync on the group's mask), except a grid's sync, which
// is the GridSync built-in. cg::reduce on a tile is a __device__ function
// made here, the butterfly of shfl_xor that <cooperative_groups/reduce.h>
// uses for a tile.

// The group types.
var (
	cgBlockType     = &Type{Kind: Uint64, Name: cgPrefix + "thread_block", Group: GroupBlock}
	cgThreadType    = &Type{Kind: Uint64, Name: cgPrefix + "thread_group", Group: GroupThread}
	cgGridType      = &Type{Kind: Uint64, Name: cgPrefix + "grid_group", Group: GroupGrid}
	cgCoalescedType = &Type{Kind: Uint64, Name: cgPrefix + "coalesced_group", Group: GroupCoalesced}
	cgTypes         = map[string]*Type{
		cgPrefix + "thread_block": cgBlockType, cgPrefix + "thread_group": cgThreadType,
		cgPrefix + "grid_group": cgGridType, cgPrefix + "coalesced_group": cgCoalescedType,
	}
)

// cgTileType is thread_block_tile<n>.
func cgTileType(n int64) *Type {
	return &Type{Kind: Uint64, Name: fmt.Sprintf("%sthread_block_tile<%d>", cgPrefix, n), Group: GroupTile, GroupSize: n}
}

// groupConvertible reports whether a group of type from converts to to:
// to the same type, or any group but a grid_group to a thread_group.
func groupConvertible(from, to *Type) bool {
	if from.Group == NotGroup || to.Group == NotGroup {
		return false
	}
	return Identical(from, to) || to.Group == GroupThread && from.Group != GroupGrid
}

// tileSize checks a tile size: a constant power of two up to 32.
func (c *checker) tileSize(x Expr, pos Pos) int64 {
	if isBad(x) {
		return 0
	}
	k, ok := x.(*Const)
	if !ok || !k.T.IsInteger() {
		c.errorf(pos, "a tile size must be an integer constant (1, 2, 4, 8, 16 or 32)")
		return 0
	}
	n := k.Int
	switch {
	case n > 32 && n&(n-1) == 0 && n <= 1024:
		c.errorf(pos, "tiles larger than a warp (%d threads) are not supported: NVRTC accepts tiles of 64 to 1024 threads "+
			"(with sync, thread_rank, num_threads and meta_group_rank/size only, and before sm_80 a cg::block_tile_memory), "+
			"but the simulator does not model a barrier over part of a block; use tiles of 1 to 32 threads or __syncthreads()", n)
		return 0
	case n < 1 || n > 32 || n&(n-1) != 0:
		c.errorf(pos, "a tile size must be a power of two from 1 to 32, not %d", n)
		return 0
	}
	return n
}

// tileSpecType resolves thread_block_tile<N> in a declaration.
func (c *checker) tileSpecType(s *declSpec) *Type {
	if len(s.TArgs) != 1 {
		c.errorf(s.NamePos, "'%sthread_block_tile' needs one template argument, its size (thread_block_tile<32>)", cgPrefix)
		return nil
	}
	n := c.tileSize(c.expr(s.TArgs[0]), startPos(s.TArgs[0]))
	if n == 0 {
		return nil
	}
	return cgTileType(n)
}

// cgb builds the checked tree of group operations at one position.
type cgb struct{ p Pos }

func (b cgb) k32(n int64) Expr { return &Const{P: b.p, T: uint32Type, Int: n} }
func (b cgb) k64(n int64) Expr { return &Const{P: b.p, T: uint64Type, Int: n} }
func (b cgb) sreg(x Builtin) Expr {
	return &BuiltinCall{P: b.p, Builtin: x, T: uint32Type}
}

func (b cgb) op(op BinaryOp, x, y Expr) Expr {
	t := x.Type()
	if op.IsComparison() {
		t = boolType
	}
	return &Binary{P: b.p, Op: op, X: x, Y: y, T: t}
}

func (b cgb) conv(x Expr, t *Type) Expr { return &Conv{P: b.p, X: x, T: t} }

// tid is the thread's rank in its block.
func (b cgb) tid() Expr {
	x := b.sreg(ThreadIdxX)
	yz := b.op(Add, b.sreg(ThreadIdxY), b.op(Mul, b.sreg(ThreadIdxZ), b.sreg(BlockDimY)))
	return b.op(Add, x, b.op(Mul, yz, b.sreg(BlockDimX)))
}

// nthreads is the block's size.
func (b cgb) nthreads() Expr {
	return b.op(Mul, b.op(Mul, b.sreg(BlockDimX), b.sreg(BlockDimY)), b.sreg(BlockDimZ))
}

// blockRank is the block's rank in the grid.
func (b cgb) blockRank() Expr {
	yz := b.op(Add, b.sreg(BlockIdxY), b.op(Mul, b.sreg(BlockIdxZ), b.sreg(GridDimY)))
	return b.op(Add, b.sreg(BlockIdxX), b.op(Mul, yz, b.sreg(GridDimX)))
}

func (b cgb) nblocks() Expr {
	return b.op(Mul, b.op(Mul, b.sreg(GridDimX), b.sreg(GridDimY)), b.sreg(GridDimZ))
}

func (b cgb) lane() Expr { return b.op(And, b.tid(), b.k32(31)) }

// mask is a warp group's lane mask; kind its run-time kind.
func (b cgb) mask(g Expr) Expr { return b.conv(b.conv(g, uint64Type), uint32Type) }
func (b cgb) kind(g Expr) Expr {
	return b.conv(b.op(Shr, b.conv(g, uint64Type), b.k32(32)), uint32Type)
}

// handle makes a group of type t from its run-time kind and mask.
func (b cgb) handle(kind int64, mask Expr, t *Type) Expr {
	return &Binary{P: b.p, Op: Or, X: b.k64(kind << 32), Y: b.conv(mask, uint64Type), T: t}
}

func (b cgb) popc(x Expr) Expr {
	return b.conv(&BuiltinCall{P: b.p, Builtin: Popc, Args: []Expr{x}, Elem: uint32Type, T: int32Type}, uint32Type)
}

// maskRank is the rank of the calling lane among the lanes of mask.
func (b cgb) maskRank(mask Expr) Expr {
	lt := b.op(Sub, b.op(Shl, b.k32(1), b.lane()), b.k32(1))
	return b.popc(b.op(And, mask, lt))
}

// tileMask is the lane mask of the calling thread's tile of n threads.
func (b cgb) tileMask(n int64) Expr {
	if n == 32 {
		return b.k32(0xffffffff)
	}
	return b.op(Shl, b.k32(1<<n-1), b.op(And, b.lane(), b.k32(31&^(n-1))))
}

func (b cgb) call(x Builtin, t, elem *Type, args ...Expr) Expr {
	return &BuiltinCall{P: b.p, Builtin: x, Args: args, Elem: elem, T: t}
}

func (b cgb) cond(c, x, y Expr) Expr { return &CondExpr{P: b.p, Cond: c, X: x, Y: y, T: x.Type()} }

func (b cgb) isKind(g Expr, kind int64) Expr { return b.op(Eq, b.kind(g), b.k32(kind)) }

// rank is g.thread_rank().
func (b cgb) rank(g Expr) Expr {
	switch t := g.Type(); t.Group {
	case GroupBlock:
		return b.tid()
	case GroupTile:
		return b.op(And, b.tid(), b.k32(t.GroupSize-1))
	case GroupCoalesced:
		return b.maskRank(b.mask(g))
	case GroupGrid:
		return b.op(Add, b.op(Mul, b.conv(b.blockRank(), uint64Type), b.conv(b.nthreads(), uint64Type)),
			b.conv(b.tid(), uint64Type))
	}
	// A thread_group holds a block or a warp group.
	return b.cond(b.isKind(g, GroupHandleWarp), b.maskRank(b.mask(g)), b.tid())
}

// size is g.size().
func (b cgb) size(g Expr) Expr {
	switch t := g.Type(); t.Group {
	case GroupBlock:
		return b.nthreads()
	case GroupTile:
		return b.k32(t.GroupSize)
	case GroupCoalesced:
		return b.popc(b.mask(g))
	case GroupGrid:
		return b.op(Mul, b.conv(b.nblocks(), uint64Type), b.conv(b.nthreads(), uint64Type))
	}
	return b.cond(b.isKind(g, GroupHandleWarp), b.popc(b.mask(g)), b.nthreads())
}

// sync is g.sync().
func (b cgb) sync(g Expr) Expr {
	block := b.call(SyncThreads, voidType, nil)
	warp := b.call(SyncWarp, voidType, nil, b.mask(g))
	grid := b.call(GridSync, voidType, nil)
	switch g.Type().Group {
	case GroupBlock:
		return block
	case GroupTile, GroupCoalesced:
		return warp
	case GroupGrid:
		return grid
	}
	return b.cond(b.isKind(g, GroupHandleWarp), warp, block)
}

// cgCall checks a call of a cooperative_groups function (name without the
// namespace).
func (c *checker) cgCall(e *sCall, name string) Expr {
	b := cgb{p: e.P}
	full := cgPrefix + name
	if name == "reduce" {
		return c.cgReduce(e)
	}
	if e.HasT && name != "tiled_partition" {
		c.errorf(e.P, "'%s' is not a template here", full)
		return badExpr(e.P)
	}
	args, ok := c.args(e.Args)
	if !ok {
		return badExpr(e.P)
	}
	arity := func(n int) bool {
		if len(args) != n {
			c.errorf(e.P, "'%s' takes %d argument%s, not %d", full, n, plural(n), len(args))
			return false
		}
		return true
	}
	group := func(i int) Expr {
		if args[i].Type().Group == NotGroup {
			c.errorf(args[i].Pos(), "argument %d of '%s' must be a group, not '%s'", i+1, full, args[i].Type())
			return nil
		}
		return args[i]
	}
	switch name {
	case "this_thread_block":
		if !arity(0) {
			return badExpr(e.P)
		}
		return &Const{P: e.P, T: cgBlockType, Int: GroupHandleBlock << 32}
	case "this_grid":
		if !arity(0) {
			return badExpr(e.P)
		}
		return &Const{P: e.P, T: cgGridType, Int: GroupHandleGrid << 32}
	case "coalesced_threads":
		if !arity(0) {
			return badExpr(e.P)
		}
		return b.handle(GroupHandleWarp, b.call(ActiveMask, uint32Type, nil), cgCoalescedType)
	case "sync":
		if !arity(1) || group(0) == nil {
			return badExpr(e.P)
		}
		return b.sync(args[0])
	case "tiled_partition":
		// tiled_partition<N>(g) is a thread_block_tile<N>;
		// tiled_partition(g, n) a thread_group whose size may be known
		// only at run time.
		var size Expr
		var sizePos Pos
		switch {
		case e.HasT && len(e.TArgs) == 1 && arity(1):
			targs, ok := c.args(e.TArgs)
			if !ok {
				return badExpr(e.P)
			}
			size, sizePos = targs[0], startPos(e.TArgs[0])
		case !e.HasT && arity(2):
			size, sizePos = args[1], startPos(e.Args[1])
		default:
			if e.HasT && len(e.TArgs) != 1 {
				c.errorf(e.P, "'%s' takes one template argument, the tile size", full)
			}
			return badExpr(e.P)
		}
		var n int64
		if _, isConst := size.(*Const); isConst || e.HasT {
			if n = c.tileSize(size, sizePos); n == 0 {
				return badExpr(e.P)
			}
		} else if !size.Type().IsInteger() {
			c.errorf(sizePos, "the tile size of '%s' must be an integer, not '%s'", full, size.Type())
			return badExpr(e.P)
		}
		parent := group(0)
		if parent == nil {
			return badExpr(e.P)
		}
		switch pt := parent.Type(); pt.Group {
		case GroupTile:
			if n > pt.GroupSize {
				c.errorf(sizePos, "a tile of %d threads cannot be taken from a tile of %d", n, pt.GroupSize)
				return badExpr(e.P)
			}
		case GroupCoalesced, GroupGrid:
			c.errorf(parent.Pos(), "'%s' of a '%s' is not supported (partition a thread_block or a tile)", full, pt)
			return badExpr(e.P)
		}
		if !e.HasT {
			if n == 0 {
				// (0xffffffff >> (32 - n)) << (lane & ~(n - 1))
				sz := c.conv(size, uint32Type)
				ones := b.op(Shr, b.k32(0xffffffff), b.op(Sub, b.k32(32), sz))
				base := b.op(And, b.lane(), &Unary{P: b.p, Op: BitNot, X: b.op(Sub, sz, b.k32(1)), T: uint32Type})
				return b.handle(GroupHandleWarp, b.op(Shl, ones, base), cgThreadType)
			}
			return b.handle(GroupHandleWarp, b.tileMask(n), cgThreadType)
		}
		return b.handle(GroupHandleWarp, b.tileMask(n), cgTileType(n))
	case "labeled_partition", "binary_partition":
		if !arity(2) || group(0) == nil {
			return badExpr(e.P)
		}
		g := args[0]
		if gt := g.Type(); gt.Group != GroupTile && gt.Group != GroupCoalesced {
			c.errorf(g.Pos(), "'%s' takes a thread_block_tile or a coalesced_group, not '%s'", full, gt)
			return badExpr(e.P)
		}
		if name == "labeled_partition" {
			elem := c.warpValueType(full, args[1])
			if elem == nil || elem.IsFloat() {
				if elem != nil {
					c.errorf(args[1].Pos(), "the label of '%s' must be an integer, not '%s'", full, args[1].Type())
				}
				return badExpr(e.P)
			}
			m := b.call(MatchAnySync, uint32Type, elem, b.mask(g), c.conv(args[1], elem))
			return b.handle(GroupHandleWarp, m, cgCoalescedType)
		}
		pred := c.toBool(args[1], "the predicate of '"+full+"'")
		if isBad(pred) {
			return pred
		}
		bal := b.call(BallotSync, uint32Type, nil, b.mask(g), c.conv(pred, int32Type))
		// The ballot runs in every lane (not in an arm of ?:):
		// mask & (ballot ^ (pred ? 0 : ~0)).
		m := b.op(And, b.mask(g), b.op(Xor, bal, b.cond(pred, b.k32(0), b.k32(0xffffffff))))
		return b.handle(GroupHandleWarp, m, cgCoalescedType)
	case "plus", "less", "greater", "bit_and", "bit_or", "bit_xor":
		c.errorf(e.P, "'%s' is supported only as the operator of %sreduce", full, cgPrefix)
		return badExpr(e.P)
	}
	c.errorf(e.P, "'%s' is a type, not a function", full)
	return badExpr(e.P)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// dim3Methods are the group members that return a dim3: only their x, y
// and z are supported (block.group_index().x).
var dim3Methods = map[string][3]Builtin{
	"group_index":  {BlockIdxX, BlockIdxY, BlockIdxZ},
	"block_index":  {BlockIdxX, BlockIdxY, BlockIdxZ},
	"thread_index": {ThreadIdxX, ThreadIdxY, ThreadIdxZ},
	"group_dim":    {BlockDimX, BlockDimY, BlockDimZ},
	"dim_threads":  {BlockDimX, BlockDimY, BlockDimZ},
	"dim_blocks":   {GridDimX, GridDimY, GridDimZ},
}

// groupMethods lists the member functions of each group type.
var groupMethods = map[GroupKind][]string{
	GroupBlock: {"sync", "thread_rank", "size", "num_threads", "group_index", "thread_index", "group_dim",
		"dim_threads"},
	GroupTile: {"sync", "thread_rank", "size", "num_threads", "meta_group_rank", "meta_group_size", "shfl",
		"shfl_up", "shfl_down", "shfl_xor", "any", "all", "ballot", "match_any"},
	GroupCoalesced: {"sync", "thread_rank", "size", "num_threads", "any", "all", "shfl"},
	GroupGrid: {"sync", "thread_rank", "size", "num_threads", "block_rank", "num_blocks", "block_index",
		"dim_blocks"},
	GroupThread: {"sync", "thread_rank", "size", "num_threads"},
}

// methodCall checks x.f(args): a member function of a group.
func (c *checker) methodCall(e *sCall, m *sMember) Expr {
	x := c.expr(m.X)
	if isBad(x) {
		c.args(e.Args)
		return x
	}
	if x.Type().AtomicRef {
		return c.atomicRefMethod(e, m, x)
	}
	if t := x.Type(); t.AtomicObj && !m.Arrow {
		// A cuda::atomic's members act on its address.
		addr := c.addrOf(x.Pos(), x)
		if isBad(addr) {
			return addr
		}
		return c.atomicRefMethod(e, m, &Conv{P: x.Pos(), X: addr, T: atomicRefType(t.Elem, t.RefScope)})
	}
	if x.Type().Group == NotGroup || m.Arrow {
		c.errorf(e.P, "called object is not a function (member functions are supported only on cooperative groups and cuda::atomic_ref)")
		c.args(e.Args)
		return badExpr(e.P)
	}
	return c.groupMethod(e, m, x)
}

// groupMethod checks a member function call on the group g.
func (c *checker) groupMethod(e *sCall, m *sMember, g Expr) Expr {
	gt := g.Type()
	b := cgb{p: m.NamePos}
	if e.HasT {
		c.errorf(m.NamePos, "'%s' is not a template", m.Name)
		return badExpr(e.P)
	}
	if !contains(groupMethods[gt.Group], m.Name) {
		c.errorf(m.NamePos, "no member function '%s' in '%s' (it has %s)", m.Name, gt,
			strings.Join(groupMethods[gt.Group], ", "))
		c.args(e.Args)
		return badExpr(e.P)
	}
	args, ok := c.args(e.Args)
	if !ok {
		return badExpr(e.P)
	}
	arity := func(n int) bool {
		if len(args) != n {
			c.errorf(e.P, "'%s::%s' takes %d argument%s, not %d", gt, m.Name, n, plural(n), len(args))
			return false
		}
		return true
	}
	if _, isDim := dim3Methods[m.Name]; isDim {
		c.errorf(m.NamePos, "'%s()' returns a dim3: use its .x, .y or .z", m.Name)
		return badExpr(e.P)
	}
	conv := func(i int, t *Type) bool {
		args[i] = c.convertTo(args[i], t, fmt.Sprintf("in argument %d of '%s'", i+1, m.Name))
		return !isBad(args[i])
	}
	n := gt.GroupSize
	switch m.Name {
	case "sync":
		if arity(0) {
			return b.sync(g)
		}
	case "thread_rank":
		if arity(0) {
			return b.rank(g)
		}
	case "size", "num_threads":
		if arity(0) {
			return b.size(g)
		}
	case "meta_group_rank":
		if arity(0) {
			return b.op(Div, b.tid(), b.k32(n))
		}
	case "meta_group_size":
		if arity(0) {
			return b.op(Div, b.op(Add, b.nthreads(), b.k32(n-1)), b.k32(n))
		}
	case "block_rank":
		if arity(0) {
			return b.blockRank()
		}
	case "num_blocks":
		if arity(0) {
			return b.nblocks()
		}
	case "any", "all", "ballot":
		if !arity(1) {
			break
		}
		p := c.toBool(args[0], "the predicate of '"+m.Name+"'")
		if isBad(p) {
			return p
		}
		p = c.conv(p, int32Type)
		switch m.Name {
		case "any":
			return b.call(AnySync, int32Type, nil, b.mask(g), p)
		case "all":
			return b.call(AllSync, int32Type, nil, b.mask(g), p)
		}
		bal := b.call(BallotSync, uint32Type, nil, b.mask(g), p)
		if n == 32 {
			return bal
		}
		return b.op(Shr, bal, b.op(And, b.lane(), b.k32(31&^(n-1))))
	case "match_any":
		if !arity(1) {
			break
		}
		elem := c.warpValueType("match_any", args[0])
		if elem == nil {
			return badExpr(e.P)
		}
		mm := b.call(MatchAnySync, uint32Type, elem, b.mask(g), c.conv(args[0], elem))
		if n == 32 {
			return mm
		}
		return b.op(Shr, mm, b.op(And, b.lane(), b.k32(31&^(n-1))))
	case "shfl", "shfl_up", "shfl_down", "shfl_xor":
		if !arity(2) {
			break
		}
		elem := c.warpValueType(m.Name, args[0])
		if elem == nil {
			return badExpr(e.P)
		}
		args[0] = c.conv(args[0], elem)
		if gt.Group == GroupCoalesced {
			// The source is a rank in the group; rank 0 is the group's
			// lowest lane.
			if k, ok := args[1].(*Const); !ok || !k.T.IsInteger() || k.Int != 0 {
				c.errorf(args[1].Pos(), "coalesced_group::shfl is supported only from rank 0 (a broadcast from the group's first thread)")
				return badExpr(e.P)
			}
			first := b.op(Sub, b.call(Ffs, int32Type, int32Type, b.conv(b.mask(g), int32Type)), &Const{P: b.p, T: int32Type, Int: 1})
			return b.call(ShflSync, elem, elem, b.mask(g), args[0], first, &Const{P: b.p, T: int32Type, Int: 32})
		}
		bt := map[string]Builtin{"shfl": ShflSync, "shfl_up": ShflUpSync, "shfl_down": ShflDownSync, "shfl_xor": ShflXorSync}[m.Name]
		laneType := int32Type
		if bt == ShflUpSync || bt == ShflDownSync {
			laneType = uint32Type
		}
		if !conv(1, laneType) {
			return badExpr(e.P)
		}
		return b.call(bt, elem, elem, b.mask(g), args[0], args[1], &Const{P: b.p, T: int32Type, Int: n})
	}
	return badExpr(e.P)
}

// groupDim3 checks g.group_index().x and the like.
func (c *checker) groupDim3(e *sMember, call *sCall, m *sMember) Expr {
	x := c.expr(m.X)
	if isBad(x) {
		return x
	}
	gt := x.Type()
	if gt.Group == NotGroup || !contains(groupMethods[gt.Group], m.Name) {
		c.errorf(m.NamePos, "no member function '%s' in '%s'", m.Name, gt)
		return badExpr(e.P)
	}
	if len(call.Args) != 0 {
		c.errorf(call.P, "'%s::%s' takes no arguments", gt, m.Name)
		return badExpr(e.P)
	}
	i := map[string]int{"x": 0, "y": 1, "z": 2}
	n, ok := i[e.Name]
	if !ok {
		c.errorf(e.NamePos, "no member named '%s' in 'dim3' (use x, y or z)", e.Name)
		return badExpr(e.P)
	}
	return &BuiltinCall{P: e.P, Builtin: dim3Methods[m.Name][n], T: uint32Type}
}

// cgReduceOps are the operators cg::reduce takes.
var cgReduceOps = map[string]bool{"plus": true, "less": true, "greater": true, "bit_and": true, "bit_or": true, "bit_xor": true}

// cgReduce checks cg::reduce(tile, value, op<T>()).
func (c *checker) cgReduce(e *sCall) Expr {
	full := cgPrefix + "reduce"
	if len(e.Args) != 3 {
		c.errorf(e.P, "'%s' takes 3 arguments (a tile, a value and an operator such as %splus<T>()), not %d", full, cgPrefix, len(e.Args))
		c.args(e.Args)
		return badExpr(e.P)
	}
	g := c.expr(e.Args[0])
	v := c.expr(e.Args[1])
	if isBad(g) || isBad(v) {
		return badExpr(e.P)
	}
	gt := g.Type()
	if gt.Group != GroupTile {
		c.errorf(g.Pos(), "the group of '%s' must be a thread_block_tile<N>, not '%s'", full, gt)
		return badExpr(e.P)
	}
	opCall, ok := e.Args[2].(*sCall)
	var opName string
	if ok {
		if id, isID := opCall.Fn.(*sIdent); isID && strings.HasPrefix(id.Name, cgPrefix) {
			opName = strings.TrimPrefix(id.Name, cgPrefix)
		}
	}
	if !cgReduceOps[opName] || len(opCall.Args) != 0 {
		c.errorf(startPos(e.Args[2]), "the operator of '%s' must be %splus<T>(), less<T>(), greater<T>(), bit_and<T>(), bit_or<T>() or bit_xor<T>()", full, cgPrefix)
		return badExpr(e.P)
	}
	var elem *Type
	if len(opCall.TArgs) == 1 {
		if ta, isType := opCall.TArgs[0].(*sTypeArg); isType {
			elem, _, _ = c.typeName(ta.T)
			if elem == nil {
				return badExpr(e.P)
			}
		}
	}
	if elem == nil {
		c.errorf(opCall.P, "'%s%s' needs its value type as a template argument (%s%s<float>())", cgPrefix, opName, cgPrefix, opName)
		return badExpr(e.P)
	}
	switch elem.Kind {
	case Int32, Uint32, Int64, Uint64, Float32, Float64:
	default:
		c.errorf(opCall.P, "'%s' of '%s' is not supported (use int, unsigned, long long, unsigned long long, float or double)", full, elem)
		return badExpr(e.P)
	}
	if strings.HasPrefix(opName, "bit_") && elem.IsFloat() {
		c.errorf(opCall.P, "'%s%s' needs an integer type, not '%s'", cgPrefix, opName, elem)
		return badExpr(e.P)
	}
	if !v.Type().IsArithmetic() {
		c.errorf(v.Pos(), "the value of '%s' must be a number, not '%s'", full, v.Type())
		return badExpr(e.P)
	}
	v = c.convertTo(v, elem, "in argument 2 of '"+full+"'")
	fn := c.cgReduceFunc(e.P, gt, elem, opName)
	return &Call{P: e.P, Func: fn, Args: []Expr{v, g}}
}

// cgReduceFunc makes (once per program) the __device__ function of a
// tile reduction: for (m = N/2; m > 0; m /= 2) v = op(v, tile.shfl_xor(v, m)).
func (c *checker) cgReduceFunc(p Pos, gt, elem *Type, op string) *Func {
	name := fmt.Sprintf("%sreduce<%s, %s%s<%s>>", cgPrefix, gt, cgPrefix, op, elem)
	if c.impl.cgFuncs == nil {
		c.impl.cgFuncs = map[string]*Func{}
	}
	if fn := c.impl.cgFuncs[name]; fn != nil {
		return fn
	}
	b := cgb{p: p}
	val := &Var{Name: "val", T: elem, P: p, Space: SpaceParam}
	grp := &Var{Name: "group", T: gt, P: p, Space: SpaceParam}
	ref := func(v *Var) Expr { return &VarRef{P: p, Var: v} }
	body := &Block{P: p}
	n := gt.GroupSize
	for m := n / 2; m > 0; m /= 2 {
		other := b.call(ShflXorSync, elem, elem, b.mask(ref(grp)), ref(val), &Const{P: p, T: int32Type, Int: m},
			&Const{P: p, T: int32Type, Int: n})
		var x Expr
		switch op {
		case "plus":
			x = b.op(Add, ref(val), other)
		case "less": // (b < a) ? b : a
			x = b.cond(b.op(Lt, other, ref(val)), other, ref(val))
		case "greater": // (a < b) ? b : a
			x = b.cond(b.op(Lt, ref(val), other), other, ref(val))
		case "bit_and":
			x = b.op(And, ref(val), other)
		case "bit_or":
			x = b.op(Or, ref(val), other)
		case "bit_xor":
			x = b.op(Xor, ref(val), other)
		}
		body.Stmts = append(body.Stmts, &ExprStmt{P: p, X: &Assign{P: p, LHS: ref(val), RHS: x}})
	}
	body.Stmts = append(body.Stmts, &Return{P: p, X: ref(val)})
	fn := &Func{Name: name, P: p, Params: []*Var{val, grp}, Result: elem, Body: body}
	c.impl.cgFuncs[name] = fn
	return fn
}
