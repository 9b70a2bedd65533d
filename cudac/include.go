package cudac

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// This file reads the files a source names with #include "name": from the
// including file's directory, then from the IncludeDir directories, as a
// C preprocessor does. #include <name> stays a system header: known to
// the front end without being read.
//
// What #include may read is the caller's explicit policy. With no option
// Compile reads no file at all: a kernel that a lab checks or the class
// grader compiles cannot name the machine's files (an instructor's key,
// /proc/self/environ). IncludeRoot opens the files under a directory
// tree and nothing outside it; IncludeFS reads a file system (embedded
// headers); ReadFile hands every read to the caller.

// maxIncludeDepth bounds the nesting of #include.
const maxIncludeDepth = 40

// Include is a file a source read with #include "name".
type Include struct {
	// Name is the name as the #include line spells it ("util.cuh").
	Name string
	// Path is the file that was read, as diagnostics name it (the
	// including file's directory joined with Name, or an include
	// directory joined with Name).
	Path string
	// Source is the file's text; DeviceSource is the same text with the
	// host code that Compile skipped blanked out.
	Source, DeviceSource []byte
}

// IncludeDir adds a directory that #include "name" searches after the
// including file's own directory, like nvcc -I. Directories are searched
// in the order given.
func IncludeDir(dir string) Option {
	return func(o *options) { o.includeDirs = append(o.includeDirs, dir) }
}

// ReadFile sets how #include "name" reads a file, so that a source held
// in memory can include files beside it. The function is the whole
// policy: it is asked for every candidate path, and may refuse. A read
// that fails with an error wrapping fs.ErrNotExist means the file is not
// there and the search goes on. Without ReadFile, IncludeRoot or
// IncludeFS, Compile reads no file.
func ReadFile(read func(path string) ([]byte, error)) Option {
	return func(o *options) { o.readFile = read }
}

// MaxIncludeBytes is the largest file #include reads through IncludeRoot
// or IncludeFS, 1 MiB; all the files of one compilation together are
// bounded by MaxSourceBytes.
const MaxIncludeBytes = 1 << 20

// IncludeRoot lets #include "name" read regular files in the directory
// tree at dir, and nothing outside it: a name that is absolute, climbs
// out with "..", or reaches a symbolic link that leads out is refused,
// and so is anything but a regular file (a directory, a FIFO, a device,
// /proc) or a file over MaxIncludeBytes. Given more than once, each
// directory is a root of its own: a path is read from the root that
// holds it. The source's own file and every IncludeDir directory must be
// under a root for #include to find anything there.
func IncludeRoot(dir string) Option {
	return func(o *options) { o.includeRoots = append(o.includeRoots, dir) }
}

// IncludeFS lets #include "name" read files from fsys, and nothing else:
// the source's file name and the include directories are slash-separated
// paths in fsys (as fs.ValidPath has them), and a name that leaves fsys
// is refused. For headers embedded in a binary (embed.FS).
func IncludeFS(fsys fs.FS) Option {
	return func(o *options) {
		o.readFile = func(name string) ([]byte, error) {
			name = filepath.ToSlash(name)
			if !fs.ValidPath(name) {
				return nil, errOutside
			}
			f, err := fsys.Open(name)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return readRegular(f)
		}
	}
}

// errOutside and errNoFiles are the include policy's refusals.
var (
	errOutside = errors.New("the file is outside the directories #include may read")
	errNoFiles = errors.New("this compilation reads no files")
)

// rootReader reads candidate paths under roots, confined by os.Root: a
// symbolic link or ".." that leads out of a root fails there.
func rootReader(roots []string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		for _, dir := range roots {
			rel, err := filepath.Rel(dir, name)
			if err != nil || !filepath.IsLocal(rel) {
				continue
			}
			root, err := os.OpenRoot(dir)
			if err != nil {
				return nil, err
			}
			defer root.Close()
			if st, err := root.Lstat(rel); err == nil && st.Mode()&fs.ModeSymlink == 0 && !st.Mode().IsRegular() {
				return nil, notRegular(st.Mode())
			}
			// O_NONBLOCK: opening a FIFO must not wait for a writer.
			f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
			if err != nil {
				if isNotExist(err) {
					return nil, err
				}
				return nil, errOutside
			}
			defer f.Close()
			return readRegular(f)
		}
		return nil, errOutside
	}
}

// readRegular reads an open file that must be a regular one of at most
// MaxIncludeBytes.
func readRegular(f fs.File) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(st.Mode())
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxIncludeBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxIncludeBytes {
		return nil, fmt.Errorf("the file is larger than %d bytes (%d MiB), the most #include reads", MaxIncludeBytes, MaxIncludeBytes>>20)
	}
	return b, nil
}

