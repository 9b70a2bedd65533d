package cudac

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// maxExpansion bounds the tokens that macro expansion may produce, so a
// source cannot make the preprocessor run for ever.
const maxExpansion = 1 << 18

// maxMacroDepth bounds the nesting of macro expansions.
const maxMacroDepth = 512

// macro is an object-like or a function-like macro.
type macro struct {
	name string
	body []token
	// option marks a macro set by a Define option; builtin one that the
	// front end predefines (a source may redefine it freely).
	option, builtin bool
	// fn marks a function-like macro with params (the last one
	// __VA_ARGS__ when variadic).
	fn       bool
	params   []string
	variadic bool
}

// standardMacros are what <climits>, <cfloat> and <cmath> define for
// device code. A source may redefine them.
var standardMacros = [][2]string{
	{"CHAR_BIT", "8"},
	{"SCHAR_MIN", "(-128)"}, {"SCHAR_MAX", "127"}, {"UCHAR_MAX", "255"},
	{"SHRT_MIN", "(-32768)"}, {"SHRT_MAX", "32767"}, {"USHRT_MAX", "65535"},
	{"INT_MIN", "(-2147483647 - 1)"}, {"INT_MAX", "2147483647"}, {"UINT_MAX", "4294967295u"},
	{"LONG_MIN", "(-9223372036854775807L - 1)"}, {"LONG_MAX", "9223372036854775807L"},
	{"ULONG_MAX", "18446744073709551615UL"},
	{"LLONG_MIN", "(-9223372036854775807LL - 1)"}, {"LLONG_MAX", "9223372036854775807LL"},
	{"ULLONG_MAX", "18446744073709551615ULL"},
	{"FLT_MAX", "3.40282347e+38f"}, {"FLT_MIN", "1.17549435e-38f"}, {"FLT_EPSILON", "1.1920929e-07f"},
	{"DBL_MAX", "1.7976931348623157e+308"}, {"DBL_MIN", "2.2250738585072014e-308"},
	{"DBL_EPSILON", "2.220446049250313e-16"},
	{"INFINITY", "(1.0f / 0.0f)"}, {"NAN", "(0.0f / 0.0f)"}, {"HUGE_VALF", "(1.0f / 0.0f)"},
	{"HUGE_VAL", "(1.0 / 0.0)"},
	{"M_PI", "3.14159265358979323846"}, {"M_E", "2.7182818284590452354"},
	{"M_LN2", "0.69314718055994530942"}, {"M_SQRT2", "1.41421356237309504880"},
}

// StandardMacros returns the <climits>, <cfloat> and <cmath> macros the
// front end predefines, as name and value pairs. A backend that hands the
// source to a compiler without those headers (NVRTC) supplies the same ones.
func StandardMacros() [][2]string { return slices.Clone(standardMacros) }

// builtinMacros are predefined: the compiler's own, then the standard ones.
var builtinMacros = append([][2]string{
	{"__CUDACC__", "1"},
	{"__CUDA_ARCH__", "750"},
	{"__NVCC__", "1"},
}, standardMacros...)

// builtinTable holds the lexed builtinMacros, shared (read-only) by every
// compilation.
var (
	builtinOnce  sync.Once
	builtinTable []*macro
)

// condState is one open #if.
type condState struct {
	pos      Pos
	parent   bool // the enclosing region is active
	active   bool // this branch is active
	taken    bool // some branch has been active
	seenElse bool
}

type preprocessor struct {
	d *diags
	// defines are the Define options, and defineFlag the flag that
	// gave them ("-D" when empty), for diagnostics.
	defines    map[string]string
	defineFlag string
	macros     map[string]*macro
	out        []token
	conds      []condState
	expanded   int
	overflow   bool
	inc        includeState
}

