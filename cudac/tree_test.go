package cudac

import (
	"strings"
	"testing"
)

// lastStmt compiles src and dumps the last statement of its last function.
func lastStmt(t *testing.T, src string) string {
	t.Helper()
	p, err := Compile("t.cu", []byte(src))
	if err != nil {
		t.Fatalf("Compile:\n%s\n%v", src, err)
	}
	if len(p.Funcs) == 0 {
		t.Fatalf("no functions in\n%s", src)
	}
	f := p.Funcs[len(p.Funcs)-1]
	if len(f.Body.Stmts) == 0 {
		t.Fatalf("empty body in\n%s", src)
	}
	return Dump(f.Body.Stmts[len(f.Body.Stmts)-1])
}

func TestTypedTree(t *testing.T) {
	tests := []struct {
		name string
		src  string // a kernel body, or a whole file when it starts with '#' or '!'
		want string
	}{
		// Usual arithmetic conversions and promotions (LP64).
		{"int < size_t", `int i = 0; size_t n = 1; i < n;`, `(< (conv i):size_t n):bool`},
		{"global index", `blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;`,
			`(+ (* (conv blockIdx.x):size_t (cast blockDim.x):size_t):size_t (conv threadIdx.x):size_t):size_t`},
		{"c-cast index", `(size_t)blockIdx.x * blockDim.x;`, `(* (cast blockIdx.x):size_t (conv blockDim.x):size_t):size_t`},
		{"char promotion", `char a = 1, b = 2; a + b;`, `(+ (conv a):int (conv b):int):int`},
		{"unsigned char promotion", `unsigned char a = 1; ~a;`, `(~ (conv a):int):int`},
		{"short times ushort", `short a = 1; unsigned short b = 2; a * b;`, `(* (conv a):int (conv b):int):int`},
		{"unsigned + long long", `unsigned u = 1; long long l = 2; u + l;`, `(+ (conv u):long long l):long long`},
		{"int vs unsigned", `int x = 1; unsigned u = 2; x < u;`, `(< (conv x):unsigned int u):bool`},
		{"int + unsigned long long", `int x = 1; unsigned long long u = 2; x + u;`, `(+ (conv x):unsigned long long u):unsigned long long`},
		{"long + unsigned", `long l = 1; unsigned u = 2; l - u;`, `(- l (conv u):long):long`},
		{"long long + unsigned long", `long long a = 1; unsigned long b = 2; a + b;`, `(+ (conv a):unsigned long b):unsigned long`},
		{"int + float", `int i = 1; float f = 2; i + f;`, `(+ (conv i):float f):float`},
		{"float + double", `float f = 1; double d = 2; f * d;`, `(* (conv f):double d):double`},
		{"uint64 + float", `unsigned long long u = 1; float f = 2; u / f;`, `(/ (conv u):float f):float`},
		{"shift keeps left type", `unsigned u = 1; long long s = 3; u << s;`, `(<< u s):unsigned int`},
		{"shift promotes left", `char c = 1; c >> 1;`, `(>> (conv c):int 1:int):int`},
		{"logical", `int a = 1; float* p = nullptr; a && p;`, `(&& (conv a):bool (conv p):bool):bool`},
		{"not pointer", `float* p = nullptr; !p;`, `(! (conv p):bool):bool`},
		{"negate unsigned", `unsigned u = 1; -u;`, `(- u):unsigned int`},
		{"plus promotes", `short s = 1; +s;`, `(conv s):int`},
		{"comparison of bools", `bool a = true, b = false; a == b;`, `(== (conv a):int (conv b):int):bool`},

		// Constants.
		{"1u << 31", `1u << 31;`, `2147483648:unsigned int`},
		{"1 << 31", `1 << 31;`, `-2147483648:int`},
		{"-1 < 0u", `-1 < 0u;`, `false:bool`},
		{"-1u", `-1u;`, `4294967295:unsigned int`},
		{"signed division", `7 / -2;`, `-3:int`},
		{"signed remainder", `-7 % 2;`, `-1:int`},
		{"unsigned wrap", `0u - 1;`, `4294967295:unsigned int`},
		{"ull wrap", `0ull - 1;`, `18446744073709551615:unsigned long long`},
		{"decimal too big for int", `3000000000;`, `3000000000:long`},
		{"hex fits unsigned", `0xffffffff;`, `4294967295:unsigned int`},
		{"hex long", `0x100000000;`, `4294967296:long`},
		{"octal", `017;`, `15:int`},
		{"suffix ul", `5ul;`, `5:unsigned long`},
		{"suffix LL", `5LL;`, `5:long long`},
		{"float literal rounds", `0.1f;`, `0.10000000149011612:float`},
		{"double literal", `0.1;`, `0.1:double`},
		{"exponent", `1e3f;`, `1000:float`},
		{"leading dot", `.5f;`, `0.5:float`},
		{"hex float", `0x1p-2f;`, `0.25:float`},
		{"float arithmetic rounds", `1.0f / 3;`, `0.3333333432674408:float`},
		{"float to int truncates", `static_cast<int>(-2.7f);`, `-2:int`},
		{"int to char wraps", `(char)300;`, `44:char`},
		{"double to unsigned saturates", `(unsigned)-1.0;`, `0:unsigned int`},
		{"char literal", `'a';`, `97:char`},
		{"escape", `'\n' + '\x41';`, `75:int`},
		{"bool arithmetic", `true + true;`, `2:int`},
		{"ternary folds", `1 ? 2 : 3u;`, `2:unsigned int`},
		{"logical folds", `1 && 0.0;`, `false:bool`},
		{"warpSize", `warpSize;`, `32:int`},
		{"sizeof type", `sizeof(int);`, `4:size_t`},
		{"sizeof array", `float a[8]; sizeof(a);`, `32:size_t`},
		{"sizeof expr", `double d = 1; sizeof d;`, `8:size_t`},
		{"sizeof pointer", `sizeof(const float*);`, `8:size_t`},
		{"alignof", `alignof(double);`, `8:size_t`},
		{"const local folds", `const int n = 4; n * 2;`, `8:int`},
		{"constexpr local folds", `constexpr unsigned n = 4; n - 5;`, `4294967295:unsigned int`},
		{"min folds", `min(3, 4u);`, `3:unsigned int`},
		{"INT_MAX", `INT_MAX + 0u;`, `2147483647:unsigned int`},
		{"FLT_MAX", `-FLT_MAX;`, `-3.4028234663852886e+38:float`},
		{"__LINE__", `__LINE__;`, `2:int`},

		// Pointers.
		{"ptr + int", `float* p = nullptr; int i = 1; p + i;`, `(ptr+ p (conv i):long long):float*`},
		{"int + ptr", `float* p = nullptr; int i = 1; i + p;`, `(ptr+ p (conv i):long long):float*`},
		{"ptr - unsigned", `const int* p = nullptr; unsigned u = 1; p - u;`, `(ptr- p (conv u):long long):const int*`},
		{"ptr - ptr", `float* p = nullptr; float* q = nullptr; p - q;`, `(ptrdiff p q):long long`},
		{"ptr += ", `float* p = nullptr; p += 2;`, `(+= p 2:long long)<float*>:float*`},
		{"ptr++", `float* p = nullptr; p++;`, `(post++ p):float*`},
		{"ptr compare null", `float* p = nullptr; p != nullptr;`, `(!= p nullptr:float*):bool`},
		{"ptr compare 0", `float* p = nullptr; 0 == p;`, `(== nullptr:float* p):bool`},
		{"ptr compare const", `float* p = nullptr; const float* q = p; p < q;`, `(< p q):bool`},
		{"index", `float* p = nullptr; unsigned i = 0; p[i];`, `(index p (conv i):long long):float`},
		{"index reversed", `float* p = nullptr; 2[p];`, `(index p 2:long long):float`},
		{"array decay", `float a[4]; float* p = a; p;`, `p`},
		{"array init decays", `float a[4]; float* p = a;`, `decl float* p = (conv a):float*`},
		{"2-D array", `float a[4][8]; a[1][2];`, `(index (conv (index (conv a):float[8]* 1:long long):float[8]):float* 2:long long):float`},
		{"deref", `int x = 0; int* p = &x; *p = 3;`, `(= (* p):int 3:int):int`},
		{"address of const", `const int x = 1; &x;`, `(& x):const int*`},
		{"void star", `int x = 0; void* v = &x;`, `decl void* v = (conv (& x):int*):void*`},
		{"ptr to int cast", `float* p = nullptr; (unsigned long long)p;`, `(cast p):unsigned long long`},
		{"reinterpret_cast", `float* p = nullptr; reinterpret_cast<int*>(p);`, `(cast p):int*`},
		{"int to ptr", `unsigned long long a = 0; reinterpret_cast<float*>(a);`, `(cast a):float*`},
		{"const_cast", `const float* p = nullptr; const_cast<float*>(p);`, `(cast p):float*`},
		{"ptr ternary", `float* p = nullptr; int c = 1; c ? p : nullptr;`, `(? (conv c):bool p nullptr:float*):float*`},
		{"ternary arith", `int c = 1; short s = 2; c ? s : 2u;`, `(? (conv c):bool (conv s):unsigned int 2:unsigned int):unsigned int`},
		{"ternary same type", `int c = 1; char a = 1, b = 2; c ? a : b;`, `(? (conv c):bool a b):char`},

		// Assignment.
		{"assign converts", `int i = 0; i = 2.5f;`, `(= i 2:int):int`},
		{"compound float into int", `int i = 0; float f = 1; i += f;`, `(+= i f)<float>:int`},
		{"compound char", `char c = 0; c += 1;`, `(+= c 1:int)<int>:char`},
		{"compound shift", `unsigned short s = 0; s <<= 2u;`, `(<<= s 2:unsigned int)<int>:unsigned short`},
		{"compound unsigned", `int i = 0; unsigned u = 2; i /= u;`, `(/= i u)<unsigned int>:int`},
		{"compound size_t", `unsigned u = 0; size_t n = 2; u -= n;`, `(-= u n)<size_t>:unsigned int`},
		{"chained", `int a, b; a = b = 3;`, `(= a (= b 3:int):int):int`},
		{"preinc", `int i = 0; ++i;`, `(++ i):int`},
		{"postdec float", `float f = 0; f--;`, `(post-- f):float`},
		{"comma", `int a = 0, b = 0; a++, b++;`, `(, (post++ a):int (post++ b):int):int`},
		{"void cast stmt", `int a = 0; (void)a;`, `a`},

		// Declarations.
		{"multi declarators", `int* iaddr = nullptr; int old = *iaddr, assumed;`, `decl int assumed`},
		{"array brace init", `float a[4] = {0};`, `decl float[4] a = {0:float}`},
		{"empty brace init", `float a[4] = {};`, `decl float[4] a = {0:float}`},
		{"unsized array", `int a[] = {1, 2, 3}; sizeof(a);`, `12:size_t`},
		{"2-D brace init", `int a[2][3] = {{1}, {4, 5}};`, `decl int[2][3] a = {1:int, 0:int, 0:int, 4:int, 5:int}`},
		{"brace elision", `int a[2][2] = {1, 2, 3};`, `decl int[2][2] a = {1:int, 2:int, 3:int}`},
		{"scalar brace init", `int x{5};`, `decl int x = 5:int`},
		{"scalar empty brace", `float x = {};`, `decl float x = 0:float`},
		{"direct init", `int x(7);`, `decl int x = 7:int`},
		{"auto", `auto x = 1.5f * 2;`, `decl float x = 3:float`},
		{"auto decays", `float a[2]; auto p = a;`, `decl float* p = (conv a):float*`},
		{"volatile pointer", `__shared__ float s[32]; volatile float* v = s;`, `decl volatile float* v = (conv s):float*`},
		{"shared scalar", `__shared__ int count;`, `decl shared int count`},
		{"typedef", `typedef unsigned int u32; u32 x = 1;`, `decl unsigned int x = 1:unsigned int`},
		{"using", `using real = double; real x = 1;`, `decl double x = 1:double`},
		{"cstdint", `uint64_t x = 1; int32_t y = 2;`, `decl int32_t y = 2:int`},
		{"restrict param", `!__global__ void k(const float* __restrict__ in, float* __restrict__ const out) { out; }`, `out`},

		// Built-ins.
		{"threadIdx", `threadIdx.x;`, `threadIdx.x`},
		{"gridDim.z", `gridDim.z + 0;`, `(+ gridDim.z 0:unsigned int):unsigned int`},
		{"atomicAdd float", `float* p = nullptr; atomicAdd(p, 1);`, `(atomicAdd<float> p 1:float):float`},
		{"atomicAdd ull int arg", `unsigned long long* p = nullptr; atomicAdd(p, 1);`, `(atomicAdd<unsigned long long> p 1:unsigned long long):unsigned long long`},
		{"atomicAdd shared", `__shared__ float s; float x = 0; atomicAdd(&s, x);`, `(atomicAdd<float> (& s):float* x):float`},
		{"atomicCAS", `int* p = nullptr; atomicCAS(p, 0, 1);`, `(atomicCAS<int> p 0:int 1:int):int`},
		{"atomicInc", `unsigned* p = nullptr; atomicInc(p, 10);`, `(atomicInc<unsigned int> p 10:unsigned int):unsigned int`},
		{"atomicMax ll", `long long* p = nullptr; atomicMax(p, 5);`, `(atomicMax<long long> p 5:long long):long long`},
		{"atomicExch double arg", `float* p = nullptr; atomicExch(p, 1.0);`, `(atomicExch<float> p 1:float):float`},
		{"shfl default width", `float v = 0; __shfl_down_sync(0xffffffff, v, 16);`, `(__shfl_down_sync<float> 4294967295:unsigned int v 16:unsigned int 32:int):float`},
		{"shfl width", `int v = 0; __shfl_xor_sync(0xffffffffu, v, 1, 16);`, `(__shfl_xor_sync<int> 4294967295:unsigned int v 1:int 16:int):int`},
		{"shfl promotes char", `char c = 0; __shfl_sync(~0u, c, 0);`, `(__shfl_sync<int> 4294967295:unsigned int (conv c):int 0:int 32:int):int`},
		{"shfl double", `double d = 0; __shfl_up_sync(1u, d, 1);`, `(__shfl_up_sync<double> 1:unsigned int d 1:unsigned int 32:int):double`},
		{"ballot", `int i = 0; __ballot_sync(0xffffffff, i < 3);`, `(__ballot_sync 4294967295:unsigned int (conv (< i 3:int):bool):int):unsigned int`},
		{"syncthreads_count", `bool b = true; __syncthreads_count(b);`, `(__syncthreads_count (conv b):int):int`},
		{"syncwarp default", `__syncwarp();`, `(__syncwarp 4294967295:unsigned int):void`},
		{"activemask", `__activemask();`, `(__activemask):unsigned int`},
		{"match_any", `int* p = nullptr; __match_any_sync(__activemask(), (unsigned long long)p);`,
			`(__match_any_sync<unsigned long long> (__activemask):unsigned int (cast p):unsigned long long):unsigned int`},
		{"match_all", `int pred; __match_all_sync(~0u, 5, &pred);`, `(__match_all_sync<int> 4294967295:unsigned int 5:int (& pred):int*):unsigned int`},
		{"popc", `int m = 0; __popc(m);`, `(__popc<unsigned int> (conv m):unsigned int):int`},
		{"ffs", `unsigned m = 0; __ffs(m) - 1;`, `(- (__ffs<int> (conv m):int):int 1:int):int`},
		{"brevll", `__brevll(1);`, `(__brevll<unsigned long long> 1:unsigned long long):unsigned long long`},
		{"expf", `float x = 0; expf(x);`, `(exp<float> x):float`},
		{"exp float overload", `float x = 0; exp(x);`, `(exp<float> x):float`},
		{"exp double", `double x = 0; exp(x);`, `(exp<double> x):double`},
		{"exp int", `exp(1);`, `(exp<double> 1:double):double`},
		{"powf", `powf(2, 0.5);`, `(pow<float> 2:float 0.5:float):float`},
		{"pow mixed", `float x = 0; pow(x, 2);`, `(pow<float> x 2:float):float`},
		{"pow double", `float x = 0; pow(x, 2.0);`, `(pow<double> (conv x):double 2:double):double`},
		{"fast exp", `float x = 0; __expf(x);`, `(__expf<float> x):float`},
		{"fmaf", `float a = 0; fmaf(a, a, 1);`, `(fma<float> a a 1:float):float`},
		{"fdividef", `__fdividef(1, 3);`, `(__fdividef<float> 1:float 3:float):float`},
		{"min mixed", `int i = 0; unsigned u = 0; min(i, u);`, `(min<unsigned int> (conv i):unsigned int u):unsigned int`},
		{"max float int", `float f = 0; max(f, 0);`, `(max<float> f 0:float):float`},
		{"max ll", `long long a = 0; max(a, 1);`, `(max<long long> a 1:long long):long long`},
		{"umin", `umin(1, 2u);`, `1:unsigned int`},
		{"abs int", `int i = 0; abs(i);`, `(abs<int> i):int`},
		{"abs float", `float f = 0; abs(f);`, `(fabs<float> f):float`},
		{"llabs", `int i = 0; llabs(i);`, `(abs<long long> (conv i):long long):long long`},
		{"fabsf", `fabsf(-2);`, `(fabs<float> -2:float):float`},
		{"float_as_int", `float f = 0; __float_as_int(f);`, `(__float_as_int<float> f):int`},
		{"int_as_float", `int i = 0; __int_as_float(i);`, `(__int_as_float<int> i):float`},
		{"ldg", `const float* p = nullptr; __ldg(p + 1);`, `(__ldg<float> (ptr+ p 1:long long):const float*):float`},
		{"ldg nonconst", `float* p = nullptr; __ldg(p);`, `(__ldg<float> p):float`},
		{"clock", `clock();`, `(clock):clock_t`},
		{"clock64", `clock64();`, `(clock64):long long`},
		{"trap", `__trap();`, `(__trap):void`},
		{"printf", `char c = 'x'; float f = 1; printf("%c %f %d\n", c, f, 3);`, `(printf "%c %f %d\n" (conv c):int (conv f):double 3:int):int`},
		{"printf ll", `long long x = 0; size_t n = 0; printf("%lld %zu %%\n", x, n);`, `(printf "%lld %zu %%\n" x n):int`},
		{"printf string", `float x = 1; printf("%s=%.2f %-4s|%.1s %d%%\n", "x", x, "50%", "ok", 3);`, `(printf "x=%.2f 50%% |o %d%%\n" (conv x):double 3:int):int`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src
			if strings.HasPrefix(src, "!") {
				src = src[1:]
			} else {
				src = "__global__ void k() {\n" + src + "\n}\n"
			}
			if tt.want == "" {
				return
			}
			if got := lastStmt(t, src); got != tt.want {
				t.Errorf("%s\n got %s\nwant %s", tt.src, got, tt.want)
			}
		})
	}
}