// notRegular says what a file that is not a regular one is.
func notRegular(m fs.FileMode) error {
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a directory, not a file"
	case m&fs.ModeNamedPipe != 0:
		what = "a FIFO, not a regular file"
	case m&fs.ModeDevice != 0:
		what = "a device, not a regular file"
	case m&fs.ModeSocket != 0:
		what = "a socket, not a regular file"
	}
	return errors.New(what)
}

// systemHeaders are header names that an #include "name" may spell with
// quotes though they are the toolkit's or the C library's: when no file of
// that name is found they are known-and-ignored like <name>.
var systemHeaders = map[string]bool{
	"cuda.h": true, "cuda_runtime.h": true, "cuda_runtime_api.h": true, "device_launch_parameters.h": true,
	"device_functions.h": true, "device_atomic_functions.h": true, "sm_20_atomic_functions.h": true,
	"sm_32_intrinsics.h": true, "sm_60_atomic_functions.h": true, "math_functions.h": true,
	"vector_types.h": true, "vector_functions.h": true, "cooperative_groups.h": true,
	"helper_cuda.h": true, "helper_functions.h": true, "helper_string.h": true, "helper_timer.h": true,
	"helper_image.h": true,
	"stdio.h":        true, "stdlib.h": true, "stdint.h": true, "stddef.h": true, "string.h": true, "math.h": true,
	"assert.h": true, "limits.h": true, "float.h": true, "time.h": true,
}

// includeState is the preprocessor's view of the files being read.
type includeState struct {
	dirs []string
	// read reads a candidate path under the caller's policy; nil when
	// Compile may read no file.
	read func(string) ([]byte, error)
	// cur is the index in d.files of the file being preprocessed; stack
	// the files open, outermost first.
	cur   uint16
	stack []uint16
	// once holds the paths of files that said #pragma once.
	once map[string]bool
	// condBase is how many conditionals were open when the current file
	// was entered: the file may not close those.
	condBase int
	list     []Include
	// bytes counts what the #include lines have read, against
	// MaxSourceBytes.
	bytes int
}

// include handles #include at hash with the tokens after the word.
func (p *preprocessor) include(name token, args []token) {
	if len(args) == 0 {
		p.d.errorf(p.pos(name), "#include expects \"FILENAME\" or <FILENAME>")
		return
	}
	if args[0].kind != tString {
		// <name>: a system header, known without being read. Anything
		// else (a macro naming the file) is not supported.
		if args[0].kind != tLt {
			p.d.errorf(p.pos(args[0]), "#include expects \"FILENAME\" or <FILENAME>")
		}
		return
	}
	p.extra(name, args[1:])
	spelled := args[0].text
	if spelled == "" {
		p.d.errorf(p.pos(args[0]), "empty filename in #include")
		return
	}
	path, src, ok := p.findInclude(args[0], spelled)
	if !ok {
		return
	}
	if p.inc.once[path] {
		return
	}
	if p.inc.bytes += len(src); p.inc.bytes > MaxSourceBytes {
		p.d.errorf(p.pos(args[0]), "the #include files come to more than %d bytes (%d MiB), the most a compilation reads", MaxSourceBytes, MaxSourceBytes>>20)
		return
	}
	for _, open := range p.inc.stack {
		if p.d.files[open].name == path && !guarded(src, p.macros) {
			chain := make([]string, 0, len(p.inc.stack)+1)
			for _, f := range p.inc.stack {
				chain = append(chain, p.d.files[f].name)
			}
			chain = append(chain, path)
			p.d.errorf(p.pos(args[0]), "#include cycle: %s", strings.Join(chain[slicesIndex(chain, path):], " includes "))
			return
		}
	}
	if len(p.inc.stack) >= maxIncludeDepth {
		p.d.errorf(p.pos(args[0]), "#include nested too deeply (more than %d levels)", maxIncludeDepth)
		return
	}
	if len(p.d.files) >= 1<<16-1 {
		p.d.errorf(p.pos(args[0]), "too many #include files")
		return
	}
	f := newSrcFile(path, src)
	f.from, f.parent = p.pos(args[0]), int(p.inc.cur)
	idx := uint16(len(p.d.files))
	p.d.files = append(p.d.files, f)
	if !p.hasInclude(path) {
		p.inc.list = append(p.inc.list, Include{Name: spelled, Path: path, Source: src})
	}

	lx := &lexer{src: src, d: p.d, line: 1, col: 1, bol: true, file: idx}
	toks := lx.all()
	saved, savedBase := p.inc.cur, p.inc.condBase
	p.inc.stack = append(p.inc.stack, idx)
	p.inc.cur, p.inc.condBase = idx, len(p.conds)
	p.runTokens(toks)
	p.closeConds()
	p.inc.stack = p.inc.stack[:len(p.inc.stack)-1]
	p.inc.cur, p.inc.condBase = saved, savedBase
}

