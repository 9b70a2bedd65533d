package cudac

// This file defines the untyped syntax tree that the parser produces and the
// checker consumes. Template bodies stay in this form until instantiated.

type sNode interface{ spos() Pos }

// ---- expressions ----

type sExpr interface {
	sNode
	sexpr()
}

type (
	sIdent struct {
		P    Pos
		Name string
	}
	// sScoped is Scope::Name (an enum class member, or a namespace use).
	sScoped struct {
		P     Pos
		Scope string
		Name  string
	}
	sNum struct {
		P     Pos
		Text  string
		Float bool
	}
	sChar struct {
		P   Pos
		Val int64
	}
	sStr struct {
		P   Pos
		Val string
	}
	sBool struct {
		P   Pos
		Val bool
	}
	sNull struct{ P Pos } // nullptr or NULL
	// sUnary is a prefix operator: + - ! ~ * & ++ --.
	sUnary struct {
		P  Pos
		Op tokKind
		X  sExpr
	}
	// sPostfix is x++ or x--.
	sPostfix struct {
		P  Pos
		Op tokKind
		X  sExpr
	}
	// sBinary is a binary operator, including && || and the comma.
	sBinary struct {
		P    Pos
		Op   tokKind
		X, Y sExpr
	}
	sAssign struct {
		P    Pos
		Op   tokKind // tAssign or a compound assignment
		X, Y sExpr
	}
	sCond struct {
		P       Pos
		C, X, Y sExpr
	}
	sCall struct {
		P     Pos
		Fn    sExpr
		TArgs []sExpr // explicit template arguments, f<4>(x)
		HasT  bool
		Args  []sExpr
		RPos  Pos
	}
	sIndex struct {
		P    Pos
		X, I sExpr
	}
	sMember struct {
		P       Pos
		X       sExpr
		Name    string
		NamePos Pos
		Arrow   bool
	}
	sCast struct {
		P    Pos
		T    *sTypeName
		X    sExpr
		Kind castKind
	}
	// sSizeof is sizeof(T), sizeof x, alignof(T).
	sSizeof struct {
		P     Pos
		T     *sTypeName
		X     sExpr
		Align bool
	}
	// sInitList is a brace initialiser.
	sInitList struct {
		P     Pos
		Elems []sExpr
	}
	// sTypeArg is a type given as a template argument: plus<float>.
	sTypeArg struct {
		P Pos
		T *sTypeName
	}
	// sTemp is a value-initialized temporary of a struct template: S<T>().
	sTemp struct {
		P Pos
		T *sTypeName
	}
	// sBad stands for an expression that failed to parse.
	sBad struct{ P Pos }
)

type castKind uint8

const (
	castC castKind = iota
	castFunctional
	castStatic
	castReinterpret
	castConst
)

func (e *sIdent) spos() Pos    { return e.P }
func (e *sScoped) spos() Pos   { return e.P }
func (e *sNum) spos() Pos      { return e.P }
func (e *sChar) spos() Pos     { return e.P }
func (e *sStr) spos() Pos      { return e.P }
func (e *sBool) spos() Pos     { return e.P }
func (e *sNull) spos() Pos     { return e.P }
func (e *sUnary) spos() Pos    { return e.P }
func (e *sPostfix) spos() Pos  { return e.P }
func (e *sBinary) spos() Pos   { return e.P }
func (e *sAssign) spos() Pos   { return e.P }
func (e *sCond) spos() Pos     { return e.P }
func (e *sCall) spos() Pos     { return e.P }
func (e *sIndex) spos() Pos    { return e.P }
func (e *sMember) spos() Pos   { return e.P }
func (e *sCast) spos() Pos     { return e.P }
func (e *sSizeof) spos() Pos   { return e.P }
func (e *sInitList) spos() Pos { return e.P }
func (e *sBad) spos() Pos      { return e.P }
func (e *sTypeArg) spos() Pos  { return e.P }
func (e *sTemp) spos() Pos     { return e.P }

// sLambda is a lambda expression: [captures](params) -> R { body }.
type sLambda struct {
	P Pos
	// Default is the capture default: 0, '=' or '&'.
	Default byte
	Caps    []lambdaCap
	Params  []*sParam
	Ret     *sTypeName // nil: deduced from the return statements
	Body    *sBlock
	Mutable bool
}

