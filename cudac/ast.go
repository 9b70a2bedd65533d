package cudac

// This file defines the checked syntax tree that Compile produces and that the
// backends consume. Every expression carries its type; every implicit
// conversion of C (integer promotion, the usual arithmetic conversions,
// assignment and argument conversion, array-to-pointer decay, conversion of a
// condition to bool) is an explicit *Conv node; every constant expression
// (literals, constexpr and #define values, template parameters, sizeof,
// enumerators, folded arithmetic) is a *Const. So a backend never repeats C's
// typing rules: it lowers each node by its own type.

// Node is any node of the checked tree.
type Node interface {
	Pos() Pos
}

// Expr is a typed expression.
type Expr interface {
	Node
	Type() *Type
	exprNode()
}

// Stmt is a statement.
type Stmt interface {
	Node
	stmtNode()
}

// Space says where a variable lives.
type Space uint8

const (
	// SpaceLocal is a function's local variable (a register unless its
	// address is taken or it is an array or struct).
	SpaceLocal Space = iota
	// SpaceParam is a function parameter.
	SpaceParam
	// SpaceShared is a __shared__ variable: one instance per block.
	SpaceShared
	// SpaceGlobal is a __device__ variable at file scope: one instance per module.
	SpaceGlobal
	// SpaceConstant is a __constant__ variable at file scope.
	SpaceConstant
)

func (s Space) String() string {
	return [...]string{"local", "param", "shared", "global", "constant"}[s]
}

// Var is a variable: a parameter, a local, a __shared__ or a file-scope
// __device__/__constant__ variable. Each declaration is one *Var, so a backend
// can key its storage on the pointer.
type Var struct {
	Name  string
	T     *Type
	P     Pos
	Space Space
	// Extern marks "extern __shared__ T name[]": dynamic shared memory whose
	// size is given at launch. Every extern shared array starts at the same
	// address (offset 0 of the dynamic region, after the static shared variables).
	Extern bool
	// AddrTaken reports whether &v appears (directly, or through v's fields or
	// elements of a scalar-typed local), so the variable needs an address.
	AddrTaken bool
	// Const marks a const-qualified variable.
	Const bool
	// Init is the constant initial value of a SpaceGlobal or SpaceConstant
	// variable: nil (zero), one *Const for a scalar, or one per element for an
	// array (missing trailing elements are zero).
	Init []*Const
}

// Pos returns the declaration's position.
func (v *Var) Pos() Pos { return v.P }

// Func is a checked __global__ or __device__ function. A template function
// appears once per instantiation, named with its arguments ("sumTree<256>").
type Func struct {
	Name   string
	P      Pos
	Kernel bool // __global__
	Params []*Var
	Result *Type // voidType for void
	Body   *Block
	// Shared lists the static __shared__ variables declared in the body, in
	// declaration order; DynShared the extern __shared__ arrays.
	Shared    []*Var
	DynShared []*Var
	// Defaults holds each parameter's constant default argument, nil where
	// it has none (nil for a function without defaults). A launch may leave
	// out trailing kernel arguments that have defaults.
	Defaults []*Const
	// refs marks the parameters declared as non-const references (T& x):
	// their type is T*, a call passes the argument's address, and the body
	// uses *x.
	refs []bool
}

// Pos returns the function's position.
func (f *Func) Pos() Pos { return f.P }

// Signature spells the function's parameter list:
// "sumTree<256>(const float* in, float* total, size_t n)".
func (f *Func) Signature() string {
	s := f.Name + "("
	for i, p := range f.Params {
		if i > 0 {
			s += ", "
		}
		s += p.T.String() + " " + p.Name
	}
	return s + ")"
}

// ---- expressions ----

// Const is a constant of a scalar type. For integer, bool and pointer types
// Int holds the value (a uint64 value is stored as its bit pattern); for
// float types Float holds it (already rounded to float32 for float).
type Const struct {
	P     Pos
	T     *Type
	Int   int64
	Float float64
}

// StringLit is a string literal; it appears only as printf's format.
type StringLit struct {
	P     Pos
	Value string // with escapes decoded
}

// VarRef is a use of a variable. It is an lvalue.
type VarRef struct {
	P   Pos
	Var *Var
}

