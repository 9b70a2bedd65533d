package cudac

import (
	"errors"
	"maps"
	"strings"
	"testing"
)

// TestErrors checks the exact diagnostics, with positions and carets, for
// bad sources.
func TestErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"undeclared with suggestion",
			"__global__ void k(int n) {\n  int tid = threadIdx.x;\n  if (tidd < n) {}\n}\n",
			"e.cu:3:7: undeclared identifier 'tidd' (did you mean 'tid'?)\n      if (tidd < n) {}\n          ^"},
		{"misspelt builtin",
			"__global__ void k() {\n  int x = threadIdex.x;\n}\n",
			"e.cu:2:11: undeclared identifier 'threadIdex' (did you mean 'threadIdx'?)\n      int x = threadIdex.x;\n              ^"},
		{"missing semicolon",
			"__global__ void k() {\n  int x = 1\n  int y = 2;\n}\n",
			"e.cu:2:12: expected ';' after declaration\n      int x = 1\n               ^"},
		{"write through const pointer",
			"__global__ void k(const float* p) {\n  p[0] = 1;\n}\n",
			"e.cu:2:8: cannot assign to an object through a pointer to const ('const float*')\n      p[0] = 1;\n           ^"},
		{"assign to const",
			"__global__ void k() {\n  const int x = 1;\n  x = 2;\n}\n",
			"e.cu:3:5: cannot assign to 'x': it is const\n      x = 2;\n        ^"},
		{"assign to rvalue",
			"__global__ void k() {\n  3 = 4;\n}\n",
			"e.cu:2:5: cannot assign to this expression: it is not a variable or an object in memory\n      3 = 4;\n        ^"},
		{"increment const param",
			"__global__ void k(const int n) {\n  n++;\n}\n",
			"e.cu:2:4: cannot increment 'n': it is const\n      n++;\n       ^"},
		{"printf huge width",
			"__global__ void k() {\n  printf(\"%2147483647d\", 1);\n}\n",
			"e.cu:2:10: format '%2147483647d': a field width or precision over 1048576 is not supported (a device's printf buffer holds 1 MiB)\n      printf(\"%2147483647d\", 1);\n             ^"},
		{"printf %s of a pointer",
			"__global__ void k(const char *s) {\n  printf(\"%s\", s);\n}\n",
			"e.cu:2:16: not supported: format '%s' with a pointer to characters in device memory (argument 2); only a string literal can be printed with %s\n      printf(\"%s\", s);\n                   ^"},
		{"pragma unroll negative",
			"__global__ void k(float *a) {\n#pragma unroll -1\n  for (int i = 0; i < 4; i++) a[i] = 0;\n}\n",
			"e.cu:2:16: #pragma unroll -1: the unroll count must be a positive integral constant\n    #pragma unroll -1\n                   ^"},
		{"pragma unroll zero",
			"__global__ void k(float *a) {\n#pragma unroll (0)\n  for (int i = 0; i < 4; i++) a[i] = 0;\n}\n",
			"e.cu:2:16: #pragma unroll (0): the unroll count must be a positive integral constant\n    #pragma unroll (0)\n                   ^"},
		{"local function pointer",
			"__device__ float sq(float x) { return x * x; }\n__global__ void k(float *o) {\n  float (*f)(float) = sq;\n}\n",
			"e.cu:3:9: function pointers and other parenthesised declarators are not supported\n      float (*f)(float) = sq;\n            ^"},
		{"function pointer parameter",
			"__device__ float ap(float (*g)(float), float x) { return x; }\n",
			"e.cu:1:27: function pointers and other parenthesised declarators are not supported\n    __device__ float ap(float (*g)(float), float x) { return x; }\n                              ^"},
		{"too few arguments",
			"__device__ int f(int a, int b) { return a + b; }\n__global__ void k() {\n  f(1);\n}\n",
			"e.cu:3:3: too few arguments to 'f' (want 2, have 1)\n      f(1);\n      ^"},
		{"too many arguments",
			"__device__ int f(int a) { return a; }\n__global__ void k() {\n  f(1, 2);\n}\n",
			"e.cu:3:3: too many arguments to 'f' (want 1, have 2)\n      f(1, 2);\n      ^"},
		{"bad argument type",
			"__device__ int f(int* a) { return *a; }\n__global__ void k(float* p) {\n  f(p);\n}\n",
			"e.cu:3:5: cannot convert 'float*' to 'int*' in argument 1 of 'f'\n      f(p);\n        ^"},
		{"builtin arity",
			"__global__ void k(float* p) {\n  atomicAdd(p);\n}\n",
			"e.cu:2:3: too few arguments to 'atomicAdd' (want 2, have 1)\n      atomicAdd(p);\n      ^"},
		{"no atomic overload",
			"__global__ void k(short* p) {\n  atomicAdd(p, 1);\n}\n",
			"e.cu:2:13: no 'atomicAdd' overload for 'short*' (it takes int*, unsigned int*, unsigned long long*, float*, double*)\n      atomicAdd(p, 1);\n                ^"},
		{"atomic on size_t",
			"__global__ void k(size_t* p) {\n  atomicAdd(p, 1);\n}\n",
			"e.cu:2:13: no 'atomicAdd' overload for 'size_t*' (it takes int*, unsigned int*, unsigned long long*, float*, double*); 'size_t' is a long, so cast the pointer to 'unsigned long long*'\n      atomicAdd(p, 1);\n                ^"},
		{"atomic on const",
			"__global__ void k(const int* p) {\n  atomicAdd(p, 1);\n}\n",
			"e.cu:2:13: 'atomicAdd' cannot modify an object through a pointer to const ('const int*')\n      atomicAdd(p, 1);\n                ^"},
		{"atomic on value",
			"__global__ void k(int x) {\n  atomicAdd(x, 1);\n}\n",
			"e.cu:2:13: the first argument of 'atomicAdd' must be a pointer, not 'int'\n      atomicAdd(x, 1);\n                ^"},
		{"shared initializer",
			"__global__ void k() {\n  __shared__ int s = 0;\n}\n",
			"e.cu:2:18: __shared__ variable 's' cannot have an initializer\n      __shared__ int s = 0;\n                     ^"},
		{"return value in void",
			"__global__ void k() {\n  return 1;\n}\n",
			"e.cu:2:3: void function 'k' should not return a value\n      return 1;\n      ^"},
		{"missing return value",
			"__device__ int f() {\n  return;\n}\n",
			"e.cu:2:3: non-void function 'f' should return a value\n      return;\n      ^"},
		{"break outside loop",
			"__global__ void k() {\n  break;\n}\n",
			"e.cu:2:3: 'break' statement not in a loop or switch statement\n      break;\n      ^"},
		{"continue outside loop",
			"__global__ void k(int x) {\n  switch (x) { case 0: continue; }\n}\n",
			"e.cu:2:24: 'continue' statement not in a loop statement\n      switch (x) { case 0: continue; }\n                           ^"},
		{"duplicate declaration",
			"__global__ void k() {\n  int x; int x;\n}\n",
			"e.cu:2:14: redefinition of 'x' (previously declared at line 2)\n      int x; int x;\n                 ^"},
		{"redeclared parameter",
			"__global__ void k(int x) {\n  float x;\n}\n",
			"e.cu:2:9: redefinition of 'x' (previously declared at line 1)\n      float x;\n            ^"},
		{"division by zero",
			"__global__ void k(int n) {\n  int y = n / 0;\n}\n",
			"e.cu:2:13: division by zero\n      int y = n / 0;\n                ^"},
		{"modulo by zero",
			"__global__ void k(unsigned n) {\n  n %= 0u;\n}\n",
			"e.cu:2:5: division by zero\n      n %= 0u;\n        ^"},
		{"zero array size",
			"__global__ void k() {\n  float a[0];\n}\n",
			"e.cu:2:11: array size must be positive (it is 0)\n      float a[0];\n              ^"},
		{"variable array size",
			"__global__ void k(int n) {\n  float a[n];\n}\n",
			"e.cu:2:11: array size is not a constant expression (variable-length arrays are not supported)\n      float a[n];\n              ^"},
		{"kernel returns int",
			"__global__ int g() { return 0; }\n",
			"e.cu:1:1: a __global__ function must return void ('g' returns 'int')\n    __global__ int g() { return 0; }\n    ^"},
		{"kernel called from device",
			"__global__ void k() {}\n__device__ void f() {\n  k();\n}\n",
			"e.cu:3:3: cannot call __global__ function 'k' from device code (dynamic parallelism is not supported)\n      k();\n      ^"},
		{"recursion",
			"__device__ int f(int n) {\n  return n ? f(n - 1) : 0;\n}\n",
			"e.cu:2:14: recursive call to 'f' is not supported\n      return n ? f(n - 1) : 0;\n                 ^"},
		{"mutual recursion",
			"__device__ int g(int);\n__device__ int f(int n) { return g(n); }\n__device__ int g(int n) { return f(n); }\n__global__ void k(int* p) { *p = f(1); }\n",
			"e.cu:3:34: recursive call to 'f' is not supported\n    __device__ int g(int n) { return f(n); }\n                                     ^"},
		{"goto",
			"__global__ void k() {\n  goto out;\n}\n",
			"e.cu:2:3: goto is not supported\n      goto out;\n      ^"},
		{"label",
			"__global__ void k() {\nout:\n  return;\n}\n",
			"e.cu:2:1: labels are not supported\n    out:\n    ^"},
		{"lambda passed to a function",
			"__device__ int g(int x) { return x; }\n__global__ void k() {\n  g([](int x) { return x; });\n}\n",
			"e.cu:3:5: a lambda is supported only stored in an 'auto' local ('auto f = [...](...) {...};') and called in the same function; passing one to a function or calling it where it is written is not\n      g([](int x) { return x; });\n        ^"},
		{"reference parameter",
			"__global__ void k(int& r) {}\n",
			"e.cu:1:24: a kernel parameter cannot be a reference ('r'); pass a pointer\n    __global__ void k(int& r) {}\n                           ^"},
		{"class",
			"class C { __device__ int f(); };\n",
			"e.cu:1:1: classes are not supported; use a struct with data members only\n    class C { __device__ int f(); };\n    ^"},
		{"member function",
			"struct S {\n  int x;\n  int get() { return x; }\n};\n",
			"e.cu:3:7: member functions are not supported\n      int get() { return x; }\n          ^"},
		{"function-like macro with a bad parameter",
			"#define SQ(x, 1) ((x)*(x))\n",
			"e.cu:1:15: expected a parameter name in macro 'SQ', found '1'\n    #define SQ(x, 1) ((x)*(x))\n                  ^"},
		{"type argument for an integer parameter",
			"template <int N>\n__global__ void k(int* p) {}\ntemplate __global__ void k<float>(int*);\n",
			"e.cu:3:28: template argument 1 of 'k' must be an integer constant, not a type\n    template __global__ void k<float>(int*);\n                               ^"},
		{"half",
			"__global__ void k(half* p) {}\n",
			"e.cu:1:19: type 'half' is not supported\n    __global__ void k(half* p) {}\n                      ^"},
		{"static_assert",
			"__global__ void k() {\n  static_assert(sizeof(int) == 8, \"int is 8 bytes\");\n}\n",
			"e.cu:2:3: static assertion failed: int is 8 bytes\n      static_assert(sizeof(int) == 8, \"int is 8 bytes\");\n      ^"},
		{"static_assert without message",
			"static_assert(sizeof(long) == 4);\n",
			"e.cu:1:1: static assertion failed\n    static_assert(sizeof(long) == 4);\n    ^"},
		{"nested case",
			"__global__ void k(int x) {\n  switch (x) {\n  case 1:\n    { case 2: break; }\n  }\n}\n",
			"e.cu:4:7: a 'case' label must be directly inside its switch's braces (labels nested in inner blocks or loops are not supported)\n        { case 2: break; }\n          ^"},
		{"duplicate case",
			"__global__ void k(int x) {\n  switch (x) {\n  case 1: break;\n  case 1: break;\n  }\n}\n",
			"e.cu:4:8: duplicate case value '1'\n      case 1: break;\n           ^"},
		{"printf too few",
			"__global__ void k(int x) {\n  printf(\"%d %d\\n\", x);\n}\n",
			"e.cu:2:10: format '%d' expects a matching 'int' argument, but there are too few arguments\n      printf(\"%d %d\\n\", x);\n             ^"},
		{"printf float for %d",
			"__global__ void k(float x) {\n  printf(\"%d\\n\", x);\n}\n",
			"e.cu:2:18: format '%d' expects an integer argument, but argument 2 has type 'double'\n      printf(\"%d\\n\", x);\n                     ^"},
		{"printf long for %d",
			"__global__ void k(size_t n) {\n  printf(\"n=%d\\n\", n);\n}\n",
			"e.cu:2:20: format '%d' expects an argument of type 'int', but argument 2 has type 'size_t' (use '%lld')\n      printf(\"n=%d\\n\", n);\n                       ^"},
		{"printf too many",
			"__global__ void k(int x) {\n  printf(\"hi\\n\", x);\n}\n",
			"e.cu:2:18: too many arguments for format (it uses 0, have 1)\n      printf(\"hi\\n\", x);\n                     ^"},
		{"printf bad conversion",
			"__global__ void k(int x) {\n  printf(\"%k\\n\", x);\n}\n",
			"e.cu:2:10: invalid conversion specifier 'k' in format '%k'\n      printf(\"%k\\n\", x);\n             ^"},
		{"printf non-literal format",
			"__global__ void k(const char* f) {\n  printf(f);\n}\n",
			"e.cu:2:10: the format of printf must be a string literal\n      printf(f);\n             ^"},
		{"host function called from a kernel",
			"int twice(int x) { return 2 * x; }\n__global__ void k(int* p) { p[0] = twice(p[1]); }\n",
			"e.cu:2:36: 'twice' is a host function (it has no __device__, so it was skipped as host code): mark it __device__ to use it in device code\n    __global__ void k(int* p) { p[0] = twice(p[1]); }\n                                       ^"},
		{"host variable used in a kernel",
			"int counter;\n__global__ void k() { counter++; }\n",
			"e.cu:2:23: 'counter' is a host variable (it has no __device__, so it was skipped as host code): mark it __device__ to use it in device code\n    __global__ void k() { counter++; }\n                          ^"},
		{"en dash",
			"__global__ void k() {\n  int x = 1 – 2;\n}\n",
			"e.cu:2:13: unexpected character '–' (a dash that is not '-')\n      int x = 1 – 2;\n                ^"},
		{"new",
			"__global__ void k() {\n  float* p = new float[3];\n}\n",
			"e.cu:2:14: 'new' is not supported in device code\n      float* p = new float[3];\n                 ^"},
		{"string literal",
			"__global__ void k() {\n  int x = \"abc\";\n}\n",
			"e.cu:2:11: string literals are only supported as the format of printf\n      int x = \"abc\";\n              ^"},
		{"kernel launch",
			"__global__ void k(float* p) {\n  k<<<1, 1>>>(p);\n}\n",
			"e.cu:2:4: kernel launches (<<<...>>>) are not supported in device code\n      k<<<1, 1>>>(p);\n       ^"},
		{"incompatible pointers",
			"__global__ void k(float* p, int* q) {\n  p = q;\n}\n",
			"e.cu:2:7: cannot convert 'int*' to 'float*' in assignment\n      p = q;\n          ^"},
		{"const to non-const pointer",
			"__global__ void k(const float* p) {\n  float* q = p;\n}\n",
			"e.cu:2:14: cannot convert 'const float*' to 'float*' in initialization (it would drop the const qualifier)\n      float* q = p;\n                 ^"},
		{"no member",
			"struct S { int a; };\n__global__ void k(S* s) {\n  s->b = 1;\n}\n",
			"e.cu:3:6: no member named 'b' in 'S'\n      s->b = 1;\n         ^"},
		{"dim3 arguments",
			"__global__ void k() {\n  dim3 d = dim3(1, 2, 3, 4);\n}\n",
			"e.cu:2:12: 'dim3' takes at most 3 arguments, not 4\n      dim3 d = dim3(1, 2, 3, 4);\n               ^"},
		{"bare threadIdx",
			"__global__ void k() {\n  unsigned x = threadIdx;\n}\n",
			"e.cu:2:16: cannot convert 'uint3' to 'unsigned int' in initialization\n      unsigned x = threadIdx;\n                   ^"},
		{"constructor arguments",
			"__global__ void k() {\n  int x(1, 2);\n}\n",
			"e.cu:2:8: constructor arguments ('x(a, b)') are supported only for dim3\n      int x(1, 2);\n           ^"},
		{"assign to blockDim",
			"__global__ void k() {\n  blockDim = dim3(2);\n}\n",
			"e.cu:2:3: 'blockDim' is read-only\n      blockDim = dim3(2);\n      ^"},
		{"bad builtin member",
			"__global__ void k() {\n  unsigned x = threadIdx.w;\n}\n",
			"e.cu:2:26: no member named 'w' in 'threadIdx' (use x, y or z)\n      unsigned x = threadIdx.w;\n                             ^"},
		{"shift too far",
			"__global__ void k() {\n  int x = 1 << 40;\n}\n",
			"e.cu:2:16: shift count >= width of type 'int'\n      int x = 1 << 40;\n                   ^"},
		{"unterminated #if",
			"#if 1\n__global__ void k() {}\n",
			"e.cu:1:1: unterminated conditional directive\n    #if 1\n    ^"},
		{"#else without #if",
			"#else\n",
			"e.cu:1:2: #else without #if\n    #else\n     ^"},
		{"#error",
			"#ifndef N\n#error N must be defined\n#endif\n",
			"e.cu:2:1: #error N must be defined\n    #error N must be defined\n    ^"},
		{"unterminated comment",
			"__global__ void k() {\n  /* unterminated\n}\n",
			"e.cu:2:3: unterminated /* comment\n      /* unterminated\n      ^"},
		{"unterminated string",
			"__global__ void k() {\n  printf(\"abc);\n}\n",
			"e.cu:2:10: missing terminating '\"' character\n      printf(\"abc);\n             ^"},
		{"undeclared function",
			"__global__ void k() {\n  undefined_fn(3);\n}\n",
			"e.cu:2:3: undeclared identifier 'undefined_fn'\n      undefined_fn(3);\n      ^"},
		{"declared never defined",
			"__device__ float f(float);\n__global__ void k(float* p) {\n  p[0] = f(1);\n}\n",
			"e.cu:3:10: function 'f' is declared but never defined\n      p[0] = f(1);\n             ^"},
		{"member of int",
			"__global__ void k() {\n  int x;\n  x.y = 3;\n}\n",
			"e.cu:3:4: member reference base type 'int' is not a struct\n      x.y = 3;\n       ^"},
		{"float modulo",
			"__global__ void k(float x) {\n  x % 2;\n}\n",
			"e.cu:2:5: invalid operands to binary '%' ('float' and 'int')\n      x % 2;\n        ^"},
		{"unknown type",
			"__global__ void k() {\n  Foo x;\n}\n",
			"e.cu:2:3: unknown type name 'Foo'\n      Foo x;\n      ^"},
		{"bad suffix",
			"__global__ void k() {\n  int x = 12abc;\n}\n",
			"e.cu:2:11: invalid suffix 'abc' on integer literal\n      int x = 12abc;\n              ^"},
		{"too large literal",
			"__global__ void k() {\n  long x = 99999999999999999999;\n}\n",
			"e.cu:2:12: integer literal is too large to be represented in any integer type\n      long x = 99999999999999999999;\n               ^"},
		{"long double",
			"__global__ void k() {\n  double x = 1.0L;\n}\n",
			"e.cu:2:14: long double is not supported\n      double x = 1.0L;\n                 ^"},
		{"assign array",
			"__global__ void k() {\n  int a[2], b[2];\n  a = b;\n}\n",
			"e.cu:3:5: cannot assign to an array ('int[2]'); assign its elements\n      a = b;\n        ^"},
		{"dereference int",
			"__global__ void k(int x) {\n  *x = 1;\n}\n",
			"e.cu:2:3: indirection requires a pointer operand ('int' invalid)\n      *x = 1;\n      ^"},
		{"address of rvalue",
			"__global__ void k(int x) {\n  int* p = &(x + 1);\n}\n",
			"e.cu:2:12: cannot take the address of an rvalue of type 'int'\n      int* p = &(x + 1);\n               ^"},
		{"void pointer arithmetic",
			"__global__ void k(void* p) {\n  p++;\n}\n",
			"e.cu:2:4: arithmetic on a pointer to void\n      p++;\n       ^"},
		{"subscript float",
			"__global__ void k(float* p, float f) {\n  p[f] = 0;\n}\n",
			"e.cu:2:5: array subscript is not an integer ('float')\n      p[f] = 0;\n        ^"},
		{"pointer plus pointer",
			"__global__ void k(float* p) {\n  p + p;\n}\n",
			"e.cu:2:5: invalid operands to binary '+' ('float*' and 'float*')\n      p + p;\n        ^"},
		{"compare pointer int",
			"__global__ void k(float* p) {\n  p == 3;\n}\n",
			"e.cu:2:5: comparison between pointer and integer ('float*' and 'int')\n      p == 3;\n        ^"},
		{"static_cast pointers",
			"__global__ void k(float* p) {\n  int* q = static_cast<int*>(p);\n}\n",
			"e.cu:2:12: static_cast from 'float*' to 'int*' is not allowed (use reinterpret_cast)\n      int* q = static_cast<int*>(p);\n               ^"},
		{"narrowing ptr cast",
			"__global__ void k(float* p) {\n  int a = (int)p;\n}\n",
			"e.cu:2:11: cast from 'float*' to 'int' is not allowed (it loses information)\n      int a = (int)p;\n              ^"},
		{"excess initializers",
			"__global__ void k() {\n  int a[2] = {1, 2, 3};\n}\n",
			"e.cu:2:21: excess elements in initializer\n      int a[2] = {1, 2, 3};\n                        ^"},
		{"extern shared sized",
			"__global__ void k() {\n  extern __shared__ float s[16];\n}\n",
			"e.cu:2:27: extern __shared__ variable 's' must be an unsized array ('s[]')\n      extern __shared__ float s[16];\n                              ^"},
		{"shared unsized",
			"__global__ void k() {\n  __shared__ float s[];\n}\n",
			"e.cu:2:20: __shared__ array 's' needs a size (or declare it extern __shared__ for a size given at launch)\n      __shared__ float s[];\n                       ^"},
		{"file-scope shared",
			"__shared__ float s[16];\n",
			"e.cu:1:18: __shared__ variables must be declared inside a function ('s')\n    __shared__ float s[16];\n                     ^"},
		{"namespace",
			"__global__ void k(int a, int b) {\n  int m = std::min(a, b);\n}\n",
			"e.cu:2:11: namespaces are not supported ('std::min')\n      int m = std::min(a, b);\n              ^"},
		{"exceptions",
			"__global__ void k() {\n  throw 1;\n}\n",
			"e.cu:2:3: exceptions are not supported\n      throw 1;\n      ^"},
		{"if declaration",
			"__global__ void k() {\n  if (int x = 3) {}\n}\n",
			"e.cu:2:7: declarations in conditions are not supported\n      if (int x = 3) {}\n          ^"},
		{"range for",
			"__global__ void k() {\n  int a[3];\n  for (int x : a) {}\n}\n",
			"e.cu:3:14: range-based for loops are not supported\n      for (int x : a) {}\n                 ^"},
		{"missing paren",
			"__global__ void k() {\n  if (1 {}\n}\n",
			"e.cu:2:9: expected ')' after condition, found '{'\n      if (1 {}\n            ^"},
		{"unbalanced brace",
			"__global__ void k() {\n  {\n}\n",
			"e.cu:1:21: unterminated block: expected '}'\n    __global__ void k() {\n                        ^"},
		{"bool increment",
			"__global__ void k() {\n  bool b = false;\n  b++;\n}\n",
			"e.cu:3:4: cannot increment a bool\n      b++;\n       ^"},
		{"abs unsigned",
			"__global__ void k(unsigned u) {\n  abs(u);\n}\n",
			"e.cu:2:3: call to 'abs' is ambiguous for an unsigned argument ('unsigned int')\n      abs(u);\n      ^"},
		{"old shfl",
			"__global__ void k(float v) {\n  v += __shfl_down(v, 1);\n}\n",
			"e.cu:2:8: __shfl_down without _sync was removed in CUDA 9; use __shfl_down_sync(mask, ...)\n      v += __shfl_down(v, 1);\n           ^"},
		{"unsupported math",
			"__global__ void k(float v) {\n  v = atan2f(v, 1.0f);\n}\n",
			"e.cu:2:7: math function 'atan2f' is not supported\n      v = atan2f(v, 1.0f);\n          ^"},
		{"builtin redefinition",
			"__device__ float atomicAdd(float* p, float v) { return 0; }\n",
			"e.cu:1:18: 'atomicAdd' is a built-in and cannot be redefined\n    __device__ float atomicAdd(float* p, float v) { return 0; }\n                     ^"},
		{"multiple errors",
			"__global__ void k() {\n  a = 1;\n  b = 2;\n  int c = d;\n}\n",
			"e.cu:2:3: undeclared identifier 'a'\n      a = 1;\n      ^\ne.cu:3:3: undeclared identifier 'b'\n      b = 2;\n      ^\ne.cu:4:11: undeclared identifier 'd'\n      int c = d;\n              ^"},
		{"conflicting declaration",
			"__device__ int f(int);\n__device__ int f(float x) { return 0; }\n",
			"e.cu:2:16: conflicting declaration of 'f' (overloaded functions are not supported) (previously declared at line 1)\n    __device__ int f(float x) { return 0; }\n                   ^"},
		{"redefinition",
			"__device__ int f() { return 0; }\n__device__ int f() { return 1; }\n",
			"e.cu:2:16: redefinition of 'f' (previously declared at line 1)\n    __device__ int f() { return 1; }\n                   ^"},
		{"typedef function",
			"typedef int F(int);\n",
			"e.cu:1:13: function typedefs are not supported\n    typedef int F(int);\n                ^"},
		{"switch on float",
			"__global__ void k(float f) {\n  switch (f) { default: break; }\n}\n",
			"e.cu:2:11: switch condition must have an integer type, not 'float'\n      switch (f) { default: break; }\n              ^"},
		{"case crosses init",
			"__global__ void k(int x) {\n  switch (x) {\n  case 0:\n    int y = 1;\n  case 1:\n    break;\n  }\n}\n",
			"e.cu:5:3: jump to case label crosses the initialization of 'y'; put the case body in braces\n      case 1:\n      ^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compile("e.cu", []byte(tt.src))
			if err == nil {
				t.Fatalf("Compile(%q) succeeded, want an error", tt.src)
			}
			if p != nil {
				t.Errorf("Compile returned a program with an error")
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Compile(%q) error:\n%s\nwant:\n%s", tt.src, got, tt.want)
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error is %T, want ErrorList", err)
			}
			for i, e := range list {
				if e.Line == "" || e.Pos.File != "e.cu" || e.Pos.Line == 0 || e.Pos.Col == 0 {
					t.Errorf("diagnostic %d = %+v: want a position and its line", i, e)
				}
				if i > 0 && (list[i-1].Pos.Line > e.Pos.Line || list[i-1].Pos.Line == e.Pos.Line && list[i-1].Pos.Col > e.Pos.Col) {
					t.Errorf("diagnostics out of source order: %v before %v", list[i-1].Pos, e.Pos)
				}
				if m := e.Msg; m != "" && strings.ToLower(m[:1]) != m[:1] && !strings.HasPrefix(m, "__") {
					t.Errorf("message %q does not start in lower case", m)
				}
			}
		})
	}
}

