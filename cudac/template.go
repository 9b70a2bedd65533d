package cudac

import (
	"errors"
	"fmt"
	"strings"
)

const (
	// maxInstDepth bounds nested template instantiation.
	maxInstDepth = 32
	// maxInstances bounds the instantiations of one program.
	maxInstances = 1000
)

// templateDecl records a function template. Its body is checked per
// instantiation.
func (c *checker) templateDecl(f *sFunc) {
	params, ok := c.tmplParams(f.Tmpl)
	if !ok {
		return
	}
	if old := c.scope.names[f.Name]; old != nil {
		if old.kind != entTmpl || len(old.tm.params) != len(params) || old.tm.kernel != f.Spec.Global {
			c.errorf(f.P, "redefinition of '%s'%s", f.Name, c.prevDecl(old))
			return
		}
		if f.Body != nil {
			if old.tm.decl.Body != nil {
				c.errorf(f.P, "redefinition of '%s'%s", f.Name, c.prevDecl(old))
				return
			}
			old.tm.decl = f
			old.tm.params = params
			c.impl.seq++
			old.tm.seq = c.impl.seq
			old.tm.pos = f.P
			c.templateNames(f)
		}
		return
	}
	tm := &tmplInfo{name: f.Name, decl: f, params: params, kernel: f.Spec.Global,
		insts: map[string]*instance{}, pos: f.P}
	if !c.declare(&entity{kind: entTmpl, name: f.Name, pos: f.P, tm: tm}) {
		return
	}
	tm.seq = c.impl.seq
	if f.Body != nil {
		c.templateNames(f)
	}
	if tm.kernel {
		names := make([]string, len(params))
		for i, p := range params {
			names[i] = p.name
		}
		c.impl.kernels = append(c.impl.kernels, kernelEntry{name: f.Name + "<" + strings.Join(names, ", ") + ">", tm: tm})
	}
}

// templateArgValues checks explicit template arguments (types for type
// parameters, integer constants for the others) and fills in defaults.
// It returns nil after reporting an error at pos.
func (c *checker) templateArgValues(name string, params []tmplParam, args []sExpr, pos Pos, tm *tmplInfo) []tmplVal {
	return c.templateArgs(name, params, args, nil, pos, tm)
}

// templateArgs is templateArgValues with some arguments deduced: pre[i]
// holds the deduced value of parameter i, if any.
func (c *checker) templateArgs(name string, params []tmplParam, args []sExpr, pre []tmplVal, pos Pos, tm *tmplInfo) []tmplVal {
	if len(args) > len(params) {
		c.errorf(pos, "too many template arguments for '%s' (want %d, have %d)", name, len(params), len(args))
		return nil
	}
	vals := make([]tmplVal, len(params))
	copy(vals, pre)
	for i, a := range args {
		p := params[i]
		ta, isType := a.(*sTypeArg)
		if p.isType {
			if !isType {
				c.errorf(a.spos(), "template argument %d of '%s' must be a type (for '%s')", i+1, name, p.name)
				return nil
			}
			t, _, _ := c.typeName(ta.T)
			if t == nil {
				return nil
			}
			if t.Kind == Invalid || t.Kind == Void || t.Kind == Array {
				c.errorf(a.spos(), "'%s' cannot be the template argument for '%s'", t, p.name)
				return nil
			}
			vals[i] = tmplVal{t: t}
			continue
		}
		if isType {
			c.errorf(a.spos(), "template argument %d of '%s' must be an integer constant, not a type", i+1, name)
			return nil
		}
		x := c.expr(a)
		if isBad(x) {
			return nil
		}
		k, ok := x.(*Const)
		if !ok || !k.T.IsInteger() {
			c.errorf(x.Pos(), "template argument %d of '%s' is not an integer constant expression", i+1, name)
			return nil
		}
		if !fitsType(k, p.t) {
			c.errorf(x.Pos(), "template argument %s for '%s' does not fit its type '%s'", constString(k), p.name, p.t)
			return nil
		}
		vals[i] = tmplVal{k: convertConst(k, p.t)}
	}
	for i := len(args); i < len(params); i++ {
		if vals[i].t != nil || vals[i].k != nil {
			continue // deduced
		}
		p := params[i]
		if p.def == nil && p.tdef == nil {
			if len(args) == 0 {
				c.errorf(pos, "template arguments for '%s' must be given explicitly, as %s<...>", name, name)
			} else {
				c.errorf(pos, "too few template arguments for '%s' (want %d, have %d)", name, len(params), len(args))
			}
			return nil
		}
		// A default may refer to the parameters before it.
		sub := c.paramScope(params, vals[:i], tm)
		if p.isType {
			t, _, _ := sub.typeName(p.tdef)
			if t == nil {
				return nil
			}
			vals[i] = tmplVal{t: t}
			continue
		}
		x := sub.expr(p.def)
		if isBad(x) {
			return nil
		}
		k, ok := x.(*Const)
		if !ok || !k.T.IsInteger() || !fitsType(k, p.t) {
			c.errorf(startPos(p.def), "default template argument for '%s' is not a constant of type '%s'", p.name, p.t)
			return nil
		}
		vals[i] = tmplVal{k: convertConst(k, p.t)}
	}
	return vals
}

