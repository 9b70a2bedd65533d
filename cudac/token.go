package cudac

// tokKind is the kind of a lexical token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tChar
	tString
	tHash
	tHashHash

	tLParen
	tRParen
	tLBrack
	tRBrack
	tLBrace
	tRBrace
	tSemi
	tComma
	tColon
	tColonColon
	tQuestion
	tDot
	tArrow
	tEllipsis

	tPlus
	tMinus
	tStar
	tSlash
	tPercent
	tAmp
	tPipe
	tCaret
	tTilde
	tNot
	tAssign
	tLt
	tGt
	tLe
	tGe
	tEq
	tNe
	tAndAnd
	tOrOr
	tShl
	tShr
	tInc
	tDec
	tAddAssign
	tSubAssign
	tMulAssign
	tDivAssign
	tRemAssign
	tAndAssign
	tOrAssign
	tXorAssign
	tShlAssign
	tShrAssign
	tLaunch // <<<
	tOther  // a character that is no token
	numTokKinds
)

var tokNames = [numTokKinds]string{
	tEOF: "end of file", tIdent: "identifier", tInt: "integer literal", tFloat: "floating literal",
	tChar: "character literal", tString: "string literal", tHash: "#", tHashHash: "##",
	tLParen: "(", tRParen: ")", tLBrack: "[", tRBrack: "]", tLBrace: "{", tRBrace: "}",
	tSemi: ";", tComma: ",", tColon: ":", tColonColon: "::", tQuestion: "?", tDot: ".",
	tArrow: "->", tEllipsis: "...",
	tPlus: "+", tMinus: "-", tStar: "*", tSlash: "/", tPercent: "%", tAmp: "&", tPipe: "|",
	tCaret: "^", tTilde: "~", tNot: "!", tAssign: "=", tLt: "<", tGt: ">", tLe: "<=", tGe: ">=",
	tEq: "==", tNe: "!=", tAndAnd: "&&", tOrOr: "||", tShl: "<<", tShr: ">>", tInc: "++", tDec: "--",
	tAddAssign: "+=", tSubAssign: "-=", tMulAssign: "*=", tDivAssign: "/=", tRemAssign: "%=",
	tAndAssign: "&=", tOrAssign: "|=", tXorAssign: "^=", tShlAssign: "<<=", tShrAssign: ">>=",
	tLaunch: "<<<", tOther: "character",
}

func (k tokKind) String() string {
	if k < numTokKinds {
		return tokNames[k]
	}
	return "token?"
}

// token is one lexical token. Positions are 1-based line and byte column.
type token struct {
	kind  tokKind
	text  string // the spelling; for string and character literals, the decoded value
	line  int32
	col   int32
	end   int32  // column just after the token, on its first line
	file  uint16 // the file the token is from: an index into diags.files
	bol   bool   // first token on its line
	space bool   // preceded by white space
	// noExpand marks a macro name met inside its own expansion: it is
	// never expanded again (C's "painted blue" tokens).
	noExpand bool
	// val is a character literal's value.
	val int64
	// err is a lexical error in the token, reported if the token is used.
	err *lexError
}

// describe names a token for diagnostics: "'foo'", "';'", "end of file".
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tString:
		return "string literal"
	case tChar:
		return "character literal"
	case tIdent, tInt, tFloat, tOther:
		return "'" + t.text + "'"
	}
	return "'" + t.kind.String() + "'"
}

// keywords are the reserved words of C++ and CUDA that can never be
// identifiers.
var keywords = map[string]bool{
	"alignas": true, "alignof": true, "asm": true, "auto": true, "bool": true, "break": true,
	"case": true, "catch": true, "char": true, "class": true, "const": true, "constexpr": true,
	"const_cast": true, "continue": true, "decltype": true, "default": true, "delete": true,
	"do": true, "double": true, "dynamic_cast": true, "else": true, "enum": true, "explicit": true,
	"extern": true, "false": true, "float": true, "for": true, "friend": true, "goto": true,
	"if": true, "inline": true, "int": true, "long": true, "mutable": true, "namespace": true,
	"new": true, "noexcept": true, "nullptr": true, "operator": true, "private": true,
	"protected": true, "public": true, "register": true, "reinterpret_cast": true, "return": true,
	"short": true, "signed": true, "sizeof": true, "static": true, "static_assert": true,
	"static_cast": true, "struct": true, "switch": true, "template": true, "this": true,
	"throw": true, "true": true, "try": true, "typedef": true, "typeid": true, "typename": true,
	"union": true, "unsigned": true, "using": true, "virtual": true, "void": true,
	"volatile": true, "while": true,
	"__global__": true, "__device__": true, "__host__": true, "__shared__": true,
	"__constant__": true, "__managed__": true, "__forceinline__": true, "__noinline__": true,
	"__restrict__": true, "__restrict": true, "__inline__": true, "__launch_bounds__": true,
	"__align__": true,
}
