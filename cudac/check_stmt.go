package cudac

import "fmt"

const (
	// maxInitLeaves bounds the scalar leaves a brace initializer may produce.
	maxInitLeaves = 1 << 20
	// maxLocalSize is the local memory of a thread.
	maxLocalSize = 512 << 10
)

// stmts checks statements in the current scope.
func (c *checker) stmts(list []sStmt) []Stmt {
	var out []Stmt
	for _, s := range list {
		out = append(out, c.stmt(s)...)
	}
	return out
}

// stmt checks one statement; a declaration may give several.
func (c *checker) stmt(s sStmt) []Stmt {
	if c.d.tick() {
		c.d.stop(s.spos())
	}
	switch s := s.(type) {
	case *sBlock:
		c.openScope()
		b := &Block{P: s.P, Stmts: c.stmts(s.Stmts)}
		c.closeScope()
		return []Stmt{b}
	case *sDecl:
		return c.localDecl(s)
	case *sUsing:
		c.usingDecl(s)
		return nil
	case *sStaticAssert:
		c.staticAssert(s)
		return nil
	case *sEmpty:
		return []Stmt{&Empty{P: s.P}}
	case *sExprStmt:
		x := stripVoid(c.expr(s.X))
		if isBad(x) {
			return nil
		}
		if _, ok := x.(*tempExpr); ok {
			c.errorf(x.Pos(), "a temporary '%s' is supported only converted by one of its conversion operators", x.Type())
			return nil
		}
		return []Stmt{&ExprStmt{P: s.P, X: x}}
	case *sIf:
		cond := c.toBool(c.expr(s.C), "the condition")
		then := c.body(s.Then, false)
		var els Stmt
		if s.Else != nil {
			els = c.body(s.Else, false)
		}
		return []Stmt{&If{P: s.P, Cond: cond, Then: then, Else: els}}
	case *sWhile:
		cond := c.toBool(c.expr(s.C), "the condition")
		return []Stmt{&While{P: s.P, Cond: cond, Body: c.body(s.Body, true)}}
	case *sDo:
		body := c.body(s.Body, true)
		cond := c.toBool(c.expr(s.C), "the condition")
		return []Stmt{&DoWhile{P: s.P, Body: body, Cond: cond}}
	case *sFor:
		return []Stmt{c.forStmt(s)}
	case *sBreak:
		if c.breaks == 0 {
			c.errorf(s.P, "'break' statement not in a loop or switch statement")
			return nil
		}
		return []Stmt{&Break{P: s.P}}
	case *sContinue:
		if c.loops == 0 {
			c.errorf(s.P, "'continue' statement not in a loop statement")
			return nil
		}
		return []Stmt{&Continue{P: s.P}}
	case *sReturn:
		return c.returnStmt(s)
	case *sSwitch:
		return []Stmt{c.switchStmt(s)}
	case *sCase:
		c.errorf(s.P, "case label outside a switch body")
		return nil
	}
	c.errorf(s.spos(), "unsupported statement")
	return nil
}

// body checks the body of an if or a loop as one statement.
func (c *checker) body(s sStmt, loop bool) Stmt {
	if loop {
		c.loops++
		c.breaks++
		defer func() { c.loops--; c.breaks-- }()
	}
	c.openScope()
	defer c.closeScope()
	out := c.stmt(s)
	switch len(out) {
	case 0:
		return &Empty{P: s.spos()}
	case 1:
		return out[0]
	}
	return &Block{P: s.spos(), Stmts: out}
}

func (c *checker) forStmt(s *sFor) Stmt {
	c.openScope()
	defer c.closeScope()
	f := &For{P: s.P}
	if s.Init != nil {
		init := c.stmt(s.Init)
		switch len(init) {
		case 0:
		case 1:
			f.Init = init[0]
		default:
			f.Init = &Block{P: s.Init.spos(), Stmts: init}
		}
	}
	if s.C != nil {
		f.Cond = c.toBool(c.expr(s.C), "the condition")
	}
	if s.Post != nil {
		f.Post = stripVoid(c.expr(s.Post))
	}
	f.Body = c.body(s.Body, true)
	return f
}

