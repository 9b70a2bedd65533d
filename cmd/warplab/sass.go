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
	"time"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/cudarun"
	"github.com/warplab/warplab/gpusim/sassorder"
)

func init() {
	register(&command{name: "sass", summary: "print a kernel's GPU machine code (needs NVRTC and cuobjdump or nvdisasm)", run: sassCmd})
}

const sassUsage = `usage: warplab sass FILE.cu --kernel NAME [--arch sm_XY] [--define NAME=VALUE]... [--fmad=false] [--record DIR]

Compiles FILE.cu with NVRTC, as the cuda backend does, and prints the
kernel's SASS, the GPU's own machine code, disassembled by cuobjdump (or
nvdisasm): what the compiler made of an atomic, a shuffle or a loop.
A template kernel is named with its arguments (sumTree<256>).

It needs NVRTC (libnvrtc) and cuobjdump or nvdisasm from the CUDA toolkit,
looked for on PATH, then in $CUDA_HOME/bin and /usr/local/cuda/bin. It needs
a GPU only to pick the architecture when --arch is not given.

--record DIR writes the SASS into DIR as a file of gpusim's registry of
recorded SASS (gpusim/sassorder), headed by the file, kernel, source
SHA-256, arch and tool versions, instead of printing it; run it from the
repository root with FILE relative to it, e.g.

  warplab sass labs/queue/kernels/queue.cu --kernel popThread --arch sm_90 --record gpusim/sassorder/sm_90

The registry holds kernels as the simulator runs them: without --define
and with --fmad. It is evidence of what ptxas did (the order of a
kernel's constant loads before its first global atomic, which the
simulator's IR cannot show); the simulator does not read it.

flags:`

func sassCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sass", sassUsage, stderr)
	kernel := fs.String("kernel", "", "the kernel (a template as NAME<ARGS>, e.g. sumTree<256>)")
	arch := fs.String("arch", "", "the target, e.g. sm_90 (default: the first GPU's)")
	fmad := fs.Bool("fmad", true, "contract a*b+c into fused multiply-adds (--fmad)")
	var defines repeated
	fs.Var(&defines, "define", "predefine a macro NAME=VALUE, or NAME as 1, like nvcc -D (repeatable)")
	record := fs.String("record", "", "write the SASS as a file of gpusim's recorded-SASS registry into `DIR` instead of printing it")
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
	if *record != "" {
		if err := recordable(pos[0], len(defines), *fmad); err != nil {
			return err
		}
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
	prog, err := cudac.Compile(pos[0], src, append(copts, localIncludes(pos[0], nil)...)...)
	if err != nil {
		return err
	}
	fn, err := prog.Kernel(*kernel)
	if err != nil {
		return err
	}
	if *record != "" && len(prog.Includes()) > 0 {
		return fmt.Errorf("--record: %s includes %s: the registry keys a kernel by its own file's bytes, so it holds only sources without #include", pos[0], prog.Includes()[0].Name)
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
	if *record != "" {
		h := sassorder.Header{
			File: filepath.ToSlash(filepath.Clean(pos[0])), Kernel: fn.Name, Symbol: sym,
			SourceSHA256: sassorder.SourceSHA256(src), Arch: img.Arch, Defines: "none",
			NVRTC: img.NVRTC, Disassembler: toolVersion(tool), Date: time.Now(),
		}
		return recordSASS(stdout, *record, h, code)
	}
	fmt.Fprintf(stdout, "// %s (%s): %s, NVRTC %s, %s\n", fn.Name, sym, img.Arch, img.NVRTC, filepath.Base(tool))
	_, err = io.WriteString(stdout, code)
	return err
}

// recordable says whether sass --record may record file: a path relative
// to the repository root (the registry test reads it there), no macro
// definitions and fused multiply-adds on, as the simulator compiles a
// kernel by default.
func recordable(file string, defines int, fmad bool) error {
	switch {
	case defines > 0:
		return errors.New("--record with --define: the registry holds kernels compiled without macro definitions, as the simulator runs a lab's kernels (drop --define, or print the SASS without --record)")
	case !fmad:
		return errors.New("--record with --fmad=false: the registry holds kernels compiled with fused multiply-adds, the simulator's default")
	case filepath.IsAbs(file) || strings.HasPrefix(filepath.ToSlash(filepath.Clean(file)), "../"):
		return fmt.Errorf("--record: %s: want the source's path relative to the repository root, and run warplab there", file)
	}
	return nil
}

// recordSASS writes one kernel's SASS with the recorder's header into dir
// under the registry's name for it, and says so on stdout.
func recordSASS(stdout io.Writer, dir string, h sassorder.Header, sass string) error {
	h.Date = h.Date.UTC().Truncate(time.Second)
	h.Command = sassorder.RecordCommand(h.File, h.Kernel, h.Arch)
	b, err := sassorder.Format(h, sass)
	if err != nil {
		return err
	}
	o, err := sassorder.Analyze(sass)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	p := filepath.Join(dir, h.FileName())
	if err := os.WriteFile(p, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", p, describeOrder(o))
	return nil
}

// describeOrder says what sassorder found before the first global atomic.
func describeOrder(o sassorder.Order) string {
	switch {
	case o.Atomic.Line == 0:
		return "no global atomic (const first: false)"
	case o.ConstFirst:
		return fmt.Sprintf("const first: true (%s before %s before %s)", o.FirstULDC.Text, o.LastLDC.Text, o.Atomic.Text)
	case o.LastLDC.Line == 0:
		return fmt.Sprintf("const first: false (no LDC before %s)", o.Atomic.Text)
	}
	return fmt.Sprintf("const first: false (no ULDC before %s, the last LDC before %s)", o.LastLDC.Text, o.Atomic.Text)
}

// toolVersion returns the disassembler's name and its version line.
func toolVersion(tool string) string {
	name := filepath.Base(tool)
	out, err := exec.Command(tool, "--version").Output()
	if err != nil {
		return name + ", version unknown (" + err.Error() + ")"
	}
	return name + ", " + versionLine(string(out))
}

// versionLine picks the line of a CUDA tool's --version output that names
// the release ("Cuda compilation tools, release 13.0, V13.0.88"), else its
// last line.
func versionLine(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines {
		if strings.Contains(l, "release") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lines[len(lines)-1])
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
