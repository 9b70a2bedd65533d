package cudac

func (p *parser) block() *sBlock {
	b := &sBlock{P: p.here()}
	p.next() // {
	p.push()
	for !p.is(tRBrace) && !p.is(tEOF) {
		start := p.i
		if s := p.stmt(); s != nil {
			b.Stmts = append(b.Stmts, s)
		}
		if p.i == start {
			p.next()
		}
	}
	p.pop()
	if !p.got(tRBrace) {
		p.errorf(b.P, "unterminated block: expected '}'")
	}
	return b
}

// stmt parses one statement. It returns nil for one that failed to parse.
func (p *parser) stmt() sStmt {
	p.enter()
	defer p.leave()
	errs := p.d.count()
	s := p.stmt1()
	if p.d.count() > errs && s != nil {
		// Keep what parsed, but make sure the tokens of a broken
		// statement are not read again as new statements.
		if _, ok := s.(*sBlock); !ok {
			if !p.is(tRBrace) && !p.is(tEOF) && p.prevKind() != tSemi && p.prevKind() != tRBrace {
				p.sync()
			}
		}
	}
	return s
}

func (p *parser) prevKind() tokKind {
	if p.i > 0 {
		return p.toks[p.i-1].kind
	}
	return tEOF
}

func (p *parser) stmt1() sStmt {
	t := p.tok
	pos := p.here()
	switch t.kind {
	case tLBrace:
		return p.block()
	case tSemi:
		p.next()
		return &sEmpty{P: pos}
	case tIdent:
		switch t.text {
		case "if":
			return p.ifStmt()
		case "for":
			return p.forStmt()
		case "while":
			p.next()
			c := p.cond("while")
			body := p.body()
			return &sWhile{P: pos, C: c, Body: body}
		case "do":
			p.next()
			body := p.body()
			if !p.isWord("while") {
				p.errorf(p.here(), "expected 'while' in do/while loop, found %s", p.tok.describe())
				return &sDo{P: pos, Body: body, C: &sBad{P: pos}}
			}
			p.next()
			c := p.cond("do/while")
			p.expect(tSemi, "after do/while statement")
			return &sDo{P: pos, Body: body, C: c}
		case "switch":
			return p.switchStmt()
		case "case", "default":
			if p.inSwitch == 0 {
				p.errorf(pos, "'%s' statement not in a switch statement", t.text)
			} else {
				p.errorf(pos, "a '%s' label must be directly inside its switch's braces (labels nested in inner blocks or loops are not supported)", t.text)
			}
			p.skipLabel()
			return nil
		case "break":
			p.next()
			p.expect(tSemi, "after 'break'")
			return &sBreak{P: pos}
		case "continue":
			p.next()
			p.expect(tSemi, "after 'continue'")
			return &sContinue{P: pos}
		case "return":
			p.next()
			r := &sReturn{P: pos}
			if !p.is(tSemi) {
				if p.is(tLBrace) {
					r.X = p.initList()
				} else {
					r.X = p.expr()
				}
			}
			p.expect(tSemi, "after return statement")
			return r
		case "goto":
			p.errorf(pos, "goto is not supported")
			p.sync()
			return nil
		case "static_assert":
			return p.staticAssert()
		case "using":
			if u := p.using(); u != nil {
				return u.(sStmt)
			}
			return nil
		case "asm", "__asm__", "__asm":
			p.errorf(pos, "inline assembly is not supported")
			p.sync()
			return nil
		case "try", "throw", "catch":
			p.errorf(pos, "exceptions are not supported")
			p.sync()
			return nil
		case "template":
			p.errorf(pos, "templates must be declared at file scope")
			p.sync()
			return nil
		case "namespace":
			p.errorf(pos, "namespaces are not supported")
			p.sync()
			return nil
		case "else":
			p.errorf(pos, "'else' without a matching 'if'")
			p.next()
			return nil
		}
		if p.peek(1).kind == tColon && !keywords[t.text] {
			p.errorf(pos, "labels are not supported")
			p.next()
			p.next()
			return nil
		}
		if p.declStartAt(0) {
			return p.localDecl()
		}
		if unsupportedTypes[t.text] && (p.peek(1).kind == tIdent || p.peek(1).kind == tStar) {
			p.errorf(pos, "type '%s' is not supported", t.text)
			p.sync()
			return nil
		}
		if nt := p.peek(1); nt.kind == tIdent && !keywords[t.text] && !keywords[nt.text] {
			if p.hostNames[t.text] == funcPtrType {
				p.errorf(pos, "%s", funcPtrMsg(t.text))
			} else {
				p.errorf(pos, "unknown type name '%s'", t.text)
			}
			p.sync()
			return nil
		}
	}
	errs := p.d.count()
	x := p.expr()
	p.endStmt(errs, "after expression")
	return &sExprStmt{P: pos, X: x}
}