// UnaryOp is a unary operator.
type UnaryOp uint8

const (
	Neg    UnaryOp = iota + 1 // -x  (x promoted; T = x's type)
	BitNot                    // ~x  (x promoted integer)
	LogNot                    // !x  (x converted to bool; T = bool)
)

// Unary is -x, ~x or !x.
type Unary struct {
	P  Pos
	Op UnaryOp
	X  Expr
	T  *Type
}

// BinaryOp is a binary operator.
type BinaryOp uint8

const (
	Add BinaryOp = iota + 1
	Sub
	Mul
	Div
	Rem
	And // &
	Or  // |
	Xor // ^
	Shl
	Shr // arithmetic for signed X, logical for unsigned
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
)

var binaryOpNames = [...]string{Add: "+", Sub: "-", Mul: "*", Div: "/", Rem: "%", And: "&", Or: "|", Xor: "^",
	Shl: "<<", Shr: ">>", Eq: "==", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">="}

func (op BinaryOp) String() string { return binaryOpNames[op] }

// IsComparison reports whether op is ==, !=, <, <=, > or >=.
func (op BinaryOp) IsComparison() bool { return op >= Eq }

// Binary is an arithmetic, bitwise, shift or comparison operation.
//
//   - Add..Xor: X, Y and T have the same arithmetic type (after the usual
//     arithmetic conversions). Pointer arithmetic is PtrAdd, never Binary.
//   - Shl, Shr: X and T have X's promoted type; Y has its own promoted type.
//   - Eq..Ge: X and Y have the same type (arithmetic or pointer); T is bool.
type Binary struct {
	P    Pos
	Op   BinaryOp
	X, Y Expr
	T    *Type
}

// PtrAdd is pointer arithmetic: Ptr + Off elements (Ptr - Off when Sub).
// Off is converted to long long. T is Ptr's type.
type PtrAdd struct {
	P   Pos
	Ptr Expr
	Off Expr
	Sub bool
}

// PtrDiff is X - Y for two pointers to the same type, in elements; T is long long.
type PtrDiff struct {
	P    Pos
	X, Y Expr
}

// LogicalOp is && or ||.
type LogicalOp uint8

const (
	LogAnd LogicalOp = iota + 1
	LogOr
)

// Logical is a short-circuit && or ||: Y is evaluated only when needed.
// X and Y are bool; T is bool.
type Logical struct {
	P    Pos
	Op   LogicalOp
	X, Y Expr
}

// CondExpr is Cond ? X : Y; only the chosen arm is evaluated. Cond is bool;
// X and Y have type T.
type CondExpr struct {
	P          Pos
	Cond, X, Y Expr
	T          *Type
}

// Assign is LHS = RHS (Op == 0) or a compound assignment LHS op= RHS.
//
// For "=", RHS is converted to LHS's type. For "op=", the value stored is
// (LHS's type)((OpType)LHS op RHS): RHS is already converted to OpType (or,
// for << and >>, promoted), and OpType is the type of the operation after the
// usual arithmetic conversions. For a pointer LHS with += or -=, OpType is the
// pointer type and RHS is a long long element count. LHS is evaluated once.
// The expression's value is the stored value, of LHS's type.
type Assign struct {
	P      Pos
	Op     BinaryOp // 0 for plain assignment
	LHS    Expr
	RHS    Expr
	OpType *Type
}

// IncDec is ++x, x++, --x or x--. For a pointer it steps one element.
type IncDec struct {
	P       Pos
	X       Expr // an lvalue
	Dec     bool
	Postfix bool
}

// Conv converts X to T. It covers arithmetic conversions (with C's rules:
// float to integer truncates toward zero; any scalar to bool tests != 0),
// pointer to pointer (a reinterpretation), integer to pointer and back, and
// array-to-pointer decay (X has array type, T is a pointer to its element,
// and the value is the array's address).
type Conv struct {
	P Pos
	X Expr
	T *Type
	// Explicit marks a cast written in the source.
	Explicit bool
}

// Index is X[Index]: X is a pointer (arrays arrive decayed, as a Conv),
// Index is converted to long long. It is an lvalue of X's element type.
type Index struct {
	P     Pos
	X     Expr
	Index Expr
}