// lambdaCap is one explicit capture: name, or &name.
type lambdaCap struct {
	P    Pos
	Name string
	Ref  bool
}

func (e *sLambda) spos() Pos { return e.P }
func (*sLambda) sexpr()      {}

func (*sIdent) sexpr()    {}
func (*sScoped) sexpr()   {}
func (*sNum) sexpr()      {}
func (*sChar) sexpr()     {}
func (*sStr) sexpr()      {}
func (*sBool) sexpr()     {}
func (*sNull) sexpr()     {}
func (*sUnary) sexpr()    {}
func (*sPostfix) sexpr()  {}
func (*sBinary) sexpr()   {}
func (*sAssign) sexpr()   {}
func (*sCond) sexpr()     {}
func (*sCall) sexpr()     {}
func (*sIndex) sexpr()    {}
func (*sMember) sexpr()   {}
func (*sCast) sexpr()     {}
func (*sSizeof) sexpr()   {}
func (*sInitList) sexpr() {}
func (*sBad) sexpr()      {}
func (*sTypeArg) sexpr()  {}
func (*sTemp) sexpr()     {}

// startPos returns the position of an expression's first token.
func startPos(e sExpr) Pos {
	for {
		switch x := e.(type) {
		case *sBinary:
			e = x.X
		case *sAssign:
			e = x.X
		case *sCond:
			e = x.C
		case *sPostfix:
			e = x.X
		case *sIndex:
			e = x.X
		case *sMember:
			e = x.X
		case *sCall:
			e = x.Fn
		default:
			return e.spos()
		}
	}
}

// ---- types and declarations ----

// declSpec is the specifier part of a declaration: storage classes,
// CUDA qualifiers, cv-qualifiers and the type specifier.
type declSpec struct {
	P Pos
	// Storage and function specifiers.
	Typedef, Static, Extern, Constexpr, Inline bool
	// CUDA qualifiers.
	Global, Device, Host, Shared, Constant bool
	Const, Volatile                        bool
	// Type keywords: how often each appeared.
	Void, Bool, Char, Short, Int, Long, Signed, Unsigned, Float, Double, Auto int
	// Name is a typedef name used as the type.
	Name string
	// TArgs are the template arguments of a named class template
	// (cooperative_groups::thread_block_tile<32>).
	TArgs   []sExpr
	NamePos Pos
	Struct  *sStruct
	Enum    *sEnum
	// Align is an alignas(N) (or __align__(N)) in the specifiers.
	Align sExpr
	// TypePos is the position of the first type specifier.
	TypePos Pos
}

// hasType reports whether a type specifier has been seen.
func (s *declSpec) hasType() bool {
	return s.Void+s.Bool+s.Char+s.Short+s.Int+s.Long+s.Signed+s.Unsigned+s.Float+s.Double+s.Auto > 0 ||
		s.Name != "" || s.Struct != nil || s.Enum != nil
}

type sStruct struct {
	P      Pos
	Name   string
	Def    bool // has a body
	Fields []*sDecl
	Align  []sExpr
	// Typedef is the name given by "typedef struct { ... } Name;".
	Typedef string
	// ConvOps are the struct's conversion operators (operator T*() {...}).
	ConvOps []*sConvOp
	// Tmpl makes the struct a template; TArgs are the arguments of an
	// explicit specialization ("template <> struct S<double> {...}").
	Tmpl  *sTemplate
	TArgs []sExpr
	HasT  bool
}

// sConvOp is a conversion operator of a struct: operator T() { body }.
type sConvOp struct {
	P      Pos
	Spec   *declSpec
	Result *sTypeName
	Body   *sBlock
}

type sEnum struct {
	P      Pos
	Name   string
	Scoped bool // enum class
	Base   *sTypeName
	Def    bool
	Items  []sEnumItem
}

type sEnumItem struct {
	P    Pos
	Name string
	Val  sExpr
}

type ptrQual struct {
	P                         Pos
	Const, Volatile, Restrict bool
}

type sDim struct {
	P Pos
	N sExpr // nil for []
}

// declarator is one declarator: pointers, name, array dimensions or a
// parameter list, and an initialiser.
type declarator struct {
	P     Pos
	Name  string
	Ptrs  []ptrQual
	Dims  []sDim
	Func  bool
	Param []*sParam
	Init  sExpr // an expression or *sInitList
	Align sExpr
	// TArgs are the template arguments after the name of an explicit
	// instantiation.
	TArgs []sExpr
	HasT  bool
	// Ref marks a reference declarator (T& name).
	Ref bool
}

