package cudac

import (
	"fmt"
	"strings"
	"testing"
)

func TestStructLayout(t *testing.T) {
	src := `
struct alignas(128) PaddedCount { unsigned long long v; };
struct Mixed { char a; int b; double c; char d; };
struct Nested { char tag; Mixed m[2]; short s; };
struct Aligned { char a; alignas(16) float b; char c; };
typedef struct { float x, y, z; } Vec3;
struct __align__(8) Pair { int a, b; };
struct Node { int value; struct Node* next; };
using V = Vec3;
__global__ void k(PaddedCount* p, Mixed* m, Nested* n, Aligned* a, Vec3* v, Pair* q, Node* nd, V* w) {}
`
	p, err := Compile("s.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k := p.Func("k")
	tests := []struct {
		param int
		want  string // name size align and field offsets
	}{
		{0, "PaddedCount 128 128 v@0"},
		{1, "Mixed 24 8 a@0 b@4 c@8 d@16"},
		{2, "Nested 64 8 tag@0 m@8 s@56"},
		{3, "Aligned 32 16 a@0 b@16 c@20"},
		{4, "Vec3 12 4 x@0 y@4 z@8"},
		{5, "Pair 8 8 a@0 b@4"},
		{6, "Node 16 8 value@0 next@8"},
		{7, "Vec3 12 4 x@0 y@4 z@8"},
	}
	for _, tt := range tests {
		st := k.Params[tt.param].T.Elem.Struct
		got := fmt.Sprintf("%s %d %d", st.Name, st.Size, st.Align)
		for _, f := range st.Fields {
			got += fmt.Sprintf(" %s@%d", f.Name, f.Offset)
		}
		if got != tt.want {
			t.Errorf("param %d: got %q, want %q", tt.param, got, tt.want)
		}
	}
	if got := k.Params[6].T.Elem.Struct.Fields[1].Type.Elem.Struct; got != k.Params[6].T.Elem.Struct {
		t.Errorf("Node.next does not point to Node")
	}
}

func TestStructUse(t *testing.T) {
	src := `
struct alignas(128) PaddedCount { unsigned long long v; };
struct S { int a; float b[4]; };
__global__ void k(PaddedCount* slices, int nslices, S* ps) {
    S s = {1, {2, 3}};
    S t = s;
    s.b[2] = 1;
    ps->b[0] += s.a;
    int* pa = &s.a;
    unsigned long long* p = &slices[blockIdx.x % nslices].v;
    static_assert(sizeof(PaddedCount) == 128, "padding");
    static_assert(alignof(S) == 4);
    t = s;
}
`
	p, err := Compile("s.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k := p.Func("k")
	var lines []string
	for _, s := range k.Body.Stmts {
		lines = append(lines, Dump(s))
	}
	want := []string{
		"decl S s = {1:int, 2:float, 3:float}",
		"decl S t = s",
		"(= (index (conv (. s b):float[4]):float* 2:long long):float 1:float):float",
		"(+= (index (conv (. (* ps):S b):float[4]):float* 0:long long):float (conv (. s a):int):float)<float>:float",
		"decl int* pa = (& (. s a):int):int*",
		"decl unsigned long long* p = (& (. (index slices (conv (% blockIdx.x (conv nslices):unsigned int):unsigned int):long long):PaddedCount v):unsigned long long):unsigned long long*",
		"(= t s):S",
	}
	if got := strings.Join(lines, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	if v := k.Body.Stmts[0].(*DeclStmt).Var; !v.AddrTaken {
		t.Errorf("s.AddrTaken = false after &s.a")
	}
	if v := k.Body.Stmts[1].(*DeclStmt).Var; v.AddrTaken {
		t.Errorf("t.AddrTaken = true")
	}
}

func TestAddrTaken(t *testing.T) {
	src := `__global__ void k(int n, int m) {
    int a = 0, b = 0, c[4], d[4], e = 0;
    int* p = &a;
    b++;
    int* q = &c[1];
    d[2] = 3;
    int* r = &n;
    atomicAdd(&e, 1);
}`
	p, err := Compile("a.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k := p.Func("k")
	got := map[string]bool{}
	for _, s := range k.Body.Stmts {
		if d, ok := s.(*DeclStmt); ok {
			got[d.Var.Name] = d.Var.AddrTaken
		}
	}
	got["n"], got["m"] = k.Params[0].AddrTaken, k.Params[1].AddrTaken
	want := map[string]bool{"a": true, "b": false, "c": true, "d": false, "e": true, "n": true, "m": false, "p": false, "q": false, "r": false}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s.AddrTaken = %v, want %v", name, got[name], w)
		}
	}
}

func TestGlobals(t *testing.T) {
	src := `
__device__ int counter;
__device__ unsigned long long total = 5;
__constant__ float coeffs[4] = {1.0f, 2, 0.5};
__constant__ int grid[2][2] = {{1, 2}, {3}};
__device__ const int limit = 7;
static constexpr int kN = 3;
const float kScale = 0.5f;
enum Mode { Sum, Max = 4, Min };
__global__ void k(float* out) {
    out[0] = coeffs[kN] * kScale + Min;
    atomicAdd(&counter, 1);
}
`
	p, err := Compile("g.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range p.Globals {
		s := fmt.Sprintf("%s %s %s const=%v init=", v.Space, v.T, v.Name, v.Const)
		for _, k := range v.Init {
			s += Dump(k) + ","
		}
		got = append(got, s)
	}
	want := []string{
		"global int counter const=false init=",
		"global unsigned long long total const=false init=5:unsigned long long,",
		"constant float[4] coeffs const=false init=1:float,2:float,0.5:float,",
		"constant int[2][2] grid const=false init=1:int,2:int,3:int,",
		"global int limit const=true init=7:int,",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("globals:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	k := p.Func("k")
	if got, want := Dump(k.Body.Stmts[0]), "(= (index out 0:long long):float (+ (* (index (conv coeffs):const float* 3:long long):float 0.5:float):float 5:float):float):float"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