func (c *checker) returnStmt(s *sReturn) []Stmt {
	if c.lam != nil && c.lam.deduce {
		return c.lambdaReturn(s)
	}
	res := c.fn.Result
	if s.X == nil {
		if res.Kind != Void {
			c.errorf(s.P, "non-void function '%s' should return a value", c.fname)
			return nil
		}
		return []Stmt{&Return{P: s.P}}
	}
	if res.Kind == Void {
		x := c.expr0v(s.X)
		if x != nil && !isBad(x) && x.Type().Kind != Void {
			c.errorf(s.P, "void function '%s' should not return a value", c.fname)
			return nil
		}
		if x == nil || isBad(x) {
			return nil
		}
		// return f(); in a void function: evaluate, then return.
		return []Stmt{&ExprStmt{P: s.P, X: x}, &Return{P: s.P}}
	}
	var x Expr
	if l, ok := s.X.(*sInitList); ok {
		if res.Kind == Struct {
			// return {a, b}; is a hidden local initialized from the list,
			// then returned.
			init := c.aggregateInit(l, res)
			if init == nil {
				return nil
			}
			v := &Var{Name: "return-value", T: res, P: l.P}
			return []Stmt{&DeclStmt{P: l.P, Var: v, InitList: init}, &Return{P: s.P, X: &VarRef{P: l.P, Var: v}}}
		}
		if !res.IsScalar() {
			c.errorf(l.P, "returning a brace list is not supported")
			return nil
		}
		x = c.initScalar(l, res, "in return")
	} else {
		x = c.convertTo(c.expr(s.X), res, "in return")
	}
	if isBad(x) {
		return nil
	}
	return []Stmt{&Return{P: s.P, X: x}}
}

// expr0v checks an expression that is not an initializer list.
func (c *checker) expr0v(e sExpr) Expr {
	if l, ok := e.(*sInitList); ok {
		c.errorf(l.P, "an initializer list is not allowed here")
		return nil
	}
	return c.expr(e)
}

func (c *checker) switchStmt(s *sSwitch) Stmt {
	tag := c.expr(s.Tag)
	sw := &Switch{P: s.P, Tag: tag}
	if !isBad(tag) {
		if t := tag.Type(); !t.IsInteger() {
			c.errorf(startPos(s.Tag), "switch condition must have an integer type, not '%s'", t)
			tag = badExpr(tag.Pos())
		} else {
			tag = c.conv(tag, promote(t))
		}
		sw.Tag = tag
	}
	c.openScope()
	c.breaks++
	defer func() { c.breaks--; c.closeScope() }()
	var cur *Case
	seen := map[int64]bool{}
	hasDefault := false
	var crossed *DeclStmt
	for _, st := range s.Stmts {
		if cs, ok := st.(*sCase); ok {
			if crossed != nil {
				c.errorf(cs.P, "jump to case label crosses the initialization of '%s'; put the case body in braces", crossed.Var.Name)
			}
			cur = &Case{P: cs.P, Default: cs.Default}
			if cs.Default {
				if hasDefault {
					c.errorf(cs.P, "multiple default labels in one switch")
				}
				hasDefault = true
			} else {
				v := c.expr(cs.Val)
				if !isBad(v) && !isBad(tag) {
					k, ok := v.(*Const)
					if !ok || !k.T.IsInteger() {
						c.errorf(startPos(cs.Val), "case value is not an integer constant expression")
					} else {
						k = convertConst(k, tag.Type())
						if seen[k.Int] {
							c.errorf(startPos(cs.Val), "duplicate case value '%s'", constString(k))
						}
						seen[k.Int] = true
						cur.Value = k.Int
					}
				}
			}
			sw.Cases = append(sw.Cases, cur)
			continue
		}
		out := c.stmt(st)
		if cur == nil {
			c.errorf(st.spos(), "statements before the first case label of a switch are not supported")
			continue
		}
		cur.Body = append(cur.Body, out...)
		for _, o := range out {
			if d, ok := o.(*DeclStmt); ok && (d.Init != nil || d.InitList != nil) {
				crossed = d
			}
		}
	}
	return sw
}

// constString spells a constant's value.
func constString(k *Const) string {
	switch {
	case k.T.IsFloat():
		return fmt.Sprint(k.Float)
	case k.T.Kind == Bool:
		if k.Int != 0 {
			return "true"
		}
		return "false"
	case k.T.Kind == Pointer:
		if k.Int == 0 {
			return "nullptr"
		}
		return fmt.Sprintf("0x%x", uint64(k.Int))
	case k.T.IsSigned():
		return fmt.Sprint(k.Int)
	}
	return fmt.Sprint(uint64(k.Int))
}

// ---- declarations ----

