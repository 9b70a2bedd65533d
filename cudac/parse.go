package cudac

import "fmt"

// maxDepth bounds the nesting of statements and expressions.
const maxDepth = 256

// unsupportedTypes are type names a CUDA programmer may write that the
// subset does not have.
var unsupportedTypes = map[string]bool{
	"half": true, "__half": true, "half2": true, "__half2": true, "__nv_bfloat16": true,
	"nv_bfloat16": true, "__nv_bfloat162": true, "wchar_t": true, "char16_t": true,
	"char32_t": true, "char8_t": true, "cudaStream_t": true, "cudaError_t": true,
	"float1": true, "double3": true, "double4": true, "long2": true,
	"__int128": true, "string": true, "vector": true,
}

type parser struct {
	d      *diags
	toks   []token
	i      int
	tok    token
	scopes []map[string]bool // per scope: name -> is a type name
	tmpls  map[string]bool   // names of function templates
	ttypes map[string]bool   // names of struct templates
	depth  int
	noGT   int // > 0 while parsing template arguments: '>' ends them
	// spec0 is set while parsing the declaration after "template <>".
	spec0 bool
	// inSwitch counts the enclosing switch statements.
	inSwitch int
	// hostNames are the names of skipped host items (stripHost's).
	hostNames map[string]string
}

func newParser(toks []token, d *diags) *parser {
	p := &parser{d: d, toks: toks, tmpls: map[string]bool{}, ttypes: map[string]bool{cgPrefix + "thread_block_tile": true, cudaPrefix + "atomic_ref": true, cudaPrefix + "atomic": true}}
	p.scopes = []map[string]bool{{}}
	for name := range predefTypedef {
		p.scopes[0][name] = true
	}
	for _, name := range cgTypeNames {
		p.scopes[0][cgPrefix+name] = true
	}
	for name := range vectorTypes {
		p.scopes[0][name] = true
	}
	p.scopes[0][cudaPrefix+"atomic_ref"] = true
	p.scopes[0][cudaPrefix+"atomic"] = true
	for _, name := range cgTemplateNames {
		p.tmpls[cgPrefix+name] = true
	}
	p.tok = toks[0]
	return p
}

// parseFile parses a whole translation unit.
func parseFile(toks []token, d *diags, hostNames map[string]string) []sNode {
	p := newParser(toks, d)
	p.hostNames = hostNames
	var items []sNode
	for p.tok.kind != tEOF {
		start := p.i
		items = p.topLevel(items)
		if p.i == start {
			p.next()
		}
	}
	return items
}

func (p *parser) next() {
	if p.d.tick() {
		p.d.stop(p.here())
	}
	if p.i < len(p.toks)-1 {
		p.i++
	}
	p.tok = p.toks[p.i]
}

func (p *parser) peek(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) pos(t token) Pos { return p.d.tpos(t) }
func (p *parser) here() Pos       { return p.pos(p.tok) }

func (p *parser) errorf(pos Pos, format string, args ...any) {
	p.d.errorf(pos, format, args...)
}

func (p *parser) is(k tokKind) bool { return p.tok.kind == k }

func (p *parser) isWord(w string) bool { return p.tok.kind == tIdent && p.tok.text == w }

func (p *parser) got(k tokKind) bool {
	if p.tok.kind == k {
		p.next()
		return true
	}
	return false
}

// expect consumes a token of kind k or reports an error.
func (p *parser) expect(k tokKind, context string) bool {
	if p.got(k) {
		return true
	}
	pos := p.here()
	if prev := p.toks[max(p.i-1, 0)]; p.i > 0 && prev.line < p.tok.line && (k == tSemi || k == tRParen || k == tRBrack) {
		// A missing terminator belongs at the end of the line before,
		// not at the next token.
		pos = p.d.at(prev.file, prev.line, prev.end)
		if context != "" {
			p.errorf(pos, "expected '%s' %s", k, context)
		} else {
			p.errorf(pos, "expected '%s'", k)
		}
		return false
	}
	if context != "" {
		p.errorf(pos, "expected '%s' %s, found %s", k, context, p.tok.describe())
	} else {
		p.errorf(pos, "expected '%s', found %s", k, p.tok.describe())
	}
	return false
}

// sync skips to the end of the current statement or declaration after an
// error: past the next ';' at brace depth 0, or up to an unmatched '}'.
func (p *parser) sync() {
	depth := 0
	for p.tok.kind != tEOF {
		switch p.tok.kind {
		case tSemi:
			if depth == 0 {
				p.next()
				return
			}
		case tLBrace:
			depth++
		case tRBrace:
			if depth == 0 {
				return
			}
			depth--
			if depth == 0 {
				p.next()
				if p.is(tSemi) {
					p.next()
				}
				return
			}
		}
		p.next()
	}
}

