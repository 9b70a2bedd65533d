package ir

import (
	"math"

	"github.com/warplab/warplab/cudac"
)

// lval is an assignable location: a register, or memory at addr+off.
type lval struct {
	reg      Reg // NoReg for memory
	addr     operand
	off      int64
	space    Space
	t        *cudac.Type
	volatile bool
}

func (l *lowerer) varLval(v *cudac.Var, loc *varLoc) lval {
	if !loc.inMem {
		return lval{reg: loc.reg, t: v.T}
	}
	lv := lval{reg: NoReg, t: v.T, space: loc.space}
	switch loc.space {
	case SpaceLocal:
		lv.addr = immOp(LocalBase + uint64(loc.off))
	case SpaceShared:
		if loc.off < 0 {
			// Dynamic shared memory: the base is patched once known.
			r := l.tmp()
			l.emit(Inst{Op: MovI, Dst: r, A: NoReg, B: NoReg, C: NoReg, Imm: SharedBase, Aux: dynSharedMarker})
			lv.addr = regOp(r)
		} else {
			lv.addr = immOp(SharedBase + uint64(loc.off))
		}
	case SpaceGlobal:
		r := l.tmp()
		l.emit(Inst{Op: GAddr, Dst: r, A: NoReg, B: NoReg, C: NoReg, Aux: loc.global})
		lv.addr = regOp(r)
	}
	return lv
}

// lvalue lowers an lvalue expression.
func (l *lowerer) lvalue(e cudac.Expr) lval {
	switch e := e.(type) {
	case *cudac.VarRef:
		return l.varLval(e.Var, l.lookupVar(e.Var, e.P))
	case *cudac.Index:
		base := l.expr(e.X, true)
		idx := l.expr(e.Index, true)
		t := e.Type()
		lv := lval{reg: NoReg, t: t, space: l.spaceOf(e.X), volatile: e.X.Type().Volatile}
		size := t.Size()
		switch {
		case idx.isImm:
			lv.addr = base
			lv.off = int64(idx.imm) * size
		case base.isImm:
			// A fixed base (a shared or local array): scale the index and
			// keep the base as the access's offset.
			r := l.tmp()
			l.emit(Inst{Op: Lea, Dst: r, A: NoReg, B: idx.reg, C: NoReg, Imm: uint64(size)})
			lv.addr, lv.off = regOp(r), int64(base.imm)
		default:
			r := l.tmp()
			l.emit(Inst{Op: Lea, Dst: r, A: base.reg, B: idx.reg, C: NoReg, Imm: uint64(size)})
			lv.addr = regOp(r)
		}
		return l.normalize(lv)
	case *cudac.Member:
		var lv lval
		if _, isCall := e.X.(*cudac.Call); isCall {
			lv = l.aggregateSource(e.X) // f().x: a member of the call's result
		} else {
			lv = l.lvalue(e.X)
		}
		if lv.reg != NoReg {
			l.failf(e.P, "internal error: struct in a register")
		}
		lv.off += e.Field.Offset
		lv.t = e.Field.Type
		return lv
	case *cudac.Deref:
		return l.normalize(lval{reg: NoReg, addr: l.expr(e.X, true), t: e.Type(), space: l.spaceOf(e.X),
			volatile: e.X.Type().Volatile})
	case *cudac.Conv:
		// A cast is not an lvalue, but (T)x on the left of = is rejected by
		// the checker; reaching here is a bug.
	}
	l.failf(e.Pos(), "internal error: %T is not an lvalue", e)
	return lval{}
}

// normalize folds an immediate address into the offset.
func (l *lowerer) normalize(lv lval) lval {
	if lv.addr.isImm {
		lv.off += int64(lv.addr.imm)
		lv.addr = immOp(0)
	}
	return lv
}

// addrOf returns the address of a memory lvalue as an operand.
func (l *lowerer) addrOf(lv lval, p cudac.Pos) operand {
	if lv.reg != NoReg {
		l.failf(p, "internal error: address of a register variable")
	}
	if lv.addr.isImm {
		return immOp(lv.addr.imm + uint64(lv.off))
	}
	if lv.off == 0 {
		return lv.addr
	}
	return l.binop(Add, cudac.Uint64, lv.addr, immOp(uint64(lv.off)))
}

