package ir

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/warplab/warplab/cudac"
)

// Options control code generation, like nvcc's flags.
type Options struct {
	// NoFMA turns off the contraction of a*b+c into a fused multiply-add
	// (nvcc --fmad=false). By default it is on, as it is in nvcc.
	NoFMA bool
}

// maxInlineDepth bounds nested inlining of __device__ calls.
const maxInlineDepth = 64

// Lower lowers a checked kernel of prog to IR.
func Lower(prog *cudac.Program, fn *cudac.Func, opts Options) (k *Kernel, err error) {
	if !fn.Kernel {
		return nil, fmt.Errorf("%s: %s is not a __global__ function", fn.P, fn.Name)
	}
	l := &lowerer{
		prog:   prog,
		opts:   opts,
		k:      &Kernel{Name: fn.Name, Func: fn},
		vars:   map[*cudac.Var]*varLoc{},
		posIdx: map[cudac.Pos]int32{},
		shared: map[*cudac.Var]int64{},
		global: map[*cudac.Var]int32{},
	}
	defer func() {
		if r := recover(); r != nil {
			le, ok := r.(lowerError)
			if !ok {
				panic(r)
			}
			k, err = nil, le.err
		}
	}()
	l.uni = analyzeUniformity(fn)
	l.kernel(fn)
	return l.k, nil
}

// lowerError carries an error out of the recursive lowering.
type lowerError struct{ err error }

func (l *lowerer) failf(p cudac.Pos, format string, args ...any) {
	panic(lowerError{fmt.Errorf("%s: %s", p, fmt.Sprintf(format, args...))})
}

type label int32

type fixup struct {
	inst int
	lb   label
}

// varLoc says where a variable lives: a register, or memory at a fixed
// address (local, shared) or at a module global.
type varLoc struct {
	reg   Reg
	inMem bool
	space Space
	off   int64 // offset in the local or shared window
	// global is the index in Kernel.Globals of a file-scope variable, or -1.
	global int32
	// ptrSpace is the known space of a pointer variable's value.
	ptrSpace Space
}

// ctl is an enclosing construct that break, continue or return can name.
type ctl struct {
	kind  ctlKind
	entry int32 // mask-stack index
}

type ctlKind uint8

const (
	ctlLoop ctlKind = iota
	ctlSwitch
	ctlFunc
)

type inlineFrame struct {
	fn      *cudac.Func
	result  Reg
	entry   int32
	exitLbl label
	// resLv is where a struct result goes (local memory of the caller).
	resLv *lval
}

type lowerer struct {
	// structResult is where the last call to a function returning a
	// struct left its result.
	structResult lval
	prog         *cudac.Program
	opts         Options
	k            *Kernel
	uni          *uniformity

	vars   map[*cudac.Var]*varLoc
	posIdx map[cudac.Pos]int32
	curPos int32

	nregs    int
	freeRegs []Reg
	stmtRegs []Reg // temporaries allocated by the current statement

	labelPC []int32
	fixups  []fixup

	depth  int32
	escape []label
	ctls   []ctl
	frames []inlineFrame

	bars int // barriers emitted so far

	localTop int64
	shared   map[*cudac.Var]int64
	dynVars  []*cudac.Var
	global   map[*cudac.Var]int32
}

// ---- emission helpers ----

func (l *lowerer) setPos(p cudac.Pos) {
	if !p.IsValid() {
		return
	}
	i, ok := l.posIdx[p]
	if !ok {
		i = int32(len(l.k.Pos))
		l.k.Pos = append(l.k.Pos, p)
		l.posIdx[p] = i
	}
	l.curPos = i
}

func (l *lowerer) emit(in Inst) int {
	in.Pos = l.curPos
	l.k.Code = append(l.k.Code, in)
	return len(l.k.Code) - 1
}

func (l *lowerer) emitTo(in Inst, lb label) int {
	i := l.emit(in)
	l.fixups = append(l.fixups, fixup{i, lb})
	return i
}

