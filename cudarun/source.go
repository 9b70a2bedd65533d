package cudarun

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/warplab/warplab/cudac"
)

// This file turns a source that cudac accepted into the text NVRTC
// compiles, and NVRTC's log back into cudac-style errors. It needs no cgo,
// so it is tested everywhere.

// stdTypedefs are the <cstdint> and <cstddef> names cudac predefines, as
// glibc defines them on LP64 Linux (cudac, like nvcc, treats int64_t as a
// long, not a long long). size_t is always declared: a typedef that repeats
// NVRTC's own is harmless in C++.
var stdTypedefs = [][2]string{
	{"int8_t", "signed char"}, {"uint8_t", "unsigned char"},
	{"int16_t", "short"}, {"uint16_t", "unsigned short"},
	{"int32_t", "int"}, {"uint32_t", "unsigned int"},
	{"int64_t", "long"}, {"uint64_t", "unsigned long"},
	{"intptr_t", "long"}, {"uintptr_t", "unsigned long"},
	{"ssize_t", "long"}, {"ptrdiff_t", "long"}, {"clock_t", "long"},
	{"intmax_t", "long"}, {"uintmax_t", "unsigned long"},
	// <sys/types.h>, which nvcc's host headers include and NVRTC does not.
	{"uint", "unsigned int"}, {"ushort", "unsigned short"}, {"ulong", "unsigned long"},
	{"u_char", "unsigned char"}, {"u_short", "unsigned short"}, {"u_int", "unsigned int"},
	{"u_long", "unsigned long"}, {"u_int8_t", "unsigned char"}, {"u_int16_t", "unsigned short"},
	{"u_int32_t", "unsigned int"}, {"u_int64_t", "unsigned long"},
}

// stdMacros are the <climits>, <cfloat> and <cmath> macros cudac predefines,
// with the same values; the special floats are spelled as glibc spells
// them, which is what nvcc sees through <cmath>.
var stdMacros = func() [][2]string {
	glibc := map[string]string{
		"INFINITY": "(__builtin_inff())", "NAN": "(__builtin_nanf(\"\"))",
		"HUGE_VALF": "(__builtin_huge_valf())", "HUGE_VAL": "(__builtin_huge_val())",
	}
	ms := cudac.StandardMacros()
	for i, m := range ms {
		if v, ok := glibc[m[0]]; ok {
			ms[i][1] = v
		}
	}
	return ms
}()

// preludeName is the name NVRTC gives the prelude's lines in its log.
const preludeName = "warplab-prelude"

var (
	includeLine = regexp.MustCompile(`^[ \t]*#[ \t]*include\b`)
	// cgInclude matches an #include of the cooperative groups headers or
	// of <cuda/atomic>, which NVRTC reads (cudac knows their names
	// without them).
	cgInclude = regexp.MustCompile(`^[ \t]*#[ \t]*include[ \t]*(<cooperative_groups(/[a-z_]+)?\.h>|<cuda/(std/)?atomic>)`)
	// quotedInclude matches #include "name", the name in group 1.
	quotedInclude = regexp.MustCompile(`^[ \t]*#[ \t]*include[ \t]*"([^"]*)"`)
	defineLine    = regexp.MustCompile(`^[ \t]*#[ \t]*(?:define|undef)[ \t]+([A-Za-z_][A-Za-z0-9_]*)`)
	identRE       = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
)

// header is a file NVRTC is given to satisfy an #include "name": name as
// the #include lines spell it.
type header struct{ name, text string }

