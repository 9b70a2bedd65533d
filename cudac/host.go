package cudac

// This file lets a whole .cu file load: host code (main, functions that
// call cudaMalloc or launch kernels, std::vector globals, host classes) is
// recognised at file scope after preprocessing and skipped, not checked or
// executed; the file's kernels and device code are checked as usual.
// Program.DeviceSource gives the source with the skipped code blanked, for
// a compiler that only takes device code (NVRTC).

import "bytes"

// Span is a range of a source: from line Line, column Col to line
// EndLine, column EndCol (exclusive), 1-based, in the file File (the
// source's own name, or an included file's Path).
type Span struct {
	File                       string
	Line, Col, EndLine, EndCol int
}

// deviceWords mark a file-scope item as device code.
var deviceWords = map[string]bool{"__global__": true, "__device__": true, "__constant__": true, "__shared__": true}

// keepWords mark a file-scope item that is not host-only though it has no
// device word: type and constant declarations that device code uses.
var keepWords = map[string]bool{"const": true, "constexpr": true, "typedef": true, "using": true, "struct": true,
	"enum": true, "static_assert": true, "union": true}

// stripHost removes the host-only items at file scope from toks and
// returns the rest, the spans removed and the names the removed items
// declare ("function" or "variable" by name).
func stripHost(toks []token, d *diags) ([]token, []Span, map[string]string) {
	var out []token
	var spans []Span
	names := map[string]string{}
	externs := 0 // open extern "C" { blocks
	for i := 0; i < len(toks); {
		t := toks[i]
		if t.kind == tEOF {
			out = append(out, t)
			break
		}
		if t.kind == tIdent && t.text == "extern" && i+2 < len(toks) && toks[i+1].kind == tString && toks[i+2].kind == tLBrace {
			out = append(out, toks[i:i+3]...)
			externs++
			i += 3
			continue
		}
		if t.kind == tRBrace && externs > 0 {
			out = append(out, t)
			externs--
			i++
			continue
		}
		end, hasBody, isFunc := itemEnd(toks, i)
		item := toks[i:end]
		if name := funcPtrAlias(item); name != "" {
			// A function-pointer type: host code may use it; device code
			// that names it is told function pointers are not supported.
			last := item[len(item)-1]
			spans = append(spans, Span{File: d.tpos(item[0]).File, Line: int(item[0].line), Col: int(item[0].col), EndLine: int(last.line), EndCol: int(last.end)})
			names[name] = funcPtrType
			i = end
			continue
		}
		if hostItem(item, hasBody, isFunc) {
			last := item[len(item)-1]
			spans = append(spans, Span{File: d.tpos(item[0]).File, Line: int(item[0].line), Col: int(item[0].col), EndLine: int(last.line), EndCol: int(last.end)})
			if name := itemName(item, isFunc); name != "" {
				names[name] = map[bool]string{true: "function", false: "variable"}[isFunc]
			}
		} else {
			out = append(out, item...)
		}
		i = end
	}
	return out, spans, names
}

// funcPtrType is the kind stripHost gives the name of a skipped
// function-pointer type alias.
const funcPtrType = "function pointer type"

// funcPtrAlias returns the name a file-scope function-pointer type alias
// declares ("using F = float (*)(float);", "typedef float (*F)(float);"),
// or "" if item is not one.
func funcPtrAlias(item []token) string {
	if len(item) < 6 || item[0].kind != tIdent || item[len(item)-1].kind != tSemi {
		return ""
	}
	// The first "( *" or "( &" or "( Class::*" at depth 0 of the type.
	star := -1
	from := 1
	if item[0].text == "using" {
		if item[1].kind != tIdent || item[2].kind != tAssign {
			return ""
		}
		from = 3
	} else if item[0].text != "typedef" {
		return ""
	}
	for k := from; k+1 < len(item); k++ {
		if item[k].kind == tLParen {
			if item[k+1].kind == tStar || item[k+1].kind == tAmp ||
				item[k+1].kind == tIdent && k+3 < len(item) && item[k+2].kind == tColonColon && item[k+3].kind == tStar {
				star = k
			}
			break
		}
		if item[k].kind == tLBrace || item[k].kind == tAssign {
			return ""
		}
	}
	if star < 0 {
		return ""
	}
	if item[0].text == "using" {
		return item[1].text
	}
	// typedef R (*Name)(params); the name is the last identifier before
	// the first ')'.
	name := ""
	for k := star + 1; k < len(item) && item[k].kind != tRParen; k++ {
		if item[k].kind == tIdent {
			name = item[k].text
		}
	}
	return name
}