func (l *lowerer) load(lv lval) operand {
	if lv.reg != NoReg {
		return regOp(lv.reg)
	}
	switch lv.t.Kind {
	case cudac.Array, cudac.Struct:
		l.failf(cudac.Pos{}, "internal error: load of an aggregate")
	}
	r := l.tmp()
	in := Inst{Op: Ld, T: memKind(lv.t), Dst: r, B: NoReg, C: NoReg, Space: lv.space}
	in.A, in.Imm = l.addrParts(lv)
	if lv.volatile {
		in.Flags |= FlagVolatile
	}
	l.emit(in)
	return regOp(r)
}

// addrParts returns the base register (NoReg for none) and immediate
// offset of a memory lvalue.
func (l *lowerer) addrParts(lv lval) (Reg, uint64) {
	if lv.addr.isImm {
		return NoReg, lv.addr.imm + uint64(lv.off)
	}
	return lv.addr.reg, uint64(lv.off)
}

func (l *lowerer) store(lv lval, v operand, t *cudac.Type) {
	if lv.reg != NoReg {
		l.move(lv.reg, v)
		return
	}
	if t.Kind == cudac.Struct || t.Kind == cudac.Array {
		l.failf(cudac.Pos{}, "struct and array assignment is not supported; assign the members")
	}
	in := Inst{Op: St, T: memKind(lv.t), Dst: NoReg, C: NoReg, Space: lv.space}
	in.A, in.Imm = l.addrParts(lv)
	in.B = l.materialize(v)
	if lv.volatile {
		in.Flags |= FlagVolatile
	}
	l.emit(in)
}

// memKind is the kind memory holds for type t.
func memKind(t *cudac.Type) cudac.Kind {
	if t.Kind == cudac.Pointer {
		return cudac.Uint64
	}
	return t.Kind
}

// spaceOf infers which window a pointer expression points into.
func (l *lowerer) spaceOf(e cudac.Expr) Space {
	switch e := e.(type) {
	case *cudac.VarRef:
		if loc, ok := l.vars[e.Var]; ok && !loc.inMem {
			return loc.ptrSpace
		}
	case *cudac.Conv:
		if e.X.Type().Kind == cudac.Array {
			return l.lvalSpace(e.X)
		}
		if e.X.Type().Kind == cudac.Pointer || e.X.Type().AtomicRef {
			return l.spaceOf(e.X)
		}
	case *cudac.AddrOf:
		return l.lvalSpace(e.X)
	case *cudac.PtrAdd:
		return l.spaceOf(e.Ptr)
	case *cudac.Comma:
		return l.spaceOf(e.Y)
	}
	return SpaceGeneric
}

func (l *lowerer) lvalSpace(e cudac.Expr) Space {
	switch e := e.(type) {
	case *cudac.VarRef:
		loc, ok := l.vars[e.Var]
		if !ok {
			switch e.Var.Space {
			case cudac.SpaceShared:
				return SpaceShared
			case cudac.SpaceGlobal, cudac.SpaceConstant:
				return SpaceGlobal
			}
			return SpaceGeneric
		}
		if loc.inMem {
			return loc.space
		}
	case *cudac.Index:
		return l.spaceOf(e.X)
	case *cudac.Member:
		return l.lvalSpace(e.X)
	case *cudac.Deref:
		return l.spaceOf(e.X)
	}
	return SpaceGeneric
}

// expr lowers an expression; want is false when its value is unused.
func (l *lowerer) expr(e cudac.Expr, want bool) operand {
	switch e := e.(type) {
	case *cudac.Const:
		return immOp(constBits(e))
	case *cudac.VarRef, *cudac.Index, *cudac.Member, *cudac.Deref:
		if e.Type().Kind == cudac.Array {
			// An array used as a value only appears decayed; this is the
			// array's address.
			return l.addrOf(l.lvalue(e), e.Pos())
		}
		return l.load(l.lvalue(e))
	case *cudac.Unary:
		return l.unary(e)
	case *cudac.Binary:
		return l.binary(e)
	case *cudac.PtrAdd:
		p := l.expr(e.Ptr, true)
		off := l.expr(e.Off, true)
		size := e.Ptr.Type().Elem.Size()
		if e.Sub {
			off = l.binop(Sub, cudac.Int64, immOp(0), off)
		}
		if off.isImm {
			return l.binop(Add, cudac.Uint64, p, immOp(off.imm*uint64(size)))
		}
		r := l.tmp()
		l.emit(Inst{Op: Lea, Dst: r, A: l.materialize(p), B: off.reg, C: NoReg, Imm: uint64(size)})
		return regOp(r)
	case *cudac.PtrDiff:
		d := l.binop(Sub, cudac.Int64, l.expr(e.X, true), l.expr(e.Y, true))
		if size := e.X.Type().Elem.Size(); size > 1 {
			d = l.binop(Div, cudac.Int64, d, immOp(uint64(size)))
		}
		return d
	case *cudac.Logical:
		return l.logical(e)
	case *cudac.CondExpr:
		return l.condExpr(e)
	case *cudac.Assign:
		return l.assign(e)
	case *cudac.IncDec:
		return l.incDec(e, want)
	case *cudac.Conv:
		return l.conv(e)
	case *cudac.AddrOf:
		return l.addrOf(l.lvalue(e.X), e.P)
	case *cudac.Call:
		return l.call(e)
	case *cudac.BuiltinCall:
		return l.builtin(e, want)
	case *cudac.Comma:
		l.expr(e.X, false)
		return l.expr(e.Y, want)
	case *cudac.StringLit:
		l.failf(e.P, "a string literal can only be printf's format")
	}
	l.failf(e.Pos(), "unsupported expression %T", e)
	return operand{}
}