// skipLabel skips "case expr:" or "default:".
func (p *parser) skipLabel() {
	for !p.is(tEOF) && !p.is(tColon) && !p.is(tSemi) && !p.is(tRBrace) {
		p.next()
	}
	p.got(tColon)
}

func (p *parser) localDecl() sStmt {
	n := p.declaration(nil, false)
	if n == nil {
		return nil
	}
	return n.(sStmt)
}

// cond parses "(expr)" after if, while or switch.
func (p *parser) cond(what string) sExpr {
	pos := p.here()
	if !p.expect(tLParen, "after '"+what+"'") {
		return &sBad{P: pos}
	}
	if p.declStartAt(0) {
		p.errorf(p.here(), "declarations in conditions are not supported")
		for depth := 1; !p.is(tEOF) && !p.is(tLBrace) && !p.is(tSemi); p.next() {
			if p.is(tLParen) {
				depth++
			} else if p.is(tRParen) {
				if depth--; depth == 0 {
					p.next()
					break
				}
			}
		}
		return &sBad{P: pos}
	}
	x := p.expr()
	p.expect(tRParen, "after condition")
	return x
}

// body parses the body of a loop or if: a statement that is not a
// declaration.
func (p *parser) body() sStmt {
	if p.declStartAt(0) {
		// A declaration as the whole body gets its own scope.
		p.push()
		defer p.pop()
	}
	s := p.stmt()
	if s == nil {
		return &sEmpty{P: p.here()}
	}
	return s
}

func (p *parser) ifStmt() sStmt {
	s := &sIf{P: p.here()}
	p.next()
	if p.isWord("constexpr") {
		p.next() // if constexpr: the checker folds constant conditions anyway
	}
	s.C = p.cond("if")
	s.Then = p.body()
	if p.isWord("else") {
		p.next()
		s.Else = p.body()
	}
	return s
}

func (p *parser) forStmt() sStmt {
	s := &sFor{P: p.here()}
	p.next()
	if !p.expect(tLParen, "after 'for'") {
		p.sync()
		return nil
	}
	p.push()
	defer p.pop()
	switch {
	case p.got(tSemi):
	case p.declStartAt(0):
		n := p.rangeForCheck()
		if n == nil {
			return nil
		}
		s.Init = n
	default:
		x := p.expr()
		s.Init = &sExprStmt{P: startPos(x), X: x}
		if !p.expect(tSemi, "in for statement") {
			p.sync()
			return nil
		}
	}
	if !p.is(tSemi) {
		s.C = p.expr()
	}
	if !p.expect(tSemi, "in for statement") {
		p.sync()
		return nil
	}
	if !p.is(tRParen) {
		s.Post = p.expr()
	}
	if !p.expect(tRParen, "after for clauses") {
		p.sync()
		return nil
	}
	s.Body = p.body()
	return s
}

// rangeForCheck parses the declaration that begins a for statement and
// reports a range-based for.
func (p *parser) rangeForCheck() sStmt {
	start := p.here()
	spec := p.declSpecs()
	if spec == nil {
		p.sync()
		return nil
	}
	d := p.declarator(false, false)
	if d == nil {
		p.sync()
		return nil
	}
	if p.is(tColon) {
		p.errorf(p.here(), "range-based for loops are not supported")
		p.sync()
		return nil
	}
	decl := &sDecl{P: start, Spec: spec, Decls: []*declarator{d}}
	p.declare(d.Name, spec.Typedef)
	p.initializer(d, spec)
	for p.got(tComma) {
		d := p.declarator(false, false)
		if d == nil {
			p.sync()
			return nil
		}
		p.declare(d.Name, false)
		p.initializer(d, spec)
		decl.Decls = append(decl.Decls, d)
	}
	if !p.expect(tSemi, "in for statement") {
		p.sync()
		return nil
	}
	return decl
}

func (p *parser) switchStmt() sStmt {
	s := &sSwitch{P: p.here()}
	p.next()
	s.Tag = p.cond("switch")
	if !p.is(tLBrace) {
		p.errorf(p.here(), "a switch body must be a block in braces")
		p.sync()
		return nil
	}
	lb := p.here()
	p.next()
	p.push()
	p.inSwitch++
	for !p.is(tRBrace) && !p.is(tEOF) {
		start := p.i
		if p.isWord("case") || p.isWord("default") {
			c := &sCase{P: p.here(), Default: p.tok.text == "default"}
			p.next()
			if !c.Default {
				c.Val = p.cond1()
				if p.is(tEllipsis) {
					p.errorf(p.here(), "case ranges are not supported")
					p.skipLabel()
					continue
				}
			}
			if !p.expect(tColon, "after case label") {
				p.sync()
			}
			s.Stmts = append(s.Stmts, c)
			continue
		}
		if st := p.stmt(); st != nil {
			s.Stmts = append(s.Stmts, st)
		}
		if p.i == start {
			p.next()
		}
	}
	p.inSwitch--
	p.pop()
	if !p.got(tRBrace) {
		p.errorf(lb, "unterminated switch body: expected '}'")
	}
	return s
}
