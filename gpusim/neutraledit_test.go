package gpusim_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/internal/coursekernels"
)

// A prediction may depend on what a kernel does, never on how its source
// is spelled: its name, its file, its bytes or its lab (issue 28). The
// neutral-edit test runs every lab kernel (labs/*/kernels/*.cu) and every
// course kernel (internal/coursekernels) on small launches, as written
// and through neutral edits (a comment added, blank lines, every kernel
// and parameter renamed, two independent statements swapped), and
// requires bit-identical predictions: the modelled time, its breakdown
// with every detail, the counters and the outputs.

// neutralEdit is one edit of a kernel file: it returns the edited source
// and the edited name of each kernel (the same name where it renames
// none).
type neutralEdit struct {
	name string
	edit func(src string, kernels []string, params []string) (string, map[string]string)
}

func same(kernels []string) map[string]string {
	m := map[string]string{}
	for _, k := range kernels {
		m[k] = k
	}
	return m
}

// swaps are pairs of adjacent independent statements of straight-line
// code, each swapped where a file holds it exactly (the test fails unless
// two files hold one). A statement and a branch out of the loop are not
// such a pair: the IR then runs the statement on the way out too.
var swaps = [][2]string{
	// labs/queue/kernels/queue.cu, work: the item's value and its cost.
	{"    float x = (float)(i & 255);\n", "    int c = costOf(i, light, heavy, period);\n"},
	// labs/softmax/kernels/shuffle.cu, denomShuffle: the index and the lane.
	{"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n", "    int lane = threadIdx.x % 32;\n"},
}

var neutralEdits = []neutralEdit{
	{"comment", func(src string, kernels, _ []string) (string, map[string]string) {
		out := "// A student's note: nothing below changes.\n" + strings.Replace(src, "__global__", "/* a note */ __global__", 1)
		out = strings.Replace(out, "{\n", "{ // here\n", 1)
		return out, same(kernels)
	}},
	{"blank lines", func(src string, kernels, _ []string) (string, map[string]string) {
		return "\n\n" + strings.ReplaceAll(src, ";\n", ";\n\n"), same(kernels)
	}},
	{"rename", func(src string, kernels, params []string) (string, map[string]string) {
		words := map[string]string{}
		launch := map[string]string{}
		for _, k := range kernels {
			base, inst, _ := strings.Cut(k, "<")
			words[base] = base + "Edited"
			launch[k] = base + "Edited"
			if inst != "" {
				launch[k] += "<" + inst
			}
		}
		for _, p := range params {
			words[p] = p + "_r"
		}
		return renameWords(src, words), launch
	}},
	{"swap", func(src string, kernels, _ []string) (string, map[string]string) {
		for _, s := range swaps {
			if i := strings.Index(src, s[0]+s[1]); i >= 0 {
				src = src[:i] + s[1] + s[0] + src[i+len(s[0])+len(s[1]):]
			}
		}
		return src, same(kernels)
	}},
}

var word = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// renameWords renames whole identifiers, except where a member access
// (. or ->) comes before them.
func renameWords(src string, names map[string]string) string {
	var b strings.Builder
	last := 0
	for _, m := range word.FindAllStringIndex(src, -1) {
		w := src[m[0]:m[1]]
		to, ok := names[w]
		before := strings.TrimRight(src[:m[0]], " ")
		if !ok || strings.HasSuffix(before, ".") || strings.HasSuffix(before, "->") {
			continue
		}
		b.WriteString(src[last:m[0]])
		b.WriteString(to)
		last = m[1]
	}
	b.WriteString(src[last:])
	return b.String()
}

// kernelFile is a kernel source under test.
type kernelFile struct {
	path string
	src  []byte
}

func neutralEditFiles(t *testing.T) []kernelFile {
	paths, err := filepath.Glob("../labs/*/kernels/*.cu")
	if err != nil || len(paths) < 10 {
		t.Fatalf("lab kernels: %v, %d files", err, len(paths))
	}
	var files []kernelFile
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, kernelFile{strings.TrimPrefix(p, "../"), b})
	}
	for _, n := range coursekernels.Names() {
		files = append(files, kernelFile{"internal/coursekernels/" + n, coursekernels.Source(n)})
	}
	return files
}

// launchOutcome is everything a launch predicts.
type launchOutcome struct {
	Timing   gpu.Timing
	Counters gpu.Counters
	Outputs  [][]byte
	Err      string
}

// argValue returns the small launch's value of a scalar parameter, by
// its name: sizes 1024, batches and strides small, bins 16.
func argValue(p *cudac.Var) any {
	n := strings.ToLower(strings.TrimSuffix(p.Name, "_r"))
	v := 4
	switch {
	case n == "n" || n == "m" || n == "blocks" || strings.Contains(n, "size") || strings.Contains(n, "len"):
		v = 1024
	case strings.Contains(n, "bins"):
		v = 16
	case n == "stride":
		v = 1
	case n == "period":
		v = 8
	case n == "heavy":
		v = 40
	}
	if p.T.IsFloat() {
		if p.T.Kind == cudac.Float32 {
			return float32(v)
		}
		return float64(v)
	}
	return v
}