func (l *lowerer) unary(e *cudac.Unary) operand {
	k := regKind(e.T)
	x := l.expr(e.X, true)
	var op Op
	switch e.Op {
	case cudac.Neg:
		op = Neg
	case cudac.BitNot:
		op = Not
	case cudac.LogNot:
		op, k = LNot, cudac.Uint32
	}
	if x.isImm {
		if v, ok := foldUnary(op, k, x.imm); ok {
			return immOp(v)
		}
	}
	r := l.tmp()
	l.emit(inst(op, k, r, x.reg, NoReg, NoReg))
	return regOp(r)
}

var binOps = [...]Op{cudac.Add: Add, cudac.Sub: Sub, cudac.Mul: Mul, cudac.Div: Div, cudac.Rem: Rem,
	cudac.And: And, cudac.Or: Or, cudac.Xor: Xor, cudac.Shl: Shl, cudac.Shr: Shr,
	cudac.Eq: Eq, cudac.Ne: Ne, cudac.Lt: Lt, cudac.Le: Le, cudac.Gt: Gt, cudac.Ge: Ge}

// swapped gives the comparison with its operands exchanged.
var swapped = map[Op]Op{Lt: Gt, Le: Ge, Gt: Lt, Ge: Le, Eq: Eq, Ne: Ne}

func (l *lowerer) binary(e *cudac.Binary) operand {
	k := regKind(e.X.Type())
	op := binOps[e.Op]
	if v, ok := l.contract(e); ok {
		return v
	}
	x := l.expr(e.X, true)
	y := l.expr(e.Y, true)
	if op == Shl || op == Shr {
		// The shift count has its own type; use it as a 32-bit amount.
		y = l.convert(y, e.Y.Type(), cudac.ScalarType(cudac.Uint32))
	}
	if x.isImm && !y.isImm {
		if s, ok := swapped[op]; ok {
			x, y, op = y, x, s
		}
	}
	return l.binop(op, k, x, y)
}

// contract lowers a*b+c, a*b-c and c-a*b in float or double to a fused
// multiply-add, as nvcc does by default.
func (l *lowerer) contract(e *cudac.Binary) (operand, bool) {
	if l.opts.NoFMA || !e.T.IsFloat() || (e.Op != cudac.Add && e.Op != cudac.Sub) {
		return operand{}, false
	}
	mul := func(x cudac.Expr) *cudac.Binary {
		if b, ok := x.(*cudac.Binary); ok && b.Op == cudac.Mul && b.T.Kind == e.T.Kind {
			return b
		}
		return nil
	}
	k := e.T.Kind
	if m := mul(e.X); m != nil {
		a, b := l.expr(m.X, true), l.expr(m.Y, true)
		c := l.expr(e.Y, true)
		if e.Op == cudac.Sub {
			c = l.fneg(c, k)
		}
		return l.fma(k, a, b, c), true
	}
	if m := mul(e.Y); m != nil {
		c := l.expr(e.X, true)
		a, b := l.expr(m.X, true), l.expr(m.Y, true)
		if e.Op == cudac.Sub {
			a = l.fneg(a, k)
		}
		return l.fma(k, a, b, c), true
	}
	return operand{}, false
}

func (l *lowerer) fneg(o operand, k cudac.Kind) operand {
	if o.isImm {
		v, _ := foldUnary(Neg, k, o.imm)
		return immOp(v)
	}
	r := l.tmp()
	l.emit(inst(Neg, k, r, o.reg, NoReg, NoReg))
	return regOp(r)
}

