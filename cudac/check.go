package cudac

import (
	"fmt"
	"maps"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
)

// programImpl is the state behind a Program: the file scope, the
// templates and their instances.
type programImpl struct {
	mu   sync.Mutex
	file string
	src  []byte
	// constBytes is the size of the __constant__ variables declared so
	// far, against ConstantBankBytes.
	constBytes int64
	// lineNotes name the Define options a line uses, for diagnostics.
	lineNotes map[Pos]string
	global    *scope
	seq       int
	kernels   []kernelEntry
	// calls records each checked function's calls to other functions.
	calls  map[*Func][]callSite
	macros map[string]*macro
	// fieldConst marks const-qualified struct members.
	fieldConst map[*Field]bool
	// volatiles marks volatile-qualified variables.
	volatiles map[*Var]bool
	// instances counts template instantiations, to bound them.
	instances int
	// instInfo holds the parameter types and default arguments of
	// template instances.
	instInfo map[*Func]*funcInfo
	// defines are the Define options.
	defines map[string]string
	// cgFuncs are the functions made for cooperative_groups::reduce.
	cgFuncs map[string]*Func
	// convOps are the structs' conversion operators.
	convOps map[*StructType][]convOp
	// hostSpans are the host code that was skipped; hostNames what its
	// items declared.
	hostSpans []Span
	hostNames map[string]string
	// includes are the files read by #include "name"; files are every
	// file of the compilation, for diagnostics.
	includes []Include
	files    []*srcFile
	// arch is __CUDA_ARCH__'s value: 750 unless the Arch option says.
	arch int
}

type kernelEntry struct {
	name string // "k" or "sumTree<N>"
	fn   *Func
	tm   *tmplInfo
}

type callSite struct {
	callee *Func
	pos    Pos
}

func (impl *programImpl) kernelNames() []string {
	names := make([]string, len(impl.kernels))
	for i, k := range impl.kernels {
		names[i] = k.name
	}
	return names
}

// checker type-checks declarations and function bodies.
type checker struct {
	impl *programImpl
	prog *Program
	d    *diags

	scope *scope
	// seqLimit, when > 0, hides file-scope names declared at or after it
	// (a template body sees the names declared before it).
	seqLimit int

	// Per function.
	fn       *Func
	fname    string
	loops    int // enclosing loops
	breaks   int // enclosing loops and switches
	calls    []callSite
	structs  map[*sStruct]*Type
	enumDefs map[*sEnum]*Type
	depth    int // template instantiation depth
	// late is set when checking after the whole file has been seen (a
	// template instantiated by Program.Kernel).
	late bool
	// binds are the template parameters bound in this checker's scope,
	// for the conversion operators of a struct template's instance.
	binds []*entity
	// lam is the lambda whose body is being checked, if any.
	lam *lambdaCtx
}

