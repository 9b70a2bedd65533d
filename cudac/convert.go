package cudac

// promote applies the integer promotions: bool, char and short become int.
func promote(t *Type) *Type {
	switch t.Kind {
	case Bool, Int8, Uint8, Int16, Uint16:
		return int32Type
	}
	return t
}

// usualArith returns the common type of the usual arithmetic conversions
// of a and b (both arithmetic), as C++ on LP64.
func usualArith(a, b *Type) *Type {
	switch {
	case a.Kind == Float64:
		return a
	case b.Kind == Float64:
		return b
	case a.Kind == Float32:
		return a
	case b.Kind == Float32:
		return b
	}
	a, b = promote(a), promote(b)
	if a.Kind == b.Kind {
		return a
	}
	if a.IsSigned() == b.IsSigned() {
		if a.Kind > b.Kind {
			return a
		}
		return b
	}
	u, s := a, b
	if a.IsSigned() {
		u, s = b, a
	}
	if u.Size() >= s.Size() {
		return u
	}
	if s.Size() > u.Size() {
		return s
	}
	return ScalarType(s.Kind + 1)
}

// sameRep reports whether converting from a to b is a no-op that needs no
// Conv node: the same scalar kind, identical pointers, or the same struct.
func sameRep(a, b *Type) bool {
	if a.Kind != b.Kind || a.Group != b.Group {
		return false
	}
	switch a.Kind {
	case Pointer, Struct, Array:
		return Identical(a, b)
	}
	return true
}

// conv converts x to t, folding constants. It inserts no node when the
// conversion changes nothing.
func (c *checker) conv(x Expr, t *Type) Expr {
	if isBad(x) || t == nil {
		return x
	}
	if sameRep(x.Type(), t) {
		return x
	}
	if k, ok := x.(*Const); ok && t.IsScalar() && k.T.IsScalar() {
		return convertConst(k, t)
	}
	return &Conv{P: x.Pos(), X: x, T: t}
}

// toBool converts a condition to bool.
func (c *checker) toBool(x Expr, what string) Expr {
	if isBad(x) {
		return x
	}
	t := x.Type()
	if !t.IsScalar() {
		c.errorf(x.Pos(), "%s must have a scalar type, not '%s'", what, t)
		return badExpr(x.Pos())
	}
	return c.conv(x, boolType)
}

// isNullConst reports whether x is a null pointer constant: nullptr, NULL
// or an integer constant zero.
func isNullConst(x Expr) bool {
	k, ok := x.(*Const)
	if !ok {
		return false
	}
	return k.T == nullptrType || k.T.IsInteger() && k.T.Kind != Bool && k.Int == 0
}

// convertTo applies an implicit conversion (initialization, assignment,
// argument passing, return) of x to t. ctx says where, for messages:
// "in assignment".
func (c *checker) convertTo(x Expr, t *Type, ctx string) Expr {
	if isBad(x) || t == nil || t.Kind == Invalid {
		return x
	}
	xt := x.Type()
	fail := func(extra string) Expr {
		c.errorf(x.Pos(), "cannot convert '%s' to '%s' %s%s", xt, t, ctx, extra)
		return badExpr(x.Pos())
	}
	if xt.Kind == Struct && t.Kind != Struct && c.impl.convOps[xt.Struct] != nil {
		if call := c.convOpCall(x, t); call != nil {
			return call
		}
	}
	if _, ok := x.(*tempExpr); ok {
		c.errorf(x.Pos(), "a temporary '%s' is supported only converted by one of its conversion operators (to '%s' here)", xt, t)
		return badExpr(x.Pos())
	}
	switch {
	case t.Kind == Void:
		return fail("")
	case t.AtomicRef && !xt.AtomicRef:
		return c.bindAtomicRef(x, t)
	case t.AtomicRef || xt.AtomicRef:
		if !Identical(xt, t) {
			return fail("")
		}
		return x
	case t.Group != NotGroup || xt.Group != NotGroup:
		if !groupConvertible(xt, t) {
			return fail("")
		}
		if Identical(xt, t) {
			return x
		}
		return &Conv{P: x.Pos(), X: x, T: t}
	case t.IsArithmetic():
		if xt.IsArithmetic() {
			return c.conv(x, t)
		}
		if t.Kind == Bool && xt.Kind == Pointer {
			return c.conv(x, t)
		}
		return fail("")
	case t.Kind == Pointer:
		if isNullConst(x) {
			return &Const{P: x.Pos(), T: t}
		}
		if xt.Kind != Pointer {
			return fail("")
		}
		if !Identical(xt.Elem, t.Elem) && t.Elem.Kind != Void {
			return fail("")
		}
		if xt.Const && !t.Const {
			return fail(" (it would drop the const qualifier)")
		}
		if xt.Volatile && !t.Volatile {
			return fail(" (it would drop the volatile qualifier)")
		}
		if Identical(xt, t) {
			return x
		}
		return &Conv{P: x.Pos(), X: x, T: t}
	case t.Kind == Struct:
		if Identical(xt, t) {
			return x
		}
		if isDim3Like(t) && (isDim3Like(xt) || t.Struct.Name == "dim3" && xt.IsArithmetic()) {
			return c.dim3Convert(x, t)
		}
		return fail("")
	}
	return fail("")
}

