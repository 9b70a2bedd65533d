package cudac

import "fmt"

// This file checks the template forms beyond integer function templates:
// deduction of type parameters at a call, explicit specializations of
// function templates, struct templates and their specializations, and the
// conversion operators of structs (the SharedMemory<T> idiom).

// structTmpl is a struct template.
type structTmpl struct {
	name   string
	decl   *sStruct
	params []tmplParam
	insts  map[string]*Type
	specs  map[string]*sStruct // explicit specializations, by instance name
}

// convOp is a conversion operator of a struct: a __device__ function
// without parameters (it may not use the struct's members).
type convOp struct {
	to *Type
	fn *Func
}

// tempExpr is a value-initialized temporary of a struct (S<T>()). It only
// ever appears converted by a conversion operator, which replaces it by a
// call; it never reaches a backend.
type tempExpr struct {
	P Pos
	T *Type
}

func (e *tempExpr) Type() *Type { return e.T }
func (e *tempExpr) Pos() Pos    { return e.P }
func (*tempExpr) exprNode()     {}

// deduce resolves a template call's arguments: those given explicitly,
// then type parameters deduced from the call's arguments (a parameter
// declared T, T* or const T* takes its type from the argument), then
// defaults. It returns nil after an error.
func (c *checker) deduce(tm *tmplInfo, e *sCall) []tmplVal {
	pre := make([]tmplVal, len(tm.params))
	for i, p := range tm.params {
		if !p.isType || i < len(e.TArgs) {
			continue
		}
		for j, prm := range tm.decl.Params {
			if j >= len(e.Args) || prm.Spec.Name != p.name || prm.D == nil || len(prm.D.Dims) > 0 {
				continue
			}
			x := c.expr(e.Args[j])
			if isBad(x) {
				return nil
			}
			t := x.Type()
			for range prm.D.Ptrs {
				if t.Kind != Pointer || t == nullptrType {
					c.errorf(x.Pos(), "cannot deduce '%s' of '%s' from an argument of type '%s'", p.name, tm.name, x.Type())
					return nil
				}
				t = t.Elem
			}
			if t == nullptrType || t.Kind == Void {
				c.errorf(x.Pos(), "cannot deduce '%s' of '%s' from an argument of type '%s'", p.name, tm.name, x.Type())
				return nil
			}
			pre[i] = tmplVal{t: t}
			break
		}
	}
	return c.templateArgs(tm.name, tm.params, e.TArgs, pre, e.P, tm)
}

// funcSpecialization checks "template <> T f<A>(...) { ... }": the
// instance f<A> is this definition.
func (c *checker) funcSpecialization(f *sFunc) {
	ent := c.lookup(f.Name)
	if ent == nil || ent.kind != entTmpl {
		c.errorf(f.P, "explicit specialization of '%s', which is not a function template", f.Name)
		return
	}
	tm := ent.tm
	vals := c.templateArgValues(tm.name, tm.params, f.TArgs, f.P, tm)
	if vals == nil {
		return
	}
	key := instName(tm, vals)
	if tm.insts[key] != nil {
		c.errorf(f.P, "explicit specialization of '%s' after it has been instantiated", key)
		return
	}
	if f.Spec.Global != tm.kernel {
		c.errorf(f.P, "explicit specialization of '%s' must be %s like its template", key, map[bool]string{true: "__global__", false: "__device__"}[tm.kernel])
		return
	}
	result, params, defaults, ok := c.signature(f)
	if !ok {
		return
	}
	fn := newFunc(f, key, tm.kernel, result, params)
	tm.insts[key] = &instance{fn: fn, done: true}
	c.impl.instDefaults(fn, params, defaults)
	c.funcBody(fn, f, nil)
}

// structTemplateDecl records "template <...> struct S { ... };".
func (c *checker) structTemplateDecl(s *sStruct) {
	params, ok := c.tmplParams(s.Tmpl)
	if !ok {
		return
	}
	stm := &structTmpl{name: s.Name, decl: s, params: params, insts: map[string]*Type{}, specs: map[string]*sStruct{}}
	c.declare(&entity{kind: entStructTmpl, name: s.Name, pos: s.P, stm: stm})
}