// compile is Compile's implementation.
func compile(filename string, src []byte, o *options) (prog *Program, err error) {
	d := newDiags(filename, src)
	d.ctx = o.ctx
	impl := &programImpl{
		file: filename, src: src, calls: map[*Func][]callSite{}, defines: maps.Clone(o.defines),
		fieldConst: map[*Field]bool{},
		volatiles:  map[*Var]bool{},
		arch:       750,
	}
	if o.arch > 0 {
		impl.arch = o.arch
	}
	prog = &Program{File: filename, Source: src, impl: impl}
	impl.global = newScope(nil)
	impl.global.global = true
	for name, t := range predefTypedef {
		impl.global.names[name] = &entity{kind: entType, name: name, t: t}
	}
	for name, t := range cgTypes {
		impl.global.names[name] = &entity{kind: entType, name: name, t: t}
	}
	for name, t := range vectorTypes {
		impl.global.names[name] = &entity{kind: entType, name: name, t: t}
	}
	impl.global.names[cgPrefix+"thread_block_tile"] = &entity{kind: entType, name: cgPrefix + "thread_block_tile", t: invalidType}
	impl.global.names[cudaPrefix+"atomic_ref"] = &entity{kind: entType, name: cudaPrefix + "atomic_ref", t: invalidType}
	impl.global.names[cudaPrefix+"atomic"] = &entity{kind: entType, name: cudaPrefix + "atomic", t: invalidType}
	for name, k := range cudaConsts {
		impl.global.names[cudaPrefix+name] = &entity{kind: entConst, name: cudaPrefix + name, val: k}
	}
	defer func() {
		if r := recover(); r != nil {
			prog = nil
			err = fmt.Errorf("cudac: internal compiler error compiling %s: %v\n%s", filename, r, debug.Stack())
		}
	}()
	func() {
		defer catchBailout()
		toks := lex(src, d)
		if d.count() > 0 {
			return
		}
		toks, impl.macros, impl.includes = preprocess(toks, d, o)
		impl.files = d.files
		impl.lineNotes = d.lineNotes
		if d.count() > 0 {
			return
		}
		toks = resolveNamespaces(toks, d)
		toks = resolveCuda(toks, d)
		toks = flattenNamespaces(toks)
		if d.count() > 0 {
			return
		}
		toks, impl.hostSpans, impl.hostNames = stripHost(toks, d)
		items := parseFile(toks, d, impl.hostNames)
		if d.count() > 0 {
			return
		}
		c := newChecker(impl, prog, d)
		c.file(items)
	}()
	if err := d.err(); err != nil {
		return nil, err
	}
	return prog, nil
}

func newChecker(impl *programImpl, prog *Program, d *diags) *checker {
	return &checker{impl: impl, prog: prog, d: d, scope: impl.global,
		structs: map[*sStruct]*Type{}, enumDefs: map[*sEnum]*Type{}}
}

func (c *checker) errorf(pos Pos, format string, args ...any) {
	c.d.errorf(pos, format, args...)
}

// ---- scopes ----

func (c *checker) openScope()  { c.scope = newScope(c.scope) }
func (c *checker) closeScope() { c.scope = c.scope.parent }

func (c *checker) lookup(name string) *entity {
	for s := c.scope; s != nil; s = s.parent {
		if e := s.names[name]; e != nil {
			if s.global && c.seqLimit > 0 && e.seq >= c.seqLimit {
				continue
			}
			return e
		}
	}
	return nil
}

// declare adds e to the current scope, reporting a redefinition.
func (c *checker) declare(e *entity) bool {
	if e.name == "" {
		return true
	}
	if old := c.scope.names[e.name]; old != nil {
		if e.kind == entType && old.kind == entType && old.t != nil && e.t != nil && Identical(old.t, e.t) &&
			old.tconst == e.tconst && old.tvol == e.tvol {
			// typedef int T; typedef int T; is allowed (C++ [dcl.typedef]):
			// a header read twice without a guard does it.
			return true
		}
		c.errorf(e.pos, "redefinition of '%s'%s", e.name, c.prevDecl(old))
		return false
	}
	if c.scope.global {
		c.impl.seq++
		e.seq = c.impl.seq
	}
	c.scope.names[e.name] = e
	return true
}

func (c *checker) prevDecl(e *entity) string {
	if e.pos.IsValid() {
		return fmt.Sprintf(" (previously declared at line %d)", e.pos.Line)
	}
	return ""
}

// visibleNames lists the names a misspelt identifier might have meant.
func (c *checker) visibleNames(values bool) []string {
	var names []string
	for s := c.scope; s != nil; s = s.parent {
		for name, e := range s.names {
			if values == (e.kind != entType) {
				names = append(names, name)
			}
		}
	}
	if values {
		names = append(names, "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize")
		for name := range builtinFuncs {
			names = append(names, name)
		}
	}
	return names
}

