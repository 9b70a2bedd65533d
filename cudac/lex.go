package cudac

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// lexer splits a source into tokens. Comments and line splices are white
// space; errors go to d.
type lexer struct {
	src  []byte
	d    *diags
	off  int
	line int32
	col  int32 // column of src[off]
	bol  bool
	file uint16 // the index of the file being lexed in d.files
	// errPos, when valid, places every diagnostic at this position
	// instead (for text that is not part of the file, like a Define value).
	errPos Pos
	// pending is the error found in the token being scanned. It is
	// reported only if the token is used: text in an #if 0 region or in an
	// #error line may hold anything.
	pending *lexError
}

// lexError is a lexical error attached to a token.
type lexError struct {
	pos Pos
	msg string
}

// tokenError records an error in the current token.
func (lx *lexer) tokenError(line, col int32, format string, args ...any) {
	if lx.pending != nil {
		return
	}
	p := lx.d.at(lx.file, line, col)
	if lx.errPos.IsValid() || lx.errPos.File != "" {
		p = lx.errPos
	}
	lx.pending = &lexError{pos: p, msg: fmt.Sprintf(format, args...)}
}

func lex(src []byte, d *diags) []token {
	lx := &lexer{src: src, d: d, line: 1, col: 1, bol: true}
	return lx.all()
}

// utf8BOM is UTF-8's byte-order mark, which an editor may write at the
// start of a file.
var utf8BOM = []byte("\xef\xbb\xbf")

func (lx *lexer) errorf(line, col int32, format string, args ...any) {
	p := lx.d.at(lx.file, line, col)
	if lx.errPos.IsValid() {
		p = lx.errPos
	}
	lx.d.errorf(p, format, args...)
}

func (lx *lexer) all() []token {
	if lx.off == 0 && lx.line == 1 && lx.col == 1 && bytes.HasPrefix(lx.src, utf8BOM) {
		lx.off = len(utf8BOM) // a byte-order mark is no character of line 1
	}
	// A token every 4 bytes is more than C sources have (x = x * 2;
	// is a token every 2.3 bytes, but a line's indentation and line
	// break add more): one allocation for most files.
	toks := make([]token, 0, (len(lx.src)-lx.off)/4+1)
	for {
		t := lx.next()
		toks = append(toks, t)
		if t.kind == tEOF {
			return toks
		}
	}
}

// adv advances n bytes on the current line. Columns count characters
// (the first bytes of UTF-8 sequences), not bytes.
func (lx *lexer) adv(n int) {
	for _, c := range lx.src[lx.off:min(lx.off+n, len(lx.src))] {
		if c&0xC0 != 0x80 {
			lx.col++
		}
	}
	lx.off += n
}

func (lx *lexer) newline() {
	lx.off++
	lx.line++
	lx.col = 1
	lx.bol = true
}

func (lx *lexer) peek(i int) byte {
	if lx.off+i < len(lx.src) {
		return lx.src[lx.off+i]
	}
	return 0
}

// skipSpace skips white space, comments and line splices, and reports
// whether it skipped anything.
func (lx *lexer) skipSpace() bool {
	start := lx.off
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch {
		case c == '\n':
			lx.newline()
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			lx.adv(1)
		case c == '\\' && (lx.peek(1) == '\n' || lx.peek(1) == '\r' && lx.peek(2) == '\n'):
			// A line splice: the logical line goes on.
			if lx.peek(1) == '\r' {
				lx.adv(1)
			}
			lx.adv(1)
			bol := lx.bol
			lx.newline()
			lx.bol = bol
		case c == '/' && lx.peek(1) == '/':
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.adv(1)
			}
		case c == '/' && lx.peek(1) == '*':
			line, col := lx.line, lx.col
			lx.adv(2)
			closed := false
			for lx.off < len(lx.src) {
				if lx.src[lx.off] == '*' && lx.peek(1) == '/' {
					lx.adv(2)
					closed = true
					break
				}
				if lx.src[lx.off] == '\n' {
					lx.newline()
				} else {
					lx.adv(1)
				}
			}
			if !closed {
				lx.errorf(line, col, "unterminated /* comment")
			}
		default:
			return lx.off > start
		}
	}
	return lx.off > start
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