// itemName is the name a host item declares: the identifier before the
// first '(' of a function, or before the '=', '[', ';' or '{' of a
// variable.
func itemName(item []token, isFunc bool) string {
	for k, t := range item {
		stop := t.kind == tLParen
		if !isFunc {
			stop = t.kind == tAssign || t.kind == tLBrack || t.kind == tSemi || t.kind == tLBrace || t.kind == tComma
		}
		if stop {
			if k > 0 && item[k-1].kind == tIdent {
				return item[k-1].text
			}
			return ""
		}
	}
	return ""
}

// itemEnd finds the end of the file-scope item starting at toks[i]: after
// its ';' at depth 0, or after the body of a function (a '{' at depth 0
// right after ')' or a trailing qualifier) or of a namespace. It reports
// whether the item has such a body and looks like a function.
func itemEnd(toks []token, i int) (end int, hasBody, isFunc bool) {
	depth := 0
	sawParen := false
	sawAssign := false // a '(' after '=' is in an initializer: int x = (1);
	for j := i; j < len(toks); j++ {
		t := toks[j]
		switch t.kind {
		case tEOF:
			return j, false, false
		case tAssign:
			if depth == 0 && !(toks[i].kind == tIdent && toks[i].text == "template") {
				sawAssign = true
			}
		case tLParen, tLBrack:
			if depth == 0 && t.kind == tLParen && !sawAssign {
				sawParen = true
			}
			depth++
		case tRParen, tRBrack:
			depth--
		case tLBrace:
			if depth == 0 {
				var prev token // none when the file starts with '{'
				if j > 0 {
					prev = toks[j-1]
				}
				body := j > i && (prev.kind == tRParen || prev.kind == tIdent && (prev.text == "const" || prev.text == "noexcept" || prev.text == "override")) &&
					!declaresType(toks[i:j]) || toks[i].kind == tIdent && toks[i].text == "namespace"
				k := matchBrace(toks, j)
				if body {
					if k+1 < len(toks) && toks[k+1].kind == tSemi {
						k++
					}
					return k + 1, true, sawParen
				}
				j = k
				continue
			}
			depth++
		case tRBrace:
			depth--
		case tSemi:
			if depth <= 0 {
				return j + 1, false, sawParen
			}
		}
	}
	return len(toks), false, false
}

// declaresType reports whether a head of tokens declares a struct, class,
// union or enum (struct alignas(32) S { ... } has a ')' before its '{').
func declaresType(head []token) bool {
	for _, t := range head {
		if t.kind == tIdent && (t.text == "struct" || t.text == "class" || t.text == "union" || t.text == "enum") {
			return true
		}
	}
	return false
}

// matchBrace returns the index of the '}' that closes the '{' at toks[j].
func matchBrace(toks []token, j int) int {
	depth := 0
	for k := j; k < len(toks); k++ {
		switch toks[k].kind {
		case tLBrace:
			depth++
		case tRBrace:
			depth--
			if depth == 0 {
				return k
			}
		case tEOF:
			return k - 1
		}
	}
	return len(toks) - 1
}

