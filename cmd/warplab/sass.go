package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/cudarun"
)

func init() {
	register(&command{name: "sass", summary: "print a kernel's GPU machine code (needs NVRTC and cuobjdump or nvdisasm)", run: sassCmd})
}

const sassUsage = `usage: warplab sass FILE.cu --kernel NAME [--arch sm_XY] [--define NAME=VALUE]... [--fmad=false]

Compiles FILE.cu with NVRTC, as the cuda backend does, and prints the
kernel's SASS, the GPU's own machine code, disassembled by cuobjdump (or
nvdisasm): what the compiler made of an atomic, a shuffle or a loop.
A template kernel is named with its arguments (sumTree<256>).

It needs NVRTC (libnvrtc) and cuobjdump or nvdisasm from the CUDA toolkit,
looked for on PATH, then in $CUDA_HOME/bin and /usr/local/cuda/bin. It needs
a GPU only to pick the architecture when --arch is not given.

flags:`

func sassCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sass", sassUsage, stderr)
	kernel := fs.String("kernel", "", "the kernel (a template as NAME<ARGS>, e.g. sumTree<256>)")
	arch := fs.String("arch", "", "the target, e.g. sm_90 (default: the first GPU's)")
	fmad := fs.Bool("fmad", true, "contract a*b+c into fused multiply-adds (--fmad)")
	var defines repeated
	fs.Var(&defines, "define", "predefine a macro NAME=VALUE, or NAME as 1, like nvcc -D (repeatable)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return fmt.Errorf("want exactly one .cu file, got %d arguments", len(pos))
	}
	if *kernel == "" {
		return fmt.Errorf("missing --kernel NAME")
	}
	if *arch != "" && !regexp.MustCompile(`^(sm|compute)_[0-9]+[a-z]?$`).MatchString(*arch) {
		return fmt.Errorf("--arch %q: want sm_XY, e.g. sm_90", *arch)
	}
	src, err := cudac.ReadSource(pos[0])
	if err != nil {
		return err
	}
	specs, copts, err := parseDefines(defines)
	if err != nil {
		return err
	}
	defs := map[string]string{}
	for _, d := range specs {
		defs[d.name] = d.value
	}
	prog, err := cudac.Compile(pos[0], src, copts...)
	if err != nil {
		return err
	}
	fn, err := prog.Kernel(*kernel)
	if err != nil {
		return err
	}
	tool, err := disassembler()
	if err != nil {
		return err
	}
	img, err := cudarun.Build(prog, cudarun.BuildOptions{Arch: *arch, Kernels: []string{fn.Name}, Defines: defs, NoFMA: !*fmad})
	if err != nil {
		return err
	}
	if img.PTX {
		return fmt.Errorf("NVRTC %s built PTX, not machine code, for %s: name an architecture it knows with --arch", img.NVRTC, img.Arch)
	}
	sym := img.Lowered[fn.Name]
	code, err := disassemble(tool, img.Data, sym)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "// %s (%s): %s, NVRTC %s, %s\n", fn.Name, sym, img.Arch, img.NVRTC, filepath.Base(tool))
	_, err = io.WriteString(stdout, code)
	return err
}

// disassembler finds cuobjdump, else nvdisasm.
func disassembler() (string, error) {
	var dirs []string
	for _, env := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if d := os.Getenv(env); d != "" {
			dirs = append(dirs, filepath.Join(d, "bin"))
		}
	}
	dirs = append(dirs, "/usr/local/cuda/bin")
	for _, name := range []string{"cuobjdump", "nvdisasm"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
		for _, d := range dirs {
			p := filepath.Join(d, name)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, nil
			}
		}
	}
	return "", errors.New("neither cuobjdump nor nvdisasm found on PATH or in $CUDA_HOME/bin, /usr/local/cuda/bin: they come with the CUDA toolkit")
}

// disassemble runs tool on a cubin and returns the code of the function sym.
func disassemble(tool string, cubin []byte, sym string) (string, error) {
	f, err := os.CreateTemp("", "warplab-*.cubin")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(cubin); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	var args []string
	if filepath.Base(tool) == "nvdisasm" {
		args = []string{"-c", f.Name()}
	} else {
		args = []string{"--dump-sass", f.Name()}
	}
	var out, errb bytes.Buffer
	cmd := exec.Command(tool, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", filepath.Base(tool), strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	var code string
	if filepath.Base(tool) == "nvdisasm" {
		code = nvdisasmFunction(out.String(), sym)
	} else {
		code = cuobjdumpFunction(out.String(), sym)
	}
	if code == "" {
		return "", fmt.Errorf("%s printed no code for %s", filepath.Base(tool), sym)
	}
	return code, nil
}

// cuobjdumpFunction cuts one function out of cuobjdump --dump-sass output:
// from its "Function : NAME" line to the next function or the end.
func cuobjdumpFunction(dump, sym string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.SplitAfter(dump, "\n") {
		t := strings.TrimSpace(line)
		if name, ok := strings.CutPrefix(t, "Function : "); ok {
			in = strings.TrimSpace(name) == sym
		}
		if in {
			b.WriteString(line)
		}
	}
	return b.String()
}

// nvdisasmFunction cuts one function out of nvdisasm output: from its
// ".text.NAME" section header to the next section header.
func nvdisasmFunction(dump, sym string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.SplitAfter(dump, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, ".section") || strings.HasPrefix(t, "//---") {
			in = strings.Contains(t, ".text."+sym+" ") || strings.HasSuffix(t, ".text."+sym) ||
				strings.Contains(t, ".text."+sym+",") || strings.Contains(t, ".text."+sym+"\t")
		}
		if in {
			b.WriteString(line)
		}
	}
	return b.String()
}
