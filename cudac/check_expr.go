package cudac

import (
	"fmt"
	"strings"
)

// expr checks an expression used for its value: arrays decay to pointers
// and const variables with constant values fold.
func (c *checker) expr(e sExpr) Expr { return c.decay(c.check(e, false)) }

// lvalue checks an expression whose object is wanted (the operand of &,
// ++, an assignment's left side): no decay, no folding.
func (c *checker) lvalue(e sExpr) Expr { return c.check(e, true) }

func (c *checker) check(e sExpr, wantObj bool) Expr {
	switch e := e.(type) {
	case *sBad:
		return badExpr(e.P)
	case *sLambda:
		c.errorf(e.P, "a lambda is supported only stored in an 'auto' local ('auto f = [...](...) {...};') and called in the same function; passing one to a function or calling it where it is written is not")
		return badExpr(e.P)
	case *sNum:
		return c.number(e)
	case *sChar:
		return &Const{P: e.P, T: int8Type, Int: e.Val}
	case *sBool:
		return &Const{P: e.P, T: boolType, Int: b2i(e.Val)}
	case *sNull:
		return &Const{P: e.P, T: nullptrType}
	case *sStr:
		c.errorf(e.P, "string literals are only supported as the format of printf")
		return badExpr(e.P)
	case *sIdent:
		return c.ident(e, wantObj)
	case *sScoped:
		return c.scoped(e)
	case *sUnary:
		return c.unary(e)
	case *sPostfix:
		return c.incDec(e.P, e.X, e.Op == tDec, true)
	case *sBinary:
		return c.binary(e)
	case *sAssign:
		return c.assign(e)
	case *sCond:
		return c.condExpr(e)
	case *sCall:
		return c.call(e)
	case *sIndex:
		return c.index(e)
	case *sMember:
		return c.member(e)
	case *sCast:
		return c.cast(e)
	case *sSizeof:
		return c.sizeof(e)
	case *sInitList:
		c.errorf(e.P, "an initializer list is not allowed here")
		return badExpr(e.P)
	case *sTypeArg:
		c.errorf(e.P, "a type is not allowed here")
		return badExpr(e.P)
	case *sTemp:
		t, _, _ := c.typeName(e.T)
		if t == nil {
			return badExpr(e.P)
		}
		if t.Kind != Struct {
			c.errorf(e.P, "'%s' is not a struct", t)
			return badExpr(e.P)
		}
		return &tempExpr{P: e.P, T: t}
	}
	c.errorf(e.spos(), "unsupported expression")
	return badExpr(e.spos())
}

func (c *checker) number(e *sNum) Expr {
	if e.Float {
		v, t, msg := parseFloatLit(e.Text)
		if msg != "" {
			c.errorf(e.P, "%s", msg)
			return badExpr(e.P)
		}
		return &Const{P: e.P, T: t, Float: v}
	}
	v, t, msg := parseIntLit(e.Text)
	if msg != "" {
		c.errorf(e.P, "%s", msg)
		return badExpr(e.P)
	}
	return &Const{P: e.P, T: t, Int: int64(v)}
}

var builtinVarNames = map[string]bool{"threadIdx": true, "blockIdx": true, "blockDim": true, "gridDim": true}

func isBuiltinVarName(name string) bool { return builtinVarNames[name] || name == "warpSize" }

func (c *checker) ident(e *sIdent, wantObj bool) Expr {
	ent := c.lookup(e.Name)
	if ent != nil && c.lambdaOuter(e.Name, ent) {
		return c.capture(e, ent, wantObj)
	}
	if ent == nil {
		switch {
		case e.Name == "warpSize":
			return &Const{P: e.P, T: int32Type, Int: 32}
		case builtinVarNames[e.Name] && !wantObj:
			return c.builtinVarValue(e)
		case builtinVarNames[e.Name]:
			c.errorf(e.P, "'%s' is read-only", e.Name)
		case builtinFuncs[e.Name] != nil:
			c.errorf(e.P, "built-in function '%s' must be called (function pointers are not supported)", e.Name)
		default:
			c.undeclared(e.P, e.Name)
		}
		return badExpr(e.P)
	}
	switch ent.kind {
	case entVar:
		if ent.val != nil && !wantObj {
			k := *ent.val
			k.P = e.P
			return &k
		}
		if ent.ref {
			return &Deref{P: e.P, X: &VarRef{P: e.P, Var: ent.v}}
		}
		return &VarRef{P: e.P, Var: ent.v}
	case entConst:
		k := *ent.val
		k.P = e.P
		return &k
	case entType:
		c.errorf(e.P, "'%s' is a type, not a value", e.Name)
	default:
		c.errorf(e.P, "function '%s' must be called (function pointers are not supported)", e.Name)
	}
	return badExpr(e.P)
}

func (c *checker) undeclared(pos Pos, name string) {
	if why := unsupportedNames[name]; why != "" {
		c.errorf(pos, "%s", why)
		return
	}
	if why := c.hostName(name); why != "" {
		c.errorf(pos, "%s", why)
		return
	}
	c.errorf(pos, "undeclared identifier '%s'%s", name, suggest(name, c.visibleNames(true)))
}

