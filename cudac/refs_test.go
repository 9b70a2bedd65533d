package cudac

import (
	"strings"
	"testing"
)

func TestReferenceErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"bind to an rvalue", "__device__ void inc(int& x) { x++; }\n__global__ void k(int* p) {\n  inc(p[0] + 1);\n}",
			"r.cu:3:12: cannot bind the reference of argument 1 of 'inc' ('int&') to a value that is not a variable or an object in memory"},
		{"bind to another type", "__device__ void inc(int& x) { x++; }\n__global__ void k(float* p) {\n  inc(p[0]);\n}",
			"r.cu:3:8: cannot bind the reference of argument 1 of 'inc' ('int&') to an object of type 'float'"},
		{"bind to const", "__device__ void inc(int& x) { x++; }\n__global__ void k(const int* p) {\n  inc(p[0]);\n}",
			"r.cu:3:8: cannot bind a non-const reference to an object through a pointer to const"},
		{"local without initializer", "__global__ void k() {\n  int& r;\n}",
			"r.cu:2:8: reference 'r' needs an initializer"},
		{"rvalue reference", "__device__ void f(int&& x) {}",
			"r.cu:1:22: rvalue references are not supported"},
		{"write through const reference", "__device__ void f(const int& x) {\n  x = 1;\n}",
			"r.cu:2:5: cannot assign to 'x': it is const"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile("r.cu", []byte(tt.src))
			if err == nil {
				t.Fatalf("Compile succeeded, want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error:\n%v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func TestVectorTypes(t *testing.T) {
	src := `__global__ void k(float4* p, uchar4* q, double2* d) {
    float4 v = p[0];
    p[1] = make_float4(v.w, v.z, v.y, v.x);
    q[0] = make_uchar4(1, 2, 3, 4);
    d[0] = make_double2(1.0, 2.0);
}`
	prog, err := Compile("v.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][2]int64{"float4": {16, 16}, "float3": {12, 4}, "int2": {8, 8}, "uint4": {16, 16},
		"uchar4": {4, 4}, "double2": {16, 16}, "short4": {8, 8}} {
		if ty := vectorTypes[name]; ty.Size() != want[0] || ty.Align() != want[1] {
			t.Errorf("%s: size %d align %d, want %v", name, ty.Size(), ty.Align(), want)
		}
	}
	_ = prog
	for _, tt := range []struct{ src, want string }{
		{"__global__ void k(float2* p) {\n  p[0].w = 1;\n}", "v.cu:2:8: no member named 'w' in 'float2'"},
		{"__global__ void k(float4* p) {\n  p[0] = make_float4(1, 2, 3);\n}", "v.cu:2:10: 'make_float4' takes 4 arguments, not 3"},
		{"__global__ void k(float4* p) {\n  p[0] = make_int4(1, 2, 3, 4);\n}", "v.cu:2:10: cannot convert 'int4' to 'float4'"},
		{"__global__ void k(int* p) {\n  make_float4(1, 2, 3, 4).x = 1;\n}", "v.cu:2:29: cannot assign to this expression"},
		{"__global__ void k(int* p) {\n  int2 a, b;\n  p[0] = (p[1] ? a : b).x;\n}", "member access on a struct value that is not a variable or a call's result is not supported"},
	} {
		_, err := Compile("v.cu", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Compile(%q): %v, want %q", tt.src, err, tt.want)
		}
	}
}
