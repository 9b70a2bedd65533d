package cudac

import "fmt"

// This file defines the integer intrinsics that are arithmetic on their
// arguments (__umul24, __mulhi, __funnelshift_l, __byte_perm, ...): each is
// a __device__ function made once per program, whose body computes the
// result with C's operators on wider types, as the CUDA math API documents
// it. A backend sees an ordinary call.

// intrinsicSig is an intrinsic's result and parameter types.
type intrinsicSig struct {
	result *Type
	params []*Type
}

var intrinsicSigs = map[string]*intrinsicSig{
	"__mul24":          {int32Type, []*Type{int32Type, int32Type}},
	"__umul24":         {uint32Type, []*Type{uint32Type, uint32Type}},
	"__mulhi":          {int32Type, []*Type{int32Type, int32Type}},
	"__umulhi":         {uint32Type, []*Type{uint32Type, uint32Type}},
	"__funnelshift_l":  {uint32Type, []*Type{uint32Type, uint32Type, uint32Type}},
	"__funnelshift_r":  {uint32Type, []*Type{uint32Type, uint32Type, uint32Type}},
	"__funnelshift_lc": {uint32Type, []*Type{uint32Type, uint32Type, uint32Type}},
	"__funnelshift_rc": {uint32Type, []*Type{uint32Type, uint32Type, uint32Type}},
	"__byte_perm":      {uint32Type, []*Type{uint32Type, uint32Type, uint32Type}},
	"__sad":            {uint32Type, []*Type{int32Type, int32Type, uint32Type}},
	"__usad":           {uint32Type, []*Type{uint32Type, uint32Type, uint32Type}},
	"__hadd":           {int32Type, []*Type{int32Type, int32Type}},
	"__rhadd":          {int32Type, []*Type{int32Type, int32Type}},
	"__uhadd":          {uint32Type, []*Type{uint32Type, uint32Type}},
	"__urhadd":         {uint32Type, []*Type{uint32Type, uint32Type}},
	"memcpy":           {PointerTo(voidType, false), []*Type{PointerTo(voidType, false), PointerTo(voidType, true), sizeType}},
	"memset":           {PointerTo(voidType, false), []*Type{PointerTo(voidType, false), int32Type, sizeType}},
}

// byteLoop is memcpy's or memset's body: a loop over the bytes, then
// return dst.
func byteLoop(name string, params []*Var, p Pos) *Block {
	b := cgb{p: p}
	ref := func(v *Var) Expr { return &VarRef{P: p, Var: v} }
	i := &Var{Name: "i", T: sizeType, P: p}
	dst := b.conv(ref(params[0]), PointerTo(uint8Type, false))
	var val Expr
	if name == "memcpy" {
		val = &Index{P: p, X: b.conv(ref(params[1]), PointerTo(uint8Type, true)), Index: b.conv(ref(i), int64Type)}
	} else {
		val = b.conv(ref(params[1]), uint8Type)
	}
	loop := &For{P: p,
		Init: &DeclStmt{P: p, Var: i, Init: &Const{P: p, T: sizeType}},
		Cond: &Binary{P: p, Op: Lt, X: ref(i), Y: ref(params[2]), T: boolType},
		Post: &IncDec{P: p, X: ref(i)},
		Body: &ExprStmt{P: p, X: &Assign{P: p, LHS: &Index{P: p, X: dst, Index: b.conv(ref(i), int64Type)}, RHS: val}},
	}
	return &Block{P: p, Stmts: []Stmt{loop, &Return{P: p, X: ref(params[0])}}}
}

// intrinsicCall checks a call of an intrinsic of intrinsicSigs.
func (c *checker) intrinsicCall(e *sCall, name string) Expr {
	sig := intrinsicSigs[name]
	if e.HasT {
		c.errorf(e.P, "'%s' is not a template", name)
		return badExpr(e.P)
	}
	args, ok := c.args(e.Args)
	if !ok {
		return badExpr(e.P)
	}
	if len(args) != len(sig.params) {
		c.errorf(e.P, "'%s' takes %d arguments, not %d", name, len(sig.params), len(args))
		return badExpr(e.P)
	}
	for i, t := range sig.params {
		args[i] = c.convertTo(args[i], t, fmt.Sprintf("in argument %d of '%s'", i+1, name))
		if isBad(args[i]) {
			return badExpr(e.P)
		}
	}
	return &Call{P: e.P, Func: c.intrinsicFunc(name, e.P), Args: args}
}