// hostName explains a use in device code of a name that only host code
// declares, or returns "".
func (c *checker) hostName(name string) string {
	if kind := c.impl.hostNames[name]; kind == funcPtrType {
		return funcPtrMsg(name)
	} else if kind != "" {
		return fmt.Sprintf("'%s' is a host %s (it has no __device__, so it was skipped as host code): mark it __device__ to use it in device code", name, kind)
	}
	return ""
}

// unsupportedNames are well-known names outside the subset, with the
// message to give.
var unsupportedNames = map[string]string{
	"assert":       "assert is not supported (use: if (!(cond)) __trap();)",
	"__shfl":       "__shfl without _sync was removed in CUDA 9; use __shfl_sync(mask, ...)",
	"__shfl_up":    "__shfl_up without _sync was removed in CUDA 9; use __shfl_up_sync(mask, ...)",
	"__shfl_down":  "__shfl_down without _sync was removed in CUDA 9; use __shfl_down_sync(mask, ...)",
	"__shfl_xor":   "__shfl_xor without _sync was removed in CUDA 9; use __shfl_xor_sync(mask, ...)",
	"__ballot":     "__ballot without _sync was removed in CUDA 9; use __ballot_sync(mask, pred)",
	"__any":        "__any without _sync was removed in CUDA 9; use __any_sync(mask, pred)",
	"__all":        "__all without _sync was removed in CUDA 9; use __all_sync(mask, pred)",
	"malloc":       "malloc is not supported in device code",
	"free":         "free is not supported in device code",
	"cudaMalloc":   "host API call 'cudaMalloc' is not supported in device code",
	"cudaMemcpy":   "host API call 'cudaMemcpy' is not supported in device code",
	"__half2float": "half precision is not supported",
	"__float2half": "half precision is not supported",
}

func (c *checker) scoped(e *sScoped) Expr {
	ent := c.lookup(e.Scope)
	if ent != nil && ent.kind == entType {
		if items := ent.enumItems; items != nil {
			if k := items[e.Name]; k != nil {
				out := *k
				out.P = e.P
				return &out
			}
			c.errorf(e.P, "no enumerator '%s' in enum '%s'", e.Name, e.Scope)
			return badExpr(e.P)
		}
	}
	c.errorf(e.P, "namespaces are not supported ('%s::%s')", e.Scope, e.Name)
	return badExpr(e.P)
}

// ---- lvalues ----

// isLvalue reports whether x designates an object.
func isLvalue(x Expr) bool {
	switch x := x.(type) {
	case *VarRef, *Index, *Deref:
		return true
	case *Member:
		// f().x is a member of a temporary: not an lvalue.
		_, isCall := x.X.(*Call)
		return !isCall
	}
	return false
}

// isConstLvalue reports whether the object x designates is const.
func (c *checker) isConstLvalue(x Expr) bool {
	switch x := x.(type) {
	case *VarRef:
		return x.Var.Const || x.Var.Space == SpaceConstant
	case *Deref:
		return x.X.Type().Const
	case *Index:
		return x.X.Type().Const
	case *Member:
		return c.impl.fieldConst[x.Field] || c.isConstLvalue(x.X)
	}
	return false
}

func (c *checker) isVolatileLvalue(x Expr) bool {
	switch x := x.(type) {
	case *VarRef:
		if x.Var.T.Kind == Array {
			return x.Var.T.Volatile
		}
		return c.impl.volatiles[x.Var]
	case *Deref:
		return x.X.Type().Volatile
	case *Index:
		return x.X.Type().Volatile
	case *Member:
		return c.isVolatileLvalue(x.X)
	}
	return false
}

// modifiable checks that x may be written; verb is "assign to",
// "increment" or "decrement".
func (c *checker) modifiable(x Expr, pos Pos, verb string) bool {
	if isBad(x) {
		return false
	}
	if b, ok := x.(*BuiltinCall); ok && b.Builtin.IsSpecialRegister() {
		c.errorf(pos, "cannot %s %s", verb, b.Builtin)
		return false
	}
	if !isLvalue(x) {
		c.errorf(pos, "cannot %s this expression: it is not a variable or an object in memory", verb)
		return false
	}
	t := x.Type()
	if t.Kind == Array {
		c.errorf(pos, "cannot %s an array ('%s'); assign its elements", verb, t)
		return false
	}
	if c.isConstLvalue(x) {
		switch x := x.(type) {
		case *VarRef:
			if x.Var.Space == SpaceConstant && !x.Var.Const {
				c.errorf(pos, "cannot %s __constant__ variable '%s' in device code", verb, x.Var.Name)
				break
			}
			c.errorf(pos, "cannot %s '%s': it is const", verb, x.Var.Name)
		case *Deref:
			c.errorf(pos, "cannot %s an object through a pointer to const ('%s')", verb, x.X.Type())
		case *Index:
			c.errorf(pos, "cannot %s an object through a pointer to const ('%s')", verb, x.X.Type())
		case *Member:
			c.errorf(pos, "cannot %s member '%s': it is const", verb, x.Field.Name)
		}
		return false
	}
	return true
}

