package ir

import "github.com/warplab/warplab/cudac"

// uniformity is a conservative divergence analysis of a kernel and the
// functions it calls: which variables hold the same value in every active
// lane. A variable is uniform when every assignment to it stores a uniform
// value under control flow that is uniform within the variable's scope.
// The compiler model uses it to decide which atomics nvcc would aggregate
// per warp: only those whose address it can prove uniform.
type uniformity struct {
	varying  map[*cudac.Var]bool
	assigned map[*cudac.Var]bool // assigned after its declaration
	changed  bool

	// The walk's state: the control constructs enclosing the current
	// statement, each divergent or not, and each variable's depth.
	divergent []bool
	depth     map[*cudac.Var]int
	seen      map[*cudac.Func]bool
}

func analyzeUniformity(fn *cudac.Func) *uniformity {
	u := &uniformity{varying: map[*cudac.Var]bool{}, assigned: map[*cudac.Var]bool{}}
	for {
		u.changed = false
		u.divergent = u.divergent[:0]
		u.depth = map[*cudac.Var]int{}
		u.seen = map[*cudac.Func]bool{}
		for _, p := range fn.Params {
			u.depth[p] = 0
		}
		u.stmt(fn.Body)
		if !u.changed {
			return u
		}
	}
}

func (u *uniformity) markVarying(v *cudac.Var) {
	if !u.varying[v] {
		u.varying[v] = true
		u.changed = true
	}
}

// divergentSince reports whether any construct entered after depth d is divergent.
func (u *uniformity) divergentSince(d int) bool {
	for _, dv := range u.divergent[min(d, len(u.divergent)):] {
		if dv {
			return true
		}
	}
	return false
}

func (u *uniformity) assign(v *cudac.Var, value bool, isDecl bool) {
	if !isDecl {
		if !u.assigned[v] {
			u.assigned[v] = true
			u.changed = true
		}
	}
	d, ok := u.depth[v]
	if !ok {
		d = 0
	}
	if !value || u.divergentSince(d) {
		u.markVarying(v)
	}
}

func (u *uniformity) enter(div bool) { u.divergent = append(u.divergent, div) }
func (u *uniformity) leave()         { u.divergent = u.divergent[:len(u.divergent)-1] }

func (u *uniformity) stmt(s cudac.Stmt) {
	switch s := s.(type) {
	case *cudac.Block:
		for _, x := range s.Stmts {
			u.stmt(x)
		}
	case *cudac.DeclStmt:
		u.depth[s.Var] = len(u.divergent)
		if s.Var.Space == cudac.SpaceShared {
			return
		}
		if s.Init != nil {
			u.assign(s.Var, u.expr(s.Init), true)
		}
		for _, e := range s.InitList {
			u.expr(e)
		}
		if s.Var.T.Kind == cudac.Array || s.Var.T.Kind == cudac.Struct || s.Var.AddrTaken {
			u.markVarying(s.Var)
		}
	case *cudac.ExprStmt:
		u.expr(s.X)
	case *cudac.If:
		u.enter(!u.expr(s.Cond))
		u.stmt(s.Then)
		if s.Else != nil {
			u.stmt(s.Else)
		}
		u.leave()
	case *cudac.For:
		if s.Init != nil {
			u.stmt(s.Init)
		}
		u.loop(s.Cond, s.Body, s.Post)
	case *cudac.While:
		u.loop(s.Cond, s.Body, nil)
	case *cudac.DoWhile:
		u.loop(s.Cond, s.Body, nil)
	case *cudac.Switch:
		u.enter(!u.expr(s.Tag))
		for _, c := range s.Cases {
			for _, x := range c.Body {
				u.stmt(x)
			}
		}
		u.leave()
	case *cudac.Return:
		if s.X != nil {
			u.expr(s.X)
		}
	}
}

func (u *uniformity) loop(cond cudac.Expr, body cudac.Stmt, post cudac.Expr) {
	div := cond != nil && !u.expr(cond)
	if !div && exitsDivergently(body) {
		div = true
	}
	u.enter(div)
	u.stmt(body)
	if post != nil {
		u.expr(post)
	}
	if cond != nil {
		u.expr(cond)
	}
	u.leave()
}

