package cudac

import "fmt"

// This file checks lambdas in device code, as simple kernels write them:
//
//	auto add = [](float a, float b) { return a + b; };
//	auto scaled = [=](float x) { return x * scale; };
//	auto bump = [&](int k) { count += k; };
//
// A lambda is a __device__ function the front end makes: its parameters
// are the lambda's, its result the explicit "-> R" or the type of its
// first return statement (void without one). A variable captured by
// reference is the enclosing function's own variable, named in the body
// (a backend inlines the call where the variable lives); one captured by
// value is a copy made where the lambda is written (const unless the
// lambda is mutable). A lambda must be stored in an "auto" local and
// called in the function that writes it, or called where it is written;
// passing one to another function, nesting lambdas and capturing arrays by
// value are refused by name.

// lambdaCtx is the lambda whose body is being checked.
type lambdaCtx struct {
	l *sLambda
	// base is the scope the lambda is written in: names found there or
	// further out (but not at file scope) are the enclosing function's.
	base *scope
	// copies are the by-value captures, and init their initialization
	// where the lambda is written.
	copies map[*entity]*Var
	init   []Stmt
	// deduce is set while the result type is still to be deduced.
	deduce bool
}

// makeLambda checks l where it is written: it returns the function and the
// statements that make its by-value captures.
func (c *checker) makeLambda(l *sLambda) (*Func, *funcInfo, []Stmt) {
	if c.lam != nil {
		c.errorf(l.P, "a lambda inside a lambda is not supported")
		return nil, nil, nil
	}
	if c.fn == nil {
		c.errorf(l.P, "lambdas are supported only inside functions")
		return nil, nil, nil
	}
	fn := &Func{Name: fmt.Sprintf("lambda@%d:%d", l.P.Line, l.P.Col), P: l.P, Result: voidType}
	lc := &lambdaCtx{l: l, base: c.scope, copies: map[*entity]*Var{}}
	if l.Ret != nil {
		t, _, _ := c.typeName(l.Ret)
		if t == nil {
			return nil, nil, nil
		}
		fn.Result = t
	} else {
		lc.deduce = true
	}
	for _, cp := range l.Caps {
		ent := c.lookup(cp.Name)
		if ent == nil {
			c.undeclared(cp.P, cp.Name)
			return nil, nil, nil
		}
		if ent.kind != entVar || ent.v == nil || !isLocalVar(ent.v) {
			c.errorf(cp.P, "'%s' is not a local variable and cannot be captured", cp.Name)
			return nil, nil, nil
		}
	}
	fi := &funcInfo{fn: fn}
	savedFn, savedName, savedLoops, savedBreaks, savedCalls := c.fn, c.fname, c.loops, c.breaks, c.calls
	c.fn, c.fname, c.loops, c.breaks, c.calls, c.lam = fn, fn.Name, 0, 0, nil, lc
	c.openScope()
	ok := true
	for i, prm := range l.Params {
		t, cst, vol := c.paramDecl(prm)
		if t == nil {
			ok = false
			continue
		}
		name := ""
		if prm.D != nil {
			name = prm.D.Name
		}
		if prm.Default != nil {
			c.errorf(startPos(prm.Default), "default arguments of lambdas are not supported")
			ok = false
		}
		v := &Var{Name: name, T: t, P: prm.P, Space: SpaceParam, Const: cst}
		if vol {
			c.impl.volatiles[v] = true
		}
		fn.Params = append(fn.Params, v)
		fi.params = append(fi.params, t)
		ref := isMutRef(prm)
		for len(fn.refs) < i {
			fn.refs = append(fn.refs, false)
		}
		fn.refs = append(fn.refs, ref)
		if name != "" {
			c.declare(&entity{kind: entVar, name: name, pos: v.P, v: v, ref: ref})
		}
	}
	if ok {
		fn.Body = &Block{P: l.Body.P, Stmts: c.stmts(l.Body.Stmts)}
	}
	c.closeScope()
	if lc.deduce {
		fn.Result = voidType
	}
	c.impl.calls[fn] = c.calls
	c.fn, c.fname, c.loops, c.breaks, c.calls, c.lam = savedFn, savedName, savedLoops, savedBreaks, savedCalls, nil
	if !ok || fn.Body == nil {
		return nil, nil, nil
	}
	return fn, fi, lc.init
}