func (l *lowerer) newLabel() label {
	l.labelPC = append(l.labelPC, -1)
	return label(len(l.labelPC) - 1)
}

func (l *lowerer) bind(lb label) { l.labelPC[lb] = int32(len(l.k.Code)) }

func (l *lowerer) curEscape() label { return l.escape[len(l.escape)-1] }

func (l *lowerer) pushEscape(lb label) { l.escape = append(l.escape, lb) }
func (l *lowerer) popEscape()          { l.escape = l.escape[:len(l.escape)-1] }

func (l *lowerer) push() int32 {
	d := l.depth
	l.depth++
	if int(l.depth) > l.k.MaxStack {
		l.k.MaxStack = int(l.depth)
	}
	return d
}

func (l *lowerer) pop() { l.depth-- }

// newReg returns a register that lives until the end of the current
// statement.
func (l *lowerer) tmp() Reg {
	var r Reg
	if n := len(l.freeRegs); n > 0 {
		r = l.freeRegs[n-1]
		l.freeRegs = l.freeRegs[:n-1]
	} else {
		r = Reg(l.nregs)
		l.nregs++
	}
	l.stmtRegs = append(l.stmtRegs, r)
	return r
}

// reg returns a register that is never reused (a variable's).
func (l *lowerer) reg() Reg {
	r := Reg(l.nregs)
	l.nregs++
	return r
}

// operand is a value: a register or an immediate.
type operand struct {
	reg   Reg
	imm   uint64
	isImm bool
}

func immOp(v uint64) operand { return operand{reg: NoReg, imm: v, isImm: true} }
func regOp(r Reg) operand    { return operand{reg: r} }

// materialize puts an operand in a register.
func (l *lowerer) materialize(o operand) Reg {
	if !o.isImm {
		return o.reg
	}
	r := l.tmp()
	l.emit(Inst{Op: MovI, Dst: r, A: NoReg, B: NoReg, C: NoReg, Imm: o.imm})
	return r
}

// copyToTmp returns a temporary holding o's value now.
func (l *lowerer) copyToTmp(o operand) Reg {
	r := l.tmp()
	l.move(r, o)
	return r
}

func (l *lowerer) move(dst Reg, o operand) {
	switch {
	case o.isImm:
		l.emit(Inst{Op: MovI, Dst: dst, A: NoReg, B: NoReg, C: NoReg, Imm: o.imm})
	case o.reg == dst:
	case l.retarget(o.reg, dst):
	default:
		l.emit(Inst{Op: Mov, Dst: dst, A: o.reg, B: NoReg, C: NoReg})
	}
}

// retarget makes the last instruction write dst instead of src when src is
// a temporary of the current statement that the instruction just computed,
// saving a move. The instruction writes under the same mask the move would.
func (l *lowerer) retarget(src, dst Reg) bool {
	n := len(l.k.Code)
	if n == 0 || len(l.labelPC) > 0 && l.labelBound(int32(n)) {
		return false
	}
	last := &l.k.Code[n-1]
	if last.Dst != src || last.Op.IsControl() || last.Op == Atom || last.Op == Bar || last.Op == Match {
		return false
	}
	if !l.isTemp(src) {
		return false
	}
	last.Dst = dst
	return true
}

// labelBound reports whether some label points at pc (a join point, where
// the last instruction is not the only way in).
func (l *lowerer) labelBound(pc int32) bool {
	for _, p := range l.labelPC {
		if p == pc {
			return true
		}
	}
	return false
}

func (l *lowerer) isTemp(r Reg) bool {
	for _, t := range l.stmtRegs {
		if t == r {
			return true
		}
	}
	return false
}

func inst(op Op, t cudac.Kind, dst, a, b, c Reg) Inst {
	return Inst{Op: op, T: t, Dst: dst, A: a, B: b, C: c}
}

