package cudac

// maxObjectSize bounds the size of any array or struct.
const maxObjectSize = 1 << 40

// specType resolves the type specifier of spec: the base type and its
// qualifiers. It returns a nil type after reporting an error. For 'auto'
// it returns invalidType, which the caller replaces by the initializer's
// type.
func (c *checker) specType(s *declSpec) (t *Type, isConst, isVolatile bool) {
	isConst, isVolatile = s.Const || s.Constexpr, s.Volatile
	switch {
	case s.Struct != nil:
		return c.structType(s.Struct), isConst, isVolatile
	case s.Enum != nil:
		return c.enumType(s.Enum), isConst, isVolatile
	case s.Name == cudaPrefix+"atomic_ref", s.Name == cudaPrefix+"atomic":
		t := c.atomicRefSpecType(s, s.Name == cudaPrefix+"atomic")
		if t == nil {
			return nil, false, false
		}
		return t, isConst, isVolatile
	case s.Name == cgPrefix+"thread_block_tile":
		t := c.tileSpecType(s)
		if t == nil {
			return nil, false, false
		}
		return t, isConst, isVolatile
	case s.Name != "":
		e := c.lookup(s.Name)
		if e != nil && e.kind == entStructTmpl {
			t := c.structInstance(e.stm, s.TArgs, s.NamePos)
			if t == nil {
				return nil, false, false
			}
			return t, isConst, isVolatile
		}
		if len(s.TArgs) > 0 {
			c.errorf(s.NamePos, "'%s' is not a template", s.Name)
			return nil, false, false
		}
		if e == nil || e.kind != entType {
			c.errorf(s.NamePos, "unknown type name '%s'", s.Name)
			return nil, false, false
		}
		return e.t, isConst || e.tconst, isVolatile || e.tvol
	}
	pos := s.TypePos
	if !pos.IsValid() {
		pos = s.P
	}
	bad := func() (*Type, bool, bool) {
		c.errorf(pos, "invalid combination of type specifiers")
		return nil, false, false
	}
	n := s.Void + s.Bool + s.Char + s.Short + s.Int + s.Long + s.Signed + s.Unsigned + s.Float + s.Double + s.Auto
	if n == 0 {
		c.errorf(pos, "missing type specifier (C++ has no implicit int)")
		return nil, false, false
	}
	if s.Signed > 1 || s.Unsigned > 1 || s.Signed+s.Unsigned > 1 || s.Int > 1 || s.Long > 2 || s.Short > 1 {
		return bad()
	}
	sign := s.Signed + s.Unsigned
	switch {
	case s.Auto > 0:
		if n > 1 {
			return bad()
		}
		return invalidType, isConst, isVolatile
	case s.Void > 0:
		if n > 1 {
			return bad()
		}
		return voidType, isConst, isVolatile
	case s.Bool > 0:
		if n > 1 {
			return bad()
		}
		return boolType, isConst, isVolatile
	case s.Float > 0:
		if n > 1 {
			return bad()
		}
		return float32Type, isConst, isVolatile
	case s.Double > 0:
		if s.Long > 0 && n == 2 {
			c.errorf(pos, "long double is not supported")
			return nil, false, false
		}
		if n > 1 {
			return bad()
		}
		return float64Type, isConst, isVolatile
	case s.Char > 0:
		if n-sign > 1 {
			return bad()
		}
		if s.Unsigned > 0 {
			return uint8Type, isConst, isVolatile
		}
		return int8Type, isConst, isVolatile
	case s.Short > 0:
		if s.Long > 0 || n-sign-s.Int > 1 {
			return bad()
		}
		if s.Unsigned > 0 {
			return uint16Type, isConst, isVolatile
		}
		return int16Type, isConst, isVolatile
	case s.Long == 1:
		if n-sign-s.Int > 1 {
			return bad()
		}
		if s.Unsigned > 0 {
			return ulongType, isConst, isVolatile
		}
		return longType, isConst, isVolatile
	case s.Long == 2:
		if n-sign-s.Int > 2 {
			return bad()
		}
		if s.Unsigned > 0 {
			return uint64Type, isConst, isVolatile
		}
		return int64Type, isConst, isVolatile
	}
	if s.Unsigned > 0 {
		return uint32Type, isConst, isVolatile
	}
	return int32Type, isConst, isVolatile
}