// endStmt ends a declaration or statement at ';'. After an error in it
// (the count is above errs) it only resynchronises, without a second
// diagnostic.
func (p *parser) endStmt(errs int, context string) {
	if p.d.count() > errs {
		if p.got(tSemi) || p.prevKind() == tSemi || p.prevKind() == tRBrace {
			return
		}
		p.sync()
		return
	}
	if !p.expect(tSemi, context) {
		p.sync()
	}
}

// skipBalanced skips a bracketed group starting at an opening token.
func (p *parser) skipBalanced() {
	depth := 0
	for !p.is(tEOF) {
		switch p.tok.kind {
		case tLParen, tLBrack, tLBrace:
			depth++
		case tRParen, tRBrack, tRBrace:
			depth--
		}
		p.next()
		if depth <= 0 {
			return
		}
	}
}

func (p *parser) push() { p.scopes = append(p.scopes, map[string]bool{}) }
func (p *parser) pop()  { p.scopes = p.scopes[:len(p.scopes)-1] }

// declare records name in the current scope as a type name or not.
func (p *parser) declare(name string, isType bool) {
	if name != "" {
		p.scopes[len(p.scopes)-1][name] = isType
	}
}

// isTemplate reports whether name denotes a function template (and is not
// hidden by a local name).
func (p *parser) isTemplate(name string) bool {
	for i := len(p.scopes) - 1; i > 0; i-- {
		if _, ok := p.scopes[i][name]; ok {
			return false
		}
	}
	return p.tmpls[name]
}

func (p *parser) isTypeName(name string) bool {
	for i := len(p.scopes) - 1; i >= 0; i-- {
		if t, ok := p.scopes[i][name]; ok {
			return t
		}
	}
	return false
}

var specWords = map[string]bool{
	"void": true, "bool": true, "char": true, "short": true, "int": true, "long": true,
	"signed": true, "unsigned": true, "float": true, "double": true, "auto": true,
	"const": true, "volatile": true, "struct": true, "enum": true, "union": true, "class": true,
	"static": true, "extern": true, "constexpr": true, "inline": true, "typedef": true,
	"register": true, "typename": true, "alignas": true, "__align__": true,
	"__global__": true, "__device__": true, "__host__": true, "__shared__": true,
	"__constant__": true, "__managed__": true, "__forceinline__": true, "__noinline__": true,
	"__inline__": true, "__restrict__": true, "__restrict": true, "__launch_bounds__": true,
	"__volatile__": true,
}

// isTypeStart reports whether t can begin a declaration.
func (p *parser) isTypeStart(t token) bool {
	return t.kind == tIdent && (specWords[t.text] || p.isTypeName(t.text))
}

// declStartAt reports whether the token n ahead begins a declaration
// rather than an expression: a type start that is not a functional cast
// T(x) or a qualified name T::x.
func (p *parser) declStartAt(n int) bool {
	t := p.peek(n)
	if !p.isTypeStart(t) {
		return false
	}
	next := p.peek(n + 1).kind
	if next == tLParen && (p.peek(n+2).kind == tStar || p.peek(n+2).kind == tAmp) && p.peek(n+3).kind == tIdent &&
		p.peek(n+4).kind == tRParen && p.peek(n+5).kind == tLParen {
		// float (*f)(float) = g; a declaration (which declarator refuses).
		return true
	}
	if (simpleTypeWords[t.text] || p.isTypeName(t.text)) && (next == tLParen || next == tColonColon) {
		return false
	}
	if t.text == cudaPrefix+"atomic_ref" && next == tLt {
		// cuda::atomic_ref<T, S>(x).load(): a temporary, not a declaration.
		depth := 0
		for k := n + 1; ; k++ {
			switch p.peek(k).kind {
			case tLt:
				depth++
			case tGt:
				depth--
				if depth == 0 {
					return p.peek(k+1).kind != tLParen
				}
			case tShr:
				depth -= 2
				if depth <= 0 {
					return p.peek(k+1).kind != tLParen
				}
			case tSemi, tLBrace, tRBrace, tEOF:
				return true
			}
		}
	}
	return true
}

// enter guards the recursion depth: when the nesting is too deep it
// reports it and stops the compilation.
func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.errorf(p.here(), "nesting is too deep")
		panic(bailout{})
	}
}

func (p *parser) leave() { p.depth-- }

// ---- top level ----

