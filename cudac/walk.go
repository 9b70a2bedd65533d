package cudac

// Inspect traverses the checked tree rooted at node in depth-first order:
// it calls f(n) for each node n, and descends into n's children when f
// returns true. It does not follow a Call into the called function's body.
func Inspect(node Node, f func(Node) bool) {
	if node == nil || !f(node) {
		return
	}
	exprs := func(list []Expr) {
		for _, x := range list {
			Inspect(x, f)
		}
	}
	switch n := node.(type) {
	case *Func:
		if n.Body != nil {
			Inspect(n.Body, f)
		}
	case *Unary:
		Inspect(n.X, f)
	case *Binary:
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *PtrAdd:
		Inspect(n.Ptr, f)
		Inspect(n.Off, f)
	case *PtrDiff:
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *Logical:
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *CondExpr:
		Inspect(n.Cond, f)
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *Assign:
		Inspect(n.LHS, f)
		Inspect(n.RHS, f)
	case *IncDec:
		Inspect(n.X, f)
	case *Conv:
		Inspect(n.X, f)
	case *Index:
		Inspect(n.X, f)
		Inspect(n.Index, f)
	case *Member:
		Inspect(n.X, f)
	case *Deref:
		Inspect(n.X, f)
	case *AddrOf:
		Inspect(n.X, f)
	case *Call:
		exprs(n.Args)
	case *BuiltinCall:
		exprs(n.Args)
	case *Comma:
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *Block:
		for _, s := range n.Stmts {
			Inspect(s, f)
		}
	case *DeclStmt:
		if n.Init != nil {
			Inspect(n.Init, f)
		}
		exprs(n.InitList)
	case *ExprStmt:
		Inspect(n.X, f)
	case *If:
		Inspect(n.Cond, f)
		Inspect(n.Then, f)
		if n.Else != nil {
			Inspect(n.Else, f)
		}
	case *For:
		if n.Init != nil {
			Inspect(n.Init, f)
		}
		if n.Cond != nil {
			Inspect(n.Cond, f)
		}
		if n.Post != nil {
			Inspect(n.Post, f)
		}
		Inspect(n.Body, f)
	case *While:
		Inspect(n.Cond, f)
		Inspect(n.Body, f)
	case *DoWhile:
		Inspect(n.Body, f)
		Inspect(n.Cond, f)
	case *Return:
		if n.X != nil {
			Inspect(n.X, f)
		}
	case *Switch:
		Inspect(n.Tag, f)
		for _, c := range n.Cases {
			Inspect(c, f)
		}
	case *Case:
		for _, s := range n.Body {
			Inspect(s, f)
		}
	}
}

// UsesGridSync reports whether fn, or a function it calls, calls
// cooperative_groups::grid_group::sync(): a kernel that does must be
// launched cooperatively.
func UsesGridSync(fn *Func) bool {
	seen := map[*Func]bool{}
	var uses func(fn *Func) bool
	uses = func(fn *Func) bool {
		if seen[fn] {
			return false
		}
		seen[fn] = true
		found := false
		Inspect(fn, func(n Node) bool {
			switch n := n.(type) {
			case *BuiltinCall:
				if n.Builtin == GridSync {
					found = true
				}
			case *Call:
				if uses(n.Func) {
					found = true
				}
			}
			return !found
		})
		return found
	}
	return uses(fn)
}