// intrinsicFunc makes (once per program) the function of an intrinsic.
func (c *checker) intrinsicFunc(name string, p Pos) *Func {
	if fn := c.impl.cgFuncs[name]; fn != nil {
		return fn
	}
	sig := intrinsicSigs[name]
	b := cgb{p: p}
	fn := &Func{Name: name, P: p, Result: sig.result}
	var x []Expr
	for i, t := range sig.params {
		v := &Var{Name: string(rune('a' + i)), T: t, P: p, Space: SpaceParam}
		fn.Params = append(fn.Params, v)
		x = append(x, &VarRef{P: p, Var: v})
	}
	u64 := func(e Expr) Expr { return b.conv(e, uint64Type) }
	i64 := func(e Expr) Expr { return b.conv(e, int64Type) }
	k64 := func(n int64) Expr { return &Const{P: p, T: uint64Type, Int: n} }
	ki32 := func(n int64) Expr { return &Const{P: p, T: int32Type, Int: n} }
	// hilo is ((unsigned long long)hi << 32) | lo.
	hilo := func(lo, hi Expr) Expr { return b.op(Or, b.op(Shl, u64(hi), b.k32(32)), u64(lo)) }
	absDiff := func(a, bb Expr) Expr { return b.cond(b.op(Gt, a, bb), b.op(Sub, a, bb), b.op(Sub, bb, a)) }
	var r Expr
	switch name {
	case "__mul24": // the low 32 bits of the product of the low 24 bits, sign-extended
		s24 := func(e Expr) Expr { return b.op(Shr, b.op(Shl, e, b.k32(8)), b.k32(8)) }
		r = b.conv(b.op(Mul, i64(s24(x[0])), i64(s24(x[1]))), int32Type)
	case "__umul24":
		m := b.k32(0xffffff)
		r = b.op(Mul, b.op(And, x[0], m), b.op(And, x[1], m))
	case "__mulhi":
		r = b.conv(b.op(Shr, b.op(Mul, i64(x[0]), i64(x[1])), b.k32(32)), int32Type)
	case "__umulhi":
		r = b.conv(b.op(Shr, b.op(Mul, u64(x[0]), u64(x[1])), b.k32(32)), uint32Type)
	case "__funnelshift_l", "__funnelshift_lc":
		s := b.op(And, x[2], b.k32(31))
		if name == "__funnelshift_lc" {
			s = b.cond(b.op(Gt, x[2], b.k32(32)), b.k32(32), x[2])
		}
		r = b.conv(b.op(Shr, b.op(Shl, hilo(x[0], x[1]), s), b.k32(32)), uint32Type)
	case "__funnelshift_r", "__funnelshift_rc":
		s := b.op(And, x[2], b.k32(31))
		if name == "__funnelshift_rc" {
			s = b.cond(b.op(Gt, x[2], b.k32(32)), b.k32(32), x[2])
		}
		r = b.conv(b.op(Shr, hilo(x[0], x[1]), s), uint32Type)
	case "__byte_perm": // byte i of the result is byte (s >> 4i) & 7 of y:x
		r = b.k32(0)
		for i := int64(0); i < 4; i++ {
			sel := b.op(And, b.op(Shr, x[2], b.k32(4*i)), b.k32(7))
			byt := b.op(And, b.op(Shr, hilo(x[0], x[1]), b.op(Mul, sel, b.k32(8))), k64(0xff))
			r = b.op(Or, r, b.op(Shl, b.conv(byt, uint32Type), b.k32(8*i)))
		}
	case "__sad":
		r = b.op(Add, b.conv(absDiff(i64(x[0]), i64(x[1])), uint32Type), x[2])
	case "__usad":
		r = b.op(Add, absDiff(x[0], x[1]), x[2])
	case "__hadd", "__rhadd":
		sum := b.op(Add, i64(x[0]), i64(x[1]))
		if name == "__rhadd" {
			sum = b.op(Add, sum, &Const{P: p, T: int64Type, Int: 1})
		}
		r = b.conv(b.op(Shr, sum, ki32(1)), int32Type)
	case "__uhadd", "__urhadd":
		sum := b.op(Add, u64(x[0]), u64(x[1]))
		if name == "__urhadd" {
			sum = b.op(Add, sum, k64(1))
		}
		r = b.conv(b.op(Shr, sum, b.k32(1)), uint32Type)
	}
	if name == "memcpy" || name == "memset" {
		fn.Body = byteLoop(name, fn.Params, p)
	} else {
		fn.Body = &Block{P: p, Stmts: []Stmt{&Return{P: p, X: r}}}
	}
	if c.impl.cgFuncs == nil {
		c.impl.cgFuncs = map[string]*Func{}
	}
	c.impl.cgFuncs[name] = fn
	return fn
}