// nvrtcSource returns what NVRTC compiles for a source that cudac checked:
// a prelude with the standard typedefs and macros the source uses (and does
// not define itself or get from defines), then "#line 1" naming file, then
// the source with every #include line emptied but those of the cooperative
// groups headers and of the files cudac read (includes), so that NVRTC's
// line numbers are the source's own. The included files go to NVRTC as
// headers, named as their #include lines spell them, their text treated
// the same way and headed by a #line naming the file cudac read. Two
// different files included under one spelling are an error: NVRTC names
// headers by spelling only.
func nvrtcSource(file string, src []byte, defines map[string]string, includes ...cudac.Include) (string, []header, error) {
	names := map[string]string{}
	for _, in := range includes {
		if p, ok := names[in.Name]; ok && p != in.Path {
			return "", nil, fmt.Errorf("cudarun: %s and %s are both included as %q: NVRTC names headers by their #include spelling, so rename one", p, in.Path, in.Name)
		}
		names[in.Name] = in.Path
	}
	own := map[string]bool{}
	used := map[string]bool{}
	filter := func(src []byte) string {
		lines := strings.Split(string(src), "\n")
		for i, l := range lines {
			if includeLine.MatchString(l) && !cgInclude.MatchString(l) {
				if m := quotedInclude.FindStringSubmatch(l); m == nil || names[m[1]] == "" {
					lines[i] = ""
				}
				continue
			}
			if m := defineLine.FindStringSubmatch(l); m != nil {
				own[m[1]] = true
			}
		}
		for _, id := range identRE.FindAllString(string(src), -1) {
			used[id] = true
		}
		return strings.Join(lines, "\n")
	}
	body := filter(src)
	var headers []header
	for _, in := range includes {
		text := fmt.Sprintf("#line 1 %s\n%s", strconv.Quote(in.Path), filter(in.DeviceSource))
		headers = append(headers, header{name: in.Name, text: text})
	}
	var b strings.Builder
	b.WriteString("// warplab prelude: what <cstdint>, <climits>, <cfloat> and <cmath> would give\n")
	b.WriteString("typedef decltype(sizeof(0)) size_t;\n")
	for _, td := range stdTypedefs {
		if used[td[0]] && !own[td[0]] {
			fmt.Fprintf(&b, "typedef %s %s;\n", td[1], td[0])
		}
	}
	for _, m := range stdMacros {
		if _, isOpt := defines[m[0]]; used[m[0]] && !own[m[0]] && !isOpt {
			fmt.Fprintf(&b, "#ifndef %s\n#define %s %s\n#endif\n", m[0], m[0], m[1])
		}
	}
	fmt.Fprintf(&b, "#line 1 %s\n", strconv.Quote(file))
	b.WriteString(body)
	return b.String(), headers, nil
}

// compileOptions returns NVRTC's options for arch ("sm_90" or
// "compute_90") and the defines, sorted so that the cache key is stable.
func compileOptions(arch string, noFMA bool, defines map[string]string) []string {
	opts := []string{"--gpu-architecture=" + arch, "-default-device", "--std=c++17"}
	if noFMA {
		opts = append(opts, "--fmad=false")
	}
	names := make([]string, 0, len(defines))
	for n := range defines {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		opts = append(opts, "-D"+n+"="+defines[n])
	}
	return opts
}

// includeOptions returns the include path NVRTC needs for text: the CUDA
// toolkit's include directory when text includes the cooperative groups
// headers or <cuda/atomic>, found through $CUDA_HOME, $CUDA_PATH, /usr/local/cuda or
// /usr/include, and its cccl directory where the toolkit has one. None
// when no directory has them (NVRTC's own built-in headers are then the
// last resort).
func includeOptions(text string, stat func(string) bool) []string {
	if !strings.Contains(text, "<cooperative_groups") && !strings.Contains(text, "<cuda/") {
		return nil
	}
	var dirs []string
	for _, env := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if v := os.Getenv(env); v != "" {
			dirs = append(dirs, filepath.Join(v, "include"))
		}
	}
	dirs = append(dirs, "/usr/local/cuda/include", "/usr/include")
	for _, dir := range dirs {
		if stat(filepath.Join(dir, "cooperative_groups.h")) {
			opts := []string{"--include-path=" + dir}
			// CUDA 13 keeps <cuda/std/...>, which the headers include,
			// in include/cccl.
			if cccl := filepath.Join(dir, "cccl"); stat(filepath.Join(cccl, "cuda", "std", "type_traits")) {
				opts = append(opts, "--include-path="+cccl)
			}
			return opts
		}
	}
	return nil
}

// nvrtcInput is what NVRTC compiles for a program: the text and headers
// from nvrtcSource, and the source and included files it came from, for
// the log's echoed lines.
type nvrtcInput struct {
	file     string
	src      []byte
	text     string
	headers  []header
	includes []cudac.Include
}

// programInput returns the NVRTC input for prog with defines.
func programInput(prog *cudac.Program, defines map[string]string) (nvrtcInput, error) {
	includes := prog.Includes()
	text, headers, err := nvrtcSource(prog.File, prog.DeviceSource(), defines, includes...)
	return nvrtcInput{file: prog.File, src: prog.Source, text: text, headers: headers, includes: includes}, err
}

// allText is the text and the headers' texts, for includeOptions.
func (in nvrtcInput) allText() string {
	var b strings.Builder
	b.WriteString(in.text)
	for _, h := range in.headers {
		b.WriteString("\n")
		b.WriteString(h.text)
	}
	return b.String()
}

