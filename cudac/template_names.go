package cudac

import "strings"

// This file checks the names in a template's body when the template is
// defined, as C++'s two-phase lookup does: an undeclared identifier is
// reported at once, not only when (and each time) the template is
// instantiated. Everything else is checked per instantiation.

// nameScope is a scope of the local names of a template body.
type nameScope struct {
	parent *nameScope
	names  map[string]bool
}

func (s *nameScope) has(name string) bool {
	for ; s != nil; s = s.parent {
		if s.names[name] {
			return true
		}
	}
	return false
}

func (s *nameScope) add(name string) {
	if name != "" {
		s.names[name] = true
	}
}

func (s *nameScope) child() *nameScope {
	return &nameScope{parent: s, names: map[string]bool{}}
}

// templateNames reports the undeclared identifiers of a template body.
func (c *checker) templateNames(f *sFunc) {
	s := (&nameScope{}).child()
	for _, p := range f.Tmpl.Params {
		s.add(p.Name)
	}
	for _, prm := range f.Params {
		if prm.D != nil {
			s.add(prm.D.Name)
		}
	}
	w := &nameWalker{c: c}
	w.stmts(f.Body.Stmts, s)
}

type nameWalker struct {
	c    *checker
	seen map[string]bool // names already reported
}

func (w *nameWalker) stmts(list []sStmt, s *nameScope) {
	for _, st := range list {
		w.stmt(st, s)
	}
}

func (w *nameWalker) stmt(st sStmt, s *nameScope) {
	switch st := st.(type) {
	case *sBlock:
		w.stmts(st.Stmts, s.child())
	case *sDecl:
		w.spec(st.Spec, s)
		for _, d := range st.Decls {
			for _, dim := range d.Dims {
				w.expr(dim.N, s)
			}
			s.add(d.Name)
			w.expr(d.Init, s)
		}
	case *sUsing:
		s.add(st.Name)
	case *sExprStmt:
		w.expr(st.X, s)
	case *sIf:
		w.expr(st.C, s)
		w.stmt(st.Then, s.child())
		if st.Else != nil {
			w.stmt(st.Else, s.child())
		}
	case *sFor:
		inner := s.child()
		if st.Init != nil {
			w.stmt(st.Init, inner)
		}
		w.expr(st.C, inner)
		w.expr(st.Post, inner)
		w.stmt(st.Body, inner.child())
	case *sWhile:
		w.expr(st.C, s)
		w.stmt(st.Body, s.child())
	case *sDo:
		w.stmt(st.Body, s.child())
		w.expr(st.C, s)
	case *sReturn:
		w.expr(st.X, s)
	case *sSwitch:
		w.expr(st.Tag, s)
		w.stmts(st.Stmts, s.child())
	case *sCase:
		w.expr(st.Val, s)
	case *sStaticAssert:
		w.expr(st.X, s)
	}
}

// spec adds the names a declaration's specifiers introduce: a local
// typedef, struct or enum and unscoped enumerators.
func (w *nameWalker) spec(sp *declSpec, s *nameScope) {
	if sp.Enum != nil {
		s.add(sp.Enum.Name)
		if !sp.Enum.Scoped {
			for _, it := range sp.Enum.Items {
				s.add(it.Name)
			}
		}
	}
	if sp.Struct != nil {
		s.add(sp.Struct.Name)
	}
}

func (w *nameWalker) exprs(list []sExpr, s *nameScope) {
	for _, e := range list {
		w.expr(e, s)
	}
}

func (w *nameWalker) expr(e sExpr, s *nameScope) {
	switch e := e.(type) {
	case nil:
	case *sIdent:
		w.ident(e.P, e.Name, s)
	case *sUnary:
		w.expr(e.X, s)
	case *sPostfix:
		w.expr(e.X, s)
	case *sBinary:
		w.expr(e.X, s)
		w.expr(e.Y, s)
	case *sAssign:
		w.expr(e.X, s)
		w.expr(e.Y, s)
	case *sCond:
		w.expr(e.C, s)
		w.expr(e.X, s)
		w.expr(e.Y, s)
	case *sCall:
		if id, ok := e.Fn.(*sIdent); !ok || builtinFuncs[id.Name] == nil {
			w.expr(e.Fn, s)
		}
		w.exprs(e.TArgs, s)
		w.exprs(e.Args, s)
	case *sIndex:
		w.expr(e.X, s)
		w.expr(e.I, s)
	case *sMember:
		w.expr(e.X, s)
	case *sCast:
		w.expr(e.X, s)
	case *sSizeof:
		w.expr(e.X, s)
	case *sInitList:
		w.exprs(e.Elems, s)
	}
}

func (w *nameWalker) ident(pos Pos, name string, s *nameScope) {
	if s.has(name) || w.c.lookup(name) != nil || isBuiltinVarName(name) || builtinFuncs[name] != nil || intrinsicSigs[name] != nil || vectorMake(name) != nil ||
		strings.HasPrefix(name, cgPrefix) {
		return
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	if w.seen[name] {
		return
	}
	w.seen[name] = true
	if why := unsupportedNames[name]; why != "" {
		w.c.errorf(pos, "%s", why)
		return
	}
	if why := w.c.hostName(name); why != "" {
		w.c.errorf(pos, "%s", why)
		return
	}
	names := w.c.visibleNames(true)
	for ; s != nil; s = s.parent {
		for n := range s.names {
			names = append(names, n)
		}
	}
	w.c.errorf(pos, "undeclared identifier '%s'%s", name, suggest(name, names))
}