// preprocess runs the directives of toks and expands macros. The result
// ends with a tEOF token. It also returns the final macro table.
func preprocess(toks []token, d *diags, o *options) ([]token, map[string]*macro, []Include) {
	defines, arch := o.defines, o.arch
	p := &preprocessor{d: d, macros: map[string]*macro{}, defineFlag: o.defineFlag, inc: includeState{dirs: o.includeDirs, read: o.includeReader()}}
	builtinOnce.Do(func() {
		bp := &preprocessor{d: newDiags("<built-in>", nil)}
		for _, bm := range builtinMacros {
			builtinTable = append(builtinTable, &macro{name: bm[0], body: bp.lexText(bm[1], Pos{}), builtin: true})
		}
	})
	for _, m := range builtinTable {
		p.macros[m.name] = m
	}
	if arch > 0 {
		p.macros["__CUDA_ARCH__"] = &macro{name: "__CUDA_ARCH__", builtin: true,
			body: []token{{kind: tInt, text: strconv.Itoa(arch)}}}
	}
	names := make([]string, 0, len(defines))
	for name := range defines {
		names = append(names, name)
	}
	sort.Strings(names)
	p.defines = defines
	for _, name := range names {
		if !IsIdentifier(name) {
			d.errorf(Pos{File: d.file}, "%s %s=%s: %q is not a macro name (a letter or '_', then letters, digits or '_')", p.flag(), name, defines[name], name)
			continue
		}
		d.note = p.optionNote(name)
		body := p.lexText(defines[name], Pos{File: d.file})
		d.note = ""
		p.macros[name] = &macro{name: name, body: body, option: true}
	}
	p.out = make([]token, 0, len(toks)+len(toks)/8) // most tokens pass through once
	p.run(toks)
	return p.out, p.macros, p.inc.list
}

// lexText lexes a macro body given as text; errors are reported at errPos.
func (p *preprocessor) lexText(s string, errPos Pos) []token {
	lx := &lexer{src: []byte(s), d: p.d, line: 1, col: 1, errPos: errPos}
	toks := lx.all()
	toks = toks[:len(toks)-1]
	for i := range toks {
		toks[i].bol = false
	}
	return toks
}

func (p *preprocessor) active() bool {
	return len(p.conds) == 0 || p.conds[len(p.conds)-1].active
}

func (p *preprocessor) pos(t token) Pos { return p.d.tpos(t) }

func (p *preprocessor) run(toks []token) {
	p.runTokens(toks)
	p.closeConds()
	eof := token{kind: tEOF, bol: true}
	if n := len(toks); n > 0 {
		eof = toks[n-1]
	}
	p.out = append(p.out, eof)
}

// runTokens preprocesses the tokens of one file, appending to p.out.
func (p *preprocessor) runTokens(toks []token) {
	for i := 0; i < len(toks); {
		t := toks[i]
		if t.kind == tEOF {
			break
		}
		if t.kind == tHash && t.bol {
			j := i + 1
			for j < len(toks) && !toks[j].bol {
				j++
			}
			p.directive(t, toks[i+1:j])
			i = j
			continue
		}
		i++
		if p.d.tick() {
			p.d.stop(p.pos(t))
		}
		if !p.active() {
			continue
		}
		if t.kind == tIdent {
			if m := p.macros[t.text]; m != nil {
				if m.fn {
					if i >= len(toks) || toks[i].kind != tLParen {
						p.out = append(p.out, t) // the name alone is no invocation
						continue
					}
					args, next, ok := p.macroArgs(m, t, toks, i)
					i = next
					if ok {
						var out []token
						p.expandFn(m, t, args, nil, &out)
						for _, o := range out {
							p.emit(o)
						}
					}
					continue
				}
				p.expand(m, t, nil)
				continue
			}
			if t.text == "__LINE__" {
				p.emit(lineToken(t))
				continue
			}
		}
		if t.err != nil {
			p.d.errorf(t.err.pos, "%s", t.err.msg)
		}
		p.out = append(p.out, t)
	}
}