// structSpecialization records "template <> struct S<A> { ... };".
func (c *checker) structSpecialization(s *sStruct) {
	ent := c.lookup(s.Name)
	if ent == nil || ent.kind != entStructTmpl {
		c.errorf(s.P, "explicit specialization of '%s', which is not a struct template", s.Name)
		return
	}
	stm := ent.stm
	vals := c.templateArgValues(stm.name, stm.params, s.TArgs, s.P, nil)
	if vals == nil {
		return
	}
	key := argsName(stm.name, vals)
	if stm.insts[key] != nil || stm.specs[key] != nil {
		c.errorf(s.P, "explicit specialization of '%s' after it has been instantiated or specialized", key)
		return
	}
	stm.specs[key] = s
}

// structInstance returns the struct type S<args>.
func (c *checker) structInstance(stm *structTmpl, args []sExpr, pos Pos) *Type {
	if len(args) == 0 && len(stm.params) > 0 {
		c.errorf(pos, "'%s' is a struct template: give its arguments, as %s<...>", stm.name, stm.name)
		return nil
	}
	vals := c.templateArgValues(stm.name, stm.params, args, pos, nil)
	if vals == nil {
		return nil
	}
	key := argsName(stm.name, vals)
	if t := stm.insts[key]; t != nil {
		return t
	}
	if c.depth >= maxInstDepth {
		c.errorf(pos, "template instantiation of '%s' is nested too deeply", key)
		return nil
	}
	decl, params := stm.decl, stm.params
	if sp := stm.specs[key]; sp != nil {
		decl, params, vals = sp, nil, nil
	}
	sub := c.paramScope(params, vals, nil)
	sub.depth = c.depth + 1
	sub.binds = bindings(params, vals)
	saved := c.d.note
	c.d.note = "in instantiation of '" + key + "'"
	defer func() { c.d.note = saved }()
	t := sub.structType(&sStruct{P: decl.P, Name: key, Def: true, Fields: decl.Fields, Align: decl.Align, ConvOps: decl.ConvOps})
	if t == nil {
		return nil
	}
	stm.insts[key] = t
	return t
}

// convOps checks the conversion operators of struct t.
func (c *checker) convOps(t *Type, s *sStruct) {
	for _, op := range s.ConvOps {
		if !op.Spec.Device || op.Spec.Global {
			c.errorf(op.P, "a conversion operator must be __device__")
			continue
		}
		rt, _, _ := c.typeName(op.Result)
		if rt == nil {
			continue
		}
		if rt.Kind == Void || rt.Kind == Array || rt.Kind == Struct || rt.Kind == Invalid {
			c.errorf(op.P, "conversion operators to '%s' are not supported", rt)
			continue
		}
		fn := &Func{Name: fmt.Sprintf("%s::operator %s", t.Struct.Name, rt), P: op.P, Result: rt}
		c.funcBody(fn, &sFunc{P: op.P, Name: fn.Name, Spec: op.Spec, Body: op.Body}, c.binds)
		if c.impl.convOps == nil {
			c.impl.convOps = map[*StructType][]convOp{}
		}
		c.impl.convOps[t.Struct] = append(c.impl.convOps[t.Struct], convOp{to: rt, fn: fn})
	}
}

// convOpCall converts x, of a struct type, to t through one of the
// struct's conversion operators: the one to t exactly, else the first
// whose result converts to t. It returns nil if none does.
func (c *checker) convOpCall(x Expr, t *Type) Expr {
	ops := c.impl.convOps[x.Type().Struct]
	pick := -1
	for i, op := range ops {
		if Identical(op.to, t) && op.to.Const == t.Const {
			pick = i
			break
		}
	}
	for i, op := range ops {
		if pick >= 0 {
			break
		}
		if Identical(op.to, t) && (!op.to.Const || t.Const) || op.to.IsArithmetic() && t.IsArithmetic() {
			pick = i
		}
	}
	if pick < 0 {
		return nil
	}
	call := &Call{P: x.Pos(), Func: ops[pick].fn}
	if Identical(call.Type(), t) && call.Type().Const == t.Const {
		return call
	}
	return c.conv(call, t)
}
