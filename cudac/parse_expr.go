package cudac

import "strings"

// expr parses an expression, including the comma operator.
func (p *parser) expr() sExpr {
	x := p.assign()
	for n := 0; p.is(tComma); n++ {
		pos := p.here()
		p.chain(n)
		p.next()
		y := p.assign()
		x = &sBinary{P: pos, Op: tComma, X: x, Y: y}
	}
	return x
}

func isAssignOp(k tokKind) bool {
	switch k {
	case tAssign, tAddAssign, tSubAssign, tMulAssign, tDivAssign, tRemAssign,
		tAndAssign, tOrAssign, tXorAssign, tShlAssign, tShrAssign:
		return true
	}
	return false
}

// assign parses an assignment expression (which includes ?:).
func (p *parser) assign() sExpr {
	p.enter()
	defer p.leave()
	x := p.binary(1)
	switch {
	case p.is(tQuestion):
		pos := p.here()
		p.next()
		saved := p.noGT
		p.noGT = 0
		y := p.expr()
		p.noGT = saved
		if !p.expect(tColon, "in conditional expression") {
			return &sBad{P: pos}
		}
		z := p.assign()
		return &sCond{P: pos, C: x, X: y, Y: z}
	case isAssignOp(p.tok.kind):
		op, pos := p.tok.kind, p.here()
		p.next()
		var y sExpr
		if p.is(tLBrace) {
			y = p.initList()
		} else {
			y = p.assign()
		}
		return &sAssign{P: pos, Op: op, X: x, Y: y}
	}
	return x
}

// cond1 parses a conditional expression (no assignment or comma): a case
// label's value.
func (p *parser) cond1() sExpr {
	x := p.binary(1)
	if p.is(tQuestion) {
		pos := p.here()
		p.next()
		y := p.expr()
		if !p.expect(tColon, "in conditional expression") {
			return &sBad{P: pos}
		}
		z := p.cond1()
		return &sCond{P: pos, C: x, X: y, Y: z}
	}
	return x
}

// binPrec is the precedence of a binary operator; 0 if it is none.
func (p *parser) binPrec(k tokKind) int {
	switch k {
	case tOrOr:
		return 1
	case tAndAnd:
		return 2
	case tPipe:
		return 3
	case tCaret:
		return 4
	case tAmp:
		return 5
	case tEq, tNe:
		return 6
	case tLt, tLe, tGe:
		return 7
	case tGt:
		if p.noGT > 0 {
			return 0
		}
		return 7
	case tShl:
		return 8
	case tShr:
		if p.noGT > 0 {
			return 0
		}
		return 8
	case tPlus, tMinus:
		return 9
	case tStar, tSlash, tPercent:
		return 10
	}
	return 0
}

func (p *parser) binary(min int) sExpr {
	x := p.unary()
	for n := 0; ; n++ {
		prec := p.binPrec(p.tok.kind)
		if prec == 0 || prec < min {
			return x
		}
		op, pos := p.tok.kind, p.here()
		p.chain(n)
		p.next()
		y := p.binary(prec + 1)
		x = &sBinary{P: pos, Op: op, X: x, Y: y}
	}
}

func (p *parser) unary() sExpr {
	p.enter()
	defer p.leave()
	pos := p.here()
	switch p.tok.kind {
	case tPlus, tMinus, tNot, tTilde, tStar, tAmp, tInc, tDec:
		op := p.tok.kind
		p.next()
		return &sUnary{P: pos, Op: op, X: p.unary()}
	case tAndAnd:
		p.errorf(pos, "the address of a label is not supported")
		p.next()
		return &sBad{P: pos}
	case tLParen:
		if p.declStartAt(1) {
			p.next()
			tn := p.typeName("in cast")
			if !p.expect(tRParen, "after cast type") {
				return &sBad{P: pos}
			}
			if p.is(tLBrace) {
				p.errorf(p.here(), "compound literals are not supported")
				p.initList()
				return &sBad{P: pos}
			}
			return &sCast{P: pos, T: tn, X: p.unary(), Kind: castC}
		}
	case tIdent:
		switch p.tok.text {
		case "sizeof":
			p.next()
			if p.is(tEllipsis) {
				p.errorf(p.here(), "sizeof... is not supported")
				return &sBad{P: pos}
			}
			if p.is(tLParen) && p.isTypeStart(p.peek(1)) {
				p.next()
				tn := p.typeName("in sizeof")
				p.expect(tRParen, "after sizeof type")
				return &sSizeof{P: pos, T: tn}
			}
			return &sSizeof{P: pos, X: p.unary()}
		case "alignof", "__alignof__", "_Alignof":
			p.next()
			if !p.expect(tLParen, "after alignof") {
				return &sBad{P: pos}
			}
			tn := p.typeName("in alignof")
			p.expect(tRParen, "after alignof type")
			return &sSizeof{P: pos, T: tn, Align: true}
		case "new", "delete":
			p.errorf(pos, "'%s' is not supported in device code", p.tok.text)
			p.skipExpr()
			return &sBad{P: pos}
		case "throw":
			p.errorf(pos, "exceptions are not supported")
			p.next()
			return &sBad{P: pos}
		}
	}
	return p.postfix(p.primary())
}

