package cudac

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// MaxSourceBytes is the largest source Compile accepts, 4 MiB: some
// hundred times the longest course kernel file, and small enough that a
// careless argument (a binary, /dev/zero) fails at once instead of
// filling the host's memory.
const MaxSourceBytes = 4 << 20

// Program is a checked CUDA C source file.
type Program struct {
	File   string
	Source []byte
	// Globals are the file-scope __device__ and __constant__ variables.
	Globals []*Var
	// Funcs are the non-template functions, kernels and __device__
	// functions, in source order.
	Funcs []*Func

	// unexported state for templates and instantiation lives in check.go.
	impl *programImpl
}

// Option changes how Compile reads a source.
type Option func(*options)

type options struct {
	defines map[string]string
	// arch is __CUDA_ARCH__'s value; 0 for the default, 750.
	arch int
	// includeDirs, includeRoots and readFile are how #include "name"
	// finds files (the include policy; see include.go).
	includeDirs  []string
	includeRoots []string
	readFile     func(string) ([]byte, error)
	// defineFlag names the Define options in diagnostics; "" for "-D".
	defineFlag string
	// ctx, if set, stops the compilation when it is done.
	ctx context.Context
}

// Context stops the compilation, with an error "file:line:col:
// compilation stopped: CAUSE" at the point it reached, when ctx is done
// (context.Cause(ctx) gives CAUSE): a time limit that covers compiling a
// long source as well as running it. Compile looks at ctx every few
// thousand tokens and statements.
func Context(ctx context.Context) Option {
	return func(o *options) { o.ctx = ctx }
}

// DefineFlag names the flag that gave the Define options, for
// diagnostics: an error on a line that uses a defined macro ends with
// "(N comes from FLAG N=VALUE)", and a Define whose name is not an
// identifier is reported as "FLAG NAME=VALUE: ...". The default is
// nvcc's "-D"; warplab run passes "--define".
func DefineFlag(flag string) Option {
	return func(o *options) { o.defineFlag = flag }
}

// Arch sets the compute capability the source is compiled for, as
// "sm_90" (or "compute_90", "90"): __CUDA_ARCH__ is then 900, as nvcc and
// NVRTC define it for that target. Without it __CUDA_ARCH__ is 750. An
// arch Compile cannot read is ignored.
func Arch(arch string) Option {
	return func(o *options) {
		if v := archValue(arch); v > 0 {
			o.arch = v
		}
	}
}

// archValue reads "sm_90", "compute_86" or "90" as 900, 860, 900; 0 if it
// is none of those.
func archValue(arch string) int {
	s := strings.TrimPrefix(strings.TrimPrefix(arch, "sm_"), "compute_")
	s = strings.TrimRight(s, "af") // sm_90a, sm_100f
	n, err := strconv.Atoi(s)
	if err != nil || n < 10 || n > 999 {
		return 0
	}
	return n * 10
}

// Define predefines an object-like macro, like nvcc -DNAME=VALUE: the source
// sees "#define NAME VALUE" before its first line. A #define of the same name
// in the source is an error, unless guarded by #ifndef NAME.
func Define(name, value string) Option {
	return func(o *options) {
		if o.defines == nil {
			o.defines = map[string]string{}
		}
		o.defines[name] = value
	}
}

// Compile parses and type-checks a CUDA C source. filename is used in
// diagnostics. On error it returns an ErrorList: every diagnostic it found,
// each "file.cu:line:col: message" with the source line and a caret.
//
// A source larger than MaxSourceBytes is refused with one diagnostic,
// before it is read.
func Compile(filename string, src []byte, opts ...Option) (*Program, error) {
	if len(src) > MaxSourceBytes {
		return nil, ErrorList{&Error{Pos: Pos{File: filename}, Msg: tooLarge(len(src))}}
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return compile(filename, src, &o)
}

// KernelNames lists the __global__ functions in source order; a template
// kernel is spelled with its parameter names ("sumTree<N>").
func (p *Program) KernelNames() []string { return p.impl.kernelNames() }

// Kernel returns the __global__ function with the given name. A template
// kernel is instantiated by giving integer arguments: "sumTree<256>",
// "reduce<256, 4>" (spaces optional, integer suffixes allowed). Instances are
// cached, so the same name returns the same *Func. An unknown name or a bad
// instantiation is an error that lists the kernels there are.
func (p *Program) Kernel(name string) (*Func, error) { return p.impl.kernel(p, name) }

// Func returns the non-template function with the given name, or nil.
func (p *Program) Func(name string) *Func {
	for _, f := range p.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// tooLarge says that a source of n bytes is over MaxSourceBytes; n < 0
// for a source known only to be larger.
func tooLarge(n int) string {
	if n < 0 {
		return fmt.Sprintf("the source is larger than %d bytes (%d MiB), the most a source may be", MaxSourceBytes, MaxSourceBytes>>20)
	}
	return fmt.Sprintf("the source is %d bytes; a source may be at most %d bytes (%d MiB)", n, MaxSourceBytes, MaxSourceBytes>>20)
}

// ReadSource reads a source file for Compile, reading no more than
// MaxSourceBytes+1 bytes: a file over the limit (or an endless one, such
// as /dev/zero) is an error that says so, without reading the rest.
func ReadSource(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("cudac: %s is a directory, not a source file", path)
	}
	src, err := io.ReadAll(io.LimitReader(f, MaxSourceBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cudac: reading %s: %w", path, err)
	}
	if len(src) > MaxSourceBytes {
		return nil, fmt.Errorf("cudac: %s: %s", path, tooLarge(-1))
	}
	return src, nil
}