// fileExists reports whether path names an existing file.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// cacheKey identifies a compiled image: the text NVRTC saw, its options,
// the name expressions, and NVRTC's version.
func cacheKey(text string, headers []header, opts, names []string, nvrtcVersion string) string {
	h := sha256.New()
	var hs []string
	for _, hd := range headers {
		hs = append(hs, hd.name, hd.text)
	}
	for _, part := range [][]string{{nvrtcVersion}, {text}, hs, opts, names} {
		for _, s := range part {
			fmt.Fprintf(h, "%d:%s;", len(s), s)
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// kernelNames returns the name expressions to compile for prog: every
// non-template kernel, and the template instances in extra, without
// duplicates, sorted.
func kernelNames(prog *cudac.Program, extra ...string) []string {
	var names []string
	for _, f := range prog.Funcs {
		if f.Kernel {
			names = append(names, f.Name)
		}
	}
	names = append(names, extra...)
	slices.Sort(names)
	return slices.Compact(names)
}

// nvrtcLogLine matches the first line of an NVRTC diagnostic:
// `sum.cu(12): error: identifier "x" is undefined`. The severity may carry
// a number: `warning #177-D: ...`.
var nvrtcLogLine = regexp.MustCompile(`^(.*)\((\d+)\): (catastrophic error|error|warning)( #[0-9A-Za-z-]+)?: (.*)$`)

// parseLog turns NVRTC's log into cudac-style errors (errors only;
// warnings are dropped). src is the original source, for the echoed line
// and the column: NVRTC echoes the line and puts a caret under the column,
// and where the echo matches the source the column is recovered from the
// caret; otherwise it is 1.
func parseLog(file string, src []byte, log string, includes ...cudac.Include) cudac.ErrorList {
	srcLines := map[string][]string{file: strings.Split(string(src), "\n")}
	for _, in := range includes {
		srcLines[in.Path] = strings.Split(string(in.Source), "\n")
	}
	logLines := strings.Split(log, "\n")
	var list cudac.ErrorList
	for i := 0; i < len(logLines); i++ {
		m := nvrtcLogLine.FindStringSubmatch(logLines[i])
		if m == nil || m[3] == "warning" {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		msg := m[5]
		name := m[1]
		if name == "" || name == "default_program" {
			name = file
		}
		if name == preludeName {
			msg += " (in warplab's prelude for NVRTC)"
		}
		e := &cudac.Error{Pos: cudac.Pos{File: name, Line: line, Col: 1}, Msg: msg}
		// A message may continue on indented lines before the echo; the
		// echo is followed by a caret line.
		j := i + 1
		for ; j+1 < len(logLines); j++ {
			if isCaretLine(logLines[j+1]) {
				break
			}
			if logLines[j] == "" || nvrtcLogLine.MatchString(logLines[j]) {
				j = -1
				break
			}
			// Continuation of the message (e.g. "argument types are: (...)").
			e.Msg += " " + strings.TrimSpace(logLines[j])
		}
		if lines := srcLines[name]; line >= 1 && line <= len(lines) {
			e.Line = strings.TrimRight(lines[line-1], "\r")
			if j > 0 && j+1 < len(logLines) {
				e.Pos.Col = caretColumn(logLines[j], logLines[j+1], e.Line)
				i = j + 1
			}
		}
		list = append(list, e)
	}
	if len(list) == 0 && strings.TrimSpace(log) != "" {
		// Not in the usual form: keep NVRTC's words.
		list = append(list, &cudac.Error{Pos: cudac.Pos{File: file}, Msg: "NVRTC: " + strings.TrimSpace(log)})
	}
	return list
}

func isCaretLine(s string) bool {
	t := strings.TrimLeft(s, " \t")
	return t == "^"
}

// caretColumn returns the 1-based character column of the caret in the source
// line src, given NVRTC's echo of that line and its caret line. NVRTC
// indents the echo; where the echo does not end with the source line
// (tabs expanded, a line too long and cut), it returns 1.
func caretColumn(echo, caret, src string) int {
	at := strings.IndexByte(caret, '^')
	if at < 0 {
		return 1
	}
	trimmed := strings.TrimLeft(src, " \t")
	lead := len(src) - len(trimmed)
	if trimmed == "" || !strings.HasSuffix(echo, trimmed) {
		return 1
	}
	echoStart := len(echo) - len(trimmed) // where the source's first non-blank is in the echo
	col := at - echoStart + lead + 1
	if col < 1 || col > len(src)+1 {
		return 1
	}
	return utf8.RuneCountInString(src[:col-1]) + 1 // cudac.Pos counts characters
}

// isPTX reports whether an image is PTX text rather than an ELF cubin.
func isPTX(image []byte) bool { return !bytes.HasPrefix(image, []byte("\x7fELF")) }