// explicitConv checks a cast (C style, functional, static_cast,
// reinterpret_cast or const_cast) of x to t.
func (c *checker) explicitConv(x Expr, t *Type, kind castKind, pos Pos) Expr {
	if isBad(x) {
		return x
	}
	xt := x.Type()
	name := [...]string{castC: "cast", castFunctional: "cast", castStatic: "static_cast",
		castReinterpret: "reinterpret_cast", castConst: "const_cast"}[kind]
	fail := func(why string) Expr {
		c.errorf(pos, "%s from '%s' to '%s' is not allowed%s", name, xt, t, why)
		return badExpr(pos)
	}
	mk := func() Expr {
		if k, ok := x.(*Const); ok && t.IsScalar() && (k.T.IsScalar()) {
			k = convertConst(k, t)
			k.P = pos
			return k
		}
		return &Conv{P: pos, X: x, T: t, Explicit: true}
	}
	if t.AtomicRef && kind == castFunctional && !xt.AtomicRef {
		return c.bindAtomicRef(x, t)
	}
	if kind != castConst && kind != castReinterpret && isDim3Like(t) && !Identical(xt, t) &&
		(isDim3Like(xt) || t.Struct.Name == "dim3" && xt.IsArithmetic()) {
		return c.dim3Convert(x, t)
	}
	switch kind {
	case castConst:
		if xt.Kind == Pointer && t.Kind == Pointer && Identical(xt.Elem, t.Elem) {
			return mk()
		}
		return fail(" (const_cast may only change qualifiers)")
	case castReinterpret:
		switch {
		case xt.Kind == Pointer && t.Kind == Pointer:
			if xt.Const && !t.Const {
				return fail(" (it casts away const)")
			}
			return mk()
		case xt.Kind == Pointer && t.IsInteger() && t.Kind != Bool:
			if t.Size() < 8 {
				return fail(" (it loses information)")
			}
			return mk()
		case xt.IsInteger() && xt.Kind != Bool && t.Kind == Pointer:
			return mk()
		case xt.IsInteger() && t.IsInteger() && sameRep(xt, t):
			return mk()
		}
		return fail("")
	}
	switch {
	case t.Kind == Void:
		return &Conv{P: pos, X: x, T: voidType, Explicit: true}
	case t.IsArithmetic() && xt.IsArithmetic():
		return mk()
	case t.Kind == Bool && xt.Kind == Pointer:
		return mk()
	case t.Kind == Pointer && isNullConst(x):
		k := &Const{P: pos, T: t}
		return k
	case t.Kind == Pointer && xt.Kind == Pointer:
		if kind == castStatic {
			if !Identical(xt.Elem, t.Elem) && xt.Elem.Kind != Void && t.Elem.Kind != Void {
				return fail(" (use reinterpret_cast)")
			}
			if xt.Const && !t.Const {
				return fail(" (it casts away const)")
			}
		}
		return mk()
	case t.Kind == Pointer && xt.IsInteger() && xt.Kind != Bool:
		if kind == castStatic {
			return fail(" (use reinterpret_cast)")
		}
		return mk()
	case t.IsInteger() && t.Kind != Bool && xt.Kind == Pointer:
		if kind == castStatic {
			return fail(" (use reinterpret_cast)")
		}
		if t.Size() < 8 {
			return fail(" (it loses information)")
		}
		return mk()
	case t.Kind == Struct && Identical(xt, t):
		return x
	}
	return fail("")
}

// decay converts an array to a pointer to its first element and rejects
// other non-values.
func (c *checker) decay(x Expr) Expr {
	if isBad(x) {
		return x
	}
	t := x.Type()
	if t.Kind == Array {
		pt := &Type{Kind: Pointer, Elem: t.Elem, Const: t.Const || c.isConstLvalue(x), Volatile: t.Volatile}
		return &Conv{P: x.Pos(), X: x, T: pt}
	}
	return x
}