func (p *parser) topLevel(items []sNode) []sNode {
	t := p.tok
	switch {
	case t.kind == tSemi:
		p.next()
		return items
	case t.kind == tIdent && t.text == "extern" && p.peek(1).kind == tString:
		if p.peek(1).text != "C" {
			p.errorf(p.pos(p.peek(1)), "unknown language linkage \"%s\"", p.peek(1).text)
		}
		p.next()
		p.next()
		if p.is(tLBrace) {
			lb := p.here()
			p.next()
			for !p.is(tRBrace) && !p.is(tEOF) {
				start := p.i
				items = p.topLevel(items)
				if p.i == start {
					p.next()
				}
			}
			if !p.got(tRBrace) {
				p.errorf(lb, "unterminated extern \"C\" block")
			}
			return items
		}
		return p.topLevel(items)
	case t.kind == tIdent && t.text == "template":
		return append(items, p.template())
	case t.kind == tIdent && t.text == "static_assert":
		return append(items, p.staticAssert())
	case t.kind == tIdent && t.text == "using":
		if s := p.using(); s != nil {
			items = append(items, s)
		}
		return items
	case t.kind == tIdent && t.text == "namespace":
		p.errorf(p.here(), "namespaces are not supported")
		p.skipDecl()
		return items
	case t.kind == tIdent && (t.text == "class" || t.text == "union") && p.peek(1).kind == tIdent:
		// Reported by declSpecs.
	case t.kind == tIdent && t.text == "asm":
		p.errorf(p.here(), "inline assembly is not supported")
		p.sync()
		return items
	case t.kind == tLaunch || t.kind == tRBrace:
		p.errorf(p.here(), "unexpected %s", t.describe())
		p.next()
		return items
	}
	if n := p.declaration(nil, true); n != nil {
		items = append(items, n)
	}
	return items
}

// funcPtrMsg is the error for device code that uses a function-pointer
// type alias.
func funcPtrMsg(name string) string {
	return fmt.Sprintf("'%s' is a function pointer type: function pointers are not supported in device code", name)
}

// skipDecl skips a declaration that may have a body.
func (p *parser) skipDecl() {
	for !p.is(tEOF) && !p.is(tLBrace) && !p.is(tSemi) {
		p.next()
	}
	p.sync()
}

func (p *parser) staticAssert() sStmt {
	s := &sStaticAssert{P: p.here()}
	p.next()
	if !p.expect(tLParen, "after 'static_assert'") {
		p.sync()
		return s
	}
	s.X = p.assign()
	if p.got(tComma) {
		if p.is(tString) {
			s.Msg = p.strings()
		} else {
			p.errorf(p.here(), "expected a string literal as the static_assert message")
		}
	}
	if !p.expect(tRParen, "") || !p.expect(tSemi, "after static_assert") {
		p.sync()
	}
	return s
}

// strings parses adjacent string literals.
func (p *parser) strings() string {
	s := ""
	for p.is(tString) {
		s += p.tok.text
		p.next()
	}
	return s
}

func (p *parser) using() sNode {
	pos := p.here()
	p.next()
	if p.isWord("namespace") {
		// "using namespace std;" has no effect on device code here.
		p.next()
		for p.is(tIdent) || p.is(tColonColon) {
			p.next()
		}
		p.expect(tSemi, "")
		return nil
	}
	if !p.is(tIdent) || keywords[p.tok.text] || p.peek(1).kind != tAssign {
		p.errorf(pos, "only 'using Name = type;' aliases are supported")
		p.sync()
		return nil
	}
	u := &sUsing{P: p.here(), Name: p.tok.text}
	p.next()
	p.next()
	u.T = p.typeName("in alias declaration")
	p.declare(u.Name, true)
	if !p.expect(tSemi, "after alias declaration") {
		p.sync()
	}
	return u
}

