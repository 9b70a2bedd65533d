package cudac

import (
	"strconv"
	"strings"
)

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
	// includeDirs and readFile are how #include "name" finds files.
	includeDirs []string
	readFile    func(string) ([]byte, error)
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
func Compile(filename string, src []byte, opts ...Option) (*Program, error) {
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