// declType applies pointer and array declarators to a base type. It returns
// the type and whether the declared object itself is const or volatile.
func (c *checker) declType(base *Type, bconst, bvol bool, ptrs []ptrQual, dims []sDim, pos Pos) (t *Type, isConst, isVolatile bool) {
	t, isConst, isVolatile = base, bconst, bvol
	if base.Kind == Invalid && (len(ptrs) > 0 || len(dims) > 0) {
		c.errorf(pos, "'auto' pointers and arrays are not supported; write the type")
		return nil, false, false
	}
	for _, q := range ptrs {
		if t.Kind == Array && t.Len < 0 {
			c.errorf(q.P, "pointers to unsized arrays are not supported")
			return nil, false, false
		}
		t = &Type{Kind: Pointer, Elem: t, Const: isConst, Volatile: isVolatile}
		isConst, isVolatile = q.Const, q.Volatile
	}
	for i := len(dims) - 1; i >= 0; i-- {
		n := int64(-1)
		if dims[i].N != nil {
			n = c.arraySize(dims[i].N)
			if n < 0 {
				return nil, false, false
			}
		} else if i > 0 {
			c.errorf(dims[i].P, "only the first dimension of an array may be omitted")
			return nil, false, false
		}
		if t.Kind == Void {
			c.errorf(dims[i].P, "arrays of void are not allowed")
			return nil, false, false
		}
		if n > 0 && t.Size() > 0 && n > maxObjectSize/t.Size() {
			c.errorf(dims[i].P, "array is too large")
			return nil, false, false
		}
		t = &Type{Kind: Array, Elem: t, Len: n, Const: isConst, Volatile: isVolatile}
	}
	return t, isConst, isVolatile
}

// arraySize evaluates an array dimension; -1 after an error.
func (c *checker) arraySize(e sExpr) int64 {
	x := c.expr(e)
	if isBad(x) {
		return -1
	}
	k, ok := x.(*Const)
	if !ok || !k.T.IsInteger() {
		if ok || x.Type().IsInteger() {
			c.errorf(startPos(e), "array size is not a constant expression (variable-length arrays are not supported)")
		} else {
			c.errorf(startPos(e), "array size has non-integer type '%s'", x.Type())
		}
		return -1
	}
	n := k.Int
	if !k.T.IsSigned() && n < 0 || n > maxObjectSize {
		c.errorf(startPos(e), "array is too large")
		return -1
	}
	if n <= 0 {
		c.errorf(startPos(e), "array size must be positive (it is %d)", n)
		return -1
	}
	return n
}

// typeName resolves a type written in a cast, sizeof, alias or template
// parameter.
func (c *checker) typeName(tn *sTypeName) (*Type, bool, bool) {
	if tn == nil || tn.Spec == nil {
		return nil, false, false
	}
	base, bconst, bvol := c.specType(tn.Spec)
	if base == nil {
		return nil, false, false
	}
	return c.declType(base, bconst, bvol, tn.Ptrs, tn.Dims, tn.P)
}

// structType resolves a struct specifier, defining the struct if it has a
// body.
func (c *checker) structType(s *sStruct) *Type {
	if t := c.structs[s]; t != nil {
		return t
	}
	if !s.Def {
		e := c.lookup(s.Name)
		if e != nil && e.kind == entType && e.t.Kind == Struct {
			return e.t
		}
		// A forward declaration: an incomplete struct.
		t := &Type{Kind: Struct, Struct: &StructType{Name: s.Name, Pos: s.P, Align: 1}}
		c.structs[s] = t
		c.declare(&entity{kind: entType, name: s.Name, pos: s.P, t: t})
		return t
	}
	var t *Type
	if s.Name != "" {
		if e := c.scope.names[s.Name]; e != nil && e.kind == entType && e.t.Kind == Struct && e.t.Struct.Fields == nil && e.t.Struct.Size == 0 {
			t = e.t // completing a forward declaration
			t.Struct.Pos = s.P
		}
	}
	if t == nil {
		t = &Type{Kind: Struct, Struct: &StructType{Name: s.Name, Pos: s.P}}
		if s.Name != "" && !c.declare(&entity{kind: entType, name: s.Name, pos: s.P, t: t}) {
			return nil
		}
	}
	c.structs[s] = t
	st := t.Struct
	var off, align int64 = 0, 1
	seen := map[string]bool{}
	for _, fd := range s.Fields {
		base, bconst, bvol := c.specType(fd.Spec)
		if base == nil {
			continue
		}
		if fd.Spec.Shared || fd.Spec.Device || fd.Spec.Constant || fd.Spec.Static || fd.Spec.Typedef {
			c.errorf(fd.P, "storage qualifiers are not allowed on struct members")
			continue
		}
		for _, dc := range fd.Decls {
			ft, fconst, _ := c.declType(base, bconst, bvol, dc.Ptrs, dc.Dims, dc.P)
			if ft == nil {
				continue
			}
			switch {
			case ft.Kind == Invalid:
				c.errorf(dc.P, "'auto' members are not allowed")
				continue
			case ft.Kind == Void || ft.Kind == Array && ft.Len < 0:
				c.errorf(dc.P, "member '%s' has incomplete type '%s'", dc.Name, ft)
				continue
			case ft.Kind == Struct && ft.Struct == st:
				c.errorf(dc.P, "member '%s' has the type of the struct being defined", dc.Name)
				continue
			case ft.Kind == Struct && ft.Struct.Size == 0:
				c.errorf(dc.P, "member '%s' has incomplete type '%s'", dc.Name, ft)
				continue
			}
			if seen[dc.Name] {
				c.errorf(dc.P, "duplicate member '%s'", dc.Name)
				continue
			}
			seen[dc.Name] = true
			fa := ft.Align()
			if fd.Spec.Align != nil {
				fa = max(fa, c.alignValue(fd.Spec.Align))
			}
			if dc.Align != nil {
				fa = max(fa, c.alignValue(dc.Align))
			}
			off = alignUp(off, fa)
			f := &Field{Name: dc.Name, Type: ft, Offset: off, Pos: dc.P}
			st.Fields = append(st.Fields, f)
			if fconst {
				c.impl.fieldConst[f] = true
			}
			off += ft.Size()
			align = max(align, fa)
			if off > maxObjectSize {
				c.errorf(dc.P, "struct is too large")
				return nil
			}
		}
	}
	for _, a := range s.Align {
		align = max(align, c.alignValue(a))
	}
	if len(st.Fields) == 0 {
		off = 1 // an empty struct has size 1 in C++
	}
	st.Align = align
	st.Size = alignUp(off, align)
	c.convOps(t, s)
	return t
}