func (p *parser) template() sNode {
	tpos := p.here()
	p.next()
	if !p.is(tLt) {
		// An explicit instantiation: template __global__ void k<4>(...);
		n := p.declaration(nil, true)
		if f, ok := n.(*sFunc); ok && f.HasT && f.Body == nil {
			f.ExplInt = true
			return f
		}
		p.errorf(tpos, "expected '<' after 'template'")
		return n
	}
	p.next()
	tm := &sTemplate{P: tpos}
	if p.got(tGt) {
		// An explicit specialization: template <> ... f<float>(...) or
		// template <> struct S<double> {...};
		p.spec0 = true
		n := p.declaration(nil, true)
		p.spec0 = false
		switch n := n.(type) {
		case *sFunc:
			if n.HasT && n.Body != nil {
				n.Spec0 = true
				return n
			}
		case *sDecl:
			if n.Spec.Struct != nil && n.Spec.Struct.HasT && len(n.Decls) == 0 {
				return n
			}
		case nil:
			return nil
		}
		p.errorf(tpos, "an explicit specialization must define a function template's instance (f<float>(...) {...}) or a struct template's (struct S<double> {...};)")
		return nil
	}
	p.push()
	defer p.pop()
	for {
		pp := &sTParam{P: p.here()}
		if (p.isWord("typename") || p.isWord("class")) && p.peek(1).kind == tIdent {
			p.next()
			pp.P, pp.Name, pp.Type = p.here(), p.tok.text, true
			p.declare(pp.Name, true)
			p.next()
			if p.got(tAssign) {
				p.noGT++
				pp.TDefault = p.typeName("as a default template argument")
				p.noGT--
			}
			tm.Params = append(tm.Params, pp)
			if !p.got(tComma) {
				break
			}
			continue
		}
		if p.isWord("template") {
			p.errorf(p.here(), "template template parameters are not supported")
			p.skipTemplateParams()
			p.skipDecl()
			return nil
		}
		p.noGT++
		pp.T = p.typeName("in template parameter")
		if p.is(tIdent) && !keywords[p.tok.text] {
			pp.P = p.here()
			pp.Name = p.tok.text
			p.declare(pp.Name, false)
			p.next()
		} else {
			p.errorf(p.here(), "expected a template parameter name, found %s", p.tok.describe())
		}
		if p.got(tAssign) {
			pp.Default = p.assign()
		}
		p.noGT--
		tm.Params = append(tm.Params, pp)
		if !p.got(tComma) {
			break
		}
	}
	if !p.expect(tGt, "after template parameters") {
		p.skipTemplateParams()
	}
	if p.isWord("struct") {
		// Declare the name as a struct template before its body.
		if nt := p.peek(1); nt.kind == tIdent {
			p.ttypes[nt.text] = true
		}
	}
	n := p.declaration(tm, true)
	if n == nil {
		return nil
	}
	if d, ok := n.(*sDecl); ok && d.Spec.Struct != nil && len(d.Decls) == 0 && d.Spec.Struct.Def {
		d.Spec.Struct.Tmpl = tm
		p.scopes[0][d.Spec.Struct.Name] = true
		return d
	}
	if _, ok := n.(*sFunc); !ok {
		p.errorf(tpos, "only function and struct templates are supported")
		return nil
	}
	return n
}

// skipTemplateParams skips to just after the closing '>' of a template
// parameter list.
func (p *parser) skipTemplateParams() {
	for !p.is(tEOF) && !p.is(tGt) && !p.is(tLBrace) && !p.is(tSemi) {
		p.next()
	}
	p.got(tGt)
}

// declaration parses a declaration at file scope (top) or in a block: a
// function, variables, a typedef, or a struct or enum declaration.
func (p *parser) declaration(tm *sTemplate, top bool) sNode {
	start := p.here()
	spec := p.declSpecs()
	if spec == nil {
		p.sync()
		return nil
	}
	if p.is(tSemi) {
		p.next()
		if spec.Struct == nil && spec.Enum == nil {
			p.errorf(start, "declaration does not declare anything")
			return nil
		}
		return &sDecl{P: start, Spec: spec}
	}
	errs := p.d.count()
	d := p.declarator(false, top)
	if d == nil {
		p.sync()
		return nil
	}
	if d.Func {
		if !top {
			p.errorf(d.P, "local function declarations are not supported")
			p.sync()
			return nil
		}
		return p.function(tm, spec, d)
	}
	decl := &sDecl{P: start, Spec: spec, Decls: []*declarator{d}}
	p.declare(d.Name, spec.Typedef)
	p.initializer(d, spec)
	for p.got(tComma) {
		d := p.declarator(false, false)
		if d == nil {
			break
		}
		if d.Func {
			p.errorf(d.P, "a function declaration must be on its own")
			break
		}
		p.declare(d.Name, spec.Typedef)
		p.initializer(d, spec)
		decl.Decls = append(decl.Decls, d)
	}
	p.endStmt(errs, "after declaration")
	return decl
}

// initializer parses "= expr", "= {...}", "{...}" or "(expr)" after a
// declarator.
func (p *parser) initializer(d *declarator, spec *declSpec) {
	switch {
	case p.got(tAssign):
		if p.is(tLBrace) {
			d.Init = p.initList()
		} else {
			d.Init = p.assign()
		}
	case p.is(tLBrace):
		d.Init = p.initList()
	case p.is(tLParen):
		// T x(a) initializes as T x = a; dim3 d(x, y) calls dim3's
		// constructor.
		lp := p.here()
		p.next()
		saved := p.noGT
		p.noGT = 0
		args := []sExpr{p.assign()}
		for p.got(tComma) {
			args = append(args, p.assign())
		}
		p.noGT = saved
		rp := p.here()
		p.expect(tRParen, "after initializer")
		switch {
		case spec != nil && spec.Name == "dim3" && len(d.Ptrs) == 0 && len(d.Dims) == 0 && !d.Ref:
			d.Init = &sCall{P: lp, Fn: &sIdent{P: lp, Name: "dim3"}, Args: args, RPos: rp}
		case len(args) == 1:
			d.Init = args[0]
		default:
			p.errorf(lp, "constructor arguments ('%s(a, b)') are supported only for dim3", d.Name)
		}
	}
}