// binop emits dst = x op y in type t, using the immediate form for y.
func (l *lowerer) binop(op Op, t cudac.Kind, x, y operand) operand {
	if x.isImm && y.isImm {
		if v, ok := foldBinary(op, t, x.imm, y.imm); ok {
			return immOp(v)
		}
	}
	if x.isImm && commutative(op) {
		x, y = y, x
	}
	// Strength reduction, as any compiler does: unsigned division and
	// remainder by a power of two become a shift and a mask.
	if y.isImm && (t == cudac.Uint32 || t == cudac.Uint64) && y.imm != 0 && y.imm&(y.imm-1) == 0 {
		switch op {
		case Div:
			op, y = Shr, immOp(uint64(bits.TrailingZeros64(y.imm)))
		case Rem:
			op, y = And, immOp(y.imm-1)
		}
	}
	in := inst(op, t, l.tmp(), l.materialize(x), NoReg, NoReg)
	if y.isImm {
		in.Flags |= FlagImmB
		in.Imm = y.imm
	} else {
		in.B = y.reg
	}
	l.emit(in)
	return regOp(in.Dst)
}

func commutative(op Op) bool {
	switch op {
	case Add, Mul, And, Or, Xor, Min, Max, Eq, Ne:
		return true
	}
	return false
}

// regKind is the kind a register value of type t is operated on as.
func regKind(t *cudac.Type) cudac.Kind {
	switch t.Kind {
	case cudac.Pointer:
		return cudac.Uint64
	case cudac.Bool, cudac.Uint8, cudac.Uint16:
		return cudac.Uint32
	case cudac.Int8, cudac.Int16:
		return cudac.Int32
	}
	return t.Kind
}

// constBits encodes a constant as a register value.
func constBits(c *cudac.Const) uint64 {
	switch c.T.Kind {
	case cudac.Float32:
		return uint64(math.Float32bits(float32(c.Float)))
	case cudac.Float64:
		return math.Float64bits(c.Float)
	case cudac.Bool:
		if c.Int != 0 {
			return 1
		}
		return 0
	case cudac.Int8:
		return uint64(uint32(int32(int8(c.Int))))
	case cudac.Int16:
		return uint64(uint32(int32(int16(c.Int))))
	case cudac.Int32:
		return uint64(uint32(int32(c.Int)))
	case cudac.Uint8:
		return uint64(uint8(c.Int))
	case cudac.Uint16:
		return uint64(uint16(c.Int))
	case cudac.Uint32:
		return uint64(uint32(c.Int))
	}
	return uint64(c.Int)
}

// ---- kernel and statements ----

func (l *lowerer) kernel(fn *cudac.Func) {
	k := l.k
	l.setPos(fn.P)
	// Shared memory: the static variables of the kernel, then of every
	// inlined function as it is reached; dynamic shared memory after all.
	for _, v := range fn.Shared {
		l.sharedVar(v)
	}
	end := l.newLabel()
	l.pushEscape(end)
	for _, p := range fn.Params {
		r := l.reg()
		k.Params = append(k.Params, r)
		loc := &varLoc{reg: r, global: -1}
		if p.T.Kind == cudac.Pointer {
			loc.ptrSpace = SpaceGlobal
			if l.uni.assigned[p] {
				loc.ptrSpace = SpaceGeneric
			}
		}
		if p.AddrTaken {
			// A parameter whose address is taken is copied to local memory.
			mloc := l.localVar(p)
			l.vars[p] = mloc
			l.store(l.varLval(p, mloc), regOp(r), p.T)
			continue
		}
		l.vars[p] = loc
	}
	l.block(fn.Body)
	l.bind(end)
	l.emit(Inst{Op: End, A: NoReg, B: NoReg, C: NoReg, Dst: NoReg})
	l.popEscape()

	// Dynamic shared memory starts after the static part, 16-byte aligned.
	k.DynSharedOffset = alignUp(k.SharedBytes, 16)
	for _, v := range l.dynVars {
		l.vars[v].off = k.DynSharedOffset
		k.SharedVars = append(k.SharedVars, SharedVar{Name: v.Name, Offset: k.DynSharedOffset,
			ElemSize: v.T.Elem.Size(), Dynamic: true})
	}
	k.NumRegs = l.nregs
	k.LocalBytes = alignUp(l.localTop, 16)
	for _, f := range l.fixups {
		pc := l.labelPC[f.lb]
		if pc < 0 {
			panic("ir: unbound label")
		}
		k.Code[f.inst].Target = pc
	}
	// Dynamic shared variables were lowered with offset 0 relative to the
	// dynamic base: their instructions carry the marker; patch them now.
	for i := range k.Code {
		in := &k.Code[i]
		if in.Op == MovI && in.Aux == dynSharedMarker {
			in.Imm += uint64(k.DynSharedOffset)
			in.Aux = 0
		}
	}
}