// templateScope returns a checker for the template's definition context
// with the given parameters bound.
func (c *checker) templateScope(tm *tmplInfo, vals []tmplVal) *checker {
	return c.paramScope(tm.params, vals, tm)
}

// paramScope returns a checker for a template's definition context (tm's,
// or the file scope for nil) with params bound to vals.
func (c *checker) paramScope(params []tmplParam, vals []tmplVal, tm *tmplInfo) *checker {
	limit := 0
	if tm != nil {
		limit = tm.seq + 1
	}
	sub := &checker{impl: c.impl, prog: c.prog, d: c.d, scope: newScope(c.impl.global),
		seqLimit: limit, structs: map[*sStruct]*Type{}, enumDefs: map[*sEnum]*Type{},
		depth: c.depth, late: c.late}
	for _, b := range bindings(params, vals) {
		sub.scope.names[b.name] = b
	}
	return sub
}

// bindings are the entities that bind template parameters to values.
func bindings(params []tmplParam, vals []tmplVal) []*entity {
	var out []*entity
	for i, v := range vals {
		p := params[i]
		switch {
		case v.t != nil:
			out = append(out, &entity{kind: entType, name: p.name, pos: p.pos, t: v.t})
		case v.k != nil:
			out = append(out, &entity{kind: entConst, name: p.name, pos: p.pos, val: v.k})
		}
	}
	return out
}

// tmplParams checks a template's parameter list.
func (c *checker) tmplParams(tm *sTemplate) ([]tmplParam, bool) {
	var params []tmplParam
	for _, tp := range tm.Params {
		if tp.Type {
			params = append(params, tmplParam{name: tp.Name, pos: tp.P, isType: true, tdef: tp.TDefault})
			continue
		}
		t, _, _ := c.typeName(tp.T)
		if t == nil {
			return nil, false
		}
		if !t.IsInteger() {
			c.errorf(tp.P, "template parameter '%s' must have an integer type, not '%s'", tp.Name, t)
			return nil, false
		}
		params = append(params, tmplParam{name: tp.Name, pos: tp.P, t: t, def: tp.Default})
	}
	return params, true
}

// instName spells an instance's name: "sumTree<256>".
func instName(tm *tmplInfo, vals []tmplVal) string { return argsName(tm.name, vals) }

func argsName(name string, vals []tmplVal) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = v.String()
	}
	return name + "<" + strings.Join(parts, ", ") + ">"
}

