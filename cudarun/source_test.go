package cudarun

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
)

func TestNVRTCSourceKeepsLines(t *testing.T) {
	src := "#include <cstdint>\n#include \"common.cuh\"\n  # include <cstdio>\n#define LIMIT INT_MAX\n" +
		"__global__ void k(uint32_t* p, int64_t n) { p[0] = (uint32_t)(n + FLT_MAX + LIMIT); }\n"
	got, _, _ := nvrtcSource("k.cu", []byte(src), map[string]string{"INT_MAX": "7"})
	pre, body, ok := strings.Cut(got, "#line 1 \"k.cu\"\n")
	if !ok {
		t.Fatalf("no #line 1 directive in\n%s", got)
	}
	want := strings.Split(src, "\n")
	want[0], want[1], want[2] = "", "", ""
	if b := strings.Split(body, "\n"); !slices.Equal(b, want) {
		t.Errorf("body lines\n%q\nwant\n%q", b, want)
	}
	for _, w := range []string{"typedef unsigned int uint32_t;", "typedef long int64_t;", "#define FLT_MAX 3.40282347e+38f", "size_t;"} {
		if !strings.Contains(pre, w) {
			t.Errorf("prelude lacks %q:\n%s", w, pre)
		}
	}
	for _, no := range []string{"int8_t", "INT_MIN", "M_PI", "#define INT_MAX", "#define LIMIT"} {
		if strings.Contains(pre, no) {
			t.Errorf("prelude has %q, which the source does not use or defines itself:\n%s", no, pre)
		}
	}
}

func TestCompileOptions(t *testing.T) {
	got := compileOptions("sm_90", true, map[string]string{"B": "2", "A": "1"})
	want := []string{"--gpu-architecture=sm_90", "-default-device", "--std=c++17", "--fmad=false", "-DA=1", "-DB=2"}
	if !slices.Equal(got, want) {
		t.Errorf("options %q, want %q", got, want)
	}
	k1 := cacheKey("x", nil, got, []string{"k"}, "13.0")
	for _, k := range []string{
		cacheKey("y", nil, got, []string{"k"}, "13.0"),
		cacheKey("x", nil, got[:3], []string{"k"}, "13.0"),
		cacheKey("x", nil, got, []string{"k", "j"}, "13.0"),
		cacheKey("x", nil, got, []string{"k"}, "12.4"),
	} {
		if k == k1 {
			t.Errorf("two different compilations share the cache key %s", k)
		}
	}
}

