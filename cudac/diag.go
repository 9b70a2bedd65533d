package cudac

import (
	"bytes"
	"context"
	"fmt"
	"sort"
)

// maxErrors is how many diagnostics a compilation collects before it stops.
const maxErrors = 10

// bailout is panicked (and recovered by the driver) when the error limit is
// reached, to stop work early.
type bailout struct{}

// srcFile is one file of a compilation: the main source or a file it
// includes.
type srcFile struct {
	name   string
	src    []byte
	starts []int // byte offset of each line's start
	// from is the #include line that read the file (none for the main
	// source); parent is the index of the including file.
	from   Pos
	parent int
}

func newSrcFile(name string, src []byte) *srcFile {
	f := &srcFile{name: name, src: src, starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			f.starts = append(f.starts, i+1)
		}
	}
	return f
}

// diags collects the diagnostics of one compilation.
type diags struct {
	file string
	// files are the main source (files[0]) and the files it includes, in
	// the order they were read; a token's file field indexes it.
	files []*srcFile
	list  ErrorList
	seen  map[Pos]bool
	// note is appended to every message ("in instantiation of 'k<4>'").
	note string
	// lineNotes are appended to the messages on a line: that the line
	// uses a macro set by a Define option, and its value.
	lineNotes map[Pos]string // keyed by file and line, Col 0
	// ctx, if set, stops the compilation when it is done (Context);
	// ticks counts the steps between looks at it.
	ctx   context.Context
	ticks uint32
}

// tick counts a step of the compilation (a token preprocessed or parsed,
// a statement checked) and reports, every few thousand steps, whether
// the Context option's context is done: the caller then calls stop.
func (d *diags) tick() bool {
	d.ticks++
	return d.ticks&4095 == 0 && d.ctx != nil && d.ctx.Err() != nil
}

// stop ends the compilation, with an error at pos, because the Context
// option's context is done.
func (d *diags) stop(pos Pos) {
	d.list = append(d.list, &Error{Pos: pos, Msg: "compilation stopped: " + context.Cause(d.ctx).Error()})
	panic(bailout{})
}

func newDiags(file string, src []byte) *diags {
	return &diags{file: file, files: []*srcFile{newSrcFile(file, src)}, seen: map[Pos]bool{}}
}

// lineText returns the text of a 1-based line of the main source, without
// its newline.
func (d *diags) lineText(line int) string { return d.files[0].lineText(line) }

// lineText returns the text of a 1-based line, without its newline.
func (f *srcFile) lineText(line int) string {
	if line < 1 || line > len(f.starts) {
		return ""
	}
	start := f.starts[line-1]
	end := len(f.src)
	if line < len(f.starts) {
		end = f.starts[line] - 1
	}
	if end > start && f.src[end-1] == '\r' {
		end--
	}
	if line == 1 && bytes.HasPrefix(f.src, utf8BOM) {
		start = min(len(utf8BOM), end)
	}
	if end < start {
		return ""
	}
	return string(f.src[start:end])
}

// pos is a position in the main source.
func (d *diags) pos(line, col int32) Pos {
	return Pos{File: d.file, Line: int(line), Col: int(col)}
}

// tpos is the position of t, in whichever file t came from.
func (d *diags) tpos(t token) Pos {
	return d.at(t.file, t.line, t.col)
}

// at is a position in file index f.
func (d *diags) at(f uint16, line, col int32) Pos {
	if int(f) < len(d.files) {
		return Pos{File: d.files[f].name, Line: int(line), Col: int(col)}
	}
	return d.pos(line, col)
}

// fileOf returns the index of the file named by pos, or -1. A file read
// more than once is taken at its last reading.
func (d *diags) fileOf(pos Pos) int {
	for i := len(d.files) - 1; i >= 0; i-- {
		if d.files[i].name == pos.File {
			return i
		}
	}
	return -1
}

// errorf records a diagnostic at pos. Only the first diagnostic at a
// position is kept. It panics with bailout once maxErrors are collected.
func (d *diags) errorf(pos Pos, format string, args ...any) {
	if d.seen[pos] {
		return
	}
	d.seen[pos] = true
	msg := fmt.Sprintf(format, args...)
	if d.note != "" {
		msg += " (" + d.note + ")"
	}
	e := &Error{Pos: pos, Msg: msg}
	if i := d.fileOf(pos); i >= 0 {
		e.Line = d.files[i].lineText(pos.Line)
		for f := d.files[i]; f.from.IsValid(); f = d.files[f.parent] {
			e.IncludedFrom = append(e.IncludedFrom, f.from)
		}
	}
	d.list = append(d.list, e)
	if len(d.list) >= maxErrors {
		panic(bailout{})
	}
}

func (d *diags) count() int { return len(d.list) }

// err returns the collected diagnostics in source order, or nil.
func (d *diags) err() error {
	if len(d.list) == 0 {
		return nil
	}
	l := append(ErrorList(nil), d.list...)
	for i, e := range l {
		if n := d.lineNotes[Pos{File: e.Pos.File, Line: e.Pos.Line}]; n != "" {
			c := *e
			c.Msg += " (" + n + ")"
			l[i] = &c
		}
	}
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if fa, fb := d.fileOf(a), d.fileOf(b); fa != fb {
			return fa < fb
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return l
}

// catchBailout, deferred, recovers a bailout panic; other panics propagate.
func catchBailout() {
	if r := recover(); r != nil {
		if _, ok := r.(bailout); !ok {
			panic(r)
		}
	}
}
