package sassorder

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// Magic is the first line of every registry file.
const Magic = "// warplab sass --record: one kernel's SASS for gpusim's sassorder registry; re-record it, do not edit it"

// Header is what the recorder writes at the top of a registry file, one
// "// key: value" line each, in this order.
type Header struct {
	File         string    // the source file as the recorder was given it, relative to the repository root
	Kernel       string    // the kernel's name in the source (a template as NAME<ARGS>)
	Symbol       string    // its mangled name in the cubin
	SourceSHA256 string    // hex SHA-256 of the source file's bytes
	Arch         string    // the target, e.g. sm_90
	Defines      string    // "none": the registry holds only kernels compiled without -D
	NVRTC        string    // NVRTC's version, e.g. 13.0
	Disassembler string    // the disassembler and its version line
	Date         time.Time // when it was recorded (UTC, to the second)
	Command      string    // the command line that re-records it
}

var headerKeys = []string{"file", "kernel", "symbol", "source sha256", "arch", "defines", "nvrtc", "disassembler", "date", "command"}

func (h *Header) values() []string {
	return []string{h.File, h.Kernel, h.Symbol, h.SourceSHA256, h.Arch, h.Defines, h.NVRTC, h.Disassembler,
		h.Date.UTC().Format(time.RFC3339), h.Command}
}