func (p *parser) postfix(x sExpr) sExpr {
	for n := 0; ; n++ {
		pos := p.here()
		p.chain(n)
		switch p.tok.kind {
		case tLParen:
			x = p.call(x, nil, false)
		case tLBrack:
			p.next()
			saved := p.noGT
			p.noGT = 0
			i := p.expr()
			p.noGT = saved
			p.expect(tRBrack, "after subscript")
			x = &sIndex{P: pos, X: x, I: i}
		case tDot, tArrow:
			arrow := p.tok.kind == tArrow
			p.next()
			if !p.is(tIdent) || keywords[p.tok.text] {
				p.errorf(p.here(), "expected a member name, found %s", p.tok.describe())
				return &sBad{P: pos}
			}
			x = &sMember{P: pos, X: x, Name: p.tok.text, NamePos: p.here(), Arrow: arrow}
			p.next()
		case tInc, tDec:
			op := p.tok.kind
			p.next()
			x = &sPostfix{P: pos, Op: op, X: x}
		case tLaunch:
			p.errorf(pos, "kernel launches (<<<...>>>) are not supported in device code")
			for !p.is(tEOF) && !p.is(tSemi) && !p.is(tRBrace) {
				if p.is(tLParen) || p.is(tLBrack) || p.is(tLBrace) {
					p.skipBalanced()
				} else {
					p.next()
				}
			}
			return &sBad{P: pos}
		default:
			return x
		}
	}
}

// call parses an argument list at '('.
func (p *parser) call(fn sExpr, targs []sExpr, hasT bool) sExpr {
	c := &sCall{P: fn.spos(), Fn: fn, TArgs: targs, HasT: hasT}
	p.next()
	saved := p.noGT
	p.noGT = 0
	for !p.is(tRParen) && !p.is(tEOF) {
		if p.is(tLBrace) {
			// f({a, b}): checked against the parameter's type.
			c.Args = append(c.Args, p.initList())
		} else {
			c.Args = append(c.Args, p.assign())
		}
		if !p.got(tComma) {
			break
		}
	}
	p.noGT = saved
	c.RPos = p.here()
	p.expect(tRParen, "after call arguments")
	return c
}

// simpleTypeWords can start a functional cast: float(x), unsigned(x).
var simpleTypeWords = map[string]bool{
	"bool": true, "char": true, "short": true, "int": true, "long": true, "signed": true,
	"unsigned": true, "float": true, "double": true,
}