func (p *preprocessor) emit(t token) {
	if t.err != nil {
		pos := t.err.pos
		if !pos.IsValid() && t.line > 0 {
			// A token of a macro set by a Define option: report it
			// where the macro is used, which names the option.
			pos = p.pos(t)
		}
		p.d.errorf(pos, "%s", t.err.msg)
	}
	if p.expanded > maxExpansion {
		return
	}
	p.expanded++
	if p.expanded > maxExpansion {
		p.d.errorf(p.pos(t), "macro expansion is too large")
		return
	}
	p.out = append(p.out, t)
}

// expand appends the expansion of m, used at use, with every token placed
// at the use site. active lists the macros being expanded.
func (p *preprocessor) expand(m *macro, use token, active []string) {
	var out []token
	p.expandObj(m, use, active, &out)
	for _, t := range out {
		p.emit(t)
	}
}

// expandObj appends the expansion of the object-like macro m to out.
func (p *preprocessor) expandObj(m *macro, use token, active []string, out *[]token) {
	if !p.enterMacro(use, active) {
		return
	}
	if m.option {
		p.optionUse(m, use)
	}
	p.scan(m.body, use, append(active, m.name), out)
}

// optionUse notes that the line of use expands m, a macro set by a Define
// option, so that an error on that line names the option.
func (p *preprocessor) optionUse(m *macro, use token) {
	if use.line <= 0 {
		return
	}
	if p.d.lineNotes == nil {
		p.d.lineNotes = map[Pos]string{}
	}
	note := p.optionNote(m.name)
	key := p.pos(use)
	key.Col = 0
	old := p.d.lineNotes[key]
	switch {
	case old == "":
		p.d.lineNotes[key] = note
	case !strings.Contains(old, note):
		p.d.lineNotes[key] = old + "; " + note
	}
}

// optionNote says where the option macro name comes from: "N comes from
// -D N=4", with the flag DefineFlag set.
func (p *preprocessor) optionNote(name string) string {
	return fmt.Sprintf("%s comes from %s %s=%s", name, p.flag(), name, p.defines[name])
}

// enterMacro guards the depth and size of expansions.
func (p *preprocessor) enterMacro(use token, active []string) bool {
	if p.expanded > maxExpansion {
		return false
	}
	if len(active) >= maxMacroDepth {
		p.d.errorf(p.pos(use), "macro expansion is nested too deeply")
		p.expanded = maxExpansion + 1
		return false
	}
	return true
}

// scan rescans tokens from an expansion: macros in them that are not
// being expanded already are expanded, function-like ones when their
// arguments follow within list. Every token is placed at use.
func (p *preprocessor) scan(list []token, use token, active []string, out *[]token) {
	for k := 0; k < len(list); k++ {
		bt := list[k]
		if bt.kind == tIdent && !bt.noExpand {
			if inner := p.macros[bt.text]; inner != nil {
				if contains(active, bt.text) {
					// Painted blue: never expanded again.
					bt.noExpand = true
				} else if !inner.fn {
					p.expandObj(inner, use, active, out)
					continue
				} else if k+1 < len(list) && list[k+1].kind == tLParen {
					args, next, ok := p.macroArgs(inner, use, list, k+1)
					k = next - 1
					if ok {
						p.expandFn(inner, use, args, active, out)
					}
					continue
				}
			}
		}
		bt.line, bt.col, bt.end, bt.file = use.line, use.col, use.end, use.file
		bt.bol = use.bol && len(*out) == 0
		if bt.kind == tIdent && bt.text == "__LINE__" {
			bt = lineToken(bt)
		}
		p.expanded++
		if p.expanded > maxExpansion {
			p.d.errorf(p.pos(use), "macro expansion is too large")
			return
		}
		*out = append(*out, bt)
	}
}

