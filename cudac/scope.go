package cudac

type entKind uint8

const (
	entVar        entKind = iota + 1
	entConst              // a named constant: constexpr global, template parameter, enumerator
	entType               // a typedef, alias, struct or enum name
	entFunc               // a non-template function
	entTmpl               // a function template
	entStructTmpl         // a struct template
)

// entity is what a name in a scope denotes.
type entity struct {
	kind entKind
	name string
	pos  Pos
	seq  int // declaration order at file scope
	v    *Var
	// val is the value of an entConst, or of a const local or parameter
	// whose initialiser is a constant (uses fold to it).
	val *Const
	t   *Type
	// tconst and tvol are the qualifiers of a typedef'd type.
	tconst, tvol bool
	// enumItems are an enum type's enumerators, for E::A.
	enumItems map[string]*Const
	fn        *funcInfo
	tm        *tmplInfo
	stm       *structTmpl
	// ref marks a reference variable: its Var holds the address, and a use
	// of the name is *v.
	ref bool
}

type scope struct {
	parent *scope
	names  map[string]*entity
	global bool
}

func newScope(parent *scope) *scope {
	return &scope{parent: parent, names: map[string]*entity{}}
}

// funcInfo is a non-template function: its declarations and definition.
type funcInfo struct {
	fn       *Func
	decl     *sFunc // the first declaration
	def      *sFunc // the definition, once seen
	params   []*Type
	defaults []*Const
	// uses are the positions of calls, to report a function that is used
	// but never defined.
	uses []Pos
}

// tmplInfo is a function template.
type tmplInfo struct {
	name   string
	decl   *sFunc // the definition, or the first declaration until then
	params []tmplParam
	kernel bool
	// seq limits the file-scope names the body sees to those declared
	// before the definition.
	seq   int
	insts map[string]*instance
	pos   Pos
}

type tmplParam struct {
	name string
	pos  Pos
	t    *Type // nil for a type parameter
	def  sExpr
	// isType marks a type parameter; tdef is its default.
	isType bool
	tdef   *sTypeName
}

// tmplVal is a template argument: a constant, or a type for a type
// parameter.
type tmplVal struct {
	k *Const
	t *Type
}

func (v tmplVal) String() string {
	if v.t != nil {
		return v.t.String()
	}
	return constString(v.k)
}

// instance is one instantiation of a template.
type instance struct {
	fn    *Func
	err   error
	first string // a failed instantiation's first diagnostic
	diag  error  // the diagnostics of a failed kernel instantiation
	done  bool
}
