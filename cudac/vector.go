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
	{"char2", Int8Type, 2, 2}, {"char4", Int8Type, 4, 4},
	{"uchar2", Uint8Type, 2, 2}, {"uchar3", Uint8Type, 3, 1}, {"uchar4", Uint8Type, 4, 4},
	{"short2", Int16Type, 2, 4}, {"short4", Int16Type, 4, 8},
	{"ushort2", Uint16Type, 2, 4}, {"ushort4", Uint16Type, 4, 8},
	{"int2", Int32Type, 2, 8}, {"int3", Int32Type, 3, 4}, {"int4", Int32Type, 4, 16},
	{"uint2", Uint32Type, 2, 8}, {"uint3", Uint32Type, 3, 4}, {"uint4", Uint32Type, 4, 16},
	{"longlong2", Int64Type, 2, 16}, {"ulonglong2", Uint64Type, 2, 16},
	{"float2", Float32Type, 2, 8}, {"float3", Float32Type, 3, 4}, {"float4", Float32Type, 4, 16},
	{"double2", Float64Type, 2, 16},
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
	if len(name) > 5 && name[:5] == "make_" {
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
	fn := c.impl.cgFuncs[name]
	if fn == nil {
		p := e.P
		fn = &Func{Name: name, P: p, Result: t}
		r := &Var{Name: "r", T: t, P: p}
		body := &Block{P: p, Stmts: []Stmt{&DeclStmt{P: p, Var: r}}}
		for _, f := range fields {
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
	return &Call{P: e.P, Func: fn, Args: args}
}