// macroArgs collects the arguments of an invocation of m whose '(' is
// toks[lp]: the tokens of each argument, split at commas outside nested
// parentheses. It returns the index after ')'.
func (p *preprocessor) macroArgs(m *macro, use token, toks []token, lp int) (args [][]token, next int, ok bool) {
	depth := 0
	var cur []token
	for i := lp + 1; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == tEOF:
			i = len(toks)
			continue
		case t.kind == tLParen:
			depth++
		case t.kind == tRParen && depth == 0:
			args = append(args, cur)
			if len(m.params) == 0 && len(args) == 1 && len(args[0]) == 0 {
				args = nil // F()
			}
			return args, i + 1, true
		case t.kind == tRParen:
			depth--
		case t.kind == tComma && depth == 0 && !(m.variadic && len(args) == len(m.params)-1):
			args = append(args, cur)
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
	p.d.errorf(p.pos(use), "unterminated argument list invoking macro '%s'", m.name)
	return nil, len(toks), false
}

// expandFn appends the expansion of the function-like macro m with args.
func (p *preprocessor) expandFn(m *macro, use token, args [][]token, active []string, out *[]token) {
	if !p.enterMacro(use, active) {
		return
	}
	if m.variadic && len(args) == len(m.params)-1 {
		args = append(args, nil) // no variadic arguments
	}
	if len(args) != len(m.params) {
		p.d.errorf(p.pos(use), "macro '%s' takes %d argument%s, not %d", m.name, len(m.params), plural(len(m.params)), len(args))
		return
	}
	param := func(t token) int {
		if t.kind != tIdent {
			return -1
		}
		for i, n := range m.params {
			if n == t.text {
				return i
			}
		}
		return -1
	}
	expanded := make([][]token, len(args))
	expandedArg := func(i int) []token {
		if expanded[i] == nil {
			var e []token
			p.scan(args[i], use, active, &e)
			expanded[i] = append(e, token{}) // non-nil even when empty
		}
		return expanded[i][:len(expanded[i])-1]
	}
	mbody := m.body
	if m.variadic {
		mbody = vaOpt(mbody, len(args[len(args)-1]) > 0)
	}
	var body []token
	for k := 0; k < len(mbody); k++ {
		bt := mbody[k]
		pasteNext := k+1 < len(mbody) && mbody[k+1].kind == tHashHash
		pastePrev := k > 0 && mbody[k-1].kind == tHashHash
		switch {
		case bt.kind == tHash && k+1 < len(mbody) && param(mbody[k+1]) >= 0:
			body = append(body, token{kind: tString, text: spell(args[param(mbody[k+1])])})
			k++
		case bt.kind == tHashHash:
			// Paste the last token so far with the next one.
			if k+1 >= len(mbody) || len(body) == 0 {
				continue
			}
			k++
			right := []token{mbody[k]}
			if i := param(mbody[k]); i >= 0 {
				right = args[i]
			}
			if len(right) == 0 {
				continue
			}
			left := body[len(body)-1]
			pasted := p.lexText(left.text+right[0].text, p.pos(use))
			if len(pasted) != 1 {
				p.d.errorf(p.pos(use), "pasting '%s' and '%s' in macro '%s' does not give one token", left.text, right[0].text, m.name)
				return
			}
			body = append(append(body[:len(body)-1], pasted[0]), right[1:]...)
		case param(bt) >= 0:
			if pasteNext || pastePrev {
				body = append(body, args[param(bt)]...)
			} else {
				body = append(body, expandedArg(param(bt))...)
			}
		default:
			body = append(body, bt)
		}
	}
	p.scan(body, use, append(active, m.name), out)
}

// unrollCount checks the count of #pragma unroll where it is a number
// (a template parameter or a macro is left to the compiler, which sees
// its value): nvcc wants a positive integral constant, so a negative, a
// zero, a floating or a string count is an error, not a silent no-op.
func (p *preprocessor) unrollCount(unroll token, count []token) {
	toks := count
	for len(toks) >= 2 && toks[0].kind == tLParen && toks[len(toks)-1].kind == tRParen {
		toks = toks[1 : len(toks)-1]
	}
	neg := len(toks) == 2 && toks[0].kind == tMinus
	if neg {
		toks = toks[1:]
	}
	if len(toks) != 1 {
		return
	}
	switch t := toks[0]; {
	case t.kind == tInt:
		v, _, msg := parseIntLit(t.text)
		if msg == "" && !neg && v > 0 {
			return
		}
	case t.kind == tFloat, t.kind == tString, t.kind == tChar:
	default:
		return
	}
	p.d.errorf(p.pos(count[0]), "#pragma unroll %s: the unroll count must be a positive integral constant", spell(count))
}