func TestKernelNames(t *testing.T) {
	src := `
template <int N> __global__ void tmpl(int* p) { p[0] = N; }
__global__ void b(int* p) { p[0] = 1; }
__device__ int helper() { return 2; }
__global__ void a(int* p) { p[0] = helper(); }`
	prog, err := cudac.Compile("n.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := kernelNames(prog, "tmpl<4>", "a")
	if want := []string{"a", "b", "tmpl<4>"}; !slices.Equal(got, want) {
		t.Errorf("kernelNames = %q, want %q", got, want)
	}
}

// An NVRTC log as CUDA 12 and 13 write it.
const sampleLog = `sum.cu(3): warning #177-D: variable "unused" was declared but never referenced
      int unused;
          ^

Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"

sum.cu(4): error: identifier "totl" is undefined
      atomicAdd(totl, in[i]);
                ^

sum.cu(6): error: no instance of overloaded function "atomicAdd" matches the argument list
            argument types are: (long *, long)
   atomicAdd(p, 1L);
   ^

3 errors detected in the compilation of "sum.cu".
`

func TestParseLog(t *testing.T) {
	src := "__global__ void sum(const float* in, float* total, long* p) {\n    int i = threadIdx.x;\n    int unused;\n    atomicAdd(totl, in[i]);\n\tint x;\n   atomicAdd(p, 1L);\n}\n"
	list := parseLog("sum.cu", []byte(src), sampleLog)
	if len(list) != 2 {
		t.Fatalf("got %d errors, want 2:\n%v", len(list), list)
	}
	if got, want := list[0].Pos, (cudac.Pos{File: "sum.cu", Line: 4, Col: 15}); got != want {
		t.Errorf("first error at %v, want %v", got, want)
	}
	if list[0].Msg != `identifier "totl" is undefined` || list[0].Line != "    atomicAdd(totl, in[i]);" {
		t.Errorf("first error %q on line %q", list[0].Msg, list[0].Line)
	}
	if got, want := list[1].Pos, (cudac.Pos{File: "sum.cu", Line: 6, Col: 4}); got != want {
		t.Errorf("second error at %v, want %v", got, want)
	}
	if !strings.Contains(list[1].Msg, "argument types are: (long *, long)") {
		t.Errorf("second error lost its continuation line: %q", list[1].Msg)
	}
	if s := list.Error(); !strings.HasPrefix(s, "sum.cu:4:15: identifier \"totl\" is undefined\n") {
		t.Errorf("Error() = %q", s)
	}

	odd := parseLog("x.cu", nil, "nvrtc: error: invalid value for --gpu-architecture (-arch)\n")
	if len(odd) != 1 || !strings.Contains(odd[0].Msg, "invalid value for --gpu-architecture") {
		t.Errorf("an unrecognised log becomes %v", odd)
	}
}

func TestCaretColumn(t *testing.T) {
	for _, tc := range []struct {
		echo, caret, src string
		want             int
	}{
		{"      x = 1;", "      ^", "    x = 1;", 5},
		{"      x = 1;", "          ^", "    x = 1;", 9},
		{"  x = 1;", "      ^", "\tx = 1;", 6},
		{"  something else", "  ^", "x = 1;", 1},
		{"", "^", "", 1},
	} {
		if got := caretColumn(tc.echo, tc.caret, tc.src); got != tc.want {
			t.Errorf("caretColumn(%q, %q, %q) = %d, want %d", tc.echo, tc.caret, tc.src, got, tc.want)
		}
	}
}

func TestLaunchKind(t *testing.T) {
	for _, tc := range []struct {
		code     int
		trap     bool
		want     error
		isSticky bool
	}{
		{cudaErrorIllegalAddress, false, gpu.ErrIllegalAddress, true},
		{cudaErrorMisalignedAddress, false, gpu.ErrMisaligned, true},
		{cudaErrorOutOfResources, false, gpu.ErrOutOfResources, false},
		{cudaErrorInvalidValue, false, gpu.ErrInvalidConfig, false},
		{cudaErrorAssert, false, gpu.ErrTrap, true},
		{cudaErrorLaunchFailed, true, gpu.ErrTrap, true},
		{cudaErrorLaunchFailed, false, gpu.ErrLaunchFailed, true},
		{cudaErrorLaunchTimeout, false, gpu.ErrLaunchFailed, true},
		{cudaErrorIllegalInstruction, false, gpu.ErrLaunchFailed, true},
	} {
		if got := launchKind(tc.code, tc.trap); !errors.Is(got, tc.want) {
			t.Errorf("launchKind(%d, %v) = %v, want %v", tc.code, tc.trap, got, tc.want)
		}
		if sticky(tc.code) != tc.isSticky {
			t.Errorf("sticky(%d) = %v, want %v", tc.code, !tc.isSticky, tc.isSticky)
		}
	}
}

func TestNVRTCCandidates(t *testing.T) {
	t.Setenv(EnvNVRTC, "/opt/x/libnvrtc.so.13")
	if got := nvrtcCandidates(); !slices.Equal(got, []string{"/opt/x/libnvrtc.so.13"}) {
		t.Errorf("with %s set: %q", EnvNVRTC, got)
	}
	t.Setenv(EnvNVRTC, "")
	t.Setenv("CUDA_HOME", "/opt/cuda")
	got := nvrtcCandidates()
	if got[0] != "libnvrtc.so" || !slices.Contains(got, "/opt/cuda/lib64/libnvrtc.so.12") || !slices.Contains(got, "/usr/local/cuda/lib64/libnvrtc.so") {
		t.Errorf("candidates %q", got)
	}
	if i, j := slices.Index(got, "/opt/cuda/lib64/libnvrtc.so"), slices.Index(got, "/usr/local/cuda/lib64/libnvrtc.so"); i > j {
		t.Errorf("CUDA_HOME searched after /usr/local/cuda: %q", got)
	}
	if c := compareVersionedPath("/usr/local/cuda-12.10/lib64", "/usr/local/cuda-12.4/lib64"); c <= 0 {
		t.Errorf("cuda-12.10 sorts below cuda-12.4")
	}
}

func TestNVRTCSourceKeepsCooperativeGroups(t *testing.T) {
	src := "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n#include <cstdio>\n" +
		"namespace cg = cooperative_groups;\n__global__ void k(int* p) { cg::this_thread_block().sync(); }\n"
	got, _, _ := nvrtcSource("k.cu", []byte(src), nil)
	_, body, _ := strings.Cut(got, "#line 1 \"k.cu\"\n")
	lines := strings.Split(body, "\n")
	if lines[0] != "#include <cooperative_groups.h>" || lines[1] != "#include <cooperative_groups/reduce.h>" || lines[2] != "" {
		t.Errorf("include lines %q: want the cooperative groups headers kept and <cstdio> emptied", lines[:3])
	}
	stat := func(dir string) func(string) bool {
		return func(p string) bool { return p == dir+"/cooperative_groups.h" }
	}
	t.Setenv("CUDA_HOME", "/opt/cuda")
	t.Setenv("CUDA_PATH", "")
	if o := includeOptions(got, stat("/opt/cuda/include")); !slices.Equal(o, []string{"--include-path=/opt/cuda/include"}) {
		t.Errorf("include options %q, want $CUDA_HOME/include", o)
	}
	if o := includeOptions(got, stat("/usr/local/cuda/include")); !slices.Equal(o, []string{"--include-path=/usr/local/cuda/include"}) {
		t.Errorf("include options %q, want /usr/local/cuda/include", o)
	}
	cuda13 := func(p string) bool {
		return p == "/usr/local/cuda/include/cooperative_groups.h" || p == "/usr/local/cuda/include/cccl/cuda/std/type_traits"
	}
	if o := includeOptions(got, cuda13); !slices.Equal(o, []string{"--include-path=/usr/local/cuda/include", "--include-path=/usr/local/cuda/include/cccl"}) {
		t.Errorf("include options %q, want the include and cccl directories", o)
	}
	if o := includeOptions(got, stat("/nowhere")); o != nil {
		t.Errorf("include options %q with no headers anywhere, want none", o)
	}
	if o := includeOptions("__global__ void k() {}", stat("/usr/local/cuda/include")); o != nil {
		t.Errorf("include options %q for a source without cooperative groups, want none", o)
	}
}

func TestNVRTCSourceIncludes(t *testing.T) {
	files := map[string]string{
		"k/a.cuh":   "#pragma once\n#include \"b.cuh\"\n#include <vector>\nstd::vector<int> host;\n__device__ int a() { return B + (int)FLT_MAX; }\n",
		"k/b.cuh":   "#define B 2\n",
		"inc/c.cuh": "__device__ int c() { return 3; }\n",
	}
	read := func(p string) ([]byte, error) {
		if s, ok := files[filepath.ToSlash(p)]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	src := "#include \"a.cuh\"\n#include \"c.cuh\"\n#include \"cuda_runtime.h\"\n__global__ void k(int* p) { p[0] = a() + c(); }\n"
	prog, err := cudac.Compile("k/main.cu", []byte(src), cudac.ReadFile(read), cudac.IncludeDir("inc"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := programInput(prog, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(in.text, "#line 1 \"k/main.cu\"\n")
	if want := "#include \"a.cuh\"\n#include \"c.cuh\"\n\n__global__"; !strings.HasPrefix(body, want) {
		t.Errorf("body %q, want the resolved includes kept and cuda_runtime.h emptied", body)
	}
	var got []string
	for _, h := range in.headers {
		got = append(got, h.name+":"+h.text)
	}
	want := []string{
		"a.cuh:#line 1 \"k/a.cuh\"\n#pragma once\n#include \"b.cuh\"\n\n                      \n__device__ int a() { return B + (int)FLT_MAX; }\n",
		"b.cuh:#line 1 \"k/b.cuh\"\n#define B 2\n",
		"c.cuh:#line 1 \"inc/c.cuh\"\n__device__ int c() { return 3; }\n",
	}
	if !slices.Equal(got, want) {
		t.Errorf("headers\n%q\nwant\n%q", got, want)
	}
	if !strings.Contains(in.text, "#define FLT_MAX") {
		t.Errorf("prelude lacks FLT_MAX, which a header uses:\n%s", in.text)
	}
	if cacheKey(in.text, in.headers, nil, nil, "13") == cacheKey(in.text, in.headers[:2], nil, nil, "13") {
		t.Error("the cache key ignores the headers")
	}
	// An NVRTC error in a header comes back at the file cudac read.
	log := "k/a.cuh(5): error: identifier \"B\" is undefined\n  __device__ int a() { return B + (int)FLT_MAX; }\n                              ^\n"
	list := parseLog(in.file, in.src, log, in.includes...)
	if len(list) != 1 || list[0].Pos.String() != "k/a.cuh:5:29" || list[0].Line == "" {
		t.Errorf("log parsed as %v", list)
	}

	// One spelling for two files cannot be handed to NVRTC.
	_, _, err = nvrtcSource("m.cu", nil, nil, cudac.Include{Name: "x.h", Path: "a/x.h"}, cudac.Include{Name: "x.h", Path: "b/x.h"})
	if err == nil || !strings.Contains(err.Error(), "both included as \"x.h\"") {
		t.Errorf("spelling clash: %v", err)
	}
}

func TestNVRTCSourceKeepsCudaAtomic(t *testing.T) {
	src := "#include <cuda/atomic>\n#include <cuda/std/atomic>\n#include <atomic>\n__global__ void k(int* p) {}\n"
	got, _, _ := nvrtcSource("k.cu", []byte(src), nil)
	_, body, _ := strings.Cut(got, "#line 1 \"k.cu\"\n")
	lines := strings.Split(body, "\n")
	if lines[0] != "#include <cuda/atomic>" || lines[1] != "#include <cuda/std/atomic>" || lines[2] != "" {
		t.Errorf("include lines %q: want <cuda/atomic> kept and <atomic> emptied", lines[:3])
	}
	stat := func(p string) bool {
		return p == "/usr/local/cuda/include/cooperative_groups.h" || p == "/usr/local/cuda/include/cccl/cuda/std/type_traits"
	}
	t.Setenv("CUDA_HOME", "")
	t.Setenv("CUDA_PATH", "")
	opts := includeOptions(got, stat)
	if !slices.Equal(opts, []string{"--include-path=/usr/local/cuda/include", "--include-path=/usr/local/cuda/include/cccl"}) {
		t.Errorf("include options %q", opts)
	}
}
