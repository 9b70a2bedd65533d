package cudac

import (
	"fmt"
	"strings"
)

// This file is <cuda/atomic>'s subset: cuda::atomic_ref<T, Scope> with
// its member functions, the cuda::memory_order_* and cuda::thread_scope_*
// constants, and cuda::atomic_thread_fence. Like the cooperative groups
// names, a qualified name cuda::X (or cuda::std::X) becomes one token
// spelled "cuda::X" before parsing. An atomic_ref's value is the address
// of the object it refers to (a Type with AtomicRef set, Kind Uint64);
// every member call is lowered here to a built-in on that address that
// carries the scope and the memory order: load and store are AtomicLoad
// and AtomicStore, the read-modify-writes the atomic* built-ins, and
// compare_exchange a function the program makes around AtomicCAS.

const cudaPrefix = "cuda::"

// cudaNames are the names of namespace cuda (and cuda::std) the subset
// knows.
var cudaNames = map[string]bool{
	"atomic_ref": true, "atomic": true, "atomic_thread_fence": true,
	"thread_scope_thread": true, "thread_scope_block": true, "thread_scope_device": true, "thread_scope_system": true,
	"memory_order_relaxed": true, "memory_order_consume": true, "memory_order_acquire": true,
	"memory_order_release": true, "memory_order_acq_rel": true, "memory_order_seq_cst": true,
}

// memoryOrderType and threadScopeType are the types of the constants.
var (
	memoryOrderType = &Type{Kind: Int32, Name: "cuda::memory_order"}
	threadScopeType = &Type{Kind: Int32, Name: "cuda::thread_scope"}
)

// cudaConsts are the constants' values: a MemoryOrder or a Scope.
var cudaConsts = map[string]*Const{
	"memory_order_relaxed": {T: memoryOrderType, Int: int64(OrderRelaxed)},
	"memory_order_consume": {T: memoryOrderType, Int: int64(OrderAcquire)},
	"memory_order_acquire": {T: memoryOrderType, Int: int64(OrderAcquire)},
	"memory_order_release": {T: memoryOrderType, Int: int64(OrderRelease)},
	"memory_order_acq_rel": {T: memoryOrderType, Int: int64(OrderAcqRel)},
	"memory_order_seq_cst": {T: memoryOrderType, Int: int64(OrderSeqCst)},
	"thread_scope_thread":  {T: threadScopeType, Int: int64(ScopeThread)},
	"thread_scope_block":   {T: threadScopeType, Int: int64(ScopeBlock)},
	"thread_scope_device":  {T: threadScopeType, Int: int64(ScopeDevice)},
	"thread_scope_system":  {T: threadScopeType, Int: int64(ScopeSystem)},
}

func cudaNameList() string {
	return "atomic_ref, atomic (as a __device__ variable), atomic_thread_fence, thread_scope_{thread,block,device,system} and memory_order_{relaxed,consume,acquire,release,acq_rel,seq_cst}"
}