// exitsDivergently reports whether a loop body holds a break, continue or
// return inside a conditional: lanes may then leave at different times. It
// is conservative: any conditional exit counts.
func exitsDivergently(s cudac.Stmt) bool {
	var walk func(s cudac.Stmt, cond bool) bool
	walk = func(s cudac.Stmt, cond bool) bool {
		switch s := s.(type) {
		case *cudac.Block:
			for _, x := range s.Stmts {
				if walk(x, cond) {
					return true
				}
			}
		case *cudac.If:
			return walk(s.Then, true) || (s.Else != nil && walk(s.Else, true))
		case *cudac.Switch:
			for _, c := range s.Cases {
				for _, x := range c.Body {
					if _, ok := x.(*cudac.Break); ok {
						continue // leaves the switch, not the loop
					}
					if walk(x, true) {
						return true
					}
				}
			}
		case *cudac.For:
			return walk(s.Body, true)
		case *cudac.While:
			return walk(s.Body, true)
		case *cudac.DoWhile:
			return walk(s.Body, true)
		case *cudac.Break, *cudac.Continue, *cudac.Return:
			return cond
		}
		return false
	}
	return walk(s, false)
}

// expr reports whether e is uniform, recording the assignments inside it.
func (u *uniformity) expr(e cudac.Expr) bool {
	switch e := e.(type) {
	case nil:
		return true
	case *cudac.Const, *cudac.StringLit:
		return true
	case *cudac.VarRef:
		switch e.Var.Space {
		case cudac.SpaceShared, cudac.SpaceGlobal, cudac.SpaceConstant:
			return false // memory that others may change
		}
		return !u.varying[e.Var]
	case *cudac.Unary:
		return u.expr(e.X)
	case *cudac.Binary:
		x, y := u.expr(e.X), u.expr(e.Y)
		return x && y
	case *cudac.PtrAdd:
		x, y := u.expr(e.Ptr), u.expr(e.Off)
		return x && y
	case *cudac.PtrDiff:
		x, y := u.expr(e.X), u.expr(e.Y)
		return x && y
	case *cudac.Logical:
		x := u.expr(e.X)
		u.enter(!x)
		y := u.expr(e.Y)
		u.leave()
		return x && y
	case *cudac.CondExpr:
		c := u.expr(e.Cond)
		u.enter(!c)
		x, y := u.expr(e.X), u.expr(e.Y)
		u.leave()
		return c && x && y
	case *cudac.Assign:
		r := u.expr(e.RHS)
		l := u.lvalue(e.LHS)
		if v := assignedVar(e.LHS); v != nil {
			u.assign(v, r && (e.Op == 0 || !u.varying[v]), false)
		}
		return r && l
	case *cudac.IncDec:
		u.lvalue(e.X)
		if v := assignedVar(e.X); v != nil {
			u.assign(v, !u.varying[v], false)
		}
		return false
	case *cudac.Conv:
		return u.expr(e.X)
	case *cudac.Index:
		x, i := u.expr(e.X), u.expr(e.Index)
		return x && i && false // a load: another lane's store may differ
	case *cudac.Member:
		u.expr(e.X)
		return false
	case *cudac.Deref:
		u.expr(e.X)
		return false
	case *cudac.AddrOf:
		return u.lvalue(e.X)
	case *cudac.Call:
		for _, a := range e.Args {
			u.expr(a)
		}
		u.call(e)
		return false
	case *cudac.BuiltinCall:
		for _, a := range e.Args {
			u.expr(a)
		}
		switch e.Builtin {
		case cudac.BlockIdxX, cudac.BlockIdxY, cudac.BlockIdxZ, cudac.BlockDimX, cudac.BlockDimY,
			cudac.BlockDimZ, cudac.GridDimX, cudac.GridDimY, cudac.GridDimZ:
			return true
		}
		return false
	case *cudac.Comma:
		u.expr(e.X)
		return u.expr(e.Y)
	}
	return false
}

// lvalue reports whether an lvalue's address is uniform.
func (u *uniformity) lvalue(e cudac.Expr) bool {
	switch e := e.(type) {
	case *cudac.VarRef:
		return e.Var.Space != cudac.SpaceLocal || !e.Var.AddrTaken && e.Var.T.Kind != cudac.Array
	case *cudac.Index:
		x, i := u.expr(e.X), u.expr(e.Index)
		return x && i
	case *cudac.Member:
		return u.lvalue(e.X)
	case *cudac.Deref:
		return u.expr(e.X)
	}
	u.expr(e)
	return false
}

// call analyses a callee's body once per walk; its parameters are varying
// (a conservative choice: the analysis is not context-sensitive).
func (u *uniformity) call(e *cudac.Call) {
	fn := e.Func
	if u.seen[fn] {
		return
	}
	u.seen[fn] = true
	for _, p := range fn.Params {
		u.depth[p] = len(u.divergent)
		u.markVarying(p)
	}
	u.stmt(fn.Body)
}

func assignedVar(e cudac.Expr) *cudac.Var {
	if v, ok := e.(*cudac.VarRef); ok && v.Var.Space == cudac.SpaceLocal || ok && v.Var.Space == cudac.SpaceParam {
		return v.Var
	}
	return nil
}