// markAddrTaken sets AddrTaken on the local or parameter whose address
// (or the address of whose field or element) x is.
func markAddrTaken(x Expr) {
	for {
		switch y := x.(type) {
		case *VarRef:
			if y.Var.Space == SpaceLocal || y.Var.Space == SpaceParam {
				y.Var.AddrTaken = true
			}
			return
		case *Member:
			x = y.X
		case *Index:
			cv, ok := y.X.(*Conv)
			if !ok || cv.X.Type().Kind != Array {
				return
			}
			x = cv.X
		default:
			return
		}
	}
}

// ---- operators ----

func (c *checker) unary(e *sUnary) Expr {
	switch e.Op {
	case tAmp:
		return c.addrOf(e.P, c.lvalue(e.X))
	case tInc, tDec:
		return c.incDec(e.P, e.X, e.Op == tDec, false)
	case tStar:
		x := c.expr(e.X)
		if isBad(x) {
			return x
		}
		t := x.Type()
		if t.Kind != Pointer || t == nullptrType {
			c.errorf(e.P, "indirection requires a pointer operand ('%s' invalid)", t)
			return badExpr(e.P)
		}
		if t.Elem.Kind == Void {
			c.errorf(e.P, "cannot dereference a void pointer ('%s')", t)
			return badExpr(e.P)
		}
		return &Deref{P: e.P, X: x}
	case tNot:
		x := c.toBool(c.expr(e.X), "the operand of '!'")
		if isBad(x) {
			return x
		}
		if k, ok := x.(*Const); ok {
			return foldUnary(LogNot, k, boolType, e.P)
		}
		return &Unary{P: e.P, Op: LogNot, X: x, T: boolType}
	}
	x := c.expr(e.X)
	if isBad(x) {
		return x
	}
	t := x.Type()
	op := Neg
	switch e.Op {
	case tPlus:
		if !t.IsArithmetic() {
			c.errorf(e.P, "invalid argument type '%s' to unary '+'", t)
			return badExpr(e.P)
		}
		x = c.conv(x, promote(t))
		if isLvalue(x) {
			// +x is a value, not the variable.
			x = &Conv{P: e.P, X: x, T: x.Type()}
		}
		return x
	case tTilde:
		op = BitNot
		if !t.IsInteger() {
			c.errorf(e.P, "invalid argument type '%s' to unary '~'", t)
			return badExpr(e.P)
		}
	default:
		if !t.IsArithmetic() {
			c.errorf(e.P, "invalid argument type '%s' to unary '-'", t)
			return badExpr(e.P)
		}
	}
	pt := promote(t)
	x = c.conv(x, pt)
	if k, ok := x.(*Const); ok {
		return foldUnary(op, k, pt, e.P)
	}
	return &Unary{P: e.P, Op: op, X: x, T: pt}
}

func (c *checker) addrOf(pos Pos, x Expr) Expr {
	if isBad(x) {
		return x
	}
	if b, ok := x.(*BuiltinCall); ok {
		c.errorf(pos, "cannot take the address of %s", b.Builtin)
		return badExpr(pos)
	}
	if !isLvalue(x) {
		c.errorf(pos, "cannot take the address of an rvalue of type '%s'", x.Type())
		return badExpr(pos)
	}
	t := x.Type()
	pt := &Type{Kind: Pointer, Elem: t, Const: c.isConstLvalue(x), Volatile: c.isVolatileLvalue(x)}
	markAddrTaken(x)
	return &AddrOf{P: pos, X: x, T: pt}
}

func (c *checker) incDec(pos Pos, e sExpr, dec, postfix bool) Expr {
	x := c.lvalue(e)
	verb := "increment"
	if dec {
		verb = "decrement"
	}
	if !c.modifiable(x, pos, verb) {
		return badExpr(pos)
	}
	t := x.Type()
	switch {
	case t.Kind == Bool:
		c.errorf(pos, "cannot %s a bool", verb)
		return badExpr(pos)
	case t.Kind == Pointer:
		if !c.completePointee(t, pos) {
			return badExpr(pos)
		}
	case !t.IsArithmetic():
		c.errorf(pos, "cannot %s a value of type '%s'", verb, t)
		return badExpr(pos)
	}
	return &IncDec{P: pos, X: x, Dec: dec, Postfix: postfix}
}

// completePointee checks that pointer arithmetic on t is allowed.
func (c *checker) completePointee(t *Type, pos Pos) bool {
	switch {
	case t.Elem.Kind == Void:
		c.errorf(pos, "arithmetic on a pointer to void")
		return false
	case t.Elem.Kind == Struct && t.Elem.Struct.Size == 0:
		c.errorf(pos, "arithmetic on a pointer to an incomplete type '%s'", t.Elem)
		return false
	case t.Elem.Kind == Array && t.Elem.Len < 0:
		c.errorf(pos, "arithmetic on a pointer to an unsized array")
		return false
	}
	return true
}

var binOps = map[tokKind]BinaryOp{
	tPlus: Add, tMinus: Sub, tStar: Mul, tSlash: Div, tPercent: Rem, tAmp: And, tPipe: Or,
	tCaret: Xor, tShl: Shl, tShr: Shr, tEq: Eq, tNe: Ne, tLt: Lt, tLe: Le, tGt: Gt, tGe: Ge,
}