func (p *preprocessor) hasInclude(path string) bool {
	for _, in := range p.inc.list {
		if in.Path == path {
			return true
		}
	}
	return false
}

func slicesIndex(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return 0
}

// findInclude finds the file #include "spelled" names: beside the
// including file, then in the include directories. A name that is not
// found but is a known system header is ignored (ok false, no error).
// An absolute name is refused, whatever the policy; a compilation that
// may read no file says so. No diagnostic quotes a refused file's text:
// nothing of it is read.
func (p *preprocessor) findInclude(at token, spelled string) (path string, src []byte, ok bool) {
	if filepath.IsAbs(spelled) || strings.HasPrefix(spelled, "/") || strings.HasPrefix(spelled, "\\") {
		p.d.errorf(p.pos(at), "#include \"%s\": an absolute path; #include reads only files beside the source", spelled)
		return "", nil, false
	}
	read := p.inc.read
	if read == nil {
		if isSystemHeader(spelled) {
			return "", nil, false
		}
		p.d.errorf(p.pos(at), "#include \"%s\": %v (a kernel a lab checks or the grader compiles includes nothing: put the code in the source)", spelled, errNoFiles)
		return "", nil, false
	}
	dirs := append([]string{filepath.Dir(p.d.files[p.inc.cur].name)}, p.inc.dirs...)
	for _, dir := range dirs {
		cand := filepath.Clean(filepath.Join(dir, spelled))
		b, err := read(cand)
		if err == nil {
			return cand, b, true
		}
		if !isNotExist(err) {
			p.d.errorf(p.pos(at), "cannot read include file \"%s\": %v", spelled, err)
			return "", nil, false
		}
	}
	if isSystemHeader(spelled) {
		return "", nil, false // <cstdio> spelled "cstdio", "cuda_runtime.h"
	}
	where := strings.Join(dirs, ", ")
	p.d.errorf(p.pos(at), "cannot find include file \"%s\" (looked in %s)", spelled, where)
	return "", nil, false
}

// isSystemHeader reports whether an #include "name" that is not found is
// a toolkit or C library header to ignore: a known name, or one without
// an extension (<cstdio> spelled "cstdio").
// A name that climbs with ".." is never one.
func isSystemHeader(spelled string) bool {
	slash := filepath.ToSlash(spelled)
	for _, part := range strings.Split(slash, "/") {
		if part == ".." {
			return false
		}
	}
	base := path.Base(slash)
	return systemHeaders[base] || !strings.Contains(base, ".")
}

// isNotExist reports whether err says a file is not there (or a path
// through a file that is not a directory).
func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "not a directory")
}

// guarded reports whether src begins with an include guard whose macro is
// already defined (so reading it again gives nothing): "#ifndef X" or
// "#if !defined(X)" as its first directive.
func guarded(src []byte, macros map[string]*macro) bool {
	d := newDiags("", src)
	toks := (&lexer{src: src, d: d, line: 1, col: 1, bol: true}).all()
	if len(toks) < 3 || toks[0].kind != tHash || toks[1].kind != tIdent {
		return false
	}
	switch {
	case toks[1].text == "ifndef" && toks[2].kind == tIdent:
		return macros[toks[2].text] != nil
	case toks[1].text == "if" && len(toks) >= 5 && toks[2].kind == tNot && toks[3].text == "defined":
		k := 4
		if toks[k].kind == tLParen && k+1 < len(toks) {
			k++
		}
		return toks[k].kind == tIdent && macros[toks[k].text] != nil
	}
	return false
}

// closeConds reports the conditionals the current file left open and
// closes them.
func (p *preprocessor) closeConds() {
	for i := len(p.conds) - 1; i >= p.inc.condBase; i-- {
		p.d.errorf(p.conds[i].pos, "unterminated conditional directive")
	}
	p.conds = p.conds[:p.inc.condBase]
}

// pragmaOnce marks the current file as read once.
func (p *preprocessor) pragmaOnce() {
	if p.inc.once == nil {
		p.inc.once = map[string]bool{}
	}
	p.inc.once[p.d.files[p.inc.cur].name] = true
}

// Includes returns the files the source read with #include "name", in the
// order they were first read, each once.
func (p *Program) Includes() []Include {
	out := make([]Include, len(p.impl.includes))
	for i, in := range p.impl.includes {
		in.DeviceSource = blankSpans(in.Source, p.impl.hostSpans, in.Path)
		out[i] = in
	}
	return out
}

// includeReader is the options' include policy as one reader: nil (no
// file) unless ReadFile, IncludeFS or IncludeRoot gave one.
func (o *options) includeReader() func(string) ([]byte, error) {
	if o.readFile != nil {
		return o.readFile
	}
	if len(o.includeRoots) > 0 {
		return rootReader(o.includeRoots)
	}
	return nil
}
