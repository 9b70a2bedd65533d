package cudac

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// characters (UTF-8 sequences), not bytes, as editors do. A UTF-8
// byte-order mark at the start of a file is not counted. The zero Pos is
// "no position".
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a position.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	if !p.IsValid() {
		if p.File != "" {
			return p.File
		}
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is one diagnostic: "file.cu:12:9: message", followed by the source
// line and a caret under the column.
type Error struct {
	Pos  Pos
	Msg  string
	Line string // the source line at Pos, without its newline; may be empty
	// IncludedFrom, for a diagnostic in an included file, is the chain of
	// #include lines that read it, innermost first.
	IncludedFrom []Pos
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", e.Pos, e.Msg)
	if e.Line != "" && e.Pos.Col > 0 {
		text, caret := echo(e.Line, e.Pos.Col)
		b.WriteString("\n    ")
		b.WriteString(text)
		b.WriteString("\n    ")
		b.WriteString(strings.Repeat(" ", caret))
		b.WriteString("^")
	}
	for _, from := range e.IncludedFrom {
		fmt.Fprintf(&b, "\n    (included from %s)", from)
	}
	return b.String()
}

// maxEcho is how many columns of a source line a diagnostic shows (an
// escaped byte such as \x01 taking four): a window around the column,
// marked "..." where the line goes on.
const maxEcho = 120

// echo returns the text a diagnostic shows for a source line, and the
// caret's offset in it for the 1-based character column col: at most
// maxEcho characters around col; tabs as spaces; control characters,
// invalid UTF-8 and byte-order marks escaped (\x01, \ufeff), so that a
// binary file or a minified line cannot flood a terminal.
func echo(line string, col int) (string, int) {
	var units []string // one per character of line
	for i := 0; i < len(line) && len(units) <= col+maxEcho; {
		r, size := utf8.DecodeRuneInString(line[i:])
		switch {
		case r == '\t':
			units = append(units, " ")
		case r == utf8.RuneError && size == 1:
			units = append(units, fmt.Sprintf("\\x%02x", line[i]))
		case r < 0x20 || r == 0x7f:
			units = append(units, fmt.Sprintf("\\x%02x", r))
		case 0x80 <= r && r < 0xa0 || r == 0xfeff || r == 0x2028 || r == 0x2029 || 0x202a <= r && r <= 0x202e || 0x2066 <= r && r <= 0x2069:
			// C1 controls, BOMs, line separators and bidirectional
			// overrides, which would move or hide text.
			units = append(units, fmt.Sprintf("\\u%04x", r))
		default:
			units = append(units, line[i:i+size])
		}
		i += size
	}
	more := len(units) > col+maxEcho || utf8.RuneCountInString(line) > len(units)
	at := min(col-1, len(units))
	width := func(u string) int { return utf8.RuneCountInString(u) }
	// The window [start, end) holds at most maxEcho columns: up to half
	// of them before the caret, the rest after it, any left over before.
	start, end, used := at, at, 0
	for start > 0 && used+width(units[start-1]) <= maxEcho/2 {
		start--
		used += width(units[start])
	}
	for end < len(units) && used+width(units[end]) <= maxEcho {
		used += width(units[end])
		end++
	}
	for start > 0 && used+width(units[start-1]) <= maxEcho {
		start--
		used += width(units[start])
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("...")
	}
	caret := b.Len()
	for i := start; i < end; i++ {
		if i < at {
			caret += width(units[i])
		}
		b.WriteString(units[i])
	}
	if end < len(units) || more {
		b.WriteString("...")
	}
	return b.String(), caret
}

// ErrorList is a list of diagnostics, in source order. It is the error type
// returned by Compile when a source has errors.
type ErrorList []*Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap gives errors.As access to each diagnostic.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}