func (l *lowerer) fma(k cudac.Kind, a, b, c operand) operand {
	r := l.tmp()
	l.emit(inst(Fma, k, r, l.materialize(a), l.materialize(b), l.materialize(c)))
	return regOp(r)
}

func (l *lowerer) logical(e *cudac.Logical) operand {
	r := l.tmp()
	l.move(r, l.expr(e.X, true))
	test := r
	if e.Op == cudac.LogOr {
		// Evaluate Y where X is false.
		test = l.tmp()
		l.emit(inst(LNot, cudac.Uint32, test, r, NoReg, NoReg))
	}
	end := l.newLabel()
	l.push()
	l.emitTo(Inst{Op: If, Cmp: Ne, T: cudac.Uint32, A: test, Flags: FlagImmB, Dst: NoReg, B: NoReg, C: NoReg}, end)
	l.move(r, l.expr(e.Y, true))
	l.bind(end)
	l.emitTo(Inst{Op: EndIf, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, l.curEscape())
	l.pop()
	return regOp(r)
}

func (l *lowerer) condExpr(e *cudac.CondExpr) operand {
	c := l.cond(e.Cond)
	if safe(e.X) && safe(e.Y) {
		x, y := l.expr(e.X, true), l.expr(e.Y, true)
		r := l.tmp()
		l.emit(inst(Sel, cudac.Invalid, r, l.materialize(x), l.materialize(y), c))
		return regOp(r)
	}
	r := l.tmp()
	els, end := l.newLabel(), l.newLabel()
	l.push()
	l.emitTo(Inst{Op: If, Cmp: Ne, T: cudac.Uint32, A: c, Flags: FlagImmB, Dst: NoReg, B: NoReg, C: NoReg}, els)
	l.move(r, l.expr(e.X, true))
	l.bind(els)
	l.emitTo(Inst{Op: Else, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, end)
	l.move(r, l.expr(e.Y, true))
	l.bind(end)
	l.emitTo(Inst{Op: EndIf, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, l.curEscape())
	l.pop()
	return regOp(r)
}

// safe reports whether evaluating e for lanes that did not choose it can
// have no effect: no memory access, call, assignment or warp collective.
func safe(e cudac.Expr) bool {
	switch e := e.(type) {
	case *cudac.Const:
		return true
	case *cudac.VarRef:
		return e.Var.Space == cudac.SpaceLocal || e.Var.Space == cudac.SpaceParam
	case *cudac.Unary:
		return safe(e.X)
	case *cudac.Binary:
		return safe(e.X) && safe(e.Y)
	case *cudac.Conv:
		return e.X.Type().Kind != cudac.Array && safe(e.X)
	case *cudac.PtrAdd:
		return safe(e.Ptr) && safe(e.Off)
	case *cudac.BuiltinCall:
		return e.Builtin.IsSpecialRegister()
	}
	return false
}

// aggregateSource returns the memory a struct value comes from: the
// simulator copies structs between memory locations.
func (l *lowerer) aggregateSource(e cudac.Expr) lval {
	switch e := e.(type) {
	case *cudac.VarRef, *cudac.Index, *cudac.Member, *cudac.Deref:
		return l.lvalue(e)
	case *cudac.Call:
		l.call(e)
		return l.structResult
	case *cudac.Comma:
		l.expr(e.X, false)
		return l.aggregateSource(e.Y)
	}
	l.failf(e.Pos(), "the simulator copies structs only from variables, elements and members, not from %T", e)
	return lval{}
}

func (l *lowerer) assign(e *cudac.Assign) operand {
	lt := e.LHS.Type()
	if e.Op == 0 && lt.Kind == cudac.Struct {
		src := l.aggregateSource(e.RHS)
		l.copyAggregate(l.lvalue(e.LHS), src, lt)
		return immOp(0)
	}
	if e.Op == 0 {
		v := l.expr(e.RHS, true)
		lv := l.lvalue(e.LHS)
		if lv.reg == NoReg {
			l.store(lv, v, lt)
			return v
		}
		l.move(lv.reg, v)
		return regOp(lv.reg)
	}
	lv := l.lvalue(e.LHS)
	cur := l.load(lv)
	var nv operand
	switch {
	case lt.Kind == cudac.Pointer:
		off := l.expr(e.RHS, true)
		size := lt.Elem.Size()
		if e.Op == cudac.Sub {
			off = l.binop(Sub, cudac.Int64, immOp(0), off)
		}
		if off.isImm {
			nv = l.binop(Add, cudac.Uint64, cur, immOp(off.imm*uint64(size)))
		} else {
			r := l.tmp()
			l.emit(Inst{Op: Lea, Dst: r, A: l.materialize(cur), B: off.reg, C: NoReg, Imm: uint64(size)})
			nv = regOp(r)
		}
	default:
		ot := e.OpType
		x := l.convert(cur, lt, ot)
		op := binOps[e.Op]
		if m, ok := e.RHS.(*cudac.Binary); ok && !l.opts.NoFMA && ot.IsFloat() && m.Op == cudac.Mul &&
			m.T.Kind == ot.Kind && (e.Op == cudac.Add || e.Op == cudac.Sub) {
			// x += a*b contracts to fma(a, b, x); x -= a*b to fma(-a, b, x).
			a, b := l.expr(m.X, true), l.expr(m.Y, true)
			if e.Op == cudac.Sub {
				a = l.fneg(a, ot.Kind)
			}
			nv = l.fma(ot.Kind, a, b, x)
		} else {
			y := l.expr(e.RHS, true)
			if op == Shl || op == Shr {
				y = l.convert(y, e.RHS.Type(), cudac.ScalarType(cudac.Uint32))
			}
			nv = l.binop(op, regKind(ot), x, y)
		}
		nv = l.convert(nv, ot, lt)
	}
	if lv.reg != NoReg {
		l.move(lv.reg, nv)
		return regOp(lv.reg)
	}
	l.store(lv, nv, lt)
	return nv
}

func (l *lowerer) incDec(e *cudac.IncDec, want bool) operand {
	t := e.X.Type()
	lv := l.lvalue(e.X)
	cur := l.load(lv)
	var old operand
	if e.Postfix && want {
		old = regOp(l.copyToTmp(cur))
	}
	op := Add
	if e.Dec {
		op = Sub
	}
	var nv operand
	switch {
	case t.Kind == cudac.Pointer:
		nv = l.binop(op, cudac.Uint64, cur, immOp(uint64(t.Elem.Size())))
	case t.IsFloat():
		one := constBits(&cudac.Const{T: t, Float: 1})
		nv = l.binop(op, t.Kind, cur, immOp(one))
	default:
		nv = l.binop(op, regKind(t), cur, immOp(1))
		nv = l.convert(nv, cudac.ScalarType(regKind(t)), t)
	}
	if lv.reg != NoReg {
		l.move(lv.reg, nv)
		nv = regOp(lv.reg)
	} else {
		l.store(lv, nv, t)
	}
	if e.Postfix && want {
		return old
	}
	return nv
}

func (l *lowerer) conv(e *cudac.Conv) operand {
	from := e.X.Type()
	if from.Kind == cudac.Array {
		return l.addrOf(l.lvalue(e.X), e.P)
	}
	return l.convert(l.expr(e.X, true), from, e.T)
}

// convert converts a register value of type from to type to.
func (l *lowerer) convert(v operand, from, to *cudac.Type) operand {
	fk, tk := from.Kind, to.Kind
	if fk == cudac.Pointer {
		fk = cudac.Uint64
	}
	if tk == cudac.Pointer {
		tk = cudac.Uint64
	}
	if fk == tk || noopConv(fk, tk) {
		return v
	}
	if v.isImm {
		if r, ok := foldCvt(tk, fk, v.imm); ok {
			return immOp(r)
		}
	}
	r := l.tmp()
	l.emit(Inst{Op: Cvt, T: tk, T2: fk, Dst: r, A: l.materialize(v), B: NoReg, C: NoReg})
	return regOp(r)
}

// noopConv reports whether converting a register value of kind from to kind
// to leaves its bits as they are under the register representation.
func noopConv(from, to cudac.Kind) bool {
	width := func(k cudac.Kind) int {
		switch k {
		case cudac.Int64, cudac.Uint64:
			return 64
		case cudac.Int32, cudac.Uint32:
			return 32
		}
		return 0
	}
	// Same-width integers share their bits; an unsigned 32-bit value
	// zero-extends to 64 bits for free, since the high half is zero.
	if isIntKind(from) && isIntKind(to) && width(from) != 0 && width(from) == width(to) {
		return true
	}
	if (from == cudac.Uint32 || from == cudac.Uint16 || from == cudac.Uint8 || from == cudac.Bool) &&
		(to == cudac.Int64 || to == cudac.Uint64) {
		return true
	}
	// Narrow values are kept extended to 32 bits.
	switch {
	case (from == cudac.Int8 || from == cudac.Int16) && to == cudac.Int32:
		return true
	case (from == cudac.Uint8 || from == cudac.Uint16 || from == cudac.Bool) && (to == cudac.Int32 || to == cudac.Uint32):
		return true
	case from == cudac.Uint8 && to == cudac.Uint16, from == cudac.Uint8 && to == cudac.Int16,
		from == cudac.Int8 && to == cudac.Int16, from == cudac.Bool && (to == cudac.Uint8 || to == cudac.Int8 || to == cudac.Uint16 || to == cudac.Int16):
		return true
	}
	return false
}

// ---- constant folding of the simple cases ----

func foldBinary(op Op, k cudac.Kind, x, y uint64) (uint64, bool) {
	switch k {
	case cudac.Int32, cudac.Uint32, cudac.Int64, cudac.Uint64:
		return FoldInt(op, k, x, y)
	case cudac.Float32:
		a, b := math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y))
		switch op {
		case Add:
			return uint64(math.Float32bits(a + b)), true
		case Sub:
			return uint64(math.Float32bits(a - b)), true
		case Mul:
			return uint64(math.Float32bits(a * b)), true
		}
	case cudac.Float64:
		a, b := math.Float64frombits(x), math.Float64frombits(y)
		switch op {
		case Add:
			return math.Float64bits(a + b), true
		case Sub:
			return math.Float64bits(a - b), true
		case Mul:
			return math.Float64bits(a * b), true
		}
	}
	return 0, false
}

// FoldInt evaluates an integer operation the way the engine does; ok is
// false for operations it does not fold (division by zero).
func FoldInt(op Op, k cudac.Kind, x, y uint64) (uint64, bool) {
	wide := k == cudac.Int64 || k == cudac.Uint64
	signed := k == cudac.Int32 || k == cudac.Int64
	norm := func(v uint64) uint64 {
		if wide {
			return v
		}
		return uint64(uint32(v))
	}
	sx, sy := int64(x), int64(y)
	if !wide {
		sx, sy = int64(int32(uint32(x))), int64(int32(uint32(y)))
	}
	b2u := func(b bool) (uint64, bool) {
		if b {
			return 1, true
		}
		return 0, true
	}
	switch op {
	case Add:
		return norm(x + y), true
	case Sub:
		return norm(x - y), true
	case Mul:
		return norm(x * y), true
	case And:
		return x & y, true
	case Or:
		return x | y, true
	case Xor:
		return x ^ y, true
	case Shl:
		if y >= 64 || (!wide && y >= 32) {
			return 0, true
		}
		return norm(x << y), true
	case Shr:
		n := y
		if signed {
			if wide && n >= 64 || !wide && n >= 32 {
				n = 63
			}
			return norm(uint64(sx >> n)), true
		}
		if y >= 64 {
			return 0, true
		}
		return norm(x >> y), true
	case Eq:
		return b2u(norm(x) == norm(y))
	case Ne:
		return b2u(norm(x) != norm(y))
	case Lt, Le, Gt, Ge:
		var lt, eq bool
		if signed {
			lt, eq = sx < sy, sx == sy
		} else {
			lt, eq = norm(x) < norm(y), norm(x) == norm(y)
		}
		switch op {
		case Lt:
			return b2u(lt)
		case Le:
			return b2u(lt || eq)
		case Gt:
			return b2u(!lt && !eq)
		}
		return b2u(!lt)
	}
	return 0, false
}

func foldUnary(op Op, k cudac.Kind, x uint64) (uint64, bool) {
	switch op {
	case LNot:
		if x == 0 {
			return 1, true
		}
		return 0, true
	case Neg:
		switch k {
		case cudac.Float32:
			return x ^ 0x8000_0000, true
		case cudac.Float64:
			return x ^ 1<<63, true
		case cudac.Int32, cudac.Uint32:
			return uint64(uint32(-uint32(x))), true
		case cudac.Int64, cudac.Uint64:
			return -x, true
		}
	case Not:
		switch k {
		case cudac.Int32, cudac.Uint32:
			return uint64(^uint32(x)), true
		case cudac.Int64, cudac.Uint64:
			return ^x, true
		}
	}
	return 0, false
}

func foldCvt(to, from cudac.Kind, x uint64) (uint64, bool) {
	return ConvertBits(to, from, x), true
}

func isIntKind(k cudac.Kind) bool { return k >= cudac.Bool && k <= cudac.Uint64 }