// resolveCuda rewrites cuda::X and cuda::std::X to one token "cuda::X".
func resolveCuda(toks []token, d *diags) []token {
	out := make([]token, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == tIdent && t.text == "cuda" && i+2 < len(toks) && toks[i+1].kind == tColonColon &&
			(len(out) == 0 || out[len(out)-1].kind != tColonColon && out[len(out)-1].kind != tDot && out[len(out)-1].kind != tArrow) {
			j := i + 2
			if toks[j].kind == tIdent && toks[j].text == "std" && j+2 < len(toks) && toks[j+1].kind == tColonColon {
				j += 2
			}
			name := toks[j]
			if name.kind == tIdent {
				if !cudaNames[name.text] {
					d.errorf(d.tpos(t), "'cuda::%s' is not supported (the <cuda/atomic> subset has %s)", name.text, cudaNameList())
				}
				q := t
				q.text = cudaPrefix + name.text
				q.end = name.end
				out = append(out, q)
				i = j
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// atomicRefType is cuda::atomic_ref<elem, scope>.
func atomicRefType(elem *Type, scope Scope) *Type {
	return &Type{Kind: Uint64, Elem: elem, AtomicRef: true, RefScope: scope,
		Name: fmt.Sprintf("cuda::atomic_ref<%s, cuda::thread_scope_%s>", elem, scope)}
}

// atomicObjType is cuda::atomic<elem, scope>.
func atomicObjType(elem *Type, scope Scope) *Type {
	return &Type{Kind: elem.Kind, Elem: elem, AtomicObj: true, RefScope: scope,
		Name: fmt.Sprintf("cuda::atomic<%s, cuda::thread_scope_%s>", elem, scope)}
}

// atomicRefSpecType resolves cuda::atomic_ref<T> and
// cuda::atomic_ref<T, Scope> (the scope defaults to system, as in
// libcu++), and cuda::atomic<T, Scope> when obj is set.
func (c *checker) atomicRefSpecType(s *declSpec, obj bool) *Type {
	what := "cuda::atomic_ref"
	if obj {
		what = "cuda::atomic"
	}
	if len(s.TArgs) < 1 || len(s.TArgs) > 2 {
		c.errorf(s.NamePos, "'%s' takes a type and a scope (%s<int, cuda::thread_scope_device>)", what, what)
		return nil
	}
	ta, ok := s.TArgs[0].(*sTypeArg)
	if !ok {
		c.errorf(startPos(s.TArgs[0]), "the first argument of '%s' must be a type", what)
		return nil
	}
	elem, _, _ := c.typeName(ta.T)
	if elem == nil {
		return nil
	}
	switch {
	case elem.IsInteger() && elem.Kind != Bool && elem.Size() >= 4, elem.Kind == Float32, elem.Kind == Float64:
	default:
		c.errorf(ta.P, "'%s<%s>' is not supported (the element must be a 32- or 64-bit integer, float or double)", what, elem)
		return nil
	}
	scope := ScopeSystem
	if len(s.TArgs) == 2 {
		k, ok := c.cudaConst(s.TArgs[1], threadScopeType, "the scope of '"+what+"'")
		if !ok {
			return nil
		}
		scope = Scope(k)
	}
	if obj {
		return atomicObjType(ScalarType(elem.Kind), scope)
	}
	return atomicRefType(ScalarType(elem.Kind), scope)
}

// cudaConst checks that x is a constant of type t (a memory order or a
// scope) and returns its value.
func (c *checker) cudaConst(sx sExpr, t *Type, what string) (int64, bool) {
	x := c.expr(sx)
	if isBad(x) {
		return 0, false
	}
	k, ok := x.(*Const)
	if !ok || x.Type().Name != t.Name {
		prefix := "memory_order_"
		if t == threadScopeType {
			prefix = "thread_scope_"
		}
		c.errorf(x.Pos(), "%s must be a constant %s (cuda::%s...), not '%s'", what, t.Name, prefix, x.Type())
		return 0, false
	}
	return k.Int, true
}

// bindAtomicRef checks the object an atomic_ref is made from: an lvalue of
// its element type, not const. The value is its address.
func (c *checker) bindAtomicRef(x Expr, t *Type) Expr {
	xt := x.Type()
	if !isLvalue(x) || !Identical(ScalarType(xt.Kind), t.Elem) || xt.Kind == Pointer || xt.Group != NotGroup || xt.AtomicRef {
		c.errorf(x.Pos(), "'%s' must be made from an object of type '%s' (a variable, an element or *p), not '%s'", t, t.Elem, xt)
		return badExpr(x.Pos())
	}
	if c.isConstLvalue(x) {
		c.errorf(x.Pos(), "'%s' cannot refer to a const object", t)
		return badExpr(x.Pos())
	}
	addr := c.addrOf(x.Pos(), x)
	if isBad(addr) {
		return addr
	}
	return &Conv{P: x.Pos(), X: addr, T: t}
}

// atomicRefPtr is the address an atomic_ref holds, as a T*.
func atomicRefPtr(r Expr) Expr {
	return &Conv{P: r.Pos(), X: r, T: PointerTo(r.Type().Elem, false)}
}

// atomicRefRMW maps the read-modify-write members to built-ins.
var atomicRefRMW = map[string]Builtin{
	"fetch_add": AtomicAdd, "fetch_sub": AtomicSub, "fetch_and": AtomicAnd, "fetch_or": AtomicOr,
	"fetch_xor": AtomicXor, "fetch_min": AtomicMin, "fetch_max": AtomicMax, "exchange": AtomicExch,
}

var atomicRefMethods = []string{"load", "store", "exchange", "compare_exchange_strong", "compare_exchange_weak",
	"fetch_add", "fetch_sub", "fetch_and", "fetch_or", "fetch_xor", "fetch_min", "fetch_max"}

// atomicRefMethod checks r.f(args) on an atomic_ref r.
func (c *checker) atomicRefMethod(e *sCall, m *sMember, r Expr) Expr {
	t := r.Type()
	elem := t.Elem
	if e.HasT || m.Arrow {
		c.errorf(m.NamePos, "'%s' is not a pointer and its members are not templates", t)
		c.args(e.Args)
		return badExpr(e.P)
	}
	name := m.Name
	nOrders := 1
	var nVals int
	switch name {
	case "load":
	case "store", "exchange":
		nVals = 1
	case "compare_exchange_strong", "compare_exchange_weak":
		nVals, nOrders = 2, 2
	default:
		if _, ok := atomicRefRMW[name]; !ok {
			c.errorf(m.NamePos, "no member '%s' in '%s' (the subset has %s)", name, t, strings.Join(atomicRefMethods, ", "))
			c.args(e.Args)
			return badExpr(e.P)
		}
		nVals = 1
	}
	full := "cuda::atomic_ref::" + name
	if len(e.Args) < nVals || len(e.Args) > nVals+nOrders {
		c.errorf(e.P, "'%s' takes %d value argument%s and up to %d memory order%s, not %d arguments", full, nVals, plural(nVals), nOrders, plural(nOrders), len(e.Args))
		c.args(e.Args)
		return badExpr(e.P)
	}
	order := OrderSeqCst
	var orders []MemoryOrder
	for _, a := range e.Args[nVals:] {
		k, ok := c.cudaConst(a, memoryOrderType, "the memory order of '"+full+"'")
		if !ok {
			return badExpr(e.P)
		}
		orders = append(orders, MemoryOrder(k))
	}
	if len(orders) > 0 {
		order = orders[0]
	}
	switch {
	case name == "load" && (order == OrderRelease || order == OrderAcqRel):
		c.errorf(e.P, "a load cannot have memory order %s", order)
		return badExpr(e.P)
	case name == "store" && (order == OrderAcquire || order == OrderAcqRel):
		c.errorf(e.P, "a store cannot have memory order %s", order)
		return badExpr(e.P)
	}
	ptr := atomicRefPtr(r)
	call := &BuiltinCall{P: e.P, Elem: elem, Scope: t.RefScope, Order: order}
	switch name {
	case "load":
		call.Builtin, call.T, call.Args = AtomicLoad, elem, []Expr{ptr}
		return call
	case "store":
		v := c.convertTo(c.expr(e.Args[0]), elem, "in argument 1 of '"+full+"'")
		if isBad(v) {
			return v
		}
		call.Builtin, call.T, call.Args = AtomicStore, voidType, []Expr{ptr, v}
		return call
	case "compare_exchange_strong", "compare_exchange_weak":
		return c.atomicRefCAS(e, full, r, order)
	}
	b := atomicRefRMW[name]
	v := c.convertTo(c.expr(e.Args[0]), elem, "in argument 1 of '"+full+"'")
	if isBad(v) {
		return v
	}
	if b == AtomicSub && elem.IsFloat() {
		b, v = AtomicAdd, &Unary{P: v.Pos(), Op: Neg, X: v, T: elem}
	}
	kinds := map[Builtin][]Kind{AtomicAdd: atomicAddKinds, AtomicSub: atomicSubKinds, AtomicAnd: atomicBitKinds,
		AtomicOr: atomicBitKinds, AtomicXor: atomicBitKinds, AtomicMin: atomicMinKinds, AtomicMax: atomicMinKinds,
		AtomicExch: atomicExchKinds}[b]
	if !kindIn(elem.Kind, kinds) {
		c.errorf(m.NamePos, "'%s' on '%s' is not supported (the simulator has it for %s)", full, t, kindList(kinds))
		return badExpr(e.P)
	}
	call.Builtin, call.T, call.Args = b, elem, []Expr{ptr, v}
	return call
}

func kindIn(k Kind, kinds []Kind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

func kindList(kinds []Kind) string {
	var s []string
	for _, k := range kinds {
		s = append(s, k.String())
	}
	return strings.Join(s, ", ")
}

// atomicRefCAS checks r.compare_exchange_strong(expected, desired[, order
// [, failure]]): a call of a function the program makes once per element
// type, scope and order,
//
//	bool f(T* p, T& expected, T desired) {
//	    T old = atomicCAS(p, expected, desired);
//	    bool ok = old == expected;
//	    expected = old;
//	    return ok;
//	}
//
// (weak is strong: a weak exchange may fail spuriously, never must).
func (c *checker) atomicRefCAS(e *sCall, full string, r Expr, order MemoryOrder) Expr {
	t := r.Type()
	elem := t.Elem
	if !kindIn(elem.Kind, atomicCASKinds) {
		c.errorf(e.P, "'%s' on '%s' is not supported (the simulator has it for %s)", full, t, kindList(atomicCASKinds))
		return badExpr(e.P)
	}
	exp := c.lvalue(e.Args[0])
	if isBad(exp) {
		return exp
	}
	if !isLvalue(exp) || !Identical(exp.Type(), elem) || c.isConstLvalue(exp) {
		c.errorf(exp.Pos(), "the expected value of '%s' must be a modifiable '%s' variable (it receives the value found), not '%s'", full, elem, exp.Type())
		return badExpr(e.P)
	}
	des := c.convertTo(c.expr(e.Args[1]), elem, "in argument 2 of '"+full+"'")
	if isBad(des) {
		return des
	}
	name := fmt.Sprintf("__cuda_atomic_ref_cas_%s_%s_%s", strings.ReplaceAll(elem.String(), " ", "_"), t.RefScope, order)
	fn := c.impl.cgFuncs[name]
	if fn == nil {
		p := e.P
		ptrT := PointerTo(elem, false)
		pv := &Var{Name: "p", T: ptrT, P: p, Space: SpaceParam}
		ev := &Var{Name: "expected", T: PointerTo(elem, false), P: p, Space: SpaceParam}
		dv := &Var{Name: "desired", T: elem, P: p, Space: SpaceParam}
		old := &Var{Name: "old", T: elem, P: p}
		ok := &Var{Name: "ok", T: boolType, P: p}
		expected := &Deref{P: p, X: &VarRef{P: p, Var: ev}}
		cas := &BuiltinCall{P: p, Builtin: AtomicCAS, Elem: elem, T: elem, Scope: t.RefScope, Order: order,
			Args: []Expr{&VarRef{P: p, Var: pv}, expected, &VarRef{P: p, Var: dv}}}
		fn = &Func{Name: name, P: p, Result: boolType, Params: []*Var{pv, ev, dv}}
		fn.Body = &Block{P: p, Stmts: []Stmt{
			&DeclStmt{P: p, Var: old, Init: cas},
			&DeclStmt{P: p, Var: ok, Init: &Binary{P: p, Op: Eq, X: &VarRef{P: p, Var: old}, Y: expected, T: boolType}},
			&ExprStmt{P: p, X: &Assign{P: p, LHS: expected, RHS: &VarRef{P: p, Var: old}}},
			&Return{P: p, X: &VarRef{P: p, Var: ok}},
		}}
		if c.impl.cgFuncs == nil {
			c.impl.cgFuncs = map[string]*Func{}
		}
		c.impl.cgFuncs[name] = fn
	}
	return &Call{P: e.P, Func: fn, Args: []Expr{atomicRefPtr(r), c.addrOf(exp.Pos(), exp), des}}
}

// cudaCall checks a call of a cuda:: function: atomic_thread_fence(order
// [, scope]).
func (c *checker) cudaCall(e *sCall, name string) Expr {
	if name != "atomic_thread_fence" {
		c.errorf(e.P, "'cuda::%s' is not a function", name)
		c.args(e.Args)
		return badExpr(e.P)
	}
	if len(e.Args) < 1 || len(e.Args) > 2 {
		c.errorf(e.P, "'cuda::atomic_thread_fence' takes a memory order and a scope, not %d arguments", len(e.Args))
		c.args(e.Args)
		return badExpr(e.P)
	}
	k, ok := c.cudaConst(e.Args[0], memoryOrderType, "the memory order of 'cuda::atomic_thread_fence'")
	if !ok {
		return badExpr(e.P)
	}
	scope := ScopeSystem
	if len(e.Args) == 2 {
		s, ok := c.cudaConst(e.Args[1], threadScopeType, "the scope of 'cuda::atomic_thread_fence'")
		if !ok {
			return badExpr(e.P)
		}
		scope = Scope(s)
	}
	b := map[Scope]Builtin{ScopeBlock: ThreadFenceBlock, ScopeDevice: ThreadFence, ScopeSystem: ThreadFenceSystem, ScopeThread: ThreadFenceBlock}[scope]
	return &BuiltinCall{P: e.P, Builtin: b, T: voidType, Scope: scope, Order: MemoryOrder(k)}
}