// dynSharedMarker tags a MovI holding an address in dynamic shared memory,
// whose base is known only when the whole kernel has been lowered.
const dynSharedMarker = -7

func alignUp(x, a int64) int64 { return (x + a - 1) / a * a }

func (l *lowerer) sharedVar(v *cudac.Var) {
	if _, ok := l.vars[v]; ok {
		return
	}
	if v.Extern {
		l.vars[v] = &varLoc{inMem: true, space: SpaceShared, global: -1, off: -1}
		l.dynVars = append(l.dynVars, v)
		return
	}
	off := alignUp(l.k.SharedBytes, max(v.T.Align(), 1))
	l.k.SharedBytes = off + v.T.Size()
	l.vars[v] = &varLoc{inMem: true, space: SpaceShared, off: off, global: -1}
	elem := v.T.Size()
	if v.T.Kind == cudac.Array {
		elem = v.T.Elem.Size()
	}
	l.k.SharedVars = append(l.k.SharedVars, SharedVar{Name: v.Name, Offset: off, Size: v.T.Size(), ElemSize: elem})
}

func (l *lowerer) localVar(v *cudac.Var) *varLoc {
	off := alignUp(l.localTop, max(v.T.Align(), 1))
	l.localTop = off + max(v.T.Size(), 1)
	return &varLoc{inMem: true, space: SpaceLocal, off: off, global: -1}
}

func (l *lowerer) globalVar(v *cudac.Var) *varLoc {
	i, ok := l.global[v]
	if !ok {
		i = int32(len(l.k.Globals))
		l.k.Globals = append(l.k.Globals, v)
		l.global[v] = i
	}
	return &varLoc{inMem: true, space: SpaceGlobal, global: i}
}

func (l *lowerer) lookupVar(v *cudac.Var, p cudac.Pos) *varLoc {
	if loc, ok := l.vars[v]; ok {
		return loc
	}
	switch v.Space {
	case cudac.SpaceGlobal, cudac.SpaceConstant:
		loc := l.globalVar(v)
		l.vars[v] = loc
		return loc
	case cudac.SpaceShared:
		l.sharedVar(v)
		return l.vars[v]
	}
	l.failf(p, "internal error: variable %s used before its declaration was lowered", v.Name)
	return nil
}

// stmtEnd frees the statement's temporaries.
func (l *lowerer) stmtEnd(mark int) {
	l.freeRegs = append(l.freeRegs, l.stmtRegs[mark:]...)
	l.stmtRegs = l.stmtRegs[:mark]
}

func (l *lowerer) block(b *cudac.Block) {
	for _, s := range b.Stmts {
		l.stmt(s)
	}
}