var assignOps = map[tokKind]BinaryOp{
	tAddAssign: Add, tSubAssign: Sub, tMulAssign: Mul, tDivAssign: Div, tRemAssign: Rem,
	tAndAssign: And, tOrAssign: Or, tXorAssign: Xor, tShlAssign: Shl, tShrAssign: Shr,
}

func (c *checker) binary(e *sBinary) Expr {
	switch e.Op {
	case tComma:
		x := stripVoid(c.expr(e.X))
		y := c.expr(e.Y)
		if isBad(x) || isBad(y) {
			return badExpr(e.P)
		}
		return &Comma{P: e.P, X: x, Y: y}
	case tAndAnd, tOrOr:
		op, name := LogAnd, "&&"
		if e.Op == tOrOr {
			op, name = LogOr, "||"
		}
		x := c.toBool(c.expr(e.X), "the operand of '"+name+"'")
		y := c.toBool(c.expr(e.Y), "the operand of '"+name+"'")
		if isBad(x) || isBad(y) {
			return badExpr(e.P)
		}
		xk, xok := x.(*Const)
		yk, yok := y.(*Const)
		if xok && yok {
			v := constTruth(xk) && constTruth(yk)
			if op == LogOr {
				v = constTruth(xk) || constTruth(yk)
			}
			return &Const{P: e.P, T: boolType, Int: b2i(v)}
		}
		return &Logical{P: e.P, Op: op, X: x, Y: y}
	}
	x := c.expr(e.X)
	y := c.expr(e.Y)
	if isBad(x) || isBad(y) {
		return badExpr(e.P)
	}
	return c.binaryOp(e.P, binOps[e.Op], x, y)
}

// binaryOp types x op y for checked operands.
func (c *checker) binaryOp(pos Pos, op BinaryOp, x, y Expr) Expr {
	xt, yt := x.Type(), y.Type()
	invalid := func() Expr {
		c.errorf(pos, "invalid operands to binary '%s' ('%s' and '%s')", op, xt, yt)
		return badExpr(pos)
	}
	if xt.Kind == Pointer || yt.Kind == Pointer {
		return c.pointerOp(pos, op, x, y, invalid)
	}
	if !xt.IsArithmetic() || !yt.IsArithmetic() {
		return invalid()
	}
	switch op {
	case Rem, And, Or, Xor, Shl, Shr:
		if !xt.IsInteger() || !yt.IsInteger() {
			return invalid()
		}
	}
	var t *Type
	if op == Shl || op == Shr {
		t = promote(xt)
		x, y = c.conv(x, t), c.conv(y, promote(yt))
		if yk, ok := y.(*Const); ok {
			if msg := shiftCountError(yk, t); msg != "" {
				c.errorf(y.Pos(), "%s", msg)
				return badExpr(pos)
			}
		}
	} else {
		t = usualArith(xt, yt)
		x, y = c.conv(x, t), c.conv(y, t)
	}
	if (op == Div || op == Rem) && t.IsInteger() {
		if yk, ok := y.(*Const); ok && yk.Int == 0 {
			c.errorf(pos, "division by zero")
			return badExpr(pos)
		}
	}
	xk, xok := x.(*Const)
	yk, yok := y.(*Const)
	if xok && yok {
		k, msg := foldBinary(op, xk, yk, t, pos)
		if msg != "" {
			c.errorf(pos, "%s", msg)
			return badExpr(pos)
		}
		return k
	}
	rt := t
	if op.IsComparison() {
		rt = boolType
	}
	return &Binary{P: pos, Op: op, X: x, Y: y, T: rt}
}

func (c *checker) pointerOp(pos Pos, op BinaryOp, x, y Expr, invalid func() Expr) Expr {
	xt, yt := x.Type(), y.Type()
	switch op {
	case Add:
		if yt.Kind == Pointer && xt.IsInteger() {
			x, y, xt, yt = y, x, yt, xt
		}
		if xt.Kind == Pointer && yt.IsInteger() && xt != nullptrType {
			if !c.completePointee(xt, pos) {
				return badExpr(pos)
			}
			return &PtrAdd{P: pos, Ptr: x, Off: c.conv(y, int64Type)}
		}
	case Sub:
		if xt.Kind == Pointer && yt.IsInteger() && xt != nullptrType {
			if !c.completePointee(xt, pos) {
				return badExpr(pos)
			}
			return &PtrAdd{P: pos, Ptr: x, Off: c.conv(y, int64Type), Sub: true}
		}
		if xt.Kind == Pointer && yt.Kind == Pointer && xt != nullptrType && yt != nullptrType {
			if !Identical(xt.Elem, yt.Elem) {
				c.errorf(pos, "'%s' and '%s' are not pointers to the same type", xt, yt)
				return badExpr(pos)
			}
			if !c.completePointee(xt, pos) {
				return badExpr(pos)
			}
			return &PtrDiff{P: pos, X: x, Y: y}
		}
	case Eq, Ne, Lt, Le, Gt, Ge:
		switch {
		case xt.Kind == Pointer && yt.Kind == Pointer:
			switch {
			case Identical(xt.Elem, yt.Elem):
			case xt == nullptrType:
				x = &Const{P: x.Pos(), T: yt}
			case yt == nullptrType:
				y = &Const{P: y.Pos(), T: xt}
			case xt.Elem.Kind == Void:
				y = &Conv{P: y.Pos(), X: y, T: xt}
			case yt.Elem.Kind == Void:
				x = &Conv{P: x.Pos(), X: x, T: yt}
			default:
				c.errorf(pos, "comparison of distinct pointer types ('%s' and '%s')", xt, yt)
				return badExpr(pos)
			}
		case xt.Kind == Pointer && isNullConst(y):
			y = &Const{P: y.Pos(), T: xt}
		case yt.Kind == Pointer && isNullConst(x):
			x = &Const{P: x.Pos(), T: yt}
		default:
			c.errorf(pos, "comparison between pointer and integer ('%s' and '%s')", xt, yt)
			return badExpr(pos)
		}
		xk, xok := x.(*Const)
		yk, yok := y.(*Const)
		if xok && yok {
			return &Const{P: pos, T: boolType, Int: b2i(compareConst(op, xk, yk))}
		}
		return &Binary{P: pos, Op: op, X: x, Y: y, T: boolType}
	}
	return invalid()
}