// instantiate returns the instance of tm for vals, checking its body the
// first time. Diagnostics go to c.d, noted with the instance's name.
func (c *checker) instantiate(tm *tmplInfo, vals []tmplVal, pos Pos) *Func {
	name := instName(tm, vals)
	if inst := tm.insts[name]; inst != nil {
		if inst.err != nil {
			c.errorf(pos, "'%s' cannot be instantiated: %s", name, inst.first)
			return nil
		}
		return inst.fn // done, or in progress (a recursive call)
	}
	if tm.decl.Body == nil {
		c.errorf(pos, "template '%s' is used before its definition", tm.name)
		return nil
	}
	if c.depth >= maxInstDepth {
		c.errorf(pos, "template instantiation of '%s' is nested too deeply (recursive templates are not supported)", name)
		return nil
	}
	if c.impl.instances >= maxInstances {
		c.errorf(pos, "too many template instantiations")
		return nil
	}
	c.impl.instances++
	inst := &instance{}
	tm.insts[name] = inst
	savedNote := c.d.note
	c.d.note = "in instantiation of '" + name + "'"
	errs := c.d.count()
	defer func() {
		c.d.note = savedNote
		inst.done = true
		if inst.fn == nil || c.d.count() > errs {
			// Failed, perhaps by a bailout panic passing through.
			inst.fn = nil
			inst.err = errInstantiation
			inst.first = "instantiation failed"
			if c.d.count() > errs {
				inst.first = c.d.list[errs].Pos.String() + ": " + c.d.list[errs].Msg
			}
		}
	}()
	f := tm.decl
	sub := c.templateScope(tm, vals)
	sub.depth = c.depth + 1
	result, params, defaults, ok := sub.signature(f)
	if !ok {
		return nil
	}
	if tm.kernel && result.Kind != Void {
		c.errorf(f.Result.P, "a __global__ function must return void ('%s' returns '%s')", tm.name, result)
		return nil
	}
	fn := newFunc(f, name, tm.kernel, result, params)
	inst.fn = fn
	binds := bindings(tm.params, vals)
	// Calls of the instance need its parameter types and defaults.
	c.impl.instDefaults(fn, params, defaults)
	sub.funcBody(fn, f, binds)
	if c.d.count() > errs {
		return nil
	}
	return fn
}

var errInstantiation = errors.New("instantiation failed")

// templateCall checks a call of a function template: f<4>(x).
func (c *checker) templateCall(e *sCall, tm *tmplInfo) Expr {
	if tm.kernel {
		c.errorf(e.P, "cannot call __global__ function '%s' from device code (dynamic parallelism is not supported)", tm.name)
		return badExpr(e.P)
	}
	vals := c.deduce(tm, e)
	if vals == nil {
		c.args(e.Args)
		return badExpr(e.P)
	}
	fn := c.instantiate(tm, vals, e.P)
	if fn == nil {
		c.args(e.Args)
		return badExpr(e.P)
	}
	return c.userCall(e, fn, c.impl.instInfo[fn])
}

// explicitInstantiation checks "template __global__ void k<256>(...);".
func (c *checker) explicitInstantiation(f *sFunc) {
	ent := c.lookup(f.Name)
	if ent == nil || ent.kind != entTmpl {
		c.errorf(f.P, "explicit instantiation of '%s', which is not a function template", f.Name)
		return
	}
	tm := ent.tm
	vals := c.templateArgValues(tm.name, tm.params, f.TArgs, f.P, tm)
	if vals == nil {
		return
	}
	fn := c.instantiate(tm, vals, f.P)
	if fn == nil {
		return
	}
	result, params, _, ok := c.signature(f)
	if !ok {
		return
	}
	same := Identical(result, fn.Result) && len(params) == len(fn.Params) && f.Spec.Global == tm.kernel
	for i := 0; same && i < len(params); i++ {
		same = Identical(params[i], fn.Params[i].T)
	}
	if !same {
		c.errorf(f.P, "explicit instantiation of '%s' does not match the template's signature", fn.Name)
	}
}

// instDefaults records an instance's parameter types and default
// arguments for its calls.
func (impl *programImpl) instDefaults(fn *Func, params []*Type, defaults []*Const) {
	if impl.instInfo == nil {
		impl.instInfo = map[*Func]*funcInfo{}
	}
	impl.instInfo[fn] = &funcInfo{fn: fn, params: params, defaults: defaults, def: &sFunc{}}
	fn.Defaults = defaults
}