func (c *checker) localDecl(d *sDecl) []Stmt {
	spec := d.Spec
	switch {
	case spec.Global || spec.Host:
		c.errorf(spec.P, "__global__ and __host__ apply to functions, not variables")
		return nil
	case spec.Constant:
		c.errorf(spec.P, "__constant__ variables must be declared at file scope")
		return nil
	case spec.Device && !spec.Shared:
		c.errorf(spec.P, "__device__ variables must be declared at file scope")
		return nil
	case spec.Extern && !spec.Shared:
		c.errorf(spec.P, "extern local variables are not supported")
		return nil
	case spec.Static && !spec.Shared && !spec.Constexpr && !spec.Const:
		c.errorf(spec.P, "static local variables are not supported")
		return nil
	case spec.Inline:
		c.errorf(spec.P, "'inline' applies to functions, not variables")
		return nil
	}
	base, bconst, bvol := c.specType(spec)
	if base == nil {
		for _, dc := range d.Decls {
			c.poison(dc.Name, dc.P)
		}
		return nil
	}
	if spec.Typedef {
		c.typedefs(d, base, bconst, bvol)
		return nil
	}
	var out []Stmt
	for _, dc := range d.Decls {
		if l, ok := dc.Init.(*sLambda); ok {
			out = append(out, c.lambdaLocal(base, dc, l)...)
			continue
		}
		t, cst, vol := c.declType(base, bconst, bvol, dc.Ptrs, dc.Dims, dc.P)
		if t == nil {
			c.poison(dc.Name, dc.P)
			continue
		}
		if t.AtomicObj || t.Kind == Array && t.Elem.AtomicObj {
			c.errorf(dc.P, "a cuda::atomic is supported only as a __device__ variable; for a local or shared object use cuda::atomic_ref")
			c.poison(dc.Name, dc.P)
			continue
		}
		if dc.Align != nil || spec.Align != nil {
			c.errorf(dc.P, "alignas on a local variable is not supported")
			continue
		}
		if dc.Ref && !(cst && len(dc.Ptrs) == 0) {
			// T& r = lvalue: r holds the lvalue's address; a const
			// reference is a const copy.
			s := c.localRef(spec, dc, t)
			if s == nil || !c.declare(&entity{kind: entVar, name: dc.Name, pos: dc.P, v: s.Var, ref: true}) {
				c.poison(dc.Name, dc.P)
				continue
			}
			out = append(out, s)
			continue
		}
		var s *DeclStmt
		if spec.Shared {
			s = c.sharedDecl(spec, dc, t, cst)
		} else {
			s = c.localVar(dc, t, cst)
		}
		if s == nil {
			c.poison(dc.Name, dc.P)
			continue
		}
		ent := &entity{kind: entVar, name: dc.Name, pos: dc.P, v: s.Var}
		if vol {
			c.impl.volatiles[s.Var] = true
		}
		if k, ok := s.Init.(*Const); ok && cst && !vol && s.Var.T.IsScalar() {
			ent.val = k
		}
		if !c.declare(ent) {
			continue
		}
		out = append(out, s)
	}
	return out
}

func (c *checker) sharedDecl(spec *declSpec, dc *declarator, t *Type, cst bool) *DeclStmt {
	v := &Var{Name: dc.Name, T: t, P: dc.P, Space: SpaceShared, Const: cst}
	switch {
	case dc.Init != nil:
		c.errorf(dc.P, "__shared__ variable '%s' cannot have an initializer", dc.Name)
		return nil
	case t.Kind == Invalid:
		c.errorf(dc.P, "__shared__ variable '%s' cannot be 'auto'", dc.Name)
		return nil
	case t.Kind == Void:
		c.errorf(dc.P, "variable '%s' cannot have type void", dc.Name)
		return nil
	case spec.Extern:
		if t.Kind != Array || t.Len >= 0 {
			c.errorf(dc.P, "extern __shared__ variable '%s' must be an unsized array ('%s[]')", dc.Name, dc.Name)
			return nil
		}
		v.Extern = true
		c.fn.DynShared = append(c.fn.DynShared, v)
	default:
		if t.Kind == Array && t.Len < 0 {
			c.errorf(dc.P, "__shared__ array '%s' needs a size (or declare it extern __shared__ for a size given at launch)", dc.Name)
			return nil
		}
		if t.Kind == Struct && t.Struct.Size == 0 {
			c.errorf(dc.P, "variable '%s' has incomplete type '%s'", dc.Name, t)
			return nil
		}
		c.fn.Shared = append(c.fn.Shared, v)
	}
	return &DeclStmt{P: dc.P, Var: v}
}

