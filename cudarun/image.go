package cudarun

import "github.com/warplab/warplab/cudac"

// Image is a program compiled by NVRTC: a cubin for one architecture, or
// PTX where NVRTC does not know the device and the driver finishes the job.
type Image struct {
	Arch string // the --gpu-architecture given: "sm_90", "compute_90"
	Data []byte // the cubin (ELF) or the PTX text, NUL-terminated
	PTX  bool
	// Lowered maps each kernel's name ("sumTree<256>") to the symbol NVRTC
	// gave it ("_Z7sumTreeILi256EEvPKfPfm").
	Lowered map[string]string
	// Log is NVRTC's log (warnings, for a successful compilation).
	Log string
	// NVRTC is NVRTC's version, "13.0".
	NVRTC string
}

// BuildOptions say how Build compiles.
type BuildOptions struct {
	// Arch is the target, "sm_90"; "" means the first GPU's own.
	Arch string
	// Kernels are the kernels to compile besides the program's
	// non-template ones: template instances such as "sumTree<256>".
	Kernels []string
	// Defines are predefined macros, as cudac.Define gave them to cudac.
	Defines map[string]string
	// NoFMA compiles with --fmad=false.
	NoFMA bool
}

// programDefines returns the macros the program was compiled with, where
// cudac records them (a Program with a Defines method); NVRTC must see the
// same ones.
func programDefines(prog *cudac.Program) map[string]string {
	if d, ok := any(prog).(interface{ Defines() map[string]string }); ok {
		return d.Defines()
	}
	return nil
}