// isLocalVar reports whether v is a local variable or parameter (not
// file-scope or shared memory, which a lambda names without capturing).
func isLocalVar(v *Var) bool {
	switch v.Space {
	case SpaceShared, SpaceGlobal, SpaceConstant:
		return false
	}
	return true
}

// lambdaOuter reports whether name, found by lookup as ent, is the
// enclosing function's local variable seen from a lambda's body.
func (c *checker) lambdaOuter(name string, ent *entity) bool {
	if c.lam == nil || ent.kind != entVar || ent.v == nil || !isLocalVar(ent.v) || ent.val != nil {
		return false
	}
	for s := c.scope; s != nil && s != c.lam.base; s = s.parent {
		if s.names[name] == ent {
			return false
		}
	}
	return true
}

// capture is the use e of the enclosing function's variable ent in a
// lambda's body.
func (c *checker) capture(e *sIdent, ent *entity, wantObj bool) Expr {
	lc := c.lam
	byRef, found := false, false
	for _, cp := range lc.l.Caps {
		if cp.Name == e.Name {
			byRef, found = cp.Ref, true
		}
	}
	if !found {
		switch lc.l.Default {
		case '&':
			byRef = true
		case '=':
		default:
			c.errorf(e.P, "variable '%s' is not captured by the lambda (name it in the captures, or capture with [=] or [&])", e.Name)
			return badExpr(e.P)
		}
	}
	outer := func() Expr {
		if ent.ref {
			return &Deref{P: e.P, X: &VarRef{P: e.P, Var: ent.v}}
		}
		return &VarRef{P: e.P, Var: ent.v}
	}
	if byRef {
		return outer()
	}
	cp := lc.copies[ent]
	if cp == nil {
		src := outer()
		t := src.Type()
		if t.Kind == Array {
			c.errorf(e.P, "capturing the array '%s' by value is not supported; capture it by reference", e.Name)
			return badExpr(e.P)
		}
		cp = &Var{Name: e.Name, T: t, P: e.P, Const: !lc.l.Mutable}
		lc.copies[ent] = cp
		lc.init = append(lc.init, &DeclStmt{P: lc.l.P, Var: cp, Init: src})
	}
	return &VarRef{P: e.P, Var: cp}
}

// lambdaReturn checks a return statement of a lambda whose result type is
// still to be deduced: the first return sets it.
func (c *checker) lambdaReturn(s *sReturn) []Stmt {
	lc := c.lam
	lc.deduce = false
	if s.X == nil {
		c.fn.Result = voidType
		return []Stmt{&Return{P: s.P}}
	}
	x := c.expr0v(s.X)
	if x == nil || isBad(x) {
		c.fn.Result = invalidType
		return nil
	}
	t := x.Type()
	if t.IsScalar() && t.Kind != Pointer {
		t = ScalarType(t.Kind)
	}
	c.fn.Result = t
	if t.Kind == Void {
		return []Stmt{&ExprStmt{P: s.P, X: x}, &Return{P: s.P}}
	}
	return []Stmt{&Return{P: s.P, X: x}}
}

// lambdaLocal checks "auto name = [..](..) {..};".
func (c *checker) lambdaLocal(base *Type, dc *declarator, l *sLambda) []Stmt {
	if base != invalidType || len(dc.Ptrs) > 0 || len(dc.Dims) > 0 || dc.Ref {
		c.errorf(l.P, "a lambda must be stored in an 'auto' variable ('auto %s = [...](...) {...};')", dc.Name)
		return nil
	}
	fn, fi, init := c.makeLambda(l)
	if fn == nil {
		c.poison(dc.Name, dc.P)
		return nil
	}
	c.declare(&entity{kind: entFunc, name: dc.Name, pos: dc.P, fn: fi})
	return init
}