// kernel implements Program.Kernel.
func (impl *programImpl) kernel(p *Program, name string) (*Func, error) {
	impl.mu.Lock()
	defer impl.mu.Unlock()
	name = strings.TrimSpace(name)
	base, args, hasArgs := strings.Cut(name, "<")
	base = strings.TrimSpace(base)
	var entry *kernelEntry
	for i := range impl.kernels {
		k := &impl.kernels[i]
		if k.fn != nil && k.fn.Name == base || k.tm != nil && k.tm.name == base {
			entry = k
			break
		}
	}
	if entry == nil {
		return nil, fmt.Errorf("cudac: no kernel named %q in %s (kernels: %s)", name, impl.file, impl.kernelList())
	}
	if entry.tm == nil {
		if hasArgs {
			return nil, fmt.Errorf("cudac: kernel %q is not a template (kernels: %s)", base, impl.kernelList())
		}
		return entry.fn, nil
	}
	if !hasArgs {
		if !allDefaults(entry.tm) {
			return nil, fmt.Errorf("cudac: kernel %q is a template: instantiate it as %s", base, entry.name)
		}
		name, args = base+"<>", ">"
	}
	if !strings.HasSuffix(args, ">") {
		return nil, fmt.Errorf("cudac: bad kernel name %q: missing '>'", name)
	}
	return impl.instantiateKernel(p, entry.tm, name, len(name)-len(args), args[:len(args)-1])
}

func allDefaults(tm *tmplInfo) bool {
	for _, p := range tm.params {
		if p.def == nil {
			return false
		}
	}
	return true
}

func (impl *programImpl) kernelList() string {
	if len(impl.kernels) == 0 {
		return "none"
	}
	return strings.Join(impl.kernelNames(), ", ")
}

// instantiateKernel parses the template arguments of a kernel name (args,
// which starts at byte off of name) and instantiates the template. Errors
// in the arguments are reported in the name ("kernel name:1:9: ...");
// errors in the body at the template's source.
func (impl *programImpl) instantiateKernel(p *Program, tm *tmplInfo, name string, off int, args string) (f *Func, err error) {
	ad := newDiags("kernel name", []byte(name))
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				f, err = nil, fmt.Errorf("cudac: internal compiler error instantiating %s: %v", name, r)
				return
			}
			f, err = nil, ad.err()
		}
	}()
	// Parse the arguments as expressions, with the file's macros.
	lx := &lexer{src: []byte(args), d: ad, line: 1, col: int32(off + 1), bol: true}
	toks := lx.all()
	var exprs []sExpr
	if ad.count() == 0 {
		pp := &preprocessor{d: ad, macros: impl.macros}
		pp.run(toks)
		ps := newParser(pp.out, ad)
		for name, e := range impl.global.names {
			if e.kind == entType {
				ps.scopes[0][name] = true
			}
		}
		for !ps.is(tEOF) && ad.count() == 0 {
			if ps.isTypeStart(ps.tok) {
				pos := ps.here()
				exprs = append(exprs, &sTypeArg{P: pos, T: ps.typeName("in template argument")})
			} else {
				exprs = append(exprs, ps.assign())
			}
			if !ps.got(tComma) {
				if !ps.is(tEOF) {
					ps.errorf(ps.here(), "unexpected %s in template arguments", ps.tok.describe())
				}
				break
			}
		}
	}
	if err := ad.err(); err != nil {
		return nil, err
	}
	c := newChecker(impl, p, ad)
	c.late = true
	vals := c.templateArgValues(tm.name, tm.params, exprs, Pos{File: "kernel name", Line: 1, Col: off + 1}, tm)
	if vals == nil {
		return nil, ad.err()
	}
	key := instName(tm, vals)
	if inst := tm.insts[key]; inst != nil && inst.done {
		if inst.err == nil {
			return inst.fn, nil
		}
		if inst.diag != nil {
			return nil, inst.diag
		}
		return nil, fmt.Errorf("cudac: %s cannot be instantiated: %s", key, inst.first)
	}
	fn, err := c.instantiateChecked(tm, vals, &diags{file: impl.file, files: impl.files, seen: map[Pos]bool{}, lineNotes: impl.lineNotes})
	if err != nil {
		if inst := tm.insts[key]; inst != nil {
			inst.diag = err
		}
		return nil, err
	}
	return fn, nil
}

// instantiateChecked instantiates tm for vals with diagnostics going to d,
// and checks the instance's calls for recursion.
func (c *checker) instantiateChecked(tm *tmplInfo, vals []tmplVal, d *diags) (fn *Func, err error) {
	c.d = d
	func() {
		defer catchBailout()
		fn = c.instantiate(tm, vals, tm.pos)
		if fn != nil {
			c.checkRecursion(fn)
		}
	}()
	if err := d.err(); err != nil {
		return nil, err
	}
	return fn, nil
}