func alignUp(n, a int64) int64 {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// alignValue evaluates alignas(N) or alignas(T).
func (c *checker) alignValue(e sExpr) int64 {
	x := c.expr(e)
	if isBad(x) {
		return 1
	}
	k, ok := x.(*Const)
	if !ok || !k.T.IsInteger() {
		c.errorf(startPos(e), "alignment is not an integer constant expression")
		return 1
	}
	if k.Int <= 0 || k.Int&(k.Int-1) != 0 || k.Int > 1<<16 {
		c.errorf(startPos(e), "requested alignment %d is not a positive power of 2", k.Int)
		return 1
	}
	return k.Int
}

// enumType resolves an enum specifier. An enum has the type of int (or of
// its fixed underlying type); its enumerators are constants of that type.
func (c *checker) enumType(s *sEnum) *Type {
	if t := c.enumDefs[s]; t != nil {
		return t
	}
	if !s.Def {
		if e := c.lookup(s.Name); e != nil && e.kind == entType {
			return e.t
		}
		c.errorf(s.P, "unknown enum '%s' (opaque enum declarations are not supported)", s.Name)
		return nil
	}
	base := int32Type
	if s.Base != nil {
		bt, _, _ := c.typeName(s.Base)
		if bt == nil {
			return nil
		}
		if !bt.IsInteger() || bt.Kind == Bool {
			c.errorf(s.Base.P, "enum base type must be an integer type, not '%s'", bt)
			return nil
		}
		base = bt
	}
	// An enum is its underlying type: enumerators are constants of it.
	t := base
	c.enumDefs[s] = t
	items := map[string]*Const{}
	if s.Name != "" && !c.declare(&entity{kind: entType, name: s.Name, pos: s.P, t: t, enumItems: items}) {
		return nil
	}
	next := &Const{T: t}
	for _, it := range s.Items {
		val := next
		if it.Val != nil {
			x := c.expr(it.Val)
			if isBad(x) {
				continue
			}
			k, ok := x.(*Const)
			if !ok || !k.T.IsInteger() {
				c.errorf(startPos(it.Val), "enumerator value for '%s' is not an integer constant expression", it.Name)
				continue
			}
			val = convertConst(k, t)
		}
		k := &Const{P: it.P, T: t, Int: val.Int}
		if _, dup := items[it.Name]; dup {
			c.errorf(it.P, "redefinition of enumerator '%s'", it.Name)
			continue
		}
		items[it.Name] = k
		if !s.Scoped {
			c.declare(&entity{kind: entConst, name: it.Name, pos: it.P, val: k})
		}
		next = convertConst(&Const{T: int64Type, Int: k.Int + 1}, t)
	}
	return t
}

// arrayFromInit completes an unsized array type from its initializer.
func (c *checker) arrayFromInit(t *Type, isConst bool, l *sInitList) *Type {
	n := int64(len(l.Elems))
	if t.Elem.Kind != Array && t.Elem.Kind != Struct {
		// Each element of a scalar array is one initializer.
	} else {
		// Nested aggregates: count braced elements, or leaves.
		leaves := leafCount(t.Elem)
		braced := true
		for _, e := range l.Elems {
			if _, ok := e.(*sInitList); !ok {
				braced = false
			}
		}
		if !braced && leaves > 0 {
			n = (n + leaves - 1) / leaves
		}
	}
	if n == 0 {
		c.errorf(l.P, "zero-size arrays are not supported")
		n = 1
	}
	return &Type{Kind: Array, Elem: t.Elem, Len: n, Const: isConst, Volatile: t.Volatile}
}

// leafCount is the number of scalar leaves of t.
func leafCount(t *Type) int64 {
	switch t.Kind {
	case Array:
		if t.Len < 0 {
			return 0
		}
		return t.Len * leafCount(t.Elem)
	case Struct:
		var n int64
		for _, f := range t.Struct.Fields {
			n += leafCount(f.Type)
		}
		return n
	}
	return 1
}