// vaOpt returns a variadic macro's body with each __VA_OPT__(x) replaced
// by x when the variadic arguments are not empty (some) and by nothing
// when they are (C++20 [cpp.subst]). define has checked that each
// __VA_OPT__ is followed by a balanced parenthesised group.
func vaOpt(body []token, some bool) []token {
	k := slices.IndexFunc(body, func(t token) bool { return t.kind == tIdent && t.text == "__VA_OPT__" })
	if k < 0 {
		return body
	}
	out := append([]token(nil), body[:k]...)
	for k < len(body) {
		t := body[k]
		if t.kind != tIdent || t.text != "__VA_OPT__" {
			out = append(out, t)
			k++
			continue
		}
		end := closeParen(body, k+1)
		if some {
			out = append(out, body[k+2:end]...)
		}
		k = end + 1
	}
	return out
}

// closeParen returns the index of the ')' that closes the '(' at
// toks[open], or -1.
func closeParen(toks []token, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		switch toks[k].kind {
		case tLParen:
			depth++
		case tRParen:
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// spell is the text of tokens as # makes a string of them.
func spell(toks []token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && t.space {
			b.WriteByte(' ')
		}
		switch t.kind {
		case tString:
			b.WriteString(strconv.Quote(t.text))
		default:
			b.WriteString(t.text)
		}
	}
	return b.String()
}

// lineToken replaces __LINE__ by its line number.
func lineToken(t token) token {
	return token{kind: tInt, text: strconv.Itoa(int(t.line)), line: t.line, col: t.col, end: t.end, bol: t.bol, space: t.space}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *preprocessor) directive(hash token, line []token) {
	if len(line) == 0 {
		return // the null directive
	}
	name := line[0]
	args := line[1:]
	if name.kind != tIdent {
		if p.active() {
			p.d.errorf(p.pos(name), "invalid preprocessing directive")
		}
		return
	}
	switch name.text {
	case "if", "ifdef", "ifndef":
		st := condState{pos: p.pos(hash), parent: p.active()}
		if st.parent {
			switch name.text {
			case "if":
				st.active = p.evalIf(name, args)
			case "ifdef":
				st.active = p.defined(name, args)
			default:
				st.active = !p.defined(name, args)
			}
		}
		st.taken = st.active
		p.conds = append(p.conds, st)
		return
	case "elif", "else":
		if len(p.conds) <= p.inc.condBase {
			p.d.errorf(p.pos(name), "#%s without #if", name.text)
			return
		}
		st := &p.conds[len(p.conds)-1]
		if st.seenElse {
			p.d.errorf(p.pos(name), "#%s after #else", name.text)
			return
		}
		if name.text == "else" {
			st.seenElse = true
			st.active = st.parent && !st.taken
			p.extra(name, args)
		} else {
			st.active = st.parent && !st.taken && p.evalIf(name, args)
		}
		st.taken = st.taken || st.active
		return
	case "endif":
		if len(p.conds) <= p.inc.condBase {
			p.d.errorf(p.pos(name), "#endif without #if")
			return
		}
		p.conds = p.conds[:len(p.conds)-1]
		p.extra(name, args)
		return
	}
	if !p.active() {
		return
	}
	switch name.text {
	case "define":
		p.define(name, args)
	case "undef":
		if len(args) == 0 || args[0].kind != tIdent {
			p.d.errorf(p.pos(name), "macro name missing")
			return
		}
		delete(p.macros, args[0].text)
		p.extra(name, args[1:])
	case "include":
		p.include(name, args)
	case "pragma":
		// #pragma once marks the file as read once; #pragma unroll and
		// the others have no effect here.
		if len(args) > 0 && args[0].kind == tIdent && args[0].text == "once" {
			p.pragmaOnce()
		}
		if len(args) > 1 && args[0].kind == tIdent && args[0].text == "unroll" {
			p.unrollCount(args[0], args[1:])
		}
	case "warning", "line", "ident":
	case "error":
		msg := p.d.files[name.file].lineText(int(name.line))
		if int(name.end-1) <= len(msg) {
			msg = msg[name.end-1:]
		}
		p.d.errorf(p.pos(hash), "#error %s", strings.TrimSpace(msg))
	default:
		p.d.errorf(p.pos(name), "unknown preprocessing directive '#%s'", name.text)
	}
}

// extra reports tokens after a directive that takes none.
func (p *preprocessor) extra(name token, args []token) {
	if len(args) > 0 && p.active() {
		p.d.errorf(p.pos(args[0]), "extra tokens at end of #%s directive", name.text)
	}
}

func (p *preprocessor) defined(name token, args []token) bool {
	if len(args) == 0 || args[0].kind != tIdent {
		p.d.errorf(p.pos(name), "macro name missing")
		return false
	}
	p.extra(name, args[1:])
	return p.macros[args[0].text] != nil || args[0].text == "__LINE__"
}

func (p *preprocessor) define(name token, args []token) {
	if len(args) == 0 || args[0].kind != tIdent {
		p.d.errorf(p.pos(name), "macro name missing")
		return
	}
	id := args[0]
	if keywords[id.text] && id.text != "__forceinline__" && id.text != "__inline__" && id.text != "__restrict" {
		p.d.errorf(p.pos(id), "a keyword cannot be defined as a macro: '%s'", id.text)
		return
	}
	body := args[1:]
	nm := &macro{name: id.text}
	if len(body) > 0 && body[0].kind == tLParen && !body[0].space {
		// A function-like macro: NAME(a, b) body, NAME(a, ...) body.
		nm.fn = true
		i := 1
		for i < len(body) && body[i].kind != tRParen {
			t := body[i]
			switch {
			case t.kind == tEllipsis:
				nm.variadic = true
				nm.params = append(nm.params, "__VA_ARGS__")
			case t.kind == tIdent && !contains(nm.params, t.text):
				nm.params = append(nm.params, t.text)
			default:
				p.d.errorf(p.pos(t), "expected a parameter name in macro '%s', found %s", id.text, t.describe())
				return
			}
			i++
			if i < len(body) && body[i].kind == tComma && !nm.variadic {
				i++
			} else if i < len(body) && body[i].kind != tRParen {
				p.d.errorf(p.pos(body[i]), "expected ',' or ')' in the parameters of macro '%s'", id.text)
				return
			}
		}
		if i >= len(body) {
			p.d.errorf(p.pos(id), "missing ')' in the parameters of macro '%s'", id.text)
			return
		}
		body = body[i+1:]
		for k, t := range body {
			if t.kind == tHash && (k+1 >= len(body) || !contains(nm.params, body[k+1].text)) {
				p.d.errorf(p.pos(t), "'#' in macro '%s' is not followed by a parameter", id.text)
				return
			}
		}
	} else {
		for _, t := range body {
			if t.kind == tHash {
				p.d.errorf(p.pos(t), "'#' in an object-like macro body is not supported")
				return
			}
		}
	}
	for k, t := range body {
		if t.kind != tIdent || t.text != "__VA_OPT__" {
			continue
		}
		if !nm.variadic {
			p.d.errorf(p.pos(t), "__VA_OPT__ can only appear in a variadic macro ('%s' is not)", id.text)
			return
		}
		if k+1 >= len(body) || body[k+1].kind != tLParen || closeParen(body, k+1) < 0 {
			p.d.errorf(p.pos(t), "__VA_OPT__ in macro '%s' must be followed by a parenthesised group", id.text)
			return
		}
		if k > 0 && body[k-1].kind == tHash {
			p.d.errorf(p.pos(t), "not supported: # __VA_OPT__ (stringizing __VA_OPT__) in macro '%s'", id.text)
			return
		}
	}
	if n := len(body); n > 0 && (body[0].kind == tHashHash || body[n-1].kind == tHashHash) {
		p.d.errorf(p.pos(id), "'##' cannot begin or end the body of macro '%s'", id.text)
		return
	}
	body = append([]token(nil), body...)
	for i := range body {
		body[i].bol = false
	}
	if old := p.macros[id.text]; old != nil && !old.builtin {
		if old.option {
			p.d.errorf(p.pos(id), "macro '%s' is already defined by a Define option (guard it with #ifndef %s)", id.text, id.text)
			return
		}
		if !sameTokens(old.body, body) || old.fn != nm.fn || strings.Join(old.params, ",") != strings.Join(nm.params, ",") {
			p.d.errorf(p.pos(id), "macro '%s' redefined with a different value", id.text)
			return
		}
	}
	nm.body = body
	p.macros[id.text] = nm
}

func sameTokens(a, b []token) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].kind != b[i].kind || a[i].text != b[i].text {
			return false
		}
	}
	return true
}

