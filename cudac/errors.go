package cudac

import (
	"fmt"
	"strings"
)

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// bytes. The zero Pos is "no position".
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
		b.WriteString("\n    ")
		b.WriteString(strings.ReplaceAll(e.Line, "\t", " "))
		b.WriteString("\n    ")
		b.WriteString(strings.Repeat(" ", min(e.Pos.Col-1, len(e.Line))))
		b.WriteString("^")
	}
	for _, from := range e.IncludedFrom {
		fmt.Fprintf(&b, "\n    (included from %s)", from)
	}
	return b.String()
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