// localRef checks a local reference "T& r = lvalue;" (t is T, or
// invalidType for auto&).
func (c *checker) localRef(spec *declSpec, dc *declarator, t *Type) *DeclStmt {
	if spec.Shared || spec.Static {
		c.errorf(dc.P, "reference '%s' cannot be __shared__ or static", dc.Name)
		return nil
	}
	if dc.Init == nil {
		c.errorf(dc.P, "reference '%s' needs an initializer", dc.Name)
		return nil
	}
	if _, ok := dc.Init.(*sInitList); ok {
		c.errorf(dc.P, "reference '%s' cannot be initialized with a brace list", dc.Name)
		return nil
	}
	x := c.lvalue(dc.Init)
	if isBad(x) {
		return nil
	}
	if t.Kind == Invalid {
		t = x.Type()
	}
	if !isLvalue(x) {
		c.errorf(x.Pos(), "cannot bind reference '%s' ('%s&') to a value that is not a variable or an object in memory", dc.Name, t)
		return nil
	}
	if !Identical(x.Type(), t) {
		c.errorf(x.Pos(), "cannot bind reference '%s' ('%s&') to an object of type '%s'", dc.Name, t, x.Type())
		return nil
	}
	if !c.modifiable(x, x.Pos(), "bind a non-const reference to") {
		return nil
	}
	v := &Var{Name: dc.Name, T: PointerTo(t, false), P: dc.P}
	return &DeclStmt{P: dc.P, Var: v, Init: c.addrOf(x.Pos(), x)}
}

func (c *checker) localVar(dc *declarator, t *Type, cst bool) *DeclStmt {
	if t.Kind == Invalid {
		// auto x = init;
		if dc.Init == nil {
			c.errorf(dc.P, "'auto' variable '%s' needs an initializer", dc.Name)
			return nil
		}
		if _, ok := dc.Init.(*sInitList); ok {
			c.errorf(dc.P, "'auto' with a brace initializer is not supported")
			return nil
		}
		x := c.expr(dc.Init)
		if isBad(x) {
			return nil
		}
		if _, ok := x.(*tempExpr); ok {
			c.errorf(x.Pos(), "'auto' from a temporary '%s' is not supported; declare the type it converts to", x.Type())
			return nil
		}
		t = x.Type()
		if t == nullptrType || t.Kind == Void {
			c.errorf(dc.P, "cannot deduce a type for '%s' from '%s'", dc.Name, t)
			return nil
		}
		v := &Var{Name: dc.Name, T: t, P: dc.P, Const: cst}
		return &DeclStmt{P: dc.P, Var: v, Init: x}
	}
	switch {
	case t.Kind == Void:
		c.errorf(dc.P, "variable '%s' cannot have type void", dc.Name)
		return nil
	case t.Kind == Struct && t.Struct.Size == 0:
		c.errorf(dc.P, "variable '%s' has incomplete type '%s'", dc.Name, t)
		return nil
	case t.Kind == Array && t.Len < 0:
		l, ok := dc.Init.(*sInitList)
		if !ok {
			c.errorf(dc.P, "array '%s' needs a size or an initializer list", dc.Name)
			return nil
		}
		t = c.arrayFromInit(t, cst, l)
	}
	if t.Size() > maxLocalSize {
		c.errorf(dc.P, "local variable '%s' takes %d bytes; a thread has at most 512 KiB of local memory", dc.Name, t.Size())
		return nil
	}
	v := &Var{Name: dc.Name, T: t, P: dc.P, Const: cst}
	s := &DeclStmt{P: dc.P, Var: v}
	if dc.Init == nil {
		if cst && t.Kind != Array && t.Kind != Struct {
			c.errorf(dc.P, "const variable '%s' needs an initializer", dc.Name)
			return nil
		}
		return s
	}
	switch t.Kind {
	case Array, Struct:
		if l, ok := dc.Init.(*sInitList); ok {
			s.InitList = c.aggregateInit(l, t)
			if s.InitList == nil {
				return nil
			}
			return s
		}
		if t.Kind == Array {
			c.errorf(startPos(dc.Init), "array '%s' must be initialized with a brace list", dc.Name)
			return nil
		}
	}
	s.Init = c.initScalar(dc.Init, t, "in initialization")
	if isBad(s.Init) {
		return nil
	}
	return s
}

// initScalar checks the initializer of a scalar (or a struct copy).
func (c *checker) initScalar(init sExpr, t *Type, ctx string) Expr {
	if l, ok := init.(*sInitList); ok {
		switch len(l.Elems) {
		case 0:
			return zeroConst(t, l.P)
		case 1:
			if _, nested := l.Elems[0].(*sInitList); nested {
				c.errorf(l.Elems[0].spos(), "too many braces around a scalar initializer")
				return badExpr(l.P)
			}
			return c.convertTo(c.expr(l.Elems[0]), t, ctx)
		}
		c.errorf(l.Elems[1].spos(), "excess elements in a scalar initializer")
		return badExpr(l.P)
	}
	return c.convertTo(c.expr(init), t, ctx)
}