func (c *checker) assign(e *sAssign) Expr {
	lhs := c.lvalue(e.X)
	if isBad(lhs) {
		c.expr0(e.Y)
		return badExpr(e.P)
	}
	if !c.modifiable(lhs, e.P, "assign to") {
		c.expr0(e.Y)
		return badExpr(e.P)
	}
	lt := lhs.Type()
	if e.Op == tAssign {
		var rhs Expr
		if l, ok := e.Y.(*sInitList); ok {
			if !lt.IsScalar() {
				c.errorf(l.P, "assigning a brace list to a '%s' is not supported", lt)
				return badExpr(e.P)
			}
			rhs = c.initScalar(l, lt, "in assignment")
		} else {
			rhs = c.convertTo(c.expr(e.Y), lt, "in assignment")
		}
		if isBad(rhs) {
			return badExpr(e.P)
		}
		return &Assign{P: e.P, LHS: lhs, RHS: rhs}
	}
	op := assignOps[e.Op]
	rhs := c.expr(e.Y)
	if isBad(rhs) {
		return badExpr(e.P)
	}
	rt := rhs.Type()
	invalid := func() Expr {
		c.errorf(e.P, "invalid operands to '%s=' ('%s' and '%s')", op, lt, rt)
		return badExpr(e.P)
	}
	if lt.Kind == Pointer {
		if (op != Add && op != Sub) || !rt.IsInteger() {
			return invalid()
		}
		if !c.completePointee(lt, e.P) {
			return badExpr(e.P)
		}
		return &Assign{P: e.P, Op: op, LHS: lhs, RHS: c.conv(rhs, int64Type), OpType: lt}
	}
	if !lt.IsArithmetic() || !rt.IsArithmetic() {
		return invalid()
	}
	var ot *Type
	switch op {
	case Rem, And, Or, Xor, Shl, Shr:
		if !lt.IsInteger() || !rt.IsInteger() {
			return invalid()
		}
	}
	if op == Shl || op == Shr {
		ot = promote(lt)
		rhs = c.conv(rhs, promote(rt))
		if k, ok := rhs.(*Const); ok {
			if msg := shiftCountError(k, ot); msg != "" {
				c.errorf(rhs.Pos(), "%s", msg)
				return badExpr(e.P)
			}
		}
	} else {
		ot = usualArith(lt, rt)
		rhs = c.conv(rhs, ot)
	}
	if (op == Div || op == Rem) && ot.IsInteger() {
		if k, ok := rhs.(*Const); ok && k.Int == 0 {
			c.errorf(e.P, "division by zero")
			return badExpr(e.P)
		}
	}
	return &Assign{P: e.P, Op: op, LHS: lhs, RHS: rhs, OpType: ot}
}

// expr0 checks an expression only for its diagnostics.
func (c *checker) expr0(e sExpr) {
	if _, ok := e.(*sInitList); !ok {
		c.expr(e)
	}
}

func (c *checker) condExpr(e *sCond) Expr {
	cond := c.toBool(c.expr(e.C), "the condition of '?:'")
	x := c.expr(e.X)
	y := c.expr(e.Y)
	if isBad(cond) || isBad(x) || isBad(y) {
		return badExpr(e.P)
	}
	t, x, y := c.commonType(e.P, x, y)
	if t == nil {
		return badExpr(e.P)
	}
	ck, cok := cond.(*Const)
	xk, xok := x.(*Const)
	yk, yok := y.(*Const)
	if cok && xok && yok {
		k := yk
		if constTruth(ck) {
			k = xk
		}
		out := *k
		out.P = e.P
		return &out
	}
	return &CondExpr{P: e.P, Cond: cond, X: x, Y: y, T: t}
}