// evalIf evaluates the controlling expression of #if or #elif.
func (p *preprocessor) evalIf(name token, args []token) bool {
	if len(args) == 0 {
		p.d.errorf(p.pos(name), "#%s with no expression", name.text)
		return false
	}
	// Replace defined X and defined(X) first, then expand macros.
	var toks []token
	for i := 0; i < len(args); i++ {
		t := args[i]
		if t.kind == tIdent && t.text == "defined" {
			j := i + 1
			paren := j < len(args) && args[j].kind == tLParen
			if paren {
				j++
			}
			if j >= len(args) || args[j].kind != tIdent {
				p.d.errorf(p.pos(t), "macro name missing after 'defined'")
				return false
			}
			v := "0"
			if p.macros[args[j].text] != nil {
				v = "1"
			}
			if paren {
				j++
				if j >= len(args) || args[j].kind != tRParen {
					p.d.errorf(p.pos(t), "missing ')' after 'defined'")
					return false
				}
			}
			toks = append(toks, token{kind: tInt, text: v, line: t.line, col: t.col})
			i = j
			continue
		}
		toks = append(toks, t)
	}
	// Expand into a scratch output.
	saved := p.out
	p.out = nil
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		m := p.macros[t.text]
		switch {
		case t.kind == tIdent && m != nil && m.fn && i+1 < len(toks) && toks[i+1].kind == tLParen:
			args, next, ok := p.macroArgs(m, t, toks, i+1)
			i = next - 1
			if ok {
				p.expandFn(m, t, args, nil, &p.out)
			}
		case t.kind == tIdent && m != nil && !m.fn:
			p.expand(m, t, nil)
		default:
			p.out = append(p.out, t)
		}
	}
	expr := p.out
	p.out = saved
	for _, t := range expr {
		if t.err != nil {
			p.d.errorf(t.err.pos, "%s", t.err.msg)
			return false
		}
	}
	e := &ppEval{p: p, toks: expr, at: name}
	v, ok := e.expr()
	if ok && e.i < len(e.toks) {
		p.d.errorf(p.pos(e.toks[e.i]), "unexpected %s in #%s expression", e.toks[e.i].describe(), name.text)
		return false
	}
	return ok && v != 0
}