// SourceSHA256 returns the hex SHA-256 of a source's bytes.
func SourceSHA256(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_]`)

// FileName returns the registry's name for a kernel of a source:
// KERNEL-<the first 12 hex digits of the source's SHA-256>.sass, with
// every character of KERNEL other than letters, digits and '_' as '_'
// (sumTree<256> is sumTree_256_).
func FileName(kernel string, src []byte) string {
	return fileName(kernel, SourceSHA256(src))
}

// FileName returns the registry's name for the header's kernel and
// source: FileName(h.Kernel, the source).
func (h Header) FileName() string { return fileName(h.Kernel, h.SourceSHA256) }

func fileName(kernel, sum string) string {
	if len(sum) < 12 {
		sum += strings.Repeat("0", 12-len(sum))
	}
	return unsafeName.ReplaceAllString(kernel, "_") + "-" + sum[:12] + ".sass"
}

// RecordCommand returns the command line, run from the repository root,
// that records a kernel of file for arch into the registry.
func RecordCommand(file, kernel, arch string) string {
	k := kernel
	if strings.ContainsAny(k, "<>, ") {
		k = "'" + k + "'"
	}
	return fmt.Sprintf("warplab sass %s --kernel %s --arch %s --record gpusim/sassorder/%s", file, k, arch, arch)
}

// Format returns a registry file: Magic, h's lines and the kernel's SASS
// (which must hold instructions). It checks h as Parse does.
func Format(h Header, sass string) ([]byte, error) {
	if err := h.check(); err != nil {
		return nil, err
	}
	if _, err := Analyze(sass); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(Magic + "\n")
	for i, v := range h.values() {
		fmt.Fprintf(&b, "// %s: %s\n", headerKeys[i], v)
	}
	b.WriteString(sass)
	if !strings.HasSuffix(sass, "\n") {
		b.WriteString("\n")
	}
	return []byte(b.String()), nil
}

var (
	hexSHA   = regexp.MustCompile(`^[0-9a-f]{64}$`)
	archName = regexp.MustCompile(`^sm_[0-9]+[a-z]?$`)
)

func (h *Header) check() error {
	for i, v := range h.values() {
		if strings.TrimSpace(v) == "" || strings.ContainsAny(v, "\r\n") {
			return fmt.Errorf("sassorder: header %s %q: want one non-empty line", headerKeys[i], v)
		}
	}
	switch {
	case !hexSHA.MatchString(h.SourceSHA256):
		return fmt.Errorf("sassorder: header source sha256 %q: want 64 lower-case hex digits", h.SourceSHA256)
	case !archName.MatchString(h.Arch):
		return fmt.Errorf("sassorder: header arch %q: want sm_XY", h.Arch)
	case h.Defines != "none":
		return fmt.Errorf("sassorder: header defines %q: the registry holds kernels compiled without macro definitions (want none)", h.Defines)
	case h.Date.IsZero():
		return errors.New("sassorder: header date is missing")
	}
	return nil
}

// Parse reads a registry file: its header and its SASS.
func Parse(file []byte) (Header, string, error) {
	lines := strings.SplitAfter(string(file), "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], "\r\n") != Magic {
		return Header{}, "", fmt.Errorf("sassorder: line 1: want the recorder's first line %q", Magic)
	}
	vals := make([]string, len(headerKeys))
	for i, key := range headerKeys {
		n := i + 2
		if n > len(lines) {
			return Header{}, "", fmt.Errorf("sassorder: line %d: missing the header's %q line", n, key)
		}
		v, ok := strings.CutPrefix(strings.TrimRight(lines[n-1], "\r\n"), "// "+key+": ")
		if !ok {
			return Header{}, "", fmt.Errorf("sassorder: line %d: want \"// %s: ...\", got %q", n, key, strings.TrimSpace(lines[n-1]))
		}
		vals[i] = v
	}
	date, err := time.Parse(time.RFC3339, vals[8])
	if err != nil {
		return Header{}, "", fmt.Errorf("sassorder: line 10: date: %v", err)
	}
	h := Header{File: vals[0], Kernel: vals[1], Symbol: vals[2], SourceSHA256: vals[3], Arch: vals[4], Defines: vals[5],
		NVRTC: vals[6], Disassembler: vals[7], Date: date, Command: vals[9]}
	if err := h.check(); err != nil {
		return Header{}, "", err
	}
	return h, strings.Join(lines[len(headerKeys)+1:], ""), nil
}

// Entry is one registry file.
type Entry struct {
	Path   string // e.g. sm_90/popThread-663a7d9d38cf.sass
	Header Header
	Order  Order
}

//go:embed sm_*
var files embed.FS

// reg is a registry read from a file system of <arch>/*.sass files.
type reg struct {
	entries map[string]Entry // by Path
	errs    []error
}

var (
	embedded     *reg
	embeddedOnce sync.Once
)

func theRegistry() *reg {
	embeddedOnce.Do(func() { embedded = load(files) })
	return embedded
}

func load(fsys fs.FS) *reg {
	r := &reg{entries: map[string]Entry{}}
	paths, err := fs.Glob(fsys, "*/*.sass")
	if err != nil {
		r.errs = append(r.errs, err)
	}
	for _, p := range paths {
		if err := r.add(fsys, p); err != nil {
			r.errs = append(r.errs, fmt.Errorf("%s: %w", p, err))
		}
	}
	return r
}

func (r *reg) add(fsys fs.FS, p string) error {
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return err
	}
	h, sass, err := Parse(b)
	if err != nil {
		return err
	}
	if dir := path.Dir(p); dir != h.Arch {
		return fmt.Errorf("sassorder: recorded for %s, filed under %s", h.Arch, dir)
	}
	if want := h.FileName(); path.Base(p) != want {
		return fmt.Errorf("sassorder: kernel %s of a source with SHA-256 %s belongs in %s", h.Kernel, h.SourceSHA256, want)
	}
	o, err := Analyze(sass)
	if err != nil {
		return err
	}
	r.entries[p] = Entry{Path: p, Header: h, Order: o}
	return nil
}

// Entries returns the registry's files that read correctly, by path, and
// an error for each that does not.
func Entries() ([]Entry, []error) { return theRegistry().list() }

func (r *reg) list() ([]Entry, []error) {
	out := make([]Entry, 0, len(r.entries))
	for _, e := range r.entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, append([]error(nil), r.errs...)
}

// Lookup returns the registry's file for kernel of the source src compiled
// for arch without macro definitions, if there is one whose header names
// that kernel, arch and the source's full SHA-256.
func Lookup(arch, kernel string, src []byte) (Entry, bool) {
	return theRegistry().lookup(arch, kernel, src)
}

func (r *reg) lookup(arch, kernel string, src []byte) (Entry, bool) {
	sum := SourceSHA256(src)
	e, ok := r.entries[arch+"/"+fileName(kernel, sum)]
	if !ok || e.Header.Kernel != kernel || e.Header.SourceSHA256 != sum || e.Header.Arch != arch {
		return Entry{}, false
	}
	return e, true
}