func TestDefineOption(t *testing.T) {
	tests := []struct {
		name, src string
		opts      []Option
		want      string // the last statement, or the error
	}{
		{"predefined", "__global__ void k() {\n  N * 2;\n}\n", []Option{Define("N", "21")}, "42:int"},
		{"guarded", "#ifndef N\n#define N 4\n#endif\n__global__ void k() {\n  N;\n}\n", []Option{Define("N", "8u")}, "8:unsigned int"},
		{"guard default", "#ifndef N\n#define N 4\n#endif\n__global__ void k() {\n  N;\n}\n", nil, "4:int"},
		{"redefined", "#define N 4\n", []Option{Define("N", "8")},
			"e.cu:1:9: macro 'N' is already defined by a Define option (guard it with #ifndef N)\n    #define N 4\n            ^"},
		{"#if over option", "#if N > 4\n__global__ void k() { 1; }\n#else\n__global__ void k() { 2; }\n#endif\n", []Option{Define("N", "8")}, "1:int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compile("e.cu", []byte(tt.src), tt.opts...)
			var got string
			if err != nil {
				got = err.Error()
			} else {
				want := map[string]string{}
				for _, o := range tt.opts {
					var opts options
					o(&opts)
					maps.Copy(want, opts.defines)
				}
				if d := p.Defines(); !maps.Equal(d, want) {
					t.Errorf("Defines() = %v, want %v", d, want)
				}
				f := p.Funcs[len(p.Funcs)-1]
				got = Dump(f.Body.Stmts[len(f.Body.Stmts)-1])
			}
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestEchoClipsAndEscapes checks what a diagnostic shows of its source
// line: a window of a long line, escaped control bytes, and a caret under
// the right character after non-ASCII text and after a byte-order mark.
func TestEchoClipsAndEscapes(t *testing.T) {
	long := "__global__ void k(int* p) { " + strings.Repeat("p[0] = 1; ", 30000) + "p[1] = q; }\n"
	for _, tc := range []struct {
		name, src string
		want      string // the whole message, or for long lines its start
		maxLen    int
	}{
		{"non-ASCII before the column", "__global__ void k(int* p) { /* éé → */ p[0] = q; }\n",
			"f.cu:1:47: undeclared identifier 'q'\n    __global__ void k(int* p) { /* éé → */ p[0] = q; }\n                                                  ^", 0},
		{"byte-order mark", "\xef\xbb\xbf__global__ void k(int* p) { p[0] = q; }\n",
			"f.cu:1:36: undeclared identifier 'q'\n    __global__ void k(int* p) { p[0] = q; }\n                                       ^", 0},
		{"control bytes", "\x01\x7f__global__ void k() {}\n", "f.cu:1:1: unexpected character '\\x01'\n    \\x01\\x7f__global__ void k() {}\n    ^", 0},
		{"long line", long, "f.cu:1:300036: undeclared identifier 'q'\n    ...", 600},
	} {
		_, err := Compile("f.cu", []byte(tc.src))
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		var first *Error
		if !errors.As(err, &first) {
			t.Fatalf("%s: %T", tc.name, err)
		}
		got := first.Error()
		if tc.maxLen > 0 {
			if len(got) > tc.maxLen || !strings.HasPrefix(got, tc.want) {
				t.Errorf("%s: %d bytes, want at most %d starting %q:\n%.400s", tc.name, len(got), tc.maxLen, tc.want, got)
			}
			lines := strings.Split(got, "\n")
			if caret := strings.IndexByte(lines[2], '^'); caret < 0 || lines[1][caret:caret+1] != "q" {
				t.Errorf("%s: the caret is not under q:\n%s", tc.name, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

// TestConstantBank checks that __constant__ variables are refused past the
// 64 KB constant bank, at the declaration that crosses it.
func TestConstantBank(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"__constant__ float c[16384];\n__global__ void k(float* p) { p[0] = c[1]; }\n", ""},
		{"__constant__ float c[1<<20];\n__global__ void k(float* p) { p[0] = c[1]; }\n",
			"f.cu:1:20: __constant__ variables take at most 65536 bytes (64 KB, the constant bank): 'c' is 4194304 bytes"},
		{"__constant__ char a;\n__constant__ double b[8191];\n__constant__ double d;\n",
			"f.cu:3:21: __constant__ variables take at most 65536 bytes (64 KB, the constant bank): 'd' is 8 bytes, after 65536 bytes of __constant__ variables before it"},
		{"__device__ float g[1<<20];\n__constant__ int c[16384];\n", ""},
	} {
		_, err := Compile("f.cu", []byte(tc.src))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.src, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
	}
}
