package cudac

import "fmt"

// This file defines CUDA's built-in vector types (float4, int2, uchar4,
// ...) as structs with members x, y, z, w and the alignment CUDA gives
// them, and their make_* functions as __device__ functions of the program.
// NVRTC has both built in, so the same source compiles there.

// vectorDefs are the vector types: element type, lanes and alignment.
var vectorDefs = []struct {
	name  string
	elem  *Type
	n     int
	align int64
}{
	{"char2", int8Type, 2, 2}, {"char4", int8Type, 4, 4},
	{"uchar2", uint8Type, 2, 2}, {"uchar3", uint8Type, 3, 1}, {"uchar4", uint8Type, 4, 4},
	{"short2", int16Type, 2, 4}, {"short4", int16Type, 4, 8},
	{"ushort2", uint16Type, 2, 4}, {"ushort4", uint16Type, 4, 8},
	{"int2", int32Type, 2, 8}, {"int3", int32Type, 3, 4}, {"int4", int32Type, 4, 16},
	{"uint2", uint32Type, 2, 8}, {"uint3", uint32Type, 3, 4}, {"uint4", uint32Type, 4, 16},
	{"longlong2", int64Type, 2, 16}, {"ulonglong2", uint64Type, 2, 16},
	{"float2", float32Type, 2, 8}, {"float3", float32Type, 3, 4}, {"float4", float32Type, 4, 16},
	{"double2", float64Type, 2, 16},
	// dim3 is CUDA's struct of three unsigned ints, laid out as a uint3;
	// it has constructors rather than a make_ function.
	{"dim3", uint32Type, 3, 4},
}

// vectorTypes maps each vector type's name to its type.
var vectorTypes = func() map[string]*Type {
	m := map[string]*Type{}
	for _, d := range vectorDefs {
		st := &StructType{Name: d.name, Align: d.align}
		for i := 0; i < d.n; i++ {
			st.Fields = append(st.Fields, &Field{Name: string("xyzw"[i]), Type: d.elem, Offset: int64(i) * d.elem.Size()})
		}
		st.Size = alignUp(int64(d.n)*d.elem.Size(), d.align)
		m[d.name] = &Type{Kind: Struct, Struct: st}
	}
	return m
}()

// vectorMake returns the vector type that make_NAME builds, or nil.
func vectorMake(name string) *Type {
	if len(name) > 5 && name[:5] == "make_" && name != "make_dim3" {
		return vectorTypes[name[5:]]
	}
	return nil
}

// makeVectorCall checks make_float4(x, y, z, w) and the like: a call of a
// function the program makes once, whose parameters are the members.
func (c *checker) makeVectorCall(e *sCall, name string, t *Type) Expr {
	args, ok := c.args(e.Args)
	if !ok {
		return badExpr(e.P)
	}
	fields := t.Struct.Fields
	if len(args) != len(fields) {
		c.errorf(e.P, "'%s' takes %d arguments, not %d", name, len(fields), len(args))
		return badExpr(e.P)
	}
	for i, f := range fields {
		args[i] = c.convertTo(args[i], f.Type, fmt.Sprintf("in argument %d of '%s'", i+1, name))
		if isBad(args[i]) {
			return badExpr(e.P)
		}
	}
	return &Call{P: e.P, Func: c.vectorCtor(name, t, e.P), Args: args}
}

// vectorCtor returns the function the program makes once to build a
// vector of type t from its members: make_float4, or dim3's constructor.
func (c *checker) vectorCtor(name string, t *Type, p Pos) *Func {
	fn := c.impl.cgFuncs[name]
	if fn == nil {
		fn = &Func{Name: name, P: p, Result: t}
		r := &Var{Name: "r", T: t, P: p}
		body := &Block{P: p, Stmts: []Stmt{&DeclStmt{P: p, Var: r}}}
		for _, f := range t.Struct.Fields {
			v := &Var{Name: f.Name, T: f.Type, P: p, Space: SpaceParam}
			fn.Params = append(fn.Params, v)
			body.Stmts = append(body.Stmts, &ExprStmt{P: p, X: &Assign{P: p,
				LHS: &Member{P: p, X: &VarRef{P: p, Var: r}, Field: f}, RHS: &VarRef{P: p, Var: v}}})
		}
		body.Stmts = append(body.Stmts, &Return{P: p, X: &VarRef{P: p, Var: r}})
		fn.Body = body
		if c.impl.cgFuncs == nil {
			c.impl.cgFuncs = map[string]*Func{}
		}
		c.impl.cgFuncs[name] = fn
	}
	return fn
}