type sParam struct {
	P       Pos
	Spec    *declSpec
	D       *declarator
	Default sExpr
}

// sTypeName is a type written in a cast, sizeof or template argument.
type sTypeName struct {
	P    Pos
	Spec *declSpec
	Ptrs []ptrQual
	Dims []sDim
}

// ---- statements ----

type sStmt interface {
	sNode
	sstmt()
}

type (
	sBlock struct {
		P     Pos
		Stmts []sStmt
	}
	// sDecl is a declaration: a local or file-scope variable, typedef,
	// struct or enum declaration.
	sDecl struct {
		P     Pos
		Spec  *declSpec
		Decls []*declarator
	}
	sUsing struct {
		P    Pos
		Name string
		T    *sTypeName
	}
	sExprStmt struct {
		P Pos
		X sExpr
	}
	sIf struct {
		P          Pos
		C          sExpr
		Then, Else sStmt
	}
	sFor struct {
		P    Pos
		Init sStmt
		C    sExpr
		Post sExpr
		Body sStmt
	}
	sWhile struct {
		P    Pos
		C    sExpr
		Body sStmt
	}
	sDo struct {
		P    Pos
		Body sStmt
		C    sExpr
	}
	sBreak    struct{ P Pos }
	sContinue struct{ P Pos }
	sReturn   struct {
		P Pos
		X sExpr
	}
	sSwitch struct {
		P     Pos
		Tag   sExpr
		Stmts []sStmt // *sCase labels appear only here
	}
	sCase struct {
		P       Pos
		Val     sExpr
		Default bool
	}
	sEmpty        struct{ P Pos }
	sStaticAssert struct {
		P   Pos
		X   sExpr
		Msg string
	}
)

func (s *sBlock) spos() Pos        { return s.P }
func (s *sDecl) spos() Pos         { return s.P }
func (s *sUsing) spos() Pos        { return s.P }
func (s *sExprStmt) spos() Pos     { return s.P }
func (s *sIf) spos() Pos           { return s.P }
func (s *sFor) spos() Pos          { return s.P }
func (s *sWhile) spos() Pos        { return s.P }
func (s *sDo) spos() Pos           { return s.P }
func (s *sBreak) spos() Pos        { return s.P }
func (s *sContinue) spos() Pos     { return s.P }
func (s *sReturn) spos() Pos       { return s.P }
func (s *sSwitch) spos() Pos       { return s.P }
func (s *sCase) spos() Pos         { return s.P }
func (s *sEmpty) spos() Pos        { return s.P }
func (s *sStaticAssert) spos() Pos { return s.P }

func (*sBlock) sstmt()        {}
func (*sDecl) sstmt()         {}
func (*sUsing) sstmt()        {}
func (*sExprStmt) sstmt()     {}
func (*sIf) sstmt()           {}
func (*sFor) sstmt()          {}
func (*sWhile) sstmt()        {}
func (*sDo) sstmt()           {}
func (*sBreak) sstmt()        {}
func (*sContinue) sstmt()     {}
func (*sReturn) sstmt()       {}
func (*sSwitch) sstmt()       {}
func (*sCase) sstmt()         {}
func (*sEmpty) sstmt()        {}
func (*sStaticAssert) sstmt() {}

// ---- top level ----

// sFunc is a function declaration or definition.
type sFunc struct {
	P      Pos // the name
	Name   string
	Spec   *declSpec
	Result *sTypeName // the result type: Spec plus the declarator's pointers
	Params []*sParam
	Body   *sBlock // nil for a declaration
	Tmpl   *sTemplate
	// TArgs are the arguments of an explicit instantiation
	// ("template __global__ void k<256>(...);").
	TArgs   []sExpr
	HasT    bool
	ExplInt bool
	// Spec0 marks an explicit specialization (template <> ... f<float>(...) {...}).
	Spec0 bool
}

func (s *sFunc) spos() Pos { return s.P }
func (*sFunc) sstmt()      {}

type sTemplate struct {
	P      Pos
	Params []*sTParam
}

type sTParam struct {
	P       Pos
	Name    string
	T       *sTypeName // nil for a type parameter
	Default sExpr
	// Type marks a type parameter (typename T, class T); TDefault is its
	// default.
	Type     bool
	TDefault *sTypeName
}