// Member is X.Field; X->Field arrives as Member{X: &Deref{X}}. It is an lvalue.
type Member struct {
	P     Pos
	X     Expr // of struct type, an lvalue
	Field *Field
}

// Deref is *X for a pointer X. It is an lvalue.
type Deref struct {
	P Pos
	X Expr
}

// AddrOf is &X for an lvalue X. T is a pointer to X's type.
type AddrOf struct {
	P Pos
	X Expr
	T *Type
}

// Call calls a __device__ function. Args are converted to the parameter types.
type Call struct {
	P    Pos
	Func *Func
	Args []Expr
}

// BuiltinCall is a use of a CUDA built-in: a function (atomicAdd, __shfl_sync,
// expf, printf, ...) or a built-in variable (threadIdx.x, ...).
//
// Args are converted to the built-in's parameter types for the resolved
// overload. Elem is the overload's operand type: the pointee of an atomic
// (atomicAdd(float*, float) has Elem float), the value type of a shuffle or
// __match_any_sync, the argument type of a math function or of min/max. T is
// the result type. Scope and Order are an atomic's or a fence's scope
// (atomicAdd_block is AtomicAdd with ScopeBlock) and memory order.
type BuiltinCall struct {
	P       Pos
	Builtin Builtin
	Args    []Expr
	Elem    *Type
	T       *Type
	Scope   Scope
	Order   MemoryOrder
}

// Comma is X, Y: X is evaluated for its effects, the value is Y.
type Comma struct {
	P    Pos
	X, Y Expr
}

func (e *Const) Type() *Type       { return e.T }
func (e *StringLit) Type() *Type   { return PointerTo(int8Type, true) }
func (e *VarRef) Type() *Type      { return e.Var.T }
func (e *Unary) Type() *Type       { return e.T }
func (e *Binary) Type() *Type      { return e.T }
func (e *PtrAdd) Type() *Type      { return e.Ptr.Type() }
func (e *PtrDiff) Type() *Type     { return int64Type }
func (e *Logical) Type() *Type     { return boolType }
func (e *CondExpr) Type() *Type    { return e.T }
func (e *Assign) Type() *Type      { return e.LHS.Type() }
func (e *IncDec) Type() *Type      { return e.X.Type() }
func (e *Conv) Type() *Type        { return e.T }
func (e *Index) Type() *Type       { return e.X.Type().Elem }
func (e *Member) Type() *Type      { return e.Field.Type }
func (e *Deref) Type() *Type       { return e.X.Type().Elem }
func (e *AddrOf) Type() *Type      { return e.T }
func (e *Call) Type() *Type        { return e.Func.Result }
func (e *BuiltinCall) Type() *Type { return e.T }
func (e *Comma) Type() *Type       { return e.Y.Type() }

func (e *Const) Pos() Pos       { return e.P }
func (e *StringLit) Pos() Pos   { return e.P }
func (e *VarRef) Pos() Pos      { return e.P }
func (e *Unary) Pos() Pos       { return e.P }
func (e *Binary) Pos() Pos      { return e.P }
func (e *PtrAdd) Pos() Pos      { return e.P }
func (e *PtrDiff) Pos() Pos     { return e.P }
func (e *Logical) Pos() Pos     { return e.P }
func (e *CondExpr) Pos() Pos    { return e.P }
func (e *Assign) Pos() Pos      { return e.P }
func (e *IncDec) Pos() Pos      { return e.P }
func (e *Conv) Pos() Pos        { return e.P }
func (e *Index) Pos() Pos       { return e.P }
func (e *Member) Pos() Pos      { return e.P }
func (e *Deref) Pos() Pos       { return e.P }
func (e *AddrOf) Pos() Pos      { return e.P }
func (e *Call) Pos() Pos        { return e.P }
func (e *BuiltinCall) Pos() Pos { return e.P }
func (e *Comma) Pos() Pos       { return e.P }