// runKernels compiles src on a fresh device and launches each kernel
// (by its name in names) on a small grid with arguments by type and
// name, in the order of kernels.
func runKernels(t *testing.T, spec, file string, src []byte, kernels []string, names map[string]string) map[string]launchOutcome {
	t.Helper()
	dev, err := gpu.Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	mod, err := dev.Compile(filepath.Base(file), src)
	if err != nil {
		t.Fatalf("%s: %v\n%s", file, err, src)
	}
	out := map[string]launchOutcome{}
	for _, k := range kernels {
		kern, err := mod.Kernel(names[k])
		if err != nil {
			t.Fatalf("%s: kernel %s: %v", file, names[k], err)
		}
		var args []any
		var bufs []func() ([]byte, error)
		for i, p := range kern.Func().Params {
			if p.T.Kind != cudac.Pointer {
				args = append(args, argValue(p))
				continue
			}
			a, read, err := buffer(dev, p.T.Elem.Kind, 4096, i)
			if err != nil {
				t.Fatal(err)
			}
			args = append(args, a)
			bufs = append(bufs, read)
		}
		cfg := gpu.LaunchConfig{Grid: gpu.D1(8), Block: gpu.D1(128), SharedBytes: 4096, MaxInstructions: 1 << 24}
		var o launchOutcome
		res, err := kern.Launch(cfg, args...)
		if err != nil {
			// An error is a prediction too: it must not change with the
			// spelling (beyond the kernel's name in its text).
			o.Err = strings.ReplaceAll(err.Error(), names[k], k)
		} else {
			o.Timing, o.Counters = res.Timing, *res.Counters
			for _, read := range bufs {
				b, err := read()
				if err != nil {
					t.Fatal(err)
				}
				o.Outputs = append(o.Outputs, b)
			}
		}
		out[k] = o
	}
	return out
}

// buffer makes a device buffer of n elements of kind, filled with small
// values (valid indexes into the others), and a function that reads its
// bytes back.
func buffer(dev *gpu.Device, kind cudac.Kind, n, seed int) (any, func() ([]byte, error), error) {
	switch kind {
	case cudac.Float32:
		data := make([]float32, n)
		for i := range data {
			data[i] = float32((i+seed)%7) * 0.25
		}
		return uploadBytes(dev, data)
	case cudac.Float64:
		data := make([]float64, n)
		for i := range data {
			data[i] = float64((i+seed)%7) * 0.25
		}
		return uploadBytes(dev, data)
	case cudac.Int32:
		data := make([]int32, n)
		for i := range data {
			data[i] = int32((i + seed) % 16)
		}
		return uploadBytes(dev, data)
	case cudac.Uint64:
		return uploadBytes(dev, make([]uint64, n))
	case cudac.Int64:
		return uploadBytes(dev, make([]int64, n))
	default:
		data := make([]uint32, n)
		for i := range data {
			data[i] = uint32((i + seed) % 16)
		}
		return uploadBytes(dev, data)
	}
}

func uploadBytes[T gpu.Scalar](dev *gpu.Device, data []T) (any, func() ([]byte, error), error) {
	b, err := gpu.Upload(dev, data)
	if err != nil {
		return nil, nil, err
	}
	return b, func() ([]byte, error) {
		got, err := b.Download()
		return []byte(fmt.Sprint(got)), err
	}, nil
}

// TestNeutralEditsPredictTheSame is the neutral-edit test (see above), on
// the h200 and t4 profiles.
func TestNeutralEditsPredictTheSame(t *testing.T) {
	files := neutralEditFiles(t)
	swapped, launched, failed := 0, 0, 0
	for _, f := range files {
		prog, err := cudac.Compile(filepath.Base(f.path), f.src)
		if err != nil {
			t.Fatalf("%s: %v", f.path, err)
		}
		var kernels, params []string
		for _, k := range prog.KernelNames() {
			if base, _, ok := strings.Cut(k, "<"); ok {
				k = base + "<128>" // a template's instance at the launch's block size
			}
			kernels = append(kernels, k)
		}
		sort.Strings(kernels)
		for _, k := range kernels {
			fn, err := prog.Kernel(k)
			if err != nil {
				t.Fatalf("%s: %s: %v", f.path, k, err)
			}
			for _, p := range fn.Params {
				params = append(params, p.Name)
			}
		}
		for _, spec := range []string{"sim:h200?seed=3", "sim:t4?seed=3"} {
			want := runKernels(t, spec, f.path, f.src, kernels, same(kernels))
			for _, k := range kernels {
				if want[k].Err == "" {
					launched++
				} else {
					failed++
				}
			}
			for _, e := range neutralEdits {
				src, names := e.edit(string(f.src), kernels, params)
				if src == string(f.src) {
					continue // nothing to swap in this file
				}
				if e.name == "swap" && spec == "sim:h200?seed=3" {
					swapped++
				}
				got := runKernels(t, spec, f.path, []byte(src), kernels, names)
				for _, k := range kernels {
					if !reflect.DeepEqual(got[k], want[k]) {
						t.Errorf("%s %s on %s: edit %q changes the prediction:\nas written: %+v\nedited:     %+v", f.path, k, spec, e.name, want[k].Timing, got[k].Timing)
					}
				}
			}
		}
	}
	if swapped < 2 {
		t.Errorf("no file held a swap of independent statements")
	}
	if launched < 2*60 {
		t.Errorf("%d launches ran (%d failed on their small arguments): want every lab and course kernel on both profiles", launched, failed)
	}
	t.Logf("%d launches, %d refused their small arguments (compared as errors), %d files swapped", launched, failed, swapped)
}