// suggest returns " (did you mean 'x'?)" for the closest of names, or "".
func suggest(name string, names []string) string {
	best, bestD := "", 0
	limit := min(3, max(1, len(name)/3))
	if len(name) <= 2 {
		limit = 0 // only a difference of case
	}
	sort.Strings(names)
	for _, n := range names {
		if n == name {
			continue
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(n))
		if strings.EqualFold(n, name) {
			d = 0
		}
		if d <= limit && (best == "" || d < bestD) {
			best, bestD = n, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean '%s'?)", best)
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		if a == b {
			return 0
		}
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev[j-2]+1) // transposition (approximate)
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// ---- file scope ----

func (c *checker) file(items []sNode) {
	for _, it := range items {
		switch x := it.(type) {
		case *sFunc:
			c.funcDecl(x)
		case *sDecl:
			switch st := x.Spec.Struct; {
			case st != nil && st.Tmpl != nil:
				c.structTemplateDecl(st)
			case st != nil && st.HasT:
				c.structSpecialization(st)
			default:
				c.globalDecl(x)
			}
		case *sStaticAssert:
			c.staticAssert(x)
		case *sUsing:
			c.usingDecl(x)
		}
	}
	// Kernels must have bodies: they are what the backends launch.
	for _, k := range c.impl.kernels {
		switch {
		case k.fn != nil && k.fn.Body == nil:
			c.errorf(k.fn.P, "kernel '%s' is declared but never defined", k.fn.Name)
		case k.tm != nil && k.tm.decl.Body == nil:
			c.errorf(k.tm.pos, "kernel template '%s' is declared but never defined", k.tm.name)
		}
	}
	// Functions called but never defined.
	for _, e := range c.impl.global.names {
		if e.kind == entFunc && e.fn.def == nil {
			for _, u := range e.fn.uses {
				c.errorf(u, "function '%s' is declared but never defined", e.name)
			}
		}
	}
	c.checkRecursion(c.prog.Funcs...)
}

// checkRecursion reports the call cycles reachable from roots, each once.
func (c *checker) checkRecursion(roots ...*Func) {
	state := map[*Func]int{} // 1 on the stack, 2 done
	var visit func(f *Func)
	visit = func(f *Func) {
		state[f] = 1
		for _, cs := range c.impl.calls[f] {
			switch state[cs.callee] {
			case 1:
				c.errorf(cs.pos, "recursive call to '%s' is not supported", cs.callee.Name)
			case 0:
				visit(cs.callee)
			}
		}
		state[f] = 2
	}
	for _, f := range roots {
		if state[f] == 0 {
			visit(f)
		}
	}
}

func (c *checker) staticAssert(s *sStaticAssert) {
	x := c.expr(s.X)
	if isBad(x) {
		return
	}
	k, ok := x.(*Const)
	if !ok || !k.T.IsScalar() {
		c.errorf(startPos(s.X), "static_assert expression is not an integral constant expression")
		return
	}
	if constTruth(k) {
		return
	}
	if s.Msg != "" {
		c.errorf(s.P, "static assertion failed: %s", s.Msg)
	} else {
		c.errorf(s.P, "static assertion failed")
	}
}

func (c *checker) usingDecl(u *sUsing) {
	t, cst, vol := c.typeName(u.T)
	if t == nil {
		return
	}
	c.declare(&entity{kind: entType, name: u.Name, pos: u.P, t: t, tconst: cst, tvol: vol})
}

// globalDecl checks a file-scope declaration that is not a function.
func (c *checker) globalDecl(d *sDecl) {
	spec := d.Spec
	base, bconst, bvol := c.specType(spec)
	if base == nil {
		return
	}
	if spec.Typedef {
		c.typedefs(d, base, bconst, bvol)
		return
	}
	if spec.Global || spec.Host && !spec.Device {
		c.errorf(spec.P, "__global__ and __host__ apply to functions, not variables")
		return
	}
	for _, dc := range d.Decls {
		t, cst, vol := c.declType(base, bconst, bvol, dc.Ptrs, dc.Dims, dc.P)
		if t == nil {
			c.poison(dc.Name, dc.P)
			continue
		}
		errs := c.d.count()
		switch {
		case spec.Shared:
			c.errorf(dc.P, "__shared__ variables must be declared inside a function ('%s')", dc.Name)
		case spec.Device || spec.Constant:
			c.globalVar(spec, dc, t, cst, vol)
		case spec.Constexpr || cst:
			c.namedConst(spec, dc, t)
		default:
			c.errorf(dc.P, "file-scope variable '%s' needs __device__ or __constant__ (host variables are not supported)", dc.Name)
		}
		if c.d.count() > errs {
			c.poison(dc.Name, dc.P)
		}
	}
}

func (c *checker) typedefs(d *sDecl, base *Type, bconst, bvol bool) {
	for _, dc := range d.Decls {
		t, cst, vol := c.declType(base, bconst, bvol, dc.Ptrs, dc.Dims, dc.P)
		if t == nil {
			continue
		}
		if t.Kind == Struct && t.Struct.Name == "" {
			t.Struct.Name = dc.Name
		}
		c.declare(&entity{kind: entType, name: dc.Name, pos: dc.P, t: t, tconst: cst, tvol: vol})
	}
}

// namedConst declares a file-scope constexpr or const scalar: its uses fold
// to its value.
func (c *checker) namedConst(spec *declSpec, dc *declarator, t *Type) {
	if t.Kind == Array || t.Kind == Struct {
		c.errorf(dc.P, "constexpr and const arrays and structs at file scope are not supported; use __constant__ for '%s'", dc.Name)
		return
	}
	if dc.Init == nil {
		c.errorf(dc.P, "constant '%s' needs an initializer", dc.Name)
		return
	}
	if t.Kind == Invalid {
		// auto
		x := c.expr(dc.Init)
		t = x.Type()
	}
	x := c.initScalar(dc.Init, t, "in initialization")
	if isBad(x) {
		return
	}
	k, ok := x.(*Const)
	if !ok {
		c.errorf(startPos(dc.Init), "initializer of '%s' is not a constant expression", dc.Name)
		return
	}
	k = &Const{P: k.P, T: t, Int: k.Int, Float: k.Float}
	c.declare(&entity{kind: entConst, name: dc.Name, pos: dc.P, val: k})
}

// ConstantBankBytes is the size of the constant bank that __constant__
// variables share, 64 KB on every CUDA GPU: a program whose __constant__
// variables take more is refused (ptxas: "too much global constant data").
const ConstantBankBytes = 64 << 10

// constantBank counts v, a __constant__ variable, against the 64 KB bank
// and reports whether it fits with those declared before it, each at its
// type's alignment.
func (c *checker) constantBank(v *Var) bool {
	size := v.T.Size()
	align := max(v.T.Align(), 1)
	start := (c.impl.constBytes + align - 1) / align * align
	if size > ConstantBankBytes || start+size > ConstantBankBytes {
		what := fmt.Sprintf("'%s' is %d bytes", v.Name, size)
		if start > 0 {
			what += fmt.Sprintf(", after %d bytes of __constant__ variables before it", start)
		}
		c.errorf(v.P, "__constant__ variables take at most %d bytes (64 KB, the constant bank): %s", ConstantBankBytes, what)
		return false
	}
	c.impl.constBytes = start + size
	return true
}

// globalVar declares a __device__ or __constant__ variable.
func (c *checker) globalVar(spec *declSpec, dc *declarator, t *Type, cst, vol bool) {
	if spec.Extern {
		c.errorf(dc.P, "extern __device__ and __constant__ variables are not supported")
		return
	}
	if t.Kind == Void || t.Kind == Invalid {
		c.errorf(dc.P, "variable '%s' has an invalid type '%s'", dc.Name, t)
		return
	}
	if t.Kind == Array && t.Len < 0 {
		if l, ok := dc.Init.(*sInitList); ok {
			t = c.arrayFromInit(t, cst, l)
		} else {
			c.errorf(dc.P, "array '%s' needs a size", dc.Name)
			return
		}
	}
	v := &Var{Name: dc.Name, T: t, P: dc.P, Space: SpaceGlobal, Const: cst}
	if spec.Constant {
		v.Space = SpaceConstant
		if !c.constantBank(v) {
			return
		}
	}
	if t.AtomicObj && (spec.Constant || cst) {
		c.errorf(dc.P, "a cuda::atomic must be a __device__ variable that is not const or __constant__")
		return
	}
	if dc.Init != nil && t.AtomicObj {
		v.Init = c.constInit(dc.Init, t.Elem, dc.Name)
	} else if dc.Init != nil {
		v.Init = c.constInit(dc.Init, t, dc.Name)
	} else if cst {
		c.errorf(dc.P, "const variable '%s' needs an initializer", dc.Name)
	}
	if !c.declare(&entity{kind: entVar, name: dc.Name, pos: dc.P, v: v}) {
		return
	}
	if vol {
		c.impl.volatiles[v] = true
	}
	c.prog.Globals = append(c.prog.Globals, v)
}

// constInit evaluates the constant initialiser of a file-scope variable:
// one value per scalar leaf, trailing zeros dropped.
func (c *checker) constInit(init sExpr, t *Type, name string) []*Const {
	var list []Expr
	if t.Kind == Array || t.Kind == Struct {
		l, ok := init.(*sInitList)
		if !ok {
			c.errorf(startPos(init), "an array or struct variable needs a brace initializer")
			return nil
		}
		list = c.aggregateInit(l, t)
	} else {
		list = []Expr{c.initScalar(init, t, "in initialization")}
	}
	out := make([]*Const, 0, len(list))
	for _, x := range list {
		if isBad(x) {
			return nil
		}
		k, ok := x.(*Const)
		if !ok {
			c.errorf(x.Pos(), "initializer of '%s' is not a constant expression", name)
			return nil
		}
		out = append(out, k)
	}
	for len(out) > 0 && isZeroConst(out[len(out)-1]) {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// ---- functions ----

// funcDecl checks a function declaration or definition at file scope.
func (c *checker) funcDecl(f *sFunc) {
	spec := f.Spec
	switch {
	case f.ExplInt:
		c.explicitInstantiation(f)
		return
	case spec.Typedef:
		c.errorf(f.P, "function typedefs are not supported")
		return
	case spec.Shared || spec.Constant:
		c.errorf(f.P, "__shared__ and __constant__ apply to variables, not functions")
		return
	case spec.Global && (spec.Device || spec.Host):
		c.errorf(f.P, "a __global__ function cannot also be __device__ or __host__")
		return
	case !spec.Global && !spec.Device:
		c.errorf(f.P, "host function '%s' is not supported (mark it __device__ or __global__)", f.Name)
		return
	case f.Spec0:
		c.funcSpecialization(f)
		return
	case f.HasT:
		c.errorf(f.P, "an explicit specialization needs 'template <>' before it")
		return
	}
	if builtinFuncs[f.Name] != nil || isBuiltinVarName(f.Name) {
		c.errorf(f.P, "'%s' is a built-in and cannot be redefined", f.Name)
		return
	}
	if f.Tmpl != nil {
		c.templateDecl(f)
		return
	}
	result, params, defaults, ok := c.signature(f)
	if !ok {
		return
	}
	if spec.Global && result.Kind != Void {
		c.errorf(f.Result.P, "a __global__ function must return void ('%s' returns '%s')", f.Name, result)
		return
	}
	var fi *funcInfo
	if old := c.scope.names[f.Name]; old != nil {
		if old.kind != entFunc {
			c.errorf(f.P, "redefinition of '%s' as a function%s", f.Name, c.prevDecl(old))
			return
		}
		fi = old.fn
		if !sameSignature(fi, f, result, params) {
			c.errorf(f.P, "conflicting declaration of '%s' (overloaded functions are not supported)%s", f.Name, c.prevDecl(old))
			return
		}
		if f.Body != nil && fi.def != nil {
			c.errorf(f.P, "redefinition of '%s'%s", f.Name, c.prevDecl(old))
			return
		}
		for i, d := range defaults {
			if d != nil {
				fi.defaults[i] = d
			}
		}
	} else {
		fi = &funcInfo{decl: f, params: params, defaults: defaults,
			fn: newFunc(f, f.Name, spec.Global, result, params)}
		fi.fn.Defaults = defaults
		c.declare(&entity{kind: entFunc, name: f.Name, pos: f.P, fn: fi})
		if spec.Global {
			c.impl.kernels = append(c.impl.kernels, kernelEntry{name: f.Name, fn: fi.fn})
		}
	}
	if f.Body == nil {
		return
	}
	fi.def = f
	fi.fn.P = f.P
	c.prog.Funcs = append(c.prog.Funcs, fi.fn)
	c.funcBody(fi.fn, f, nil)
}

// newFunc makes the Func of a declaration, with its parameters.
func newFunc(f *sFunc, name string, kernel bool, result *Type, params []*Type) *Func {
	fn := &Func{Name: name, P: f.P, Kernel: kernel, Result: result}
	for i, t := range params {
		fn.Params = append(fn.Params, &Var{Name: paramName(f, i), T: t, P: f.Params[i].P, Space: SpaceParam})
		fn.refs = append(fn.refs, isMutRef(f.Params[i]))
	}
	return fn
}

// isMutRef reports whether a parameter is a non-const reference (T& x),
// passed by address. A const reference (const T& x) is passed by value:
// the callee cannot write through it, and nothing else can while it runs.
func isMutRef(prm *sParam) bool {
	return prm.D != nil && prm.D.Ref && !(prm.Spec.Const && len(prm.D.Ptrs) == 0)
}

func paramName(f *sFunc, i int) string {
	if d := f.Params[i].D; d != nil {
		return d.Name
	}
	return ""
}

func sameSignature(fi *funcInfo, f *sFunc, result *Type, params []*Type) bool {
	if fi.decl.Spec.Global != f.Spec.Global || !Identical(fi.fn.Result, result) || len(fi.params) != len(params) {
		return false
	}
	for i := range params {
		if !Identical(fi.params[i], params[i]) {
			return false
		}
	}
	return true
}

// signature resolves a function's result and parameter types, and the
// constant values of default arguments.
func (c *checker) signature(f *sFunc) (result *Type, params []*Type, defaults []*Const, ok bool) {
	result, _, _ = c.typeName(f.Result)
	if result == nil {
		return nil, nil, nil, false
	}
	if result.Kind == Array {
		c.errorf(f.P, "functions cannot return arrays")
		return nil, nil, nil, false
	}
	if result.Kind == Invalid {
		c.errorf(f.Result.P, "'auto' return types are not supported")
		return nil, nil, nil, false
	}
	ok = true
	seen := map[string]bool{}
	for _, prm := range f.Params {
		if f.Spec.Global && prm.D != nil && prm.D.Ref {
			c.errorf(prm.P, "a kernel parameter cannot be a reference ('%s'); pass a pointer", paramNameOf(prm))
			ok = false
			continue
		}
		t := c.paramType(prm)
		if t == nil {
			ok = false
			continue
		}
		if prm.D != nil && prm.D.Name != "" {
			if seen[prm.D.Name] {
				c.errorf(prm.D.P, "redefinition of parameter '%s'", prm.D.Name)
				ok = false
			}
			seen[prm.D.Name] = true
		}
		params = append(params, t)
		var def *Const
		if prm.Default != nil {
			x := c.convertTo(c.expr(prm.Default), t, "in default argument")
			if k, isK := x.(*Const); isK {
				def = k
			} else if !isBad(x) {
				c.errorf(startPos(prm.Default), "default arguments must be constant expressions")
				ok = false
			}
		} else if len(defaults) > 0 && defaults[len(defaults)-1] != nil {
			c.errorf(prm.P, "missing default argument on parameter '%s'", paramNameOf(prm))
			ok = false
		}
		defaults = append(defaults, def)
	}
	return result, params, defaults, ok
}

func paramNameOf(prm *sParam) string {
	if prm.D != nil {
		return prm.D.Name
	}
	return ""
}

// paramType resolves a parameter's type, adjusting arrays to pointers.
func (c *checker) paramType(prm *sParam) *Type {
	t, _, _ := c.paramDecl(prm)
	return t
}

// paramDecl resolves a parameter's type and whether the parameter itself
// is const or volatile.
func (c *checker) paramDecl(prm *sParam) (*Type, bool, bool) {
	if prm.Spec.Shared || prm.Spec.Constant || prm.Spec.Global || prm.Spec.Device || prm.Spec.Static || prm.Spec.Extern {
		c.errorf(prm.P, "storage qualifiers are not allowed on parameters")
		return nil, false, false
	}
	base, bconst, bvol := c.specType(prm.Spec)
	if base == nil {
		return nil, false, false
	}
	d := prm.D
	dims := d.Dims
	ptrs := d.Ptrs
	if len(dims) > 0 {
		// T a[N] and T a[] are T* a.
		ptrs = append(append([]ptrQual(nil), ptrs...), ptrQual{P: dims[0].P})
		dims = dims[1:]
		if len(dims) > 0 {
			c.errorf(dims[0].P, "multi-dimensional array parameters are not supported; pass a pointer")
			return nil, false, false
		}
	}
	t, cst, vol := c.declType(base, bconst, bvol, ptrs, dims, d.P)
	if t == nil {
		return nil, false, false
	}
	if isMutRef(prm) {
		if t.Kind == Invalid || t.Kind == Void {
			c.errorf(prm.P, "reference parameter '%s' needs a type", d.Name)
			return nil, false, false
		}
		return &Type{Kind: Pointer, Elem: t, Volatile: vol}, false, false
	}
	switch t.Kind {
	case Void:
		c.errorf(prm.P, "parameter '%s' cannot have type void", d.Name)
		return nil, false, false
	case Invalid:
		c.errorf(prm.P, "'auto' parameters are not supported")
		return nil, false, false
	}
	return t, cst, vol
}

// funcBody checks a function body. binds are template parameter values.
func (c *checker) funcBody(fn *Func, f *sFunc, binds []*entity) {
	sub := &checker{impl: c.impl, prog: c.prog, d: c.d, scope: newScope(c.impl.global),
		seqLimit: c.seqLimit, fn: fn, fname: fn.Name, structs: map[*sStruct]*Type{},
		enumDefs: map[*sEnum]*Type{}, depth: c.depth, late: c.late}
	for _, b := range binds {
		sub.scope.names[b.name] = b
	}
	sub.openScope()
	params := make([]*Var, len(f.Params))
	for i, prm := range f.Params {
		old := fn.Params[i]
		_, cst, vol := sub.paramDecl(prm)
		v := &Var{Name: paramName(f, i), T: old.T, P: prm.P, Space: SpaceParam, Const: cst}
		params[i] = v
		if vol {
			c.impl.volatiles[v] = true
		}
		if v.Name != "" {
			sub.declare(&entity{kind: entVar, name: v.Name, pos: v.P, v: v, ref: isMutRef(prm)})
		}
	}
	fn.Params = params
	fn.Body = &Block{P: f.Body.P}
	fn.Body.Stmts = sub.stmts(f.Body.Stmts)
	c.impl.calls[fn] = sub.calls
}