// zeroConst is the zero value of scalar type t.
func zeroConst(t *Type, pos Pos) Expr {
	if !t.IsScalar() {
		return badExpr(pos)
	}
	return &Const{P: pos, T: t}
}

// aggregateInit flattens a brace initializer of an array or struct into
// one converted expression per scalar leaf, in memory order, up to the last
// leaf given. Leaves between given ones are zero constants. An empty
// initializer gives one zero for the first leaf. It returns nil after an
// error.
func (c *checker) aggregateInit(l *sInitList, t *Type) []Expr {
	in := &aggInit{c: c, placed: map[int64]Expr{}}
	cur := &initCursor{elems: l.Elems}
	in.fill(t, cur, 0)
	if !in.failed && cur.i < len(cur.elems) {
		c.errorf(cur.elems[cur.i].spos(), "excess elements in initializer")
		in.failed = true
	}
	if in.failed {
		return nil
	}
	if len(in.placed) == 0 {
		lt := leafTypeAt(t, 0)
		return []Expr{zeroConst(lt, l.P)}
	}
	out := make([]Expr, in.max+1)
	for i := range out {
		if x, ok := in.placed[int64(i)]; ok {
			out[i] = x
		} else {
			out[i] = zeroConst(leafTypeAt(t, int64(i)), l.P)
		}
	}
	return out
}

type initCursor struct {
	elems []sExpr
	i     int
}

type aggInit struct {
	c      *checker
	placed map[int64]Expr
	max    int64
	failed bool
}

// fill initializes the aggregate t, whose first leaf is base, from the
// cursor, consuming elements with brace elision.
func (in *aggInit) fill(t *Type, cur *initCursor, base int64) {
	switch t.Kind {
	case Array:
		n := leafCount(t.Elem)
		if n == 0 {
			return // elements without scalars (empty structs) take no initializer
		}
		for i := int64(0); i < t.Len && cur.i < len(cur.elems) && !in.failed; i++ {
			in.sub(t.Elem, cur, base+i*n)
		}
	case Struct:
		off := base
		for _, f := range t.Struct.Fields {
			if cur.i >= len(cur.elems) || in.failed {
				return
			}
			in.sub(f.Type, cur, off)
			off += leafCount(f.Type)
		}
	}
}

// sub initializes one sub-object of type t at leaf base.
func (in *aggInit) sub(t *Type, cur *initCursor, base int64) {
	e := cur.elems[cur.i]
	if l, ok := e.(*sInitList); ok {
		cur.i++
		if t.Kind == Array || t.Kind == Struct {
			inner := &initCursor{elems: l.Elems}
			in.fill(t, inner, base)
			if !in.failed && inner.i < len(inner.elems) {
				in.c.errorf(inner.elems[inner.i].spos(), "excess elements in initializer")
				in.failed = true
			}
			return
		}
		in.place(base, in.c.initScalar(l, t, "in initialization"))
		return
	}
	if t.Kind == Array || t.Kind == Struct {
		in.fill(t, cur, base)
		return
	}
	cur.i++
	in.place(base, in.c.convertTo(in.c.expr(e), t, "in initialization"))
}

func (in *aggInit) place(leaf int64, x Expr) {
	if isBad(x) {
		in.failed = true
		return
	}
	if leaf >= maxInitLeaves {
		in.c.errorf(x.Pos(), "initializer is too large")
		in.failed = true
		return
	}
	in.placed[leaf] = x
	in.max = max(in.max, leaf)
}

// leafTypeAt is the type of scalar leaf i of t.
func leafTypeAt(t *Type, i int64) *Type {
	for {
		switch t.Kind {
		case Array:
			n := leafCount(t.Elem)
			if n == 0 {
				return t.Elem
			}
			i %= n
			t = t.Elem
		case Struct:
			found := false
			for _, f := range t.Struct.Fields {
				n := leafCount(f.Type)
				if i < n {
					t = f.Type
					found = true
					break
				}
				i -= n
			}
			if !found {
				return int32Type
			}
		default:
			return t
		}
	}
}

// poison declares a name whose declaration failed, so that its uses report
// nothing more.
func (c *checker) poison(name string, pos Pos) {
	if name != "" && c.scope.names[name] == nil {
		c.declare(&entity{kind: entVar, name: name, pos: pos, v: &Var{Name: name, T: invalidType, P: pos}})
	}
}