func (p *parser) initList() sExpr {
	p.enter()
	defer p.leave()
	l := &sInitList{P: p.here()}
	p.next()
	for !p.is(tRBrace) && !p.is(tEOF) {
		if p.is(tLBrace) {
			l.Elems = append(l.Elems, p.initList())
		} else if p.is(tDot) {
			p.errorf(p.here(), "designated initializers are not supported")
			p.sync()
			return l
		} else {
			l.Elems = append(l.Elems, p.assign())
		}
		if !p.got(tComma) {
			break
		}
	}
	p.expect(tRBrace, "at end of initializer list")
	return l
}

func (p *parser) function(tm *sTemplate, spec *declSpec, d *declarator) sNode {
	f := &sFunc{P: d.P, Name: d.Name, Spec: spec, Params: d.Param, Tmpl: tm,
		Result: &sTypeName{P: spec.P, Spec: spec, Ptrs: d.Ptrs}}
	if len(d.Dims) > 0 {
		p.errorf(d.P, "functions cannot return arrays")
	}
	f.TArgs, f.HasT = d.TArgs, d.HasT
	if tm != nil {
		p.tmpls[d.Name] = true
	}
	p.scopes[0][d.Name] = false
	if p.is(tLBrace) {
		p.push()
		for _, prm := range f.Params {
			if prm.D != nil {
				p.declare(prm.D.Name, false)
			}
		}
		f.Body = p.block()
		p.pop()
		return f
	}
	if p.isWord("const") || p.isWord("override") || p.isWord("noexcept") {
		p.errorf(p.here(), "'%s' after a function declarator is not supported", p.tok.text)
	}
	if p.is(tAssign) {
		p.errorf(p.here(), "'= ...' on a function is not supported")
	}
	if !p.expect(tSemi, "after function declaration") {
		p.sync()
	}
	return f
}

// declSpecs parses declaration specifiers. It returns nil after an error
// that makes the declaration unusable.
func (p *parser) declSpecs() *declSpec {
	s := &declSpec{P: p.here()}
	typed := func() {
		if !s.TypePos.IsValid() {
			s.TypePos = p.here()
		}
	}
	for p.is(tIdent) {
		w := p.tok.text
		switch w {
		case "const":
			s.Const = true
		case "volatile", "__volatile__":
			s.Volatile = true
		case "static":
			s.Static = true
		case "extern":
			if p.peek(1).kind == tString {
				p.errorf(p.here(), "extern \"C\" must begin the declaration")
			}
			s.Extern = true
		case "constexpr":
			s.Constexpr = true
		case "inline", "__forceinline__", "__noinline__", "__inline__":
			s.Inline = true
		case "register":
			// Deprecated and without effect.
		case "typedef":
			s.Typedef = true
		case "__global__":
			s.Global = true
		case "__device__":
			s.Device = true
		case "__host__":
			s.Host = true
		case "__shared__":
			s.Shared = true
		case "__constant__":
			s.Constant = true
		case "__managed__":
			p.errorf(p.here(), "__managed__ variables are not supported")
		case "__restrict__", "__restrict":
			// Meaningless before the '*'; accepted.
		case "__launch_bounds__":
			p.next()
			if p.is(tLParen) {
				p.skipParens()
			} else {
				p.errorf(p.here(), "expected '(' after __launch_bounds__")
			}
			continue
		case "alignas", "__align__":
			pos := p.here()
			p.next()
			if !p.expect(tLParen, "after "+w) {
				return nil
			}
			if p.isTypeStart(p.tok) {
				tn := p.typeName("in " + w)
				s.Align = &sSizeof{P: pos, T: tn, Align: true}
			} else {
				s.Align = p.assign()
			}
			if !p.expect(tRParen, "") {
				return nil
			}
			continue
		case "void", "bool", "char", "short", "int", "long", "signed", "unsigned", "float", "double", "auto":
			if s.Name != "" || s.Struct != nil || s.Enum != nil {
				p.errorf(p.here(), "cannot combine '%s' with a previous type", w)
				return nil
			}
			typed()
			p.declSpecsWord(s, w)
		case "struct", "class", "union":
			if s.hasType() {
				p.errorf(p.here(), "cannot combine '%s' with a previous type", w)
				return nil
			}
			typed()
			if w != "struct" {
				if w == "class" {
					p.errorf(p.here(), "classes are not supported; use a struct with data members only")
				} else {
					p.errorf(p.here(), "unions are not supported")
				}
				p.skipDecl()
				return nil
			}
			st := p.structSpec()
			if st == nil {
				return nil
			}
			s.Struct = st
			continue
		case "enum":
			if s.hasType() {
				p.errorf(p.here(), "cannot combine 'enum' with a previous type")
				return nil
			}
			typed()
			e := p.enumSpec()
			if e == nil {
				return nil
			}
			s.Enum = e
			continue
		case "typename":
			p.errorf(p.here(), "'typename' is not supported")
			return nil
		case "mutable", "virtual", "explicit", "friend", "thread_local":
			p.errorf(p.here(), "'%s' is not supported", w)
			return nil
		default:
			if s.hasType() {
				return s
			}
			if p.isTypeName(w) {
				typed()
				s.Name, s.NamePos = w, p.here()
				if p.ttypes[w] && p.peek(1).kind == tLt {
					p.next()
					s.TArgs = p.templateArgs()
					continue
				}
				break
			}
			if unsupportedTypes[w] {
				p.errorf(p.here(), "type '%s' is not supported", w)
				return nil
			}
			if keywords[w] {
				return s
			}
			if nt := p.peek(1); nt.kind == tIdent && !keywords[nt.text] || nt.kind == tColonColon && p.peek(2).kind == tIdent {
				if nt.kind == tColonColon {
					p.errorf(p.here(), "namespaces are not supported ('%s::%s')", w, p.peek(2).text)
				} else if p.hostNames[w] == funcPtrType {
					p.errorf(p.here(), "%s", funcPtrMsg(w))
				} else {
					p.errorf(p.here(), "unknown type name '%s'", w)
				}
				return nil
			}
			return s
		}
		p.next()
	}
	return s
}