func (*Const) exprNode()       {}
func (*StringLit) exprNode()   {}
func (*VarRef) exprNode()      {}
func (*Unary) exprNode()       {}
func (*Binary) exprNode()      {}
func (*PtrAdd) exprNode()      {}
func (*PtrDiff) exprNode()     {}
func (*Logical) exprNode()     {}
func (*CondExpr) exprNode()    {}
func (*Assign) exprNode()      {}
func (*IncDec) exprNode()      {}
func (*Conv) exprNode()        {}
func (*Index) exprNode()       {}
func (*Member) exprNode()      {}
func (*Deref) exprNode()       {}
func (*AddrOf) exprNode()      {}
func (*Call) exprNode()        {}
func (*BuiltinCall) exprNode() {}
func (*Comma) exprNode()       {}

// ---- statements ----

// Block is { Stmts }.
type Block struct {
	P     Pos
	Stmts []Stmt
}

// DeclStmt declares one local or __shared__ variable ("int a = 1, b;" is two
// DeclStmts). Init is the converted initialiser of a scalar, or nil. InitList
// holds an array's or struct's brace initialiser, converted to the element
// (field) types; elements it does not cover are zero. A __shared__ variable
// has neither. Each time a local's DeclStmt runs, the variable is
// (re)initialised: to Init/InitList, else left undefined (a backend may zero it).
type DeclStmt struct {
	P        Pos
	Var      *Var
	Init     Expr
	InitList []Expr
}

// ExprStmt is an expression evaluated for its effects.
type ExprStmt struct {
	P Pos
	X Expr
}

// If is if (Cond) Then else Else; Else may be nil. Cond is bool.
type If struct {
	P    Pos
	Cond Expr
	Then Stmt
	Else Stmt
}

// For is for (Init; Cond; Post) Body. Init, Cond and Post may be nil; a nil
// Cond is true. Cond is bool.
type For struct {
	P    Pos
	Init Stmt
	Cond Expr
	Post Expr
	Body Stmt
}

// While is while (Cond) Body.
type While struct {
	P    Pos
	Cond Expr
	Body Stmt
}

// DoWhile is do Body while (Cond);
type DoWhile struct {
	P    Pos
	Body Stmt
	Cond Expr
}

// Break leaves the innermost loop or switch.
type Break struct{ P Pos }

// Continue goes to the next iteration of the innermost loop.
type Continue struct{ P Pos }

// Return returns from the function; X is converted to its result type, or nil.
type Return struct {
	P Pos
	X Expr
}

// Switch is switch (Tag) { cases }. Tag is a promoted integer. Each Case
// begins at one label ("case 1: case 2: s;" is a case 1 with no statements
// followed by a case 2): control enters the case whose Value equals Tag, or
// the Default case, or skips the switch, and runs on through the following
// cases until a Break. Case values are distinct; at most one case is Default.
type Switch struct {
	P     Pos
	Tag   Expr
	Cases []*Case
}

// Case is one label of a Switch and the statements up to the next label.
type Case struct {
	P       Pos
	Value   int64 // converted to Tag's type
	Default bool
	Body    []Stmt
}

// Empty is the empty statement ";".
type Empty struct{ P Pos }

func (s *Block) Pos() Pos    { return s.P }
func (s *DeclStmt) Pos() Pos { return s.P }
func (s *ExprStmt) Pos() Pos { return s.P }
func (s *If) Pos() Pos       { return s.P }
func (s *For) Pos() Pos      { return s.P }
func (s *While) Pos() Pos    { return s.P }
func (s *DoWhile) Pos() Pos  { return s.P }
func (s *Break) Pos() Pos    { return s.P }
func (s *Continue) Pos() Pos { return s.P }
func (s *Return) Pos() Pos   { return s.P }
func (s *Switch) Pos() Pos   { return s.P }
func (s *Case) Pos() Pos     { return s.P }
func (s *Empty) Pos() Pos    { return s.P }

func (*Block) stmtNode()    {}
func (*DeclStmt) stmtNode() {}
func (*ExprStmt) stmtNode() {}
func (*If) stmtNode()       {}
func (*For) stmtNode()      {}
func (*While) stmtNode()    {}
func (*DoWhile) stmtNode()  {}
func (*Break) stmtNode()    {}
func (*Continue) stmtNode() {}
func (*Return) stmtNode()   {}
func (*Switch) stmtNode()   {}
func (*Empty) stmtNode()    {}