// commonType finds the type of a conditional expression's arms and
// converts them to it.
func (c *checker) commonType(pos Pos, x, y Expr) (*Type, Expr, Expr) {
	xt, yt := x.Type(), y.Type()
	switch {
	case xt.IsArithmetic() && yt.IsArithmetic():
		if sameRep(xt, yt) {
			return xt, x, y
		}
		t := usualArith(xt, yt)
		return t, c.conv(x, t), c.conv(y, t)
	case xt.Kind == Void && yt.Kind == Void:
		return voidType, x, y
	case xt.Kind == Struct && Identical(xt, yt):
		return xt, x, y
	case xt.Kind == Pointer && yt.Kind == Pointer && xt != nullptrType && yt != nullptrType:
		var t *Type
		switch {
		case Identical(xt.Elem, yt.Elem):
			t = &Type{Kind: Pointer, Elem: xt.Elem, Const: xt.Const || yt.Const, Volatile: xt.Volatile || yt.Volatile}
		case xt.Elem.Kind == Void || yt.Elem.Kind == Void:
			t = &Type{Kind: Pointer, Elem: voidType, Const: xt.Const || yt.Const, Volatile: xt.Volatile || yt.Volatile}
		default:
			c.errorf(pos, "incompatible operand types ('%s' and '%s')", xt, yt)
			return nil, x, y
		}
		if t.Const == xt.Const && t.Volatile == xt.Volatile && Identical(t, xt) {
			t = xt
		}
		return t, c.ptrConv(x, t), c.ptrConv(y, t)
	case xt.Kind == Pointer && isNullConst(y):
		if xt == nullptrType {
			break
		}
		return xt, x, &Const{P: y.Pos(), T: xt}
	case yt.Kind == Pointer && isNullConst(x):
		if yt == nullptrType {
			break
		}
		return yt, &Const{P: x.Pos(), T: yt}, y
	}
	c.errorf(pos, "incompatible operand types ('%s' and '%s')", xt, yt)
	return nil, x, y
}

// ptrConv converts pointer x to pointer type t, adding a Conv only when
// the pointee changes.
func (c *checker) ptrConv(x Expr, t *Type) Expr {
	if Identical(x.Type(), t) {
		return x
	}
	return &Conv{P: x.Pos(), X: x, T: t}
}

func (c *checker) index(e *sIndex) Expr {
	x := c.expr(e.X)
	i := c.expr(e.I)
	if isBad(x) || isBad(i) {
		return badExpr(e.P)
	}
	if x.Type().IsInteger() && i.Type().Kind == Pointer {
		x, i = i, x
	}
	xt, it := x.Type(), i.Type()
	if xt.Kind != Pointer || xt == nullptrType {
		c.errorf(e.P, "subscripted value is not an array or pointer ('%s')", xt)
		return badExpr(e.P)
	}
	if !it.IsInteger() {
		c.errorf(startPos(e.I), "array subscript is not an integer ('%s')", it)
		return badExpr(e.P)
	}
	if xt.Elem.Kind == Void {
		c.errorf(e.P, "subscript of a pointer to void")
		return badExpr(e.P)
	}
	if !c.completePointee(xt, e.P) {
		return badExpr(e.P)
	}
	return &Index{P: e.P, X: x, Index: c.conv(i, int64Type)}
}

var builtinVarField = map[string][3]Builtin{
	"threadIdx": {ThreadIdxX, ThreadIdxY, ThreadIdxZ},
	"blockIdx":  {BlockIdxX, BlockIdxY, BlockIdxZ},
	"blockDim":  {BlockDimX, BlockDimY, BlockDimZ},
	"gridDim":   {GridDimX, GridDimY, GridDimZ},
}

func (c *checker) member(e *sMember) Expr {
	if call, ok := e.X.(*sCall); ok {
		if m, ok := call.Fn.(*sMember); ok {
			if _, isDim := dim3Methods[m.Name]; isDim && !e.Arrow {
				return c.groupDim3(e, call, m)
			}
		}
	}
	if id, ok := e.X.(*sIdent); ok && builtinVarNames[id.Name] && c.lookup(id.Name) == nil {
		if e.Arrow {
			c.errorf(e.P, "'%s' is not a pointer; use '.'", id.Name)
			return badExpr(e.P)
		}
		i := map[string]int{"x": 0, "y": 1, "z": 2}
		n, ok := i[e.Name]
		if !ok {
			c.errorf(e.NamePos, "no member named '%s' in '%s' (use x, y or z)", e.Name, id.Name)
			return badExpr(e.P)
		}
		return &BuiltinCall{P: id.P, Builtin: builtinVarField[id.Name][n], T: uint32Type}
	}
	var base Expr
	if e.Arrow {
		x := c.expr(e.X)
		if isBad(x) {
			return x
		}
		t := x.Type()
		if t.Kind != Pointer || t.Elem.Kind != Struct {
			c.errorf(e.P, "member reference type '%s' is not a pointer to a struct", t)
			return badExpr(e.P)
		}
		base = &Deref{P: e.P, X: x}
	} else {
		x := c.lvalue(e.X)
		if isBad(x) {
			return x
		}
		if x.Type().Kind != Struct {
			if x.Type().Kind == Pointer && x.Type().Elem.Kind == Struct {
				c.errorf(e.P, "member reference type '%s' is a pointer; use '->'", x.Type())
			} else {
				c.errorf(e.P, "member reference base type '%s' is not a struct", x.Type())
			}
			return badExpr(e.P)
		}
		if _, isCall := x.(*Call); !isLvalue(x) && !isCall {
			c.errorf(e.P, "member access on a struct value that is not a variable or a call's result is not supported")
			return badExpr(e.P)
		}
		base = x
	}
	st := base.Type().Struct
	if st.Size == 0 {
		c.errorf(e.P, "member access into incomplete type '%s'", base.Type())
		return badExpr(e.P)
	}
	f := st.FieldByName(e.Name)
	if f == nil {
		var names []string
		for _, f := range st.Fields {
			names = append(names, f.Name)
		}
		c.errorf(e.NamePos, "no member named '%s' in '%s'%s", e.Name, st.Name, suggest(e.Name, names))
		return badExpr(e.P)
	}
	return &Member{P: e.P, X: base, Field: f}
}