// skipParens skips a balanced parenthesised group starting at '('.
func (p *parser) skipParens() {
	depth := 0
	for !p.is(tEOF) {
		switch p.tok.kind {
		case tLParen:
			depth++
		case tRParen:
			depth--
			if depth == 0 {
				p.next()
				return
			}
		case tSemi, tLBrace:
			return
		}
		p.next()
	}
}

func (p *parser) structSpec() *sStruct {
	st := &sStruct{P: p.here()}
	p.next()
	for p.isWord("alignas") || p.isWord("__align__") {
		w := p.tok.text
		p.next()
		if !p.expect(tLParen, "after "+w) {
			return nil
		}
		st.Align = append(st.Align, p.assign())
		if !p.expect(tRParen, "") {
			return nil
		}
	}
	if p.is(tIdent) && !keywords[p.tok.text] {
		st.P = p.here()
		st.Name = p.tok.text
		p.declare(st.Name, true)
		p.next()
		if p.ttypes[st.Name] && p.is(tLt) {
			st.TArgs, st.HasT = p.templateArgs(), true
		}
	}
	if p.is(tColon) {
		p.errorf(p.here(), "struct inheritance is not supported")
		return nil
	}
	if !p.is(tLBrace) {
		if st.Name == "" {
			p.errorf(p.here(), "expected a struct name or '{'")
			return nil
		}
		return st
	}
	st.Def = true
	p.next()
	for !p.is(tRBrace) && !p.is(tEOF) {
		if p.is(tSemi) {
			p.next()
			continue
		}
		if p.is(tIdent) && (p.tok.text == "public" || p.tok.text == "private" || p.tok.text == "protected") {
			p.errorf(p.here(), "access specifiers are not supported")
			p.sync()
			continue
		}
		if p.isWord("static_assert") || p.isWord("template") || p.isWord("using") || p.isWord("static") {
			p.errorf(p.here(), "'%s' in a struct is not supported; a struct may hold only data members", p.tok.text)
			p.skipMember()
			continue
		}
		if p.is(tTilde) || p.isWord(st.Name) && p.peek(1).kind == tLParen {
			p.errorf(p.here(), "constructors and destructors are not supported")
			p.skipMember()
			continue
		}
		start := p.here()
		spec := p.declSpecs()
		if spec == nil {
			p.skipMember()
			continue
		}
		if p.isWord("operator") && !spec.hasType() {
			if op := p.convOp(spec); op != nil {
				st.ConvOps = append(st.ConvOps, op)
			}
			continue
		}
		if !spec.hasType() {
			p.errorf(p.here(), "expected a member declaration, found %s", p.tok.describe())
			p.skipMember()
			continue
		}
		decl := &sDecl{P: start, Spec: spec}
		ok := true
		for {
			d := p.declarator(false, true)
			if d == nil {
				ok = false
				break
			}
			if d.Func {
				p.errorf(d.P, "member functions are not supported")
				ok = false
				break
			}
			if p.is(tColon) {
				p.errorf(p.here(), "bit-fields are not supported")
				ok = false
				break
			}
			if p.is(tAssign) || p.is(tLBrace) {
				p.errorf(p.here(), "default member initializers are not supported")
				ok = false
				break
			}
			decl.Decls = append(decl.Decls, d)
			if !p.got(tComma) {
				break
			}
		}
		if !ok {
			p.skipMember()
			continue
		}
		if len(decl.Decls) == 0 && spec.Struct == nil {
			p.errorf(start, "declaration does not declare anything")
		}
		st.Fields = append(st.Fields, decl)
		if !p.expect(tSemi, "after struct member") {
			p.skipMember()
		}
	}
	p.expect(tRBrace, "at end of struct")
	return st
}