func (lx *lexer) next() token {
	t := lx.next1()
	t.err, lx.pending = lx.pending, nil
	if lx.line == t.line {
		t.end = lx.col
	} else {
		t.end = t.col + 1
	}
	return t
}

func (lx *lexer) next1() token {
	space := lx.skipSpace()
	t := token{line: lx.line, col: lx.col, bol: lx.bol, space: space, file: lx.file}
	lx.bol = false
	if lx.off >= len(lx.src) {
		t.kind = tEOF
		t.bol = true
		return t
	}
	start := lx.off
	c := lx.src[lx.off]
	switch {
	case isIdentStart(c):
		for lx.off < len(lx.src) && isIdentChar(lx.src[lx.off]) {
			lx.adv(1)
		}
		t.kind = tIdent
		t.text = string(lx.src[start:lx.off])
		if t.text == "u8" || t.text == "u" || t.text == "U" || t.text == "L" || t.text == "R" {
			// An encoding prefix of a string or character literal.
			if q := lx.peek(0); q == '"' || q == '\'' {
				lx.tokenError(t.line, t.col, "prefixed string and character literals are not supported")
			}
		}
		return t
	case isDigit(c) || c == '.' && isDigit(lx.peek(1)):
		lx.number()
		t.text = string(lx.src[start:lx.off])
		t.kind = classifyNumber(t.text)
		return t
	case c == '"':
		t.kind = tString
		t.text = lx.quoted('"', t.line, t.col)
		return t
	case c == '\'':
		t.kind = tChar
		s := lx.quoted('\'', t.line, t.col)
		switch len(s) {
		case 0:
			lx.tokenError(t.line, t.col, "empty character constant")
		case 1:
			t.val = int64(int8(s[0]))
		default:
			lx.tokenError(t.line, t.col, "multi-character character constants are not supported")
		}
		t.text = s
		return t
	}
	kind, n := punct(lx.src[lx.off:])
	if n == 0 {
		r, size := utf8.DecodeRune(lx.src[lx.off:])
		t.kind = tOther
		t.text = string(r)
		if r == utf8.RuneError {
			t.text = strconv.Quote(string(lx.src[lx.off : lx.off+size]))
		}
		if r == '–' || r == '—' {
			lx.tokenError(t.line, t.col, "unexpected character '%c' (a dash that is not '-')", r)
		} else {
			lx.tokenError(t.line, t.col, "unexpected character %s", strconv.QuoteRune(r))
		}
		lx.adv(size)
		return t
	}
	t.kind = kind
	t.text = kind.String()
	lx.adv(n)
	return t
}

// number scans a preprocessing number.
func (lx *lexer) number() {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		if (c == 'e' || c == 'E' || c == 'p' || c == 'P') && (lx.peek(1) == '+' || lx.peek(1) == '-') {
			lx.adv(2)
			continue
		}
		if isIdentChar(c) || c == '.' {
			lx.adv(1)
			continue
		}
		if c == '\'' && isIdentChar(lx.peek(1)) && lx.off > 0 && isIdentChar(lx.src[lx.off-1]) {
			// C++14 digit separator.
			lx.adv(1)
			continue
		}
		return
	}
}

// classifyNumber tells integer from floating literals.
func classifyNumber(s string) tokKind {
	s = strings.ReplaceAll(s, "'", "")
	if len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		if strings.ContainsAny(s, ".pP") {
			return tFloat
		}
		return tInt
	}
	if strings.ContainsAny(s, ".eE") {
		return tFloat
	}
	return tInt
}