func (c *checker) cast(e *sCast) Expr {
	t, _, _ := c.typeName(e.T)
	x := c.expr(e.X)
	if t == nil || isBad(x) {
		return badExpr(e.P)
	}
	switch t.Kind {
	case Array:
		c.errorf(e.P, "cannot cast to an array type '%s'", t)
		return badExpr(e.P)
	case Invalid:
		c.errorf(e.P, "cannot cast to 'auto'")
		return badExpr(e.P)
	}
	return c.explicitConv(x, t, e.Kind, e.P)
}

func (c *checker) sizeof(e *sSizeof) Expr {
	var t *Type
	if e.T != nil {
		t, _, _ = c.typeName(e.T)
	} else {
		x := c.check(e.X, true)
		if isBad(x) {
			return x
		}
		t = x.Type()
	}
	if t == nil {
		return badExpr(e.P)
	}
	op := "sizeof"
	if e.Align {
		op = "alignof"
	}
	switch {
	case t.Kind == Void, t.Kind == Invalid, t.Kind == Array && t.Len < 0, t.Kind == Struct && t.Struct.Size == 0:
		c.errorf(e.P, "invalid application of '%s' to an incomplete type '%s'", op, t)
		return badExpr(e.P)
	case t == nullptrType:
		return &Const{P: e.P, T: sizeType, Int: 8}
	}
	if e.Align {
		return &Const{P: e.P, T: sizeType, Int: t.Align()}
	}
	return &Const{P: e.P, T: sizeType, Int: t.Size()}
}

// ---- calls ----

func (c *checker) call(e *sCall) Expr {
	if m, ok := e.Fn.(*sMember); ok {
		return c.methodCall(e, m)
	}
	id, ok := e.Fn.(*sIdent)
	if ok && strings.HasPrefix(id.Name, cgPrefix) && c.lookup(id.Name) == nil {
		return c.cgCall(e, strings.TrimPrefix(id.Name, cgPrefix))
	}
	if ok && strings.HasPrefix(id.Name, cudaPrefix) && c.lookup(id.Name) == nil {
		return c.cudaCall(e, strings.TrimPrefix(id.Name, cudaPrefix))
	}
	if !ok {
		if s, ok := e.Fn.(*sScoped); ok {
			c.errorf(s.P, "namespaces are not supported ('%s::%s')", s.Scope, s.Name)
		} else if !isBad(c.expr(e.Fn)) {
			c.errorf(e.P, "called object is not a function (function pointers are not supported)")
		}
		c.args(e.Args)
		return badExpr(e.P)
	}
	if ent := c.lookup(id.Name); ent != nil {
		switch ent.kind {
		case entFunc:
			if e.HasT {
				c.errorf(e.P, "'%s' is not a template", id.Name)
				return badExpr(e.P)
			}
			return c.userCall(e, ent.fn.fn, ent.fn)
		case entTmpl:
			return c.templateCall(e, ent.tm)
		case entType:
			if id.Name == "dim3" && ent.t == vectorTypes["dim3"] && !e.HasT {
				return c.dim3Call(e)
			}
			c.errorf(e.P, "'%s' is a type; a functional cast takes one argument", id.Name)
		default:
			x := c.ident(id, false)
			if !isBad(x) {
				c.errorf(e.P, "called object type '%s' is not a function", x.Type())
			}
		}
		c.args(e.Args)
		return badExpr(e.P)
	}
	if intrinsicSigs[id.Name] != nil {
		return c.intrinsicCall(e, id.Name)
	}
	if t := vectorMake(id.Name); t != nil && !e.HasT {
		return c.makeVectorCall(e, id.Name, t)
	}
	if bf := builtinFuncs[id.Name]; bf != nil {
		if e.HasT {
			c.errorf(e.P, "'%s' is not a template", id.Name)
			return badExpr(e.P)
		}
		return c.builtinCall(e, id.Name, bf)
	}
	c.undeclared(e.P, id.Name)
	c.args(e.Args)
	return badExpr(e.P)
}

// args checks call arguments as values.
func (c *checker) args(list []sExpr) ([]Expr, bool) {
	out := make([]Expr, len(list))
	ok := true
	for i, a := range list {
		out[i] = c.expr(a)
		if isBad(out[i]) {
			ok = false
		}
	}
	return out, ok
}