// ppEval evaluates a #if expression over int64 values; identifiers that are
// not macros are 0.
type ppEval struct {
	p     *preprocessor
	toks  []token
	i     int
	at    token
	depth int
}

func (e *ppEval) peek() token {
	if e.i < len(e.toks) {
		return e.toks[e.i]
	}
	return token{kind: tEOF, line: e.at.line, col: e.at.col}
}

func (e *ppEval) fail(t token, format string, args ...any) (int64, bool) {
	e.p.d.errorf(e.p.pos(t), format, args...)
	return 0, false
}

func (e *ppEval) expr() (int64, bool) {
	c, ok := e.binary(1)
	if !ok {
		return 0, false
	}
	if e.peek().kind != tQuestion {
		return c, true
	}
	e.i++
	x, ok := e.expr()
	if !ok {
		return 0, false
	}
	if t := e.peek(); t.kind != tColon {
		return e.fail(t, "expected ':' in #if expression")
	}
	e.i++
	y, ok := e.expr()
	if !ok {
		return 0, false
	}
	if c != 0 {
		return x, true
	}
	return y, true
}

var ppPrec = map[tokKind]int{
	tOrOr: 1, tAndAnd: 2, tPipe: 3, tCaret: 4, tAmp: 5, tEq: 6, tNe: 6,
	tLt: 7, tGt: 7, tLe: 7, tGe: 7, tShl: 8, tShr: 8, tPlus: 9, tMinus: 9,
	tStar: 10, tSlash: 10, tPercent: 10,
}