// convOp parses a conversion operator at 'operator': operator T() [const]
// { body }.
func (p *parser) convOp(spec *declSpec) *sConvOp {
	op := &sConvOp{P: p.here(), Spec: spec}
	p.next()
	if !p.isTypeStart(p.tok) {
		p.errorf(op.P, "operator overloading is not supported (a struct may have conversion operators, operator T())")
		p.skipMember()
		return nil
	}
	p.noGT++
	op.Result = p.typeName("in conversion operator")
	p.noGT--
	if !p.expect(tLParen, "after conversion operator type") || !p.expect(tRParen, "after '(' (a conversion operator takes no parameters)") {
		p.skipMember()
		return nil
	}
	p.got(tIdent) // const
	if !p.is(tLBrace) {
		p.errorf(p.here(), "a conversion operator needs a body")
		p.skipMember()
		return nil
	}
	p.push()
	op.Body = p.block()
	p.pop()
	return op
}

// skipMember skips one member declaration, including a body.
func (p *parser) skipMember() {
	for !p.is(tEOF) && !p.is(tRBrace) && !p.is(tSemi) && !p.is(tLBrace) {
		p.next()
	}
	if p.is(tLBrace) {
		p.sync()
		return
	}
	p.got(tSemi)
}

func (p *parser) enumSpec() *sEnum {
	e := &sEnum{P: p.here()}
	p.next()
	if p.isWord("class") || p.isWord("struct") {
		e.Scoped = true
		p.next()
	}
	if p.is(tIdent) && !keywords[p.tok.text] {
		e.P = p.here()
		e.Name = p.tok.text
		p.declare(e.Name, true)
		p.next()
	}
	if p.got(tColon) {
		e.Base = p.typeName("as enum base")
	}
	if !p.is(tLBrace) {
		if e.Name == "" {
			p.errorf(p.here(), "expected an enum name or '{'")
			return nil
		}
		return e
	}
	e.Def = true
	p.next()
	for p.is(tIdent) {
		it := sEnumItem{P: p.here(), Name: p.tok.text}
		if keywords[it.Name] {
			p.errorf(p.here(), "expected an enumerator name, found %s", p.tok.describe())
			p.sync()
			return nil
		}
		p.next()
		if p.got(tAssign) {
			it.Val = p.assign()
		}
		if !e.Scoped {
			p.declare(it.Name, false)
		}
		e.Items = append(e.Items, it)
		if !p.got(tComma) {
			break
		}
	}
	if !p.expect(tRBrace, "at end of enum") {
		p.sync()
		return nil
	}
	return e
}

// declarator parses pointers, the name and array dimensions or a
// parameter list. abstract allows a missing name; allowFunc allows a
// parameter list.
func (p *parser) declarator(abstract, allowFunc bool) *declarator {
	d := &declarator{P: p.here()}
	var ok bool
	if d.Ptrs, ok = p.pointers(); !ok {
		return nil
	}
	switch {
	case p.is(tAmp):
		d.Ref = true
		p.next()
	case p.is(tAndAnd):
		p.errorf(p.here(), "rvalue references are not supported")
		return nil
	case p.is(tLParen) && !abstract,
		p.is(tLParen) && (p.peek(1).kind == tStar || p.peek(1).kind == tAmp || p.peek(1).kind == tCaret):
		p.errorf(p.here(), "function pointers and other parenthesised declarators are not supported")
		return nil
	case p.is(tColonColon):
		p.errorf(p.here(), "qualified names are not supported")
		return nil
	}
	for p.isWord("__launch_bounds__") || p.isWord("alignas") {
		if p.isWord("alignas") {
			p.next()
			p.expect(tLParen, "after alignas")
			d.Align = p.assign()
			p.expect(tRParen, "")
			continue
		}
		p.next()
		if p.is(tLParen) {
			p.skipParens()
		}
	}
	d.P = p.here()
	if p.is(tIdent) && !keywords[p.tok.text] {
		d.Name = p.tok.text
		p.next()
	} else if p.isWord("operator") {
		p.errorf(p.here(), "operator overloading is not supported")
		return nil
	} else if !abstract {
		p.errorf(p.here(), "expected an identifier, found %s", p.tok.describe())
		return nil
	}
	if allowFunc && d.Name != "" && (p.isTemplate(d.Name) || p.spec0) && p.is(tLt) {
		// The name of an explicit instantiation: k<256>(...).
		d.TArgs, d.HasT = p.templateArgs(), true
	}
	if p.is(tLParen) && allowFunc && d.Name != "" {
		if !p.params(d) {
			return nil
		}
		d.Func = true
		for p.isWord("__launch_bounds__") {
			p.next()
			p.skipParens()
		}
		return d
	}
	if d.Dims, ok = p.dims(); !ok {
		return nil
	}
	if p.isWord("alignas") {
		p.next()
		p.expect(tLParen, "after alignas")
		d.Align = p.assign()
		p.expect(tRParen, "")
	}
	return d
}

