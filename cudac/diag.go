package cudac

import (
	"fmt"
	"sort"
)

// maxErrors is how many diagnostics a compilation collects before it stops.
const maxErrors = 10

// bailout is panicked (and recovered by the driver) when the error limit is
// reached, to stop work early.
type bailout struct{}

// diags collects the diagnostics of one compilation.
type diags struct {
	file   string
	src    []byte
	starts []int // byte offset of each line's start
	list   ErrorList
	seen   map[Pos]bool
	// note is appended to every message ("in instantiation of 'k<4>'").
	note string
}

func newDiags(file string, src []byte) *diags {
	d := &diags{file: file, src: src, seen: map[Pos]bool{}}
	d.starts = append(d.starts, 0)
	for i, c := range src {
		if c == '\n' {
			d.starts = append(d.starts, i+1)
		}
	}
	return d
}

// lineText returns the text of a 1-based line, without its newline.
func (d *diags) lineText(line int) string {
	if line < 1 || line > len(d.starts) {
		return ""
	}
	start := d.starts[line-1]
	end := len(d.src)
	if line < len(d.starts) {
		end = d.starts[line] - 1
	}
	if end > start && d.src[end-1] == '\r' {
		end--
	}
	if end < start {
		return ""
	}
	return string(d.src[start:end])
}

func (d *diags) pos(line, col int32) Pos {
	return Pos{File: d.file, Line: int(line), Col: int(col)}
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
	d.list = append(d.list, &Error{Pos: pos, Msg: msg, Line: d.lineText(pos.Line)})
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
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
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
