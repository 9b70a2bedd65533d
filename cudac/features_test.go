package cudac

import (
	"strings"
	"testing"
)

// TestFeatures compiles sources that use the rest of the subset and checks
// the last statement of the last function.
func TestFeatures(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"extern C", `extern "C" __global__ void k(int* o) { o[0] = 1; }`, `(= (index o 0:long long):int 1:int):int`},
		{"extern C block", "extern \"C\" {\n__device__ int f() { return 2; }\n__global__ void k(int* o) { o[0] = f(); }\n}", `(= (index o 0:long long):int (call f):int):int`},
		{"host device", `__host__ __device__ __forceinline__ int sq(int x) { return x * x; }
__global__ void __launch_bounds__(256, 2) k(int* o) { o[0] = sq(3); }`, `(= (index o 0:long long):int (call sq 3:int):int):int`},
		{"inline static device", `static inline __device__ float h(float x) { return x; } __global__ void k(float* o) { o[0] = h(1); }`, `(= (index o 0:long long):float (call h 1:float):float):float`},
		{"forward declaration", "__device__ float f(float);\n__global__ void k(float* o) { o[0] = f(2); }\n__device__ float f(float x) { return x * 2; }", `return (* x 2:float):float`},
		{"default argument", "__device__ int f(int a, int b = 7) { return a + b; }\n__global__ void k(int* o) { o[0] = f(1); }", `(= (index o 0:long long):int (call f 1:int 7:int):int):int`},
		{"functional casts", `__global__ void k(int n) { float(n) + size_t(n) + unsigned(n); }`, `(+ (+ (cast n):float (conv (cast n):size_t):float):float (conv (cast n):unsigned int):float):float`},
		{"NULL", `__global__ void k(float* p) { p == NULL; }`, `(== p nullptr:float*):bool`},
		{"true false", `__global__ void k(bool* b) { b[0] = true && !false; }`, `(= (index b 0:long long):bool true:bool):bool`},
		{"register", `__global__ void k() { register int r = 2; r; }`, `r`},
		{"unsigned alone", `__global__ void k() { unsigned u = 3; u; }`, `u`},
		{"long is 64-bit", `__global__ void k() { sizeof(long) + sizeof(unsigned long int) + sizeof(long long int); }`, `24:size_t`},
		{"signed char", `__global__ void k() { signed char c = -1; unsigned char u = 255; c + u; }`, `(+ (conv c):int (conv u):int):int`},
		{"short int", `__global__ void k() { short int s = 1; unsigned short int t = 2; s - t; }`, `(- (conv s):int (conv t):int):int`},
		{"volatile local", `__global__ void k() { volatile int v = 0; &v; }`, `(& v):volatile int*`},
		{"volatile shared", `__global__ void k() { volatile __shared__ float s[32]; s[0] = 1; }`, `(= (index (conv s):volatile float* 0:long long):float 1:float):float`},
		{"const volatile pointer", `__global__ void k(const volatile int* const p) { *p; }`, `(* p):int`},
		{"pointer to pointer", `__global__ void k(float** pp) { pp[1][2] = 0; }`, `(= (index (index pp 1:long long):float* 2:long long):float 0:float):float`},
		{"do while", `__global__ void k(int n) { do { n--; } while (n > 0); }`, "do\n  {\n    (post-- n):int\n  }\nwhile (> n 0:int):bool"},
		{"while", `__global__ void k(int n) { while (n) n >>= 1; }`, "while (conv n):bool\n  (>>= n 1:int)<int>:int"},
		{"for two vars", `__global__ void k() { for (int i = 0, j = 10; i < j; i++, j--) {} }`, "for { decl int i = 0:int decl int j = 10:int }; (< i j):bool; (, (post++ i):int (post-- j):int):int\n  {\n  }"},
		{"for empty", `__global__ void k() { for (;;) break; }`, "for ; ; \n  break"},
		{"switch", `__global__ void k(char c) { switch (c) { case 'a': case 2: c = 1; break; default: c = 0; } }`,
			"switch (conv c):int\n  case 97:\n  case 2:\n    (= c 1:char):char\n    break\n  default:\n    (= c 0:char):char"},
		{"switch unsigned", `__global__ void k(unsigned u) { switch (u) { case -1: break; } }`, "switch u\n  case 4294967295:\n    break"},
		{"empty statement", `__global__ void k() { ; }`, ";"},
		{"if else", `__global__ void k(int x) { if (x) x = 1; else if (x > 2) x = 2; else {} }`,
			"if (conv x):bool\n  (= x 1:int):int\nelse\n  if (> x 2:int):bool\n    (= x 2:int):int\n  else\n    {\n    }"},
		{"nested scopes shadow", `__global__ void k() { int x = 1; { float x = 2; x; } }`, "{\n  decl float x = 2:float\n  x\n}"},
		{"local struct", `__global__ void k() { struct P { int a, b; }; P p = {1, 2}; p.b; }`, `(. p b):int`},
		{"local typedef", `__global__ void k() { typedef float T; T x = 1; }`, `decl float x = 1:float`},
		{"enum", `enum Color { Red, Green = 5, Blue };
__global__ void k(int* o) { Color c = Blue; o[0] = c + Red; }`, `(= (index o 0:long long):int (+ c 0:int):int):int`},
		{"enum class", `enum class Op : unsigned char { Add = 1, Mul };
__global__ void k(int* o) { o[0] = (int)Op::Mul; }`, `(= (index o 0:long long):int 2:int):int`},
		{"sizeof ratio", `__global__ void k() { float a[12]; sizeof(a) / sizeof(a[0]); }`, `12:size_t`},
		{"const local sizes array", `__global__ void k() { const int n = 4; float a[n][n * 2]; sizeof a; }`, `128:size_t`},
		{"constexpr global", "constexpr int kWarps = 256 / 32;\n__global__ void k() { __shared__ float s[kWarps]; s; }", `(conv s):float*`},
		{"static const global", "static const unsigned kMask = 0xffffffffu;\n__global__ void k(unsigned v) { v & kMask; }", `(& v 4294967295:unsigned int):unsigned int`},
		{"macro constants", "#define WARPS_PER_BLOCK 8\n__global__ void k() { __shared__ float w[WARPS_PER_BLOCK]; sizeof w; }", `32:size_t`},
		{"ternary void", "__device__ void f() {}\n__device__ void g() {}\n__global__ void k(int c) { c ? f() : g(); }", `(? (conv c):bool (call f):void (call g):void):void`},
		{"return void call", "__device__ void f() {}\n__device__ void g() { return f(); }", `return`},
		{"int to bool", `__global__ void k(float* p) { bool b = p; }`, `decl bool b = (conv p):bool`},
		{"recursion-free chain", "__device__ int a(int x) { return x; }\n__device__ int b(int x) { return a(x) + a(x); }\n__global__ void k(int* o) { o[0] = b(1); }", `(= (index o 0:long long):int (call b 1:int):int):int`},
		{"syncthreads in device fn", "__device__ void bar() { __syncthreads(); }", `(__syncthreads):void`},
		{"shared in device fn", "__device__ float f() { __shared__ float s[4]; return s[0]; }", `return (index (conv s):float* 0:long long):float`},
		{"auto", `__global__ void k(const float* p) { auto q = p + 1; q; }`, `q`},
		{"if constexpr", "template <int N> __device__ int f() { if constexpr (N > 2) return 1; else return 2; }\n__global__ void k(int* o) { o[0] = f<3>(); }", `(= (index o 0:long long):int (call f<3>):int):int`},
		{"global scope qualifier", `__global__ void k(int a, int b) { ::min(a, b); }`, `(min<int> a b):int`},
		{"writes to constant memory", "__constant__ float c[2];\n__global__ void k(float* o) { o[0] = c[1]; }", `(= (index o 0:long long):float (index (conv c):const float* 1:long long):float):float`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lastStmt(t, tt.src); got != tt.want {
				t.Errorf("%s\n got:\n%s\nwant:\n%s", tt.src, got, tt.want)
			}
		})
	}
}

func TestFeatureErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"write constant memory", "__constant__ float c[2];\n__global__ void k() { c[0] = 1; }", "cannot assign to an object through a pointer to const"},
		{"write constant scalar", "__constant__ float c;\n__global__ void k() { c = 1; }", "cannot assign to __constant__ variable 'c' in device code"},
		{"enum class scope", "enum class E { A };\n__global__ void k() { E::B; }", "no enumerator 'B' in enum 'E'"},
		{"operator overloading", "struct S { int a; };\n__device__ S operator+(S a, S b) { return a; }", "operator overloading is not supported"},
		{"static local", "__global__ void k() { static int calls = 0; }", "static local variables are not supported"},
		{"local device var", "__global__ void k() { __device__ int x; }", "__device__ variables must be declared at file scope"},
		{"const without init", "__global__ void k() { const int x; }", "const variable 'x' needs an initializer"},
		{"auto without init", "__global__ void k() { auto x; }", "'auto' variable 'x' needs an initializer"},
		{"template without args", "template <int N> __device__ int f() { return N; }\n__global__ void k(int* o) { o[0] = f(); }", "template arguments for 'f' must be given explicitly, as f<...>"},
		{"call non-function", "__global__ void k(int x) { x(3); }", "called object type 'int' is not a function"},
		{"too many initializer braces", "__global__ void k() { int x = {{1}}; }", "too many braces around a scalar initializer"},
		{"struct excess", "struct S { int a; };\n__global__ void k() { S s = {1, 2}; }", "excess elements in initializer"},
		{"incomplete struct", "struct T;\n__global__ void k(T* t) { t->x; }", "member access into incomplete type 'T'"},
		{"multiple defaults", "__global__ void k(int x) { switch (x) { default: break; default: break; } }", "multiple default labels in one switch"},
		{"before first case", "__global__ void k(int x) { switch (x) { x = 1; case 1: break; } }", "statements before the first case label of a switch are not supported"},
		{"non-const case", "__global__ void k(int x, int y) { switch (x) { case y: break; } }", "case value is not an integer constant expression"},
		{"shadowed builtin", "__global__ void k() { int threadIdx = 0; threadIdx.x; }", "member reference base type 'int' is not a struct"},
		{"signed unsigned", "__global__ void k() { signed unsigned x; }", "invalid combination of type specifiers"},
		{"float int", "__global__ void k() { float int x; }", "invalid combination of type specifiers"},
		{"bitfield", "struct S { int a : 3; };", "bit-fields are not supported"},
		{"union", "union U { int a; float b; };", "unions are not supported"},
		{"asm", "__global__ void k() { asm(\"mov.u32 %0, %%laneid;\"); }", "inline assembly is not supported"},
		{"void variable", "__global__ void k() { void v; }", "variable 'v' cannot have type void"},
		{"void param", "__global__ void k(void v) {}", "parameter 'v' cannot have type void"},
		{"unsigned float", "__global__ void k() { unsigned float x; }", "invalid combination of type specifiers"},
		{"long long long", "__global__ void k() { long long long x; }", "invalid combination of type specifiers"},
		{"wide printf %ld int", "__global__ void k(int x) { printf(\"%ld\\n\", x); }", "format '%ld' expects a 64-bit integer argument, but argument 2 has type 'int'"},
		{"printf %s int", "__global__ void k(int x) { printf(\"%s\\n\", x); }", "format '%s' expects an argument of type 'char*', but argument 2 has type 'int'"},
		{"printf %f int", "__global__ void k(int x) { printf(\"%.3f\\n\", x); }", "format '%.3f' expects an argument of type 'double', but argument 2 has type 'int'"},
		{"printf star", "__global__ void k(int w, float f) { printf(\"%*.*f\\n\", w, f); }", "field width '*' in format '%*.*f' expects an 'int', but argument 3 has type 'double'"},
		{"printf string for %d", "__global__ void k() { printf(\"%d\\n\", \"x\"); }", "a string literal argument needs a plain %s conversion, not '%d'"},
		{"printf string extra", "__global__ void k() { printf(\"hi\\n\", \"x\"); }", "too many arguments for format"},
		{"printf struct", "struct S { int a; };\n__global__ void k(S s) { printf(\"%d\\n\", s); }", "cannot pass a value of type 'S' to printf"},
		{"shfl pointer", "__global__ void k(float* p) { __shfl_sync(~0u, p, 0); }", "no '__shfl_sync' overload for a value of type 'float*'"},
		{"atomicInc int", "__global__ void k(int* p) { atomicInc(p, 3); }", "no 'atomicInc' overload for 'int*' (it takes unsigned int*)"},
		{"atomicSub float", "__global__ void k(float* p) { atomicSub(p, 1.0f); }", "no 'atomicSub' overload for 'float*'"},
		{"atomic volatile", "__global__ void k(volatile int* p) { atomicAdd(p, 1); }", "no 'atomicAdd' overload for a pointer to volatile"},
		{"math of pointer", "__global__ void k(float* p) { sqrt(p); }", "argument 1 of 'sqrt' must be a number, not 'float*'"},
		{"sqrtf of pointer", "__global__ void k(float* p) { sqrtf(p); }", "cannot convert 'float*' to 'float' in argument 1 of 'sqrtf'"},
		{"match_all pred type", "__global__ void k(float* p) { __match_all_sync(~0u, 1, p); }", "cannot convert 'float*' to 'int*' in argument 3 of '__match_all_sync'"},
		{"syncwarp too many", "__global__ void k() { __syncwarp(1, 2); }", "too many arguments to '__syncwarp' (want at most 1, have 2)"},
		{"shfl too few", "__global__ void k(int v) { __shfl_sync(~0u, v); }", "too few arguments to '__shfl_sync' (want at least 3, have 2)"},
		{"template param float", "template <float F> __global__ void k() {}", "template parameter 'F' must have an integer type, not 'float'"},
		{"template specialization", "template <> __global__ void k<1>() {}", "f.cu:1:29: explicit specialization of 'k', which is not a function template"},
		{"kernel template call", "template <int N> __global__ void k() {}\n__device__ void f() { k<1>(); }", "cannot call __global__ function 'k' from device code"},
		{"assert", "__global__ void k(int x) { assert(x > 0); }", "assert is not supported (use: if (!(cond)) __trap();)"},
		{"pointer relational mixed", "__global__ void k(float* p, int* q) { p < q; }", "comparison of distinct pointer types ('float*' and 'int*')"},
		{"ternary mismatch", "__global__ void k(int c, float* p, int* q) { c ? p : q; }", "incompatible operand types ('float*' and 'int*')"},
		{"unary minus pointer", "__global__ void k(float* p) { -p; }", "invalid argument type 'float*' to unary '-'"},
		{"bitnot float", "__global__ void k(float f) { ~f; }", "invalid argument type 'float' to unary '~'"},
		{"shift negative", "__global__ void k(int x) { x << -1; }", "shift count is negative"},
		{"compound on pointer", "__global__ void k(float* p) { p *= 2; }", "invalid operands to '*=' ('float*' and 'int')"},
		{"address of builtin", "__global__ void k() { &threadIdx.x; }", "cannot take the address of threadIdx.x"},
		{"assign builtin", "__global__ void k() { threadIdx.x = 0; }", "cannot assign to threadIdx.x"},
		{"sizeof void", "__global__ void k() { sizeof(void); }", "invalid application of 'sizeof' to an incomplete type 'void'"},
		{"alignas bad", "struct alignas(3) S { int a; };", "requested alignment 3 is not a positive power of 2"},
		{"kernel name clash", "__device__ int counter;\n__global__ void counter() {}", "redefinition of 'counter' as a function"},
		{"empty struct array", "struct E {};\n__device__ E a[1000000000] = {1};", "excess elements in initializer"},
		{"kernel never defined", "__global__ void k(int* p);", "kernel 'k' is declared but never defined"},
		{"kernel template never defined", "template <int N> __global__ void k(int* p);", "kernel template 'k' is declared but never defined"},
		{"local too big", "__global__ void k() { float a[1 << 30]; }", "local variable 'a' takes 4294967296 bytes; a thread has at most 512 KiB of local memory"},
		{"too many errors stop", strings.Repeat("__global__ void k() { x; }\n", 20), "undeclared identifier 'x'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile("f.cu", []byte(tt.src))
			if err == nil {
				t.Fatalf("Compile(%q) succeeded, want error containing %q", tt.src, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Compile(%q) error:\n%v\nwant it to contain %q", tt.src, err, tt.want)
			}
			if list, ok := err.(ErrorList); !ok || len(list) > maxErrors {
				t.Errorf("error %T with %d entries", err, len(list))
			}
		})
	}
}

func TestParamQualifiers(t *testing.T) {
	src := `typedef const int cint;
template <int N> __device__ int f() { return N; }
__global__ void k(cint a, const float b[], float* const c, volatile int v, int f) {
    f < 3;
}`
	p, err := Compile("q.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k := p.Func("k")
	want := []bool{true, false, true, false, false}
	for i, w := range want {
		if got := k.Params[i].Const; got != w {
			t.Errorf("param %s: Const = %v, want %v", k.Params[i].Name, got, w)
		}
	}
	if got, want := Dump(k.Body.Stmts[0]), "(< f 3:int):bool"; got != want {
		t.Errorf("shadowed template name: got %s, want %s", got, want)
	}
	_, err = Compile("q.cu", []byte("typedef const int cint;\n__global__ void k(cint a) { a = 1; }"))
	if err == nil || !strings.Contains(err.Error(), "cannot assign to 'a': it is const") {
		t.Errorf("assigning a const typedef parameter: %v", err)
	}
}