func (e *ppEval) binary(min int) (int64, bool) {
	x, ok := e.unary()
	if !ok {
		return 0, false
	}
	for {
		op := e.peek()
		prec := ppPrec[op.kind]
		if prec == 0 || prec < min {
			return x, true
		}
		e.i++
		y, ok := e.binary(prec + 1)
		if !ok {
			return 0, false
		}
		switch op.kind {
		case tOrOr:
			x = b2i(x != 0 || y != 0)
		case tAndAnd:
			x = b2i(x != 0 && y != 0)
		case tPipe:
			x |= y
		case tCaret:
			x ^= y
		case tAmp:
			x &= y
		case tEq:
			x = b2i(x == y)
		case tNe:
			x = b2i(x != y)
		case tLt:
			x = b2i(x < y)
		case tGt:
			x = b2i(x > y)
		case tLe:
			x = b2i(x <= y)
		case tGe:
			x = b2i(x >= y)
		case tShl:
			x <<= uint64(y) & 63
		case tShr:
			x >>= uint64(y) & 63
		case tPlus:
			x += y
		case tMinus:
			x -= y
		case tStar:
			x *= y
		case tSlash, tPercent:
			if y == 0 {
				return e.fail(op, "division by zero in #if expression")
			}
			if y == -1 {
				y, x = 1, -x // avoid the overflow trap of MinInt64 / -1
			}
			if op.kind == tSlash {
				x /= y
			} else {
				x %= y
			}
		}
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (e *ppEval) unary() (int64, bool) {
	e.depth++
	defer func() { e.depth-- }()
	t := e.peek()
	if e.depth > 200 {
		return e.fail(t, "#if expression nested too deeply")
	}
	e.i++
	switch t.kind {
	case tMinus, tPlus, tNot, tTilde:
		x, ok := e.unary()
		switch t.kind {
		case tMinus:
			x = -x
		case tNot:
			x = b2i(x == 0)
		case tTilde:
			x = ^x
		}
		return x, ok
	case tLParen:
		x, ok := e.expr()
		if !ok {
			return 0, false
		}
		if r := e.peek(); r.kind != tRParen {
			return e.fail(r, "expected ')' in #if expression")
		}
		e.i++
		return x, true
	case tInt:
		v, _, err := parseIntLit(t.text)
		if err != "" {
			return e.fail(t, "%s", err)
		}
		return int64(v), true
	case tChar:
		return t.val, true
	case tIdent:
		if t.text == "true" {
			return 1, true
		}
		return 0, true
	case tFloat:
		return e.fail(t, "floating point literal in preprocessor expression")
	}
	return e.fail(t, "unexpected %s in #if expression", t.describe())
}

// flag is the flag that Define options stand for in diagnostics.
func (p *preprocessor) flag() string {
	if p.defineFlag == "" {
		return "-D"
	}
	return p.defineFlag
}

// IsIdentifier reports whether s is a C identifier: a letter or '_',
// then letters, digits or '_' (a macro's name, a buffer's name).
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
		case i > 0 && '0' <= r && r <= '9':
		default:
			return false
		}
	}
	return true
}