// callArgs checks the arguments of a call of a function with the given
// parameter types: as args does, but a brace list initializes a value of
// its parameter's type (f({1.f, 2.f}) for a float2 parameter).
func (c *checker) callArgs(list []sExpr, params []*Type) ([]Expr, bool) {
	out := make([]Expr, len(list))
	ok := true
	for i, a := range list {
		if l, isList := a.(*sInitList); isList && i < len(params) {
			switch t := params[i]; {
			case t.Kind == Struct:
				out[i] = c.braceValue(l, t)
			case t.IsScalar():
				out[i] = c.initScalar(l, t, fmt.Sprintf("in argument %d", i+1))
			default:
				c.errorf(l.P, "not supported: a brace list for a parameter of type '%s'", t)
				out[i] = badExpr(l.P)
			}
		} else {
			out[i] = c.expr(a)
		}
		if isBad(out[i]) {
			ok = false
		}
	}
	return out, ok
}

// braceValue checks a brace list that makes a value of struct type t
// (an argument f({a, b})): a call of a function the program makes once
// per type and leaf count, whose parameters are the leaves and whose body
// initializes a local from them and returns it.
func (c *checker) braceValue(l *sInitList, t *Type) Expr {
	leaves := c.aggregateInit(l, t)
	if leaves == nil {
		return badExpr(l.P)
	}
	key := fmt.Sprintf("%s{%d}#%p", t, len(leaves), t.Struct)
	fn := c.impl.cgFuncs[key]
	if fn == nil {
		fn = &Func{Name: fmt.Sprintf("%s{...}", t), P: l.P, Result: t}
		r := &Var{Name: "r", T: t, P: l.P}
		decl := &DeclStmt{P: l.P, Var: r}
		for i, x := range leaves {
			v := &Var{Name: fmt.Sprintf("leaf%d", i), T: x.Type(), P: l.P, Space: SpaceParam}
			fn.Params = append(fn.Params, v)
			decl.InitList = append(decl.InitList, &VarRef{P: l.P, Var: v})
		}
		fn.Body = &Block{P: l.P, Stmts: []Stmt{decl, &Return{P: l.P, X: &VarRef{P: l.P, Var: r}}}}
		if c.impl.cgFuncs == nil {
			c.impl.cgFuncs = map[string]*Func{}
		}
		c.impl.cgFuncs[key] = fn
	}
	return &Call{P: l.P, Func: fn, Args: leaves}
}

func (c *checker) userCall(e *sCall, fn *Func, fi *funcInfo) Expr {
	if fn.Kernel {
		c.errorf(e.P, "cannot call __global__ function '%s' from device code (dynamic parallelism is not supported)", fn.Name)
		return badExpr(e.P)
	}
	params, defaults := fi.params, fi.defaults
	args, ok := c.callArgs(e.Args, params)
	required := len(params)
	for required > 0 && defaults != nil && defaults[required-1] != nil {
		required--
	}
	switch {
	case len(args) > len(params):
		c.errorf(e.P, "too many arguments to '%s' (want %d, have %d)", fn.Name, len(params), len(args))
		return badExpr(e.P)
	case len(args) < required:
		want := fmt.Sprint(len(params))
		if required < len(params) {
			want = fmt.Sprint("at least ", required)
		}
		c.errorf(e.P, "too few arguments to '%s' (want %s, have %d)", fn.Name, want, len(args))
		return badExpr(e.P)
	}
	if !ok {
		return badExpr(e.P)
	}
	for i := range args {
		if i < len(fn.refs) && fn.refs[i] {
			args[i] = c.bindRef(e.Args[i], params[i], fmt.Sprintf("argument %d of '%s'", i+1, fn.Name))
		} else {
			args[i] = c.convertTo(args[i], params[i], fmt.Sprintf("in argument %d of '%s'", i+1, fn.Name))
		}
		if isBad(args[i]) {
			return badExpr(e.P)
		}
	}
	for i := len(args); i < len(params); i++ {
		k := *defaults[i]
		k.P = e.RPos
		args = append(args, &k)
	}
	if fi.def == nil {
		if c.late {
			c.errorf(e.P, "function '%s' is declared but never defined", fn.Name)
			return badExpr(e.P)
		}
		fi.uses = append(fi.uses, e.P)
	}
	c.calls = append(c.calls, callSite{callee: fn, pos: e.P})
	return &Call{P: e.P, Func: fn, Args: args}
}

// bindRef binds a non-const reference of type ref.Elem (ref is the
// pointer type that carries it) to the lvalue e: it returns e's address.
func (c *checker) bindRef(e sExpr, ref *Type, what string) Expr {
	x := c.lvalue(e)
	if isBad(x) {
		return x
	}
	if !isLvalue(x) {
		c.errorf(x.Pos(), "cannot bind the reference of %s ('%s&') to a value that is not a variable or an object in memory", what, ref.Elem)
		return badExpr(x.Pos())
	}
	if !Identical(x.Type(), ref.Elem) {
		c.errorf(x.Pos(), "cannot bind the reference of %s ('%s&') to an object of type '%s'", what, ref.Elem, x.Type())
		return badExpr(x.Pos())
	}
	if !c.modifiable(x, x.Pos(), "bind a non-const reference to") {
		return badExpr(x.Pos())
	}
	return c.addrOf(x.Pos(), x)
}

// stripVoid removes a (void) cast from an expression evaluated only for
// its effects.
func stripVoid(x Expr) Expr {
	if cv, ok := x.(*Conv); ok && cv.Explicit && cv.T.Kind == Void {
		return cv.X
	}
	return x
}
