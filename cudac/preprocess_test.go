package cudac

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestPreprocessor(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // the last statement of the last function, or the error
	}{
		{"object macro", "#define N 256\n__global__ void k() { N / 2; }", "128:int"},
		{"nested macros", "#define A B + 1\n#define B 2 * C\n#define C 3\n__global__ void k() { A; }", "7:int"},
		{"self reference", "#define N N\n__global__ void k() { int N = 2; N; }", "N"},
		{"mutual reference", "#define P Q\n#define Q P\n__global__ void k(int P) { P; }", "P"},
		{"skipped text is free", "#if 0\n don't \"care\n#endif\n#error don't\n", "e.cu:4:1: #error don't\n    #error don't\n    ^"},
		{"undef", "#define N 1\n#undef N\n#define N 2\n__global__ void k() { N; }", "2:int"},
		{"identical redefinition", "#define N 1\n#define N 1\n__global__ void k() { N; }", "1:int"},
		{"ifdef", "#define FAST\n#ifdef FAST\n__global__ void k() { 1; }\n#else\n__global__ void k() { 2; }\n#endif", "1:int"},
		{"ifndef", "#ifndef FAST\n__global__ void k() { 1; }\n#else\n__global__ void k() { 2; }\n#endif", "1:int"},
		{"if 0", "#if 0\n this is not C at all @ $\n#endif\n__global__ void k() { 3; }", "3:int"},
		{"elif", "#define V 2\n#if V == 1\n__global__ void k() { 1; }\n#elif V == 2\n__global__ void k() { 2; }\n#else\n__global__ void k() { 3; }\n#endif", "2:int"},
		{"defined()", "#define A\n#if defined(A) && !defined B\n__global__ void k() { 1; }\n#endif", "1:int"},
		{"if arithmetic", "#define BLOCK 256\n#if (BLOCK % 32) == 0 && BLOCK / 32 <= 32\n__global__ void k() { 1; }\n#endif", "1:int"},
		{"nested if in skipped region", "#if 0\n#if 1\n#error no\n#endif\n#endif\n__global__ void k() { 1; }", "1:int"},
		{"cuda arch", "#if __CUDA_ARCH__ >= 700\n__global__ void k() { 1; }\n#endif", "1:int"},
		{"include and pragmas", "#include <cstdio>\n#include \"cuda_runtime.h\"\n#pragma once\n__global__ void k(float* a) {\n#pragma unroll\n  for (int i = 0; i < 4; i++) a[i] = 0;\n  #pragma unroll 4\n  1;\n}", "1:int"},
		{"comments", "/* a\n * block */ __global__ void k() { // line\n  2 /* inner */ + /**/ 3; }", "5:int"},
		{"line splice", "#define LONG 1 + \\\n  2\n__global__ void k() { LONG; }", "3:int"},
		{"__LINE__ in a macro", "#define HERE __LINE__\n__global__ void k() {\n  HERE;\n}", "3:int"},
		{"digit separators", "__global__ void k() { 1'000'000; }", "1000000:int"},
		{"__VA_OPT__ with arguments", "#define P(f, ...) printf(f __VA_OPT__(,) __VA_ARGS__)\n__global__ void k(int n) { P(\"%d\", n); }", "(printf \"%d\" n):int"},
		{"__VA_OPT__ without arguments", "#define P(f, ...) printf(f __VA_OPT__(,) __VA_ARGS__)\n__global__ void k(int n) { P(\"x\"); }", "(printf \"x\"):int"},
		{"__VA_OPT__ in a macro that is not variadic", "#define P(f) f __VA_OPT__(+1)\n__global__ void k() { P(1); }",
			"e.cu:1:16: __VA_OPT__ can only appear in a variadic macro ('P' is not)\n    #define P(f) f __VA_OPT__(+1)\n                   ^"},
		{"printf stops at NUL", "__global__ void k(int n) { printf(\"a%d\\0b%d\", n); }", "(printf \"a%d\" n):int"},
		{"printf %s literal stops at NUL", "__global__ void k() { printf(\"[%s]\", \"x\\0y\"); }", "(printf \"[x]\"):int"},
		{"pragma unroll template parameter", "template <int N> __global__ void k(float *a) {\n#pragma unroll N\n  for (int i = 0; i < N; i++) a[i] = 0;\n 1; }\ntemplate __global__ void k<4>(float *);\n__global__ void z() { 1; }", "1:int"},
		{"string concatenation", "__global__ void k() { printf(\"a\" \"b\\n\"); }", "(printf \"ab\\n\"):int"},

		// Positions survive expansion: an error in a macro body is reported at the use.
		{"error at use site", "#define BAD tidd\n__global__ void k(int n) {\n  if (BAD < n) {}\n}",
			"e.cu:3:7: undeclared identifier 'tidd'\n      if (BAD < n) {}\n          ^"},
		{"expansion type error", "#define PTR (float*)0\n__global__ void k() {\n  int x = 1 +\n    PTR * 2;\n}",
			"e.cu:4:9: invalid operands to binary '*' ('float*' and 'int')\n        PTR * 2;\n            ^"},
		{"function-like arity", "#define F(x) x\n__global__ void k(int* p) {\n  p[0] = F(1, 2);\n}", "e.cu:3:10: macro 'F' takes 1 argument, not 2\n      p[0] = F(1, 2);\n             ^"},
		{"function-like unterminated", "#define F(x) x\n__global__ void k(int* p) {\n  p[0] = F(1;\n}", "e.cu:3:10: unterminated argument list invoking macro 'F'\n      p[0] = F(1;\n             ^"},
		{"hash without parameter", "#define F(x) #y\n", "e.cu:1:14: '#' in macro 'F' is not followed by a parameter\n    #define F(x) #y\n                 ^"},
		{"redefined", "#define N 1\n#define N 2\n", "e.cu:2:9: macro 'N' redefined with a different value\n    #define N 2\n            ^"},
		{"unknown directive", "#frobnicate\n", "e.cu:1:2: unknown preprocessing directive '#frobnicate'\n    #frobnicate\n     ^"},
		{"endif without if", "#endif\n", "e.cu:1:2: #endif without #if\n    #endif\n     ^"},
		{"if division by zero", "#if 1 / 0\n#endif\n", "e.cu:1:7: division by zero in #if expression\n    #if 1 / 0\n          ^"},
		{"stray hash", "__global__ void k() { # }", "e.cu:1:23: expected an expression, found '#'\n    __global__ void k() { # }\n                          ^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compile("e.cu", []byte(tt.src))
			var got string
			if err != nil {
				got = err.Error()
			} else {
				f := p.Funcs[len(p.Funcs)-1]
				got = Dump(f.Body.Stmts[len(f.Body.Stmts)-1])
			}
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestMacroBomb(t *testing.T) {
	// Each level doubles the expansion: 2^40 tokens unless bounded.
	var b strings.Builder
	b.WriteString("#define M0 1\n")
	for i := 1; i <= 40; i++ {
		b.WriteString("#define M" + strconv.Itoa(i) + " M" + strconv.Itoa(i-1) + " + M" + strconv.Itoa(i-1) + "\n")
	}
	b.WriteString("__global__ void k() { M40; }\n")
	_, err := Compile("bomb.cu", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "macro expansion is too large") {
		t.Errorf("err = %v, want a macro expansion error", err)
	}
}

func TestPositions(t *testing.T) {
	src := "__global__ void k(float* out, int n) {\n\tint i = threadIdx.x;\n\tif (i < n) out[i] = 2.0f * i;\n}\n"
	p, err := Compile("pos.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k := p.Func("k")
	if got, want := k.P, (Pos{"pos.cu", 1, 17}); got != want {
		t.Errorf("func pos = %v, want %v", got, want)
	}
	if got, want := k.Params[1].P, (Pos{"pos.cu", 1, 35}); got != want {
		t.Errorf("param n pos = %v, want %v", got, want)
	}
	decl := k.Body.Stmts[0].(*DeclStmt)
	if got, want := decl.P, (Pos{"pos.cu", 2, 6}); got != want {
		t.Errorf("decl pos = %v, want %v", got, want)
	}
	ifs := k.Body.Stmts[1].(*If)
	if got, want := ifs.P, (Pos{"pos.cu", 3, 2}); got != want {
		t.Errorf("if pos = %v, want %v", got, want)
	}
	asg := ifs.Then.(*ExprStmt)
	if got, want := asg.P, (Pos{"pos.cu", 3, 13}); got != want {
		t.Errorf("statement pos = %v, want %v", got, want)
	}
	if got, want := asg.X.Pos(), (Pos{"pos.cu", 3, 20}); got != want {
		t.Errorf("assignment pos = %v, want %v", got, want)
	}
	mul := asg.X.(*Assign).RHS.(*Binary)
	if got, want := mul.P, (Pos{"pos.cu", 3, 27}); got != want {
		t.Errorf("'*' pos = %v, want %v", got, want)
	}
}

func TestPathologicalInputs(t *testing.T) {
	long := func(n int, s string) string { return strings.Repeat(s, n) }
	var chain strings.Builder
	for i := 0; i < 2000; i++ {
		chain.WriteString("#define C" + strconv.Itoa(i) + " C" + strconv.Itoa(i+1) + "\n")
	}
	chain.WriteString("__global__ void k() { int C2000 = 0; C0; }\n")
	tests := []struct{ name, src, want string }{
		{"long sum", "__global__ void k(int a) { a" + long(5000, " + a") + "; }", "expression is too long"},
		{"long index chain", "__global__ void k(int* a) { a" + long(5000, "[0]") + "; }", "expression is too long"},
		{"deep parens", "__global__ void k(int a) { " + long(1000, "(") + "a" + long(1000, ")") + "; }", "nesting is too deep"},
		{"deep unary", "__global__ void k(int a) { " + long(1000, "-") + "a; }", "nesting is too deep"},
		{"deep blocks", "__global__ void k() { " + long(1000, "{") + long(1000, "}") + " }", "nesting is too deep"},
		{"many stars", "__global__ void k(int" + long(1000, "*") + " p) {}", "too many levels of pointers"},
		{"macro chain", chain.String(), "macro expansion is nested too deeply"},
		{"deep #if", long(300, "#if 1 + "+long(20, "(")+"1"+long(20, ")")+"\n") + long(300, "#endif\n"), ""},
		{"too deep #if expression", "#if " + long(500, "(") + "1" + long(500, ")") + "\n#endif\n", "#if expression nested too deeply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile("p.cu", []byte(tt.src))
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestFunctionLikeMacros checks expansions against what the C preprocessor
// gives, through the values they compute.
func TestFunctionLikeMacros(t *testing.T) {
	src := `
#define UMUL(a, b) __umul24((a), (b))
#define SQ(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define CAT(a, b) a##b
#define STR(x) #x
#define TWICE(f, x) f(f(x))
#define IDX(r, c) ((r) * W + (c))
#define W 8
#define SUM(...) sum3(__VA_ARGS__)
#define EMPTY() 7
#define SELF(x) (x + SELF)
__device__ int sum3(int a, int b, int c) { return a + b + c; }
__global__ void k(int* out, int v1, int v2) {
    out[0] = UMUL(3, 5);
    out[1] = SQ(2 + 1);
    out[2] = MAX(v1, v2);
    out[CAT(1, 0) - 7] = CAT(v, 1);
    printf(STR(a  +   b) "\n");
    out[5] = TWICE(SQ, 2);
    out[6] = IDX(2, 3);
    out[7] = SUM(1, 2, 3);
    out[8] = EMPTY();
    int CAT(my, var) = 4;
    out[9] = myvar;
    int SELF = 1;
    out[10] = SELF(2);
}`
	prog, err := Compile("m.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := Dump(prog.Func("k").Body)
	for _, want := range []string{
		"(call __umul24 3:unsigned int 5:unsigned int)", "(index out 1:long long):int 9:int",
		"(? (> v1 v2):bool v1 v2)", "(index out 3:long long):int v1)", `(printf "a + b\n")`,
		"(index out 5:long long):int 16:int", "(index out 6:long long):int 19:int", "(call sum3 1:int 2:int 3:int)",
		"(index out 8:long long):int 7:int", "decl int myvar = 4:int", "(+ 2:int SELF)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("expansion lacks %q:\n%s", want, got)
		}
	}
}

func TestArchOption(t *testing.T) {
	src := "__global__ void k(int* p) { p[0] = __CUDA_ARCH__; }"
	for _, tc := range []struct {
		opts []Option
		want string
	}{
		{nil, "750"},
		{[]Option{Arch("sm_90")}, "900"},
		{[]Option{Arch("compute_89")}, "890"},
		{[]Option{Arch("sm_90a")}, "900"},
		{[]Option{Arch("bogus")}, "750"},
		{[]Option{Arch("sm_80"), Define("__CUDA_ARCH__", "610")}, "610"},
	} {
		prog, err := Compile("a.cu", []byte(src), tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if got := Dump(prog.Func("k").Body); !strings.Contains(got, tc.want+":int") {
			t.Errorf("options %d: body %s, want __CUDA_ARCH__ %s", len(tc.opts), got, tc.want)
		}
	}
}

// TestDefineOptionErrors checks that an error on a line that uses a macro
// set by a Define option names the option, and that a Define whose name is
// not an identifier is an error.
func TestDefineOptionErrors(t *testing.T) {
	src := []byte("__global__ void k(int* p) {\n    p[0] = N;\n}\n")
	for _, tc := range []struct {
		name, value string
		opts        []Option
		want        string
	}{
		{"N", "+", nil, "f.cu:2:13: expected an expression, found ';' (N comes from -D N=+)"},
		{"N", "+", []Option{DefineFlag("--define")}, "(N comes from --define N=+)"},
		{"N", `"abc`, nil, `f.cu:2:12: missing terminating '"' character (N comes from -D N="abc)`},
		{"3x", "1", nil, `f.cu: -D 3x=1: "3x" is not a macro name`},
		{"", "3", []Option{DefineFlag("--define")}, `f.cu: --define =3: "" is not a macro name`},
	} {
		_, err := Compile("f.cu", src, append(tc.opts, Define(tc.name, tc.value))...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Define(%q, %q): got %v, want %q", tc.name, tc.value, err, tc.want)
		}
	}
	// A line that does not use the macro gets no note.
	_, err := Compile("f.cu", []byte("__global__ void k(int* p) { p[0] = N; }\n__device__ int x = ;\n"), Define("N", "1"))
	if err == nil || strings.Contains(err.Error(), "comes from") {
		t.Errorf("got %v, want an error on line 2 without a note", err)
	}
}

// TestSourceSizeLimit checks that Compile and ReadSource refuse a source
// over MaxSourceBytes.
func TestSourceSizeLimit(t *testing.T) {
	big := make([]byte, MaxSourceBytes+1)
	for i := range big {
		big[i] = ' '
	}
	_, err := Compile("big.cu", big)
	if err == nil || !strings.Contains(err.Error(), "big.cu: the source is 4194305 bytes; a source may be at most 4194304 bytes (4 MiB)") {
		t.Errorf("Compile: %v", err)
	}
	path := filepath.Join(t.TempDir(), "big.cu")
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSource(path); err == nil || !strings.Contains(err.Error(), "larger than 4194304 bytes (4 MiB)") {
		t.Errorf("ReadSource: %v", err)
	}
	if src, err := ReadSource(path[:len(path)-6] + "none.cu"); err == nil {
		t.Errorf("ReadSource of a missing file: %d bytes, no error", len(src))
	}
	if err := os.WriteFile(path, big[:MaxSourceBytes], 0o644); err != nil {
		t.Fatal(err)
	}
	if src, err := ReadSource(path); err != nil || len(src) != MaxSourceBytes {
		t.Errorf("ReadSource of a source at the limit: %d bytes, %v", len(src), err)
	}
}
