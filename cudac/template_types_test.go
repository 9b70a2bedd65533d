package cudac

import (
	"strings"
	"testing"
)

func TestTypeTemplateNames(t *testing.T) {
	src := `template <class T, unsigned blockSize, bool flag = false>
__global__ void k(T* p) { if (flag) p[0] = (T)blockSize; }
struct Pair { int a, b; };
template <typename T> __device__ T twice(T x) { return x + x; }
template <typename T> __device__ T first(const T* p) { return p[0]; }
__global__ void user(float* f, double* d) { f[0] = twice(f[1]) + first(f); d[0] = twice<double>(1.5); }
`
	prog, err := Compile("t.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		{"k<float,256,true>", "k<float, 256, true>"},
		{"k< unsigned int , 64 >", "k<unsigned int, 64, false>"},
		{"k<long, 32, true>", "k<long, 32, true>"},
		{"k<double,2*64u,1>", "k<double, 128, true>"},
	} {
		fn, err := prog.Kernel(tc.name)
		if err != nil {
			t.Errorf("Kernel(%q): %v", tc.name, err)
			continue
		}
		if fn.Name != tc.want {
			t.Errorf("Kernel(%q).Name = %q, want %q", tc.name, fn.Name, tc.want)
		}
	}
	if _, err := prog.Kernel("k<3, 256>"); err == nil || !strings.Contains(err.Error(), "kernel name:1:3: template argument 1 of 'k' must be a type (for 'T')") {
		t.Errorf("Kernel(k<3, 256>) error %v", err)
	}
}

func TestTypeTemplateErrors(t *testing.T) {
	sm := "template <class T> struct SM {\n  __device__ operator T*() { extern __shared__ int s[]; return (T*)s; }\n};\n"
	tests := []struct{ name, src, want string }{
		{"struct template without arguments", sm + "__global__ void k() {\n  SM x;\n}",
			"t.cu:5:3: 'SM' is a struct template: give its arguments, as SM<...>"},
		{"temporary as a statement", sm + "__global__ void k() {\n  (void)SM<float>();\n}",
			"t.cu:5:9: a temporary 'SM<float>' is supported only converted by one of its conversion operators"},
		{"no matching conversion", sm + "__global__ void k() {\n  int* p = SM<float>();\n}",
			"t.cu:5:12: a temporary 'SM<float>' is supported only converted by one of its conversion operators (to 'int*' here)"},
		{"host conversion operator", "struct S {\n  operator int() { return 1; }\n};\n__global__ void k(int* p) { S s; p[0] = s; }",
			"t.cu:2:3: a conversion operator must be __device__"},
		{"deduce from a non-pointer", "template <class T> __device__ T f(T* p) { return *p; }\n__global__ void k(int* o) {\n  o[0] = f(3);\n}",
			"t.cu:3:12: cannot deduce 'T' of 'f' from an argument of type 'int'"},
		{"specialization after use", "template <class T> __device__ T f(T x) { return x; }\n__global__ void k(int* o) { o[0] = f(1); }\ntemplate <> __device__ int f<int>(int x) { return 2; }",
			"t.cu:3:28: explicit specialization of 'f<int>' after it has been instantiated"},
		{"integer for a type parameter", "template <class T> __device__ T f() { return 0; }\n__global__ void k(int* o) {\n  o[0] = f<4>();\n}",
			"t.cu:3:12: template argument 1 of 'f' must be a type (for 'T')"},
		{"operator overloading", "struct S {\n  __device__ S operator+(S o) { return o; }\n};",
			"t.cu:2:16: operator overloading is not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile("t.cu", []byte(tt.src))
			if err == nil {
				t.Fatalf("Compile succeeded, want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error:\n%v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}