func (p *parser) primary() sExpr {
	pos := p.here()
	t := p.tok
	switch t.kind {
	case tInt, tFloat:
		p.next()
		return &sNum{P: pos, Text: t.text, Float: t.kind == tFloat}
	case tChar:
		p.next()
		return &sChar{P: pos, Val: t.val}
	case tString:
		return &sStr{P: pos, Val: p.strings()}
	case tLParen:
		p.next()
		saved := p.noGT
		p.noGT = 0
		x := p.expr()
		p.noGT = saved
		if !p.expect(tRParen, "") {
			return &sBad{P: pos}
		}
		return x
	case tLBrack:
		return p.lambda()
	case tColonColon:
		p.next()
		if !p.is(tIdent) {
			p.errorf(p.here(), "expected a name after '::'")
			return &sBad{P: pos}
		}
		return p.primary()
	case tIdent:
	default:
		if t.kind == tEOF {
			p.errorf(pos, "expected an expression, found end of file")
		} else {
			p.errorf(pos, "expected an expression, found %s", t.describe())
		}
		return &sBad{P: pos}
	}
	switch w := t.text; w {
	case "true", "false":
		p.next()
		return &sBool{P: pos, Val: w == "true"}
	case "nullptr", "NULL":
		p.next()
		return &sNull{P: pos}
	case "this":
		p.errorf(pos, "'this' is not supported")
		p.next()
		return &sBad{P: pos}
	case "static_cast", "reinterpret_cast", "const_cast":
		p.next()
		if !p.is(tLt) {
			p.errorf(p.here(), "expected '<' after '%s'", w)
			return &sBad{P: pos}
		}
		p.next()
		p.noGT++
		tn := p.typeName("in " + w)
		p.noGT--
		if !p.expect(tGt, "after "+w+" type") || !p.expect(tLParen, "after "+w+"<...>") {
			return &sBad{P: pos}
		}
		saved := p.noGT
		p.noGT = 0
		x := p.expr()
		p.noGT = saved
		p.expect(tRParen, "after "+w+" operand")
		k := castStatic
		if w == "reinterpret_cast" {
			k = castReinterpret
		} else if w == "const_cast" {
			k = castConst
		}
		return &sCast{P: pos, T: tn, X: x, Kind: k}
	case "dynamic_cast", "typeid", "decltype", "operator", "co_await", "requires", "noexcept":
		p.errorf(pos, "'%s' is not supported", w)
		p.next()
		return &sBad{P: pos}
	case "template":
		p.errorf(pos, "templates must be declared at file scope")
		p.next()
		return &sBad{P: pos}
	}
	if t.text == cudaPrefix+"atomic_ref" && p.peek(1).kind == tLt {
		// cuda::atomic_ref<T, S>(x): a temporary reference to x.
		tn := &sTypeName{P: pos, Spec: p.declSpecs()}
		if tn.Spec == nil || !p.expect(tLParen, "after cuda::atomic_ref<...> (cuda::atomic_ref<T, S>(x))") {
			return &sBad{P: pos}
		}
		saved := p.noGT
		p.noGT = 0
		x := p.assign()
		p.noGT = saved
		p.expect(tRParen, "after the object of a cuda::atomic_ref")
		return &sCast{P: pos, T: tn, X: x, Kind: castFunctional}
	}
	if p.ttypes[t.text] && p.peek(1).kind == tLt && p.isTypeName(t.text) {
		tn := p.typeName("")
		if !p.expect(tLParen, "after a struct template's type (S<T>())") {
			return &sBad{P: pos}
		}
		if !p.is(tRParen) {
			p.errorf(p.here(), "constructors are not supported (only S<T>() with no arguments)")
			p.skipExpr()
		}
		p.expect(tRParen, "")
		return &sTemp{P: pos, T: tn}
	}
	if t.text == "dim3" && p.peek(1).kind == tLParen {
		// dim3(x, y, z): a constructor call, checked as one.
		p.next()
		return &sIdent{P: pos, Name: t.text}
	}
	if simpleTypeWords[t.text] || p.isTypeName(t.text) {
		if p.peek(1).kind == tLParen {
			tn := &sTypeName{P: pos, Spec: &declSpec{P: pos, TypePos: pos}}
			if simpleTypeWords[t.text] {
				p.declSpecsWord(tn.Spec, t.text)
			} else {
				tn.Spec.Name, tn.Spec.NamePos = t.text, pos
			}
			p.next()
			lp := p.here()
			p.next()
			saved := p.noGT
			p.noGT = 0
			var x sExpr
			if p.is(tRParen) {
				x = &sNum{P: lp, Text: "0"} // T() is a zero
			} else {
				x = p.expr()
			}
			p.noGT = saved
			p.expect(tRParen, "after functional cast")
			return &sCast{P: pos, T: tn, X: x, Kind: castFunctional}
		}
		if p.peek(1).kind == tLBrace {
			p.errorf(pos, "brace-initialized temporaries are not supported; use a cast")
			p.next()
			p.initList()
			return &sBad{P: pos}
		}
		if keywords[t.text] {
			p.errorf(pos, "expected an expression, found '%s'", t.text)
			p.next()
			return &sBad{P: pos}
		}
	}
	if keywords[t.text] {
		p.errorf(pos, "expected an expression, found '%s'", t.text)
		p.next()
		return &sBad{P: pos}
	}
	p.next()
	if p.is(tColonColon) {
		p.next()
		if !p.is(tIdent) {
			p.errorf(p.here(), "expected a name after '::'")
			return &sBad{P: pos}
		}
		s := &sScoped{P: pos, Scope: t.text, Name: p.tok.text}
		p.next()
		for p.is(tColonColon) {
			p.next()
			if p.is(tIdent) {
				s.Scope += "::" + s.Name
				s.Name = p.tok.text
				p.next()
			}
		}
		return s
	}
	id := &sIdent{P: pos, Name: t.text}
	if p.isTemplate(t.text) && p.is(tLt) {
		args := p.templateArgs()
		if p.is(tLBrace) && p.peek(1).kind == tRBrace && strings.HasPrefix(t.text, cgPrefix) && cgReduceOps[strings.TrimPrefix(t.text, cgPrefix)] {
			// cg::plus<float>{}: the operator object, as cg::plus<float>().
			p.next()
			p.next()
			return &sCall{P: pos, Fn: id, TArgs: args, HasT: true, RPos: pos}
		}
		if !p.is(tLParen) {
			p.errorf(p.here(), "expected '(' after template arguments of '%s'", t.text)
			return &sBad{P: pos}
		}
		return p.call(id, args, true)
	}
	return id
}