// hostItem reports whether a file-scope item is host code: one without a
// device word that is a function (definition or prototype), a namespace, a
// class, or a variable that is not a constant.
func hostItem(item []token, hasBody, isFunc bool) bool {
	if len(item) == 0 || item[0].kind != tIdent {
		return false
	}
	if item[0].text == "using" && len(item) > 2 && item[1].kind == tIdent && item[1].text != "namespace" && item[2].kind == tColonColon {
		// using std::cout; a using-declaration for host code.
		return true
	}
	switch item[0].text {
	case "typedef", "using", "static_assert", "struct", "union", "enum":
		return false
	}
	if (item[0].text == "const" || item[0].text == "static") && !isFunc && !anyWord(item, deviceWords) && mutablePointer(itemHead(item)) {
		// static const char *x = "...": a variable pointer to constants,
		// host data.
		return true
	}
	switch item[0].text {
	case "template", "namespace", "class":
	default:
		if keepWords[item[0].text] && !isFunc {
			return false
		}
	}
	for _, t := range item {
		if t.kind == tIdent && (deviceWords[t.text] || t.text == "__host__" && hasDeviceWord(item)) {
			return false
		}
		if t.kind == tIdent && t.text == "static_assert" {
			return false
		}
	}
	head := itemHead(item)
	for _, t := range head {
		if t.kind == tIdent && keepWords[t.text] && !isFunc && t.text != "struct" && t.text != "enum" {
			return false // a constant or a type: device code may use it
		}
	}
	switch {
	case item[0].text == "namespace" && hasBody:
		return true
	case item[0].text == "class":
		return true
	case isFunc && (hasBody || item[len(item)-1].kind == tSemi):
		return true
	case item[0].text == "struct" || item[0].text == "enum" || item[0].text == "using":
		return false
	}
	// A file-scope variable without __device__ or __constant__: host data.
	return true
}

// mutablePointer reports whether the head of a variable declaration
// declares a pointer that is not itself const: a '*' with no const or
// constexpr after the last one and no constexpr before it.
func mutablePointer(head []token) bool {
	star := -1
	for k, t := range head {
		if t.kind == tStar {
			star = k
		}
		if t.kind == tIdent && t.text == "constexpr" {
			return false
		}
	}
	if star < 0 {
		return false
	}
	for _, t := range head[star+1:] {
		if t.kind == tIdent && t.text == "const" {
			return false
		}
	}
	return true
}

// itemHead is an item up to its first '{' or '='.
func itemHead(item []token) []token {
	for k, t := range item {
		if t.kind == tLBrace || t.kind == tAssign {
			return item[:k]
		}
	}
	return item
}

// anyWord reports whether an identifier of item is in words.
func anyWord(item []token, words map[string]bool) bool {
	for _, t := range item {
		if t.kind == tIdent && words[t.text] {
			return true
		}
	}
	return false
}

func hasDeviceWord(item []token) bool {
	for _, t := range item {
		if t.kind == tIdent && (t.text == "__device__" || t.text == "__global__") {
			return true
		}
	}
	return false
}

// DeviceSource returns the source with the host code that Compile skipped
// blanked out (every character but line breaks replaced by a space), so
// that line and column numbers stay the same.
func (p *Program) DeviceSource() []byte {
	return blankSpans(p.Source, p.impl.hostSpans, p.File)
}

// blankSpans returns src with the spans in file blanked, every character
// but line breaks replaced by a space.
func blankSpans(src []byte, spans []Span, file string) []byte {
	var mine []Span
	for _, s := range spans {
		if s.File == file {
			mine = append(mine, s)
		}
	}
	if len(mine) == 0 {
		return src
	}
	out := make([]byte, 0, len(src))
	line, col := 1, 1
	if bytes.HasPrefix(src, utf8BOM) {
		out, src = append(out, utf8BOM...), src[len(utf8BOM):]
	}
	for i := 0; i < len(src); {
		// A character: a byte and the UTF-8 continuation bytes after it,
		// as the lexer counts columns.
		size := 1
		for i+size < len(src) && src[i+size]&0xC0 == 0x80 {
			size++
		}
		ch := src[i]
		host := false
		for _, s := range mine {
			after := line > s.Line || line == s.Line && col >= s.Col
			before := line < s.EndLine || line == s.EndLine && col < s.EndCol
			if after && before && ch != '\n' {
				host = true
				break
			}
		}
		if host {
			out = append(out, ' ') // one space for one character: columns stay
		} else {
			out = append(out, src[i:i+size]...)
		}
		if ch == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return out
}

// HostCode returns the spans of host code that Compile skipped.
func (p *Program) HostCode() []Span { return append([]Span(nil), p.impl.hostSpans...) }