// quoted scans a string or character literal and returns its decoded value.
func (lx *lexer) quoted(q byte, line, col int32) string {
	lx.adv(1)
	var b strings.Builder
	for {
		if lx.off >= len(lx.src) || lx.src[lx.off] == '\n' {
			if q == '"' {
				lx.tokenError(line, col, "missing terminating '\"' character")
			} else {
				lx.tokenError(line, col, "missing terminating ' character")
			}
			return b.String()
		}
		c := lx.src[lx.off]
		if c == q {
			lx.adv(1)
			return b.String()
		}
		if c != '\\' {
			b.WriteByte(c)
			lx.adv(1)
			continue
		}
		ecol := lx.col
		lx.adv(1)
		if lx.off >= len(lx.src) {
			continue
		}
		e := lx.src[lx.off]
		lx.adv(1)
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'x':
			v, n := 0, 0
			for lx.off < len(lx.src) && isHex(lx.src[lx.off]) {
				v = v*16 + hexVal(lx.src[lx.off])
				if v > 255 {
					v = 256
				}
				n++
				lx.adv(1)
			}
			if n == 0 {
				lx.tokenError(line, ecol, "\\x used with no following hex digits")
			} else if v > 255 {
				lx.tokenError(line, ecol, "hex escape sequence out of range")
			}
			b.WriteByte(byte(v))
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(e - '0')
			for n := 1; n < 3 && lx.off < len(lx.src) && '0' <= lx.src[lx.off] && lx.src[lx.off] <= '7'; n++ {
				v = v*8 + int(lx.src[lx.off]-'0')
				lx.adv(1)
			}
			if v > 255 {
				lx.tokenError(line, ecol, "octal escape sequence out of range")
			}
			b.WriteByte(byte(v))
		case '\n':
			// A line splice inside a literal.
			lx.off--
			lx.newline()
			lx.bol = false
		default:
			lx.tokenError(line, ecol, "unknown escape sequence '\\%c'", e)
			b.WriteByte(e)
		}
	}
}

func isHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// punct recognises the punctuator at the start of s: its kind and length.
func punct(s []byte) (tokKind, int) {
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	c, c1, c2 := at(0), at(1), at(2)
	switch c {
	case '(':
		return tLParen, 1
	case ')':
		return tRParen, 1
	case '[':
		return tLBrack, 1
	case ']':
		return tRBrack, 1
	case '{':
		return tLBrace, 1
	case '}':
		return tRBrace, 1
	case ';':
		return tSemi, 1
	case ',':
		return tComma, 1
	case '?':
		return tQuestion, 1
	case '~':
		return tTilde, 1
	case ':':
		if c1 == ':' {
			return tColonColon, 2
		}
		return tColon, 1
	case '.':
		if c1 == '.' && c2 == '.' {
			return tEllipsis, 3
		}
		return tDot, 1
	case '#':
		if c1 == '#' {
			return tHashHash, 2
		}
		return tHash, 1
	case '+':
		switch c1 {
		case '+':
			return tInc, 2
		case '=':
			return tAddAssign, 2
		}
		return tPlus, 1
	case '-':
		switch c1 {
		case '-':
			return tDec, 2
		case '=':
			return tSubAssign, 2
		case '>':
			return tArrow, 2
		}
		return tMinus, 1
	case '*':
		if c1 == '=' {
			return tMulAssign, 2
		}
		return tStar, 1
	case '/':
		if c1 == '=' {
			return tDivAssign, 2
		}
		return tSlash, 1
	case '%':
		if c1 == '=' {
			return tRemAssign, 2
		}
		return tPercent, 1
	case '^':
		if c1 == '=' {
			return tXorAssign, 2
		}
		return tCaret, 1
	case '!':
		if c1 == '=' {
			return tNe, 2
		}
		return tNot, 1
	case '=':
		if c1 == '=' {
			return tEq, 2
		}
		return tAssign, 1
	case '&':
		switch c1 {
		case '&':
			return tAndAnd, 2
		case '=':
			return tAndAssign, 2
		}
		return tAmp, 1
	case '|':
		switch c1 {
		case '|':
			return tOrOr, 2
		case '=':
			return tOrAssign, 2
		}
		return tPipe, 1
	case '<':
		switch c1 {
		case '<':
			if c2 == '=' {
				return tShlAssign, 3
			}
			if c2 == '<' {
				return tLaunch, 3
			}
			return tShl, 2
		case '=':
			return tLe, 2
		}
		return tLt, 1
	case '>':
		switch c1 {
		case '>':
			if c2 == '=' {
				return tShrAssign, 3
			}
			return tShr, 2
		case '=':
			return tGe, 2
		}
		return tGt, 1
	}
	return 0, 0
}