// declSpecsWord records one simple type keyword in s.
func (p *parser) declSpecsWord(s *declSpec, w string) {
	switch w {
	case "void":
		s.Void++
	case "auto":
		s.Auto++
	case "bool":
		s.Bool++
	case "char":
		s.Char++
	case "short":
		s.Short++
	case "int":
		s.Int++
	case "long":
		s.Long++
	case "signed":
		s.Signed++
	case "unsigned":
		s.Unsigned++
	case "float":
		s.Float++
	case "double":
		s.Double++
	}
}

// skipExpr skips the rest of an expression after an error: up to a ';',
// ',' or closing bracket at depth 0.
func (p *parser) skipExpr() {
	for !p.is(tEOF) {
		switch p.tok.kind {
		case tSemi, tComma, tRParen, tRBrack, tRBrace:
			return
		case tLParen, tLBrack, tLBrace:
			p.skipBalanced()
			continue
		}
		p.next()
	}
}

// maxChain bounds the operators in one chain (a + b + c ..., a[i][j] ...):
// the tree of a chain is as deep as it is long.
const maxChain = 4096

func (p *parser) chain(n int) {
	if n > maxChain {
		p.errorf(p.here(), "expression is too long")
		panic(bailout{})
	}
}

// lambda parses [captures](params) mutable -> R { body }; __device__ and
// __host__ after the captures are accepted.
func (p *parser) lambda() sExpr {
	l := &sLambda{P: p.here()}
	p.next()
	for !p.is(tRBrack) && !p.is(tEOF) {
		cp := p.here()
		switch {
		case p.is(tAssign) && len(l.Caps) == 0 && l.Default == 0:
			l.Default = '='
			p.next()
		case p.is(tAmp) && p.peek(1).kind != tIdent && len(l.Caps) == 0 && l.Default == 0:
			l.Default = '&'
			p.next()
		case p.is(tAmp) && p.peek(1).kind == tIdent:
			p.next()
			l.Caps = append(l.Caps, lambdaCap{P: cp, Name: p.tok.text, Ref: true})
			p.next()
		case p.is(tIdent) && p.tok.text != "this":
			l.Caps = append(l.Caps, lambdaCap{P: cp, Name: p.tok.text})
			p.next()
		default:
			p.errorf(cp, "unsupported lambda capture %s (the subset has =, &, name and &name)", p.tok.describe())
			p.skipLambdaRest()
			return &sBad{P: l.P}
		}
		if !p.got(tComma) {
			break
		}
	}
	if !p.expect(tRBrack, "after lambda captures") {
		p.skipLambdaRest()
		return &sBad{P: l.P}
	}
	for p.isWord("__device__") || p.isWord("__host__") {
		p.next()
	}
	if p.is(tLParen) {
		d := &declarator{}
		if !p.params(d) {
			p.skipLambdaRest()
			return &sBad{P: l.P}
		}
		l.Params = d.Param
	}
	for p.isWord("mutable") || p.isWord("noexcept") || p.isWord("constexpr") || p.isWord("__device__") || p.isWord("__host__") {
		l.Mutable = l.Mutable || p.tok.text == "mutable"
		p.next()
	}
	if p.got(tArrow) {
		l.Ret = p.typeName("after '->' in a lambda")
	}
	if !p.is(tLBrace) {
		p.errorf(p.here(), "expected '{' to begin a lambda's body, found %s", p.tok.describe())
		return &sBad{P: l.P}
	}
	saved := p.noGT
	p.noGT = 0
	l.Body = p.block()
	p.noGT = saved
	return l
}

// skipLambdaRest skips what is left of a lambda after an error.
func (p *parser) skipLambdaRest() {
	if p.is(tRBrack) {
		p.next()
	}
	if p.is(tLParen) {
		p.skipBalanced()
	}
	for p.is(tIdent) || p.is(tArrow) || p.is(tStar) {
		p.next()
	}
	if p.is(tLBrace) {
		p.skipBalanced()
	}
}
