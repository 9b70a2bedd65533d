// Package cudac is warplab's front end for the subset of CUDA C that the labs
// and students write: it lexes, preprocesses (object-like #define, #ifdef,
// #include lines ignored), parses and type-checks a source file into a typed
// tree that both backends consume, and reports every error as
// "file.cu:line:col: message" with the source line and a caret.
//
// # The subset
//
// Top level: __global__ and __device__ functions (extern "C" optional),
// template kernels and device functions over integer parameters
// (template <int N>), instantiated by name ("sumTree<256>"); constexpr, const
// and static constexpr scalar globals; __device__ and __constant__ variables;
// struct declarations with alignas; static_assert; typedef and using aliases.
//
// Types: bool, char, the signed and unsigned short, int, long and long long,
// size_t and the <cstdint> names, float, double, pointers (const, volatile,
// __restrict__), local arrays, __shared__ scalars and arrays, and
// extern __shared__ T name[] sized at launch.
//
// Statements and expressions: everything C has apart from goto, labels and
// function pointers, with C's precedence, integer promotions and usual
// arithmetic conversions.
//
// Built-ins: see Builtin. Anything outside the subset is an error naming the
// construct and its position, never a crash or a silent misparse.
package cudac
