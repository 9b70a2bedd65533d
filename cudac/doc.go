// Package cudac is warplab's front end for the subset of CUDA C that the labs
// and students write: it lexes, preprocesses (#define, #ifdef, #include
// "file"), parses and type-checks a source file into a typed
// tree that both backends consume, and reports every error as
// "file.cu:line:col: message" with the source line and a caret.
//
// # The subset
//
// Preprocessor: // and /* */ comments, line splices, object-like and
// function-like #define (# and ##, __VA_ARGS__, __VA_OPT__; expanded and rescanned as C
// does, a macro never inside its own expansion), #undef,
// #if/#ifdef/#ifndef/#elif/#else/#endif with integer expressions and
// defined(X), #error. #include "name" reads the file from the including
// file's directory, then from the IncludeDir directories, under the
// caller's include policy: by default Compile reads no file at all (a
// kernel checked by a lab or by the class grader cannot name the
// machine's files); IncludeRoot allows the regular files of a directory
// tree, IncludeFS a file system such as embedded headers, ReadFile a
// reader of the caller's. An absolute name is always refused. With include guards,
// #pragma once, a cycle reported as such and a depth limit; an error in an
// included file is at its own file:line:col and says which #include lines
// read it (Error.IncludedFrom); Program.Includes lists the files read, for
// a backend that compiles the text again (NVRTC takes them as headers).
// #include <name> (and a quoted toolkit or C library header that is not
// beside the source, like "cuda_runtime.h") is known without being read.
// #pragma unroll and the other pragmas and #line are accepted and ignored. Predefined: __CUDACC__, __NVCC__, __CUDA_ARCH__
// (750, or the Arch option's), __LINE__, the <climits> and
// <cfloat> limits (INT_MAX, UINT_MAX, FLT_MAX, ...), INFINITY, NAN, M_PI,
// M_E; a Define option or the source may replace any of them.
//
// Top level: __global__ and __device__ functions (__host__ __device__,
// __forceinline__, inline, static, __launch_bounds__ accepted; extern "C"
// on one declaration or a block); forward declarations; default arguments
// that are constants; function templates over integer and type parameters
// (template <int N>, template <class T, unsigned int N, bool B = false>),
// instantiated by name ("reduce<float, 256, true>") or at a call (f<4>(x),
// or f(x) with T deduced from a T, T* or T& parameter), explicit
// instantiations and explicit specializations (a template body's names are
// looked up at its definition, as C++ does; the rest is checked per
// instantiation); struct templates and their specializations, and structs'
// conversion operators (operator T*() with no use of members: the
// SharedMemory<T> idiom); references (T& parameters and locals hold
// addresses, const T& parameters are values); cooperative groups (see
// GroupKind; cg.go lists the subset); constexpr, const, static const and static constexpr
// scalar constants; __device__ and __constant__ variables with constant
// initializers; struct declarations with C layout, alignas and __align__ on
// the struct or a member; enum and enum class; typedef and using aliases;
// static_assert with or without a message; the program's own namespaces
// (named, nested, anonymous, aliased, "using namespace"), read as if their
// braces were not there (namespace.go); a typedef repeated with the same
// type.
//
// Brace lists also make a return value (return {a, b}; of a struct) and
// an argument (f({1.f, 2.f}) for a struct parameter: a call of a function
// the front end makes, its parameters the leaves), and cg::plus<T>{} is
// cg::plus<T>().
//
// Types: void, bool, char (signed), signed and unsigned char, short, int,
// long (64 bits, as on Linux) and long long, unsigned alone, size_t,
// ptrdiff_t, the <cstdint> names, glibc's <sys/types.h> names (uint,
// ushort, ulong, u_int, u_char, ...), float, double, pointers with const,
// volatile and __restrict__ anywhere C++ allows them, local arrays (also
// multi-dimensional), __shared__ scalars, arrays and structs (in kernels and
// __device__ functions), extern __shared__ T name[] sized at launch, auto
// with an initializer, and CUDA's vector types (float4, int2, uchar4,
// double2, ...: structs with members x, y, z, w and CUDA's alignment) with
// their make_* functions (__device__ functions the front end makes).
//
// Statements: declarations (several declarators, brace, parenthesised and
// = initializers), if/else, for, while, do/while, switch with case labels
// directly in its braces, break, continue, return, blocks, ';'.
//
// Expressions: every C operator with C's precedence, the integer
// promotions and usual arithmetic conversions of C++ on LP64, pointer
// arithmetic, C casts, functional casts (float(x)), static_cast,
// reinterpret_cast and const_cast, sizeof and alignof, nullptr and NULL.
//
// Built-ins: see Builtin, with the overloads nvcc has. Also umin, umax,
// llmin, llmax, ullmin, ullmax, llabs and labs (as Min, Max and Abs), the
// scoped atomics (atomicAdd_block, atomicAdd_system: the same Builtin),
// and __mul24, __umul24, __mulhi, __umulhi, __funnelshift_l/r/lc/rc,
// __byte_perm, __sad, __usad, the halving adds, memcpy and memset, which
// are __device__ functions the front end makes: a Call whose Func is not
// in Program.Funcs, like the instances of templates.
//
// dim3 is a struct of three unsigned ints (uint3's layout); blockDim and
// gridDim used whole are dim3 values, threadIdx and blockIdx uint3 ones,
// each a call of a made constructor of the three registers; dim3(x, y)
// and "dim3 d(x, y);" fill the members left out with 1; dim3 and uint3
// convert to each other and a number to dim3(n, 1, 1). A member of a
// call's result (make_float4(...).x) is a Member whose X is the Call: a
// value, not an lvalue.
//
// <cuda/atomic>: cuda::X and cuda::std::X become one token "cuda::X"
// before parsing. cuda::atomic_ref<T, Scope> is a Type with AtomicRef set
// (Kind Uint64, its value the referred object's address, Elem T, RefScope
// the scope); its member calls are BuiltinCalls with Scope and Order set:
// AtomicLoad and AtomicStore for load and store, the atomic* built-ins for
// the read-modify-writes, and for compare_exchange a call of a made
// function around AtomicCAS. cuda::atomic_thread_fence is a fence built-in
// with the given order and scope. cuda::atomic<T, Scope> is a Type with
// AtomicObj set (Kind and layout T's), allowed for __device__ variables
// only; its member calls act on its address as an atomic_ref's do.
//
// Host code: at file scope, items without __global__, __device__,
// __constant__ or __shared__ that are functions (main, host helpers and
// templates), namespaces, classes or non-constant variables are host code:
// they are skipped (Program.HostCode lists them, Program.DeviceSource
// blanks them), and device code that names one is told so. So are
// using-declarations (using std::cout;), variables that are pointers to
// constants (static const char *usage = "...";) and function-pointer type
// aliases (using F = float (*)(float); typedef float (*G)(float);),
// which device code may not use.
//
// Not supported, each reported as an error that names it: goto and labels,
// function pointers, rvalue references, classes, unions, member functions
// (but conversion operators), operator overloading, lambdas other than
// "auto f = [...](...) {...};" called in the same function (lambda.go),
// new/delete,
// exceptions, library namespaces (std::), recursion,
// variable-length arrays, half types, dim3 kernel parameters, long
// double, bit-fields, inline assembly, host code, kernel launches in device
// code and calling a kernel from device code.
//
// # The checked tree
//
// The rules of ast.go hold. Beyond them, a backend can rely on this:
//
//   - Template instances are named with their argument values in decimal,
//     separated by ", ": "sumTree<256>", "reduce<256, 4>" (an unsigned
//     parameter prints unsigned, a bool one true or false). Kernel
//     accepts any spelling whose arguments are integer constant
//     expressions ("sumTree<2*128u>", "sumTree<kBlock>") and returns the
//     same *Func. Instances of __device__ templates are not in
//     Program.Funcs; they are reached through Call.Func.
//   - Brace initializers are flattened: DeclStmt.InitList and Var.Init hold
//     one value per scalar leaf of the object, in memory order (a struct's
//     fields in order, an array's elements in order, recursively), up to the
//     last leaf given; for a one-dimensional array of scalars or a struct of
//     scalars a leaf is an element or a field. Leaves between given ones are
//     zero constants. "= {}" gives one zero for the first leaf, so InitList
//     is non-nil exactly when there is an initializer.
//   - DeclStmt.Init of a struct variable may be a struct-typed expression
//     (S t = s;), and Assign may assign a whole struct.
//   - Uses of const and constexpr variables whose initializers are constant
//     are folded to *Const; their DeclStmt remains.
//   - A (void) cast is dropped where the value is discarded: "(void)x;" is
//     ExprStmt{X: x}, and likewise in a for's third clause and a comma's
//     left side. Elsewhere (an arm of ?:) it is an explicit Conv to void. "return f();" in a void function is an
//     ExprStmt followed by a Return.
//   - Enums are their underlying type (int unless fixed), and enumerators
//     constants of it. nullptr is a Const of the target pointer type, 0.
//   - Spellings: long is Int64 with Name "long", size_t Uint64 with Name
//     "size_t", clock() returns clock_t (Int64); compare types by Kind or
//     with Identical. Type.Volatile marks a pointer to volatile, and on an
//     array its volatile elements.
//   - A __constant__ variable is read-only in device code: writing it is an
//     error and its decayed pointer is a pointer to const.
//   - Atomics resolve by the pointee's type as nvcc does: a pointer to a
//     long (size_t, uint64_t, ...) has no overload and is an error that
//     suggests a cast. Math functions with plain names take float when all
//     floating arguments are float (exp(float) is the float overload) and
//     double otherwise; abs of a float is MathFabs; min and max take the
//     usual arithmetic conversion of their arguments.
//   - Shuffles always have four Args (width defaults to the int 32) and
//     __syncwarp one (0xffffffff by default). printf's Args[0] is the
//     *StringLit; the format's conversions have been checked against the
//     promoted arguments. A string literal passed for a %s conversion is
//     written into the format ("%s=%d", "n", n becomes "n=%d", n), so a
//     StringLit never appears anywhere else.
//   - Positions: an operator's node is at its operator token (Index at
//     '[', Member at '.' or '->'), a call at the function's name, a
//     statement at its first token, a DeclStmt at the declared name, an
//     implicit Conv at its operand. A token from a macro is at the macro's
//     use.
//   - __shared__ variables of a __device__ function are listed in that
//     function's Shared, not its callers'.
//
// Dump prints a checked tree compactly, for tests and debugging.
package cudac