// params parses a parameter list.
func (p *parser) params(d *declarator) bool {
	p.next()
	if p.isWord("void") && p.peek(1).kind == tRParen {
		p.next()
	}
	for !p.is(tRParen) {
		if p.is(tEllipsis) {
			p.errorf(p.here(), "variadic functions are not supported")
			return false
		}
		prm := &sParam{P: p.here()}
		prm.Spec = p.declSpecs()
		if prm.Spec == nil {
			return false
		}
		if !prm.Spec.hasType() {
			p.errorf(p.here(), "expected a parameter type, found %s", p.tok.describe())
			return false
		}
		prm.D = p.declarator(true, false)
		if prm.D == nil {
			return false
		}
		if prm.D.Name != "" {
			prm.P = prm.D.P
		}
		if p.got(tAssign) {
			prm.Default = p.assign()
		}
		d.Param = append(d.Param, prm)
		if !p.got(tComma) {
			break
		}
	}
	return p.expect(tRParen, "after parameters")
}

// typeName parses a type in a cast, sizeof, alias or template parameter.
func (p *parser) typeName(context string) *sTypeName {
	tn := &sTypeName{P: p.here()}
	tn.Spec = p.declSpecs()
	if tn.Spec == nil {
		return tn
	}
	if !tn.Spec.hasType() {
		p.errorf(p.here(), "expected a type %s, found %s", context, p.tok.describe())
		tn.Spec = nil
		return tn
	}
	var ok bool
	if tn.Ptrs, ok = p.pointers(); !ok {
		tn.Spec = nil
		return tn
	}
	if p.is(tAmp) || p.is(tAndAnd) {
		p.errorf(p.here(), "references are not supported; use a pointer")
		p.next()
	}
	if p.is(tLParen) && p.peek(1).kind == tStar {
		p.errorf(p.here(), "function pointers and pointers to arrays are not supported")
	}
	if tn.Dims, ok = p.dims(); !ok {
		tn.Spec = nil
	}
	return tn
}

// maxDeclLevels bounds the pointer levels and array dimensions of one
// declarator.
const maxDeclLevels = 16

// pointers parses the '*'s of a declarator, each with its qualifiers.
func (p *parser) pointers() ([]ptrQual, bool) {
	var ptrs []ptrQual
	for p.is(tStar) {
		if len(ptrs) >= maxDeclLevels {
			p.errorf(p.here(), "too many levels of pointers")
			return nil, false
		}
		q := ptrQual{P: p.here()}
		p.next()
	quals:
		for p.is(tIdent) {
			switch p.tok.text {
			case "const":
				q.Const = true
			case "volatile", "__volatile__":
				q.Volatile = true
			case "__restrict__", "__restrict":
				q.Restrict = true
			default:
				break quals
			}
			p.next()
		}
		ptrs = append(ptrs, q)
	}
	return ptrs, true
}

// dims parses the array dimensions of a declarator: [N] or [].
func (p *parser) dims() ([]sDim, bool) {
	var dims []sDim
	for p.is(tLBrack) {
		if len(dims) >= maxDeclLevels {
			p.errorf(p.here(), "too many array dimensions")
			return nil, false
		}
		dim := sDim{P: p.here()}
		p.next()
		if !p.is(tRBrack) {
			dim.N = p.expr()
		}
		if !p.expect(tRBrack, "after array size") {
			return nil, false
		}
		dims = append(dims, dim)
	}
	return dims, true
}

// templateArgs parses "<args>" at '<'.
func (p *parser) templateArgs() []sExpr {
	p.next()
	p.noGT++
	defer func() { p.noGT-- }()
	var args []sExpr
	for !p.is(tGt) && !p.is(tEOF) {
		if p.isTypeStart(p.tok) && !p.isTypeName(p.tok.text) || p.isTypeName(p.tok.text) && p.peek(1).kind != tLParen {
			pos := p.here()
			args = append(args, &sTypeArg{P: pos, T: p.typeName("in template argument")})
		} else {
			args = append(args, p.assign())
		}
		if !p.got(tComma) {
			break
		}
	}
	p.expect(tGt, "after template arguments")
	return args
}