func (l *lowerer) stmt(s cudac.Stmt) {
	mark := len(l.stmtRegs)
	defer l.stmtEnd(mark)
	l.setPos(s.Pos())
	switch s := s.(type) {
	case *cudac.Block:
		l.block(s)
	case *cudac.Empty:
	case *cudac.ExprStmt:
		l.expr(s.X, false)
	case *cudac.DeclStmt:
		l.decl(s)
	case *cudac.If:
		l.ifStmt(s)
	case *cudac.For:
		l.loop(s.Init, s.Cond, s.Post, s.Body, false)
	case *cudac.While:
		l.loop(nil, s.Cond, nil, s.Body, false)
	case *cudac.DoWhile:
		l.loop(nil, s.Cond, nil, s.Body, true)
	case *cudac.Break:
		c := l.innermost(s.P, ctlLoop, ctlSwitch)
		l.emitTo(Inst{Op: Break, Aux: c.entry, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, l.curEscape())
	case *cudac.Continue:
		c := l.innermost(s.P, ctlLoop)
		l.emitTo(Inst{Op: Continue, Aux: c.entry, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, l.curEscape())
	case *cudac.Return:
		l.ret(s)
	case *cudac.Switch:
		l.switchStmt(s)
	default:
		l.failf(s.Pos(), "unsupported statement %T", s)
	}
}

func (l *lowerer) innermost(p cudac.Pos, kinds ...ctlKind) ctl {
	for i := len(l.ctls) - 1; i >= 0; i-- {
		c := l.ctls[i]
		if c.kind == ctlFunc {
			break
		}
		for _, k := range kinds {
			if c.kind == k {
				return c
			}
		}
	}
	l.failf(p, "break or continue outside a loop")
	return ctl{}
}

func (l *lowerer) decl(s *cudac.DeclStmt) {
	v := s.Var
	if v.Space == cudac.SpaceShared {
		l.sharedVar(v)
		return
	}
	var loc *varLoc
	if v.AddrTaken || v.T.Kind == cudac.Array || v.T.Kind == cudac.Struct {
		loc = l.localVar(v)
	} else {
		loc = &varLoc{reg: l.reg(), global: -1}
		if v.T.Kind == cudac.Pointer && s.Init != nil && !l.uni.assigned[v] {
			loc.ptrSpace = l.spaceOf(s.Init)
		}
	}
	l.vars[v] = loc
	lv := l.varLval(v, loc)
	switch {
	case s.Init != nil && (v.T.Kind == cudac.Struct || v.T.Kind == cudac.Array):
		l.copyAggregate(lv, l.aggregateSource(s.Init), v.T)
	case s.Init != nil:
		l.store(lv, l.expr(s.Init, true), v.T)
	case s.InitList != nil:
		l.initList(lv, v.T, s.InitList)
	}
}

// Leaf is one scalar of an aggregate's memory, in memory order.
type Leaf struct {
	Off int64
	T   *cudac.Type
}

// Leaves lists the scalars of a type in memory order: the order of a
// flattened brace initialiser (cudac.DeclStmt.InitList and Var.Init).
func Leaves(t *cudac.Type) []Leaf { return FirstLeaves(t, -1) }

// FirstLeaves lists the first n scalars of a type in memory order (all of
// them when n < 0). It walks no further than the nth, so the few leaves an
// initialiser covers cost no more than they are, however large the array
// they start.
func FirstLeaves(t *cudac.Type, n int) []Leaf {
	var out []Leaf
	var walk func(t *cudac.Type, off int64) bool
	walk = func(t *cudac.Type, off int64) bool {
		if n >= 0 && len(out) >= n {
			return false
		}
		switch t.Kind {
		case cudac.Array:
			for i := int64(0); i < t.Len; i++ {
				if !walk(t.Elem, off+i*t.Elem.Size()) {
					return false
				}
			}
		case cudac.Struct:
			for _, f := range t.Struct.Fields {
				if !walk(f.Type, off+f.Offset) {
					return false
				}
			}
		default:
			out = append(out, Leaf{off, t})
		}
		return true
	}
	walk(t, 0)
	return out
}

// initList stores a flattened brace initialiser (one value per scalar
// leaf, in memory order) into memory at lv, zeroing the leaves it does not
// cover.
func (l *lowerer) initList(lv lval, t *cudac.Type, elems []cudac.Expr) {
	for i, leaf := range Leaves(t) {
		e := lv
		e.off += leaf.Off
		e.t = leaf.T
		if i < len(elems) {
			l.store(e, l.expr(elems[i], true), leaf.T)
		} else {
			l.store(e, immOp(0), leaf.T)
		}
	}
}

// copyAggregate copies a struct or array from src to dst, leaf by leaf.
// The first load and store of a struct aligned to 8 or 16 bytes check that
// alignment, as the hardware's one wide access does.
func (l *lowerer) copyAggregate(dst, src lval, t *cudac.Type) {
	var align Flags
	if t.Kind == cudac.Struct {
		switch {
		case t.Struct.Align >= 16:
			align = FlagAlign16
		case t.Struct.Align >= 8:
			align = FlagAlign8
		}
	}
	for i, leaf := range Leaves(t) {
		d, s := dst, src
		d.off += leaf.Off
		s.off += leaf.Off
		d.t, s.t = leaf.T, leaf.T
		v := l.load(s)
		if i == 0 && s.reg == NoReg {
			l.k.Code[len(l.k.Code)-1].Flags |= align
		}
		l.store(d, v, leaf.T)
		if i == 0 && d.reg == NoReg {
			l.k.Code[len(l.k.Code)-1].Flags |= align
		}
	}
}

func (l *lowerer) cond(e cudac.Expr) Reg {
	return l.materialize(l.expr(e, true))
}

// branch lowers a branch condition into in: a comparison fused into the
// branch where the condition is one, else "cond != 0".
func (l *lowerer) branch(in Inst, e cudac.Expr) Inst {
	uniform := l.uni.expr(e)
	if c, ok := e.(*cudac.Binary); ok && c.Op.IsComparison() {
		x, y := l.expr(c.X, true), l.expr(c.Y, true)
		op := binOps[c.Op]
		if x.isImm && !y.isImm {
			x, y, op = y, x, swapped[op]
		}
		in.Cmp, in.T, in.A = op, regKind(c.X.Type()), l.materialize(x)
		if y.isImm {
			in.Flags |= FlagImmB
			in.Imm = y.imm
		} else {
			in.B = y.reg
		}
	} else {
		in.Cmp, in.T, in.A = Ne, cudac.Uint32, l.cond(e)
		in.Flags |= FlagImmB
	}
	if uniform {
		in.Flags |= FlagUniform
	}
	return in
}

func (l *lowerer) ifStmt(s *cudac.If) {
	br := l.branch(Inst{Op: If, Dst: NoReg, B: NoReg, C: NoReg}, s.Cond)
	end := l.newLabel()
	els := end
	if s.Else != nil {
		els = l.newLabel()
	}
	outer := l.curEscape()
	l.push()
	ifPC := l.emitTo(br, els)
	bars := l.bars
	l.pushEscape(els)
	l.stmt(s.Then)
	l.popEscape()
	if s.Else != nil {
		l.bind(els)
		l.setPos(s.P)
		l.emitTo(Inst{Op: Else, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, end)
		l.pushEscape(end)
		l.stmt(s.Else)
		l.popEscape()
	}
	l.bind(end)
	l.setPos(s.P)
	l.emitTo(Inst{Op: EndIf, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, outer)
	l.pop()
	if l.bars > bars {
		l.k.Code[ifPC].Flags |= FlagBarrier
	}
}

// loop lowers for, while and do-while loops, rotated so that each
// iteration ends in one test that jumps back:
//
//	init; Loop; [LoopTest cond -> exit]
//	top: body; [cont: ContJoin -> exit]; post
//	back: LoopBack cond -> top
//	exit: EndLoop
//
// The ContJoin exists only when the body has a continue; without one, a
// body whose lanes have all left jumps straight to the LoopBack, which
// then falls through to the exit.
func (l *lowerer) loop(init cudac.Stmt, cond cudac.Expr, post cudac.Expr, body cudac.Stmt, doWhile bool) {
	if init != nil {
		l.stmt(init)
	}
	outer := l.curEscape()
	top, cont, back, exit := l.newLabel(), l.newLabel(), l.newLabel(), l.newLabel()
	entry := l.push()
	loopPC := l.emit(Inst{Op: Loop, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg})
	bars := l.bars
	var tests []int
	l.ctls = append(l.ctls, ctl{kind: ctlLoop, entry: entry})
	test := func(op Op, target label) {
		mark := len(l.stmtRegs)
		in := Inst{Op: op, Aux: entry, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}
		if cond != nil {
			l.setPos(cond.Pos())
			in = l.branch(in, cond)
		}
		tests = append(tests, l.emitTo(in, target))
		l.stmtEnd(mark)
	}
	if !doWhile && cond != nil {
		test(LoopTest, exit)
	}
	l.bind(top)
	conts := hasContinue(body)
	if conts {
		l.pushEscape(cont)
	} else {
		l.pushEscape(back)
	}
	l.stmt(body)
	l.popEscape()
	if conts {
		l.bind(cont)
		l.emitTo(Inst{Op: ContJoin, Aux: entry, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, exit)
	}
	if post != nil {
		mark := len(l.stmtRegs)
		l.setPos(post.Pos())
		l.pushEscape(back)
		l.expr(post, false)
		l.popEscape()
		l.stmtEnd(mark)
	}
	l.bind(back)
	test(LoopBack, top)
	l.bind(exit)
	l.emitTo(Inst{Op: EndLoop, Aux: entry, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, outer)
	l.ctls = l.ctls[:len(l.ctls)-1]
	l.pop()
	if l.bars > bars {
		l.k.Code[loopPC].Flags |= FlagBarrier
		for _, t := range tests {
			l.k.Code[t].Flags |= FlagBarrier
		}
	}
}

// hasContinue reports whether s holds a continue of the loop whose body it is.
func hasContinue(s cudac.Stmt) bool {
	switch s := s.(type) {
	case *cudac.Continue:
		return true
	case *cudac.Block:
		for _, x := range s.Stmts {
			if hasContinue(x) {
				return true
			}
		}
	case *cudac.If:
		return hasContinue(s.Then) || s.Else != nil && hasContinue(s.Else)
	case *cudac.Switch:
		for _, c := range s.Cases {
			for _, x := range c.Body {
				if hasContinue(x) {
					return true
				}
			}
		}
	}
	return false
}

func (l *lowerer) switchStmt(s *cudac.Switch) {
	tag := l.reg() // lives across the whole switch
	l.move(tag, l.expr(s.Tag, true))
	tk := regKind(s.Tag.Type())
	outer := l.curEscape()
	entry := l.push()
	var vals []int64
	for _, c := range s.Cases {
		if !c.Default {
			vals = append(vals, int64(constBits(&cudac.Const{T: s.Tag.Type(), Int: c.Value})))
		}
	}
	l.emit(Inst{Op: Switch, T: tk, A: tag, Vals: vals, Dst: NoReg, B: NoReg, C: NoReg})
	l.ctls = append(l.ctls, ctl{kind: ctlSwitch, entry: entry})
	labels := make([]label, len(s.Cases)+1)
	for i := range labels {
		labels[i] = l.newLabel()
	}
	for i, c := range s.Cases {
		l.bind(labels[i])
		l.setPos(c.P)
		if c.Default {
			l.emitTo(Inst{Op: Default, Aux: entry, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, labels[i+1])
		} else {
			l.emitTo(Inst{Op: Case, T: tk, A: tag, Aux: entry, Imm: constBits(&cudac.Const{T: s.Tag.Type(), Int: c.Value}),
				Dst: NoReg, B: NoReg, C: NoReg}, labels[i+1])
		}
		l.pushEscape(labels[i+1])
		for _, st := range c.Body {
			l.stmt(st)
		}
		l.popEscape()
	}
	l.bind(labels[len(s.Cases)])
	l.setPos(s.P)
	l.emitTo(Inst{Op: EndSwitch, Aux: entry, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, outer)
	l.ctls = l.ctls[:len(l.ctls)-1]
	l.pop()
}

func (l *lowerer) ret(s *cudac.Return) {
	if len(l.frames) == 0 {
		if s.X != nil {
			l.expr(s.X, false)
		}
		l.emitTo(Inst{Op: Exit, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, l.curEscape())
		return
	}
	f := l.frames[len(l.frames)-1]
	switch {
	case s.X != nil && f.resLv != nil:
		l.copyAggregate(*f.resLv, l.aggregateSource(s.X), f.fn.Result)
	case s.X != nil:
		v := l.expr(s.X, true)
		if f.result != NoReg {
			l.move(f.result, v)
		}
	}
	l.emitTo(Inst{Op: Return, Aux: f.entry, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, l.curEscape())
}

// call inlines a __device__ function.
func (l *lowerer) call(e *cudac.Call) operand {
	fn := e.Func
	if len(l.frames) >= maxInlineDepth {
		l.failf(e.P, "calls nested more than %d deep", maxInlineDepth)
	}
	for _, f := range l.frames {
		if f.fn == fn {
			l.failf(e.P, "recursive call to %s is not supported", fn.Name)
		}
	}
	// Evaluate the arguments in the caller; a struct argument is the
	// memory it is copied from.
	args := make([]operand, len(e.Args))
	srcs := make([]lval, len(e.Args))
	spaces := make([]Space, len(e.Args))
	for i, a := range e.Args {
		if a.Type().Kind == cudac.Struct {
			srcs[i] = l.aggregateSource(a)
			continue
		}
		args[i] = l.expr(a, true)
		spaces[i] = l.spaceOf(a)
	}
	for _, v := range fn.Shared {
		l.sharedVar(v)
	}
	for _, v := range fn.DynShared {
		l.sharedVar(v)
	}
	result := NoReg
	var resLv *lval
	switch fn.Result.Kind {
	case cudac.Void:
	case cudac.Struct:
		slot := l.localVar(&cudac.Var{T: fn.Result})
		lv := l.varLval(&cudac.Var{T: fn.Result}, slot)
		resLv = &lv
	default:
		result = l.reg()
	}
	outer := l.curEscape()
	entry := l.push()
	l.emit(Inst{Op: Func, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg})
	exit := l.newLabel()
	for i, p := range fn.Params {
		var loc *varLoc
		if p.AddrTaken || p.T.Kind == cudac.Struct {
			loc = l.localVar(p)
		} else {
			loc = &varLoc{reg: l.reg(), global: -1}
			if !l.uni.assigned[p] {
				loc.ptrSpace = spaces[i]
			}
		}
		l.vars[p] = loc
		if p.T.Kind == cudac.Struct {
			l.copyAggregate(l.varLval(p, loc), srcs[i], p.T)
			continue
		}
		l.store(l.varLval(p, loc), args[i], p.T)
	}
	l.frames = append(l.frames, inlineFrame{fn: fn, result: result, entry: entry, exitLbl: exit, resLv: resLv})
	l.ctls = append(l.ctls, ctl{kind: ctlFunc, entry: entry})
	l.pushEscape(exit)
	// The callee's statements free their own temporaries; the caller's
	// temporaries stay reserved because stmtRegs is a stack.
	l.block(fn.Body)
	l.popEscape()
	l.ctls = l.ctls[:len(l.ctls)-1]
	l.frames = l.frames[:len(l.frames)-1]
	l.bind(exit)
	l.setPos(e.P)
	l.emitTo(Inst{Op: EndFunc, Aux: entry, Dst: NoReg, A: NoReg, B: NoReg, C: NoReg}, outer)
	l.pop()
	if resLv != nil {
		l.structResult = *resLv
	}
	if result == NoReg {
		return immOp(0)
	}
	return regOp(result)
}