// isDim3Like reports whether t is dim3 or uint3, which convert to each
// other (dim3 has a constructor from uint3 and a conversion to it).
func isDim3Like(t *Type) bool {
	return t.Kind == Struct && (t.Struct == vectorTypes["dim3"].Struct || t.Struct == vectorTypes["uint3"].Struct)
}

// dim3Call checks dim3(x), dim3(x, y) and dim3(x, y, z): members left out
// are 1, as dim3's constructor makes them; dim3(v) of a uint3 converts it.
func (c *checker) dim3Call(e *sCall) Expr {
	args, ok := c.args(e.Args)
	if !ok {
		return badExpr(e.P)
	}
	t := vectorTypes["dim3"]
	if len(args) == 1 && isDim3Like(args[0].Type()) {
		return c.convertTo(args[0], t, "")
	}
	if len(args) > 3 {
		c.errorf(e.P, "'dim3' takes at most 3 arguments, not %d", len(args))
		return badExpr(e.P)
	}
	for len(args) < 3 {
		args = append(args, &Const{P: e.P, T: uint32Type, Int: 1})
	}
	for i := range args {
		args[i] = c.convertTo(args[i], uint32Type, fmt.Sprintf("in argument %d of 'dim3'", i+1))
		if isBad(args[i]) {
			return badExpr(e.P)
		}
	}
	return &Call{P: e.P, Func: c.vectorCtor("dim3", t, e.P), Args: args}
}

// dim3Convert converts x, a uint3 or a dim3, to t, the other one, or a
// number to a dim3 (its x; y and z are 1).
func (c *checker) dim3Convert(x Expr, t *Type) Expr {
	p := x.Pos()
	if x.Type().IsArithmetic() {
		one := &Const{P: p, T: uint32Type, Int: 1}
		return &Call{P: p, Func: c.vectorCtor("dim3", t, p), Args: []Expr{c.conv(x, uint32Type), one, one}}
	}
	name := "__dim3_from_uint3"
	if t.Struct.Name == "uint3" {
		name = "__uint3_from_dim3"
	}
	fn := c.impl.cgFuncs[name]
	if fn == nil {
		v := &Var{Name: "v", T: x.Type(), P: p, Space: SpaceParam}
		r := &Var{Name: "r", T: t, P: p}
		fn = &Func{Name: name, P: p, Result: t, Params: []*Var{v}}
		body := &Block{P: p, Stmts: []Stmt{&DeclStmt{P: p, Var: r}}}
		for i, f := range t.Struct.Fields {
			body.Stmts = append(body.Stmts, &ExprStmt{P: p, X: &Assign{P: p,
				LHS: &Member{P: p, X: &VarRef{P: p, Var: r}, Field: f},
				RHS: &Member{P: p, X: &VarRef{P: p, Var: v}, Field: x.Type().Struct.Fields[i]}}})
		}
		body.Stmts = append(body.Stmts, &Return{P: p, X: &VarRef{P: p, Var: r}})
		fn.Body = body
		if c.impl.cgFuncs == nil {
			c.impl.cgFuncs = map[string]*Func{}
		}
		c.impl.cgFuncs[name] = fn
	}
	return &Call{P: p, Func: fn, Args: []Expr{x}}
}

// builtinVarValue is threadIdx, blockIdx (uint3), blockDim or gridDim
// (dim3) used whole: a vector built from the three registers.
func (c *checker) builtinVarValue(e *sIdent) Expr {
	t, ctor := vectorTypes["uint3"], "make_uint3"
	if e.Name == "blockDim" || e.Name == "gridDim" {
		t, ctor = vectorTypes["dim3"], "dim3"
	}
	args := make([]Expr, 3)
	for i := range args {
		args[i] = &BuiltinCall{P: e.P, Builtin: builtinVarField[e.Name][i], T: uint32Type}
	}
	return &Call{P: e.P, Func: c.vectorCtor(ctor, t, e.P), Args: args}
}
