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
