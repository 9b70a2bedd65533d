package cudac

// Builtin identifies a CUDA built-in function or variable. The checker
// resolves overloads; BuiltinCall.Elem and T say which one was chosen.
type Builtin uint16

// The built-ins. The comment gives the overloads the checker accepts; "T" is
// BuiltinCall.Elem.
const (
	BuiltinInvalid Builtin = iota

	// Built-in variables: unsigned int results, no arguments.
	ThreadIdxX
	ThreadIdxY
	ThreadIdxZ
	BlockIdxX
	BlockIdxY
	BlockIdxZ
	BlockDimX
	BlockDimY
	BlockDimZ
	GridDimX
	GridDimY
	GridDimZ
	// (warpSize is folded to the int constant 32.)

	// Barriers and fences.
	SyncThreads      // void __syncthreads()
	SyncThreadsCount // int __syncthreads_count(int pred)
	SyncThreadsAnd   // int __syncthreads_and(int pred)
	SyncThreadsOr    // int __syncthreads_or(int pred)
	SyncWarp         // void __syncwarp(unsigned mask = 0xffffffff)
	ThreadFence      // void __threadfence()
	ThreadFenceBlock // void __threadfence_block()
	ThreadFenceSystem

	// Warp-level primitives. T is int, unsigned, long long, unsigned long
	// long, float or double for the shuffles and __match_*_sync.
	ShflSync     // T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32)
	ShflUpSync   // T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32)
	ShflDownSync // T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32)
	ShflXorSync  // T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32)
	BallotSync   // unsigned __ballot_sync(unsigned mask, int pred)
	AnySync      // int __any_sync(unsigned mask, int pred)
	AllSync      // int __all_sync(unsigned mask, int pred)
	ActiveMask   // unsigned __activemask()
	MatchAnySync // unsigned __match_any_sync(unsigned mask, T value)
	MatchAllSync // unsigned __match_all_sync(unsigned mask, T value, int* pred)

	// Bit manipulation.
	Popc   // int __popc(unsigned)
	Popcll // int __popcll(unsigned long long)
	Ffs    // int __ffs(int)
	Ffsll  // int __ffsll(long long)
	Clz    // int __clz(int)
	Clzll  // int __clzll(long long)
	Brev   // unsigned __brev(unsigned)
	Brevll // unsigned long long __brevll(unsigned long long)

	// Atomics: the first argument is a T* into global or shared memory; the
	// result is the old value, of type T.
	AtomicAdd  // int, unsigned, unsigned long long, float, double
	AtomicSub  // int, unsigned
	AtomicExch // int, unsigned, unsigned long long, float
	AtomicMin  // int, unsigned, long long, unsigned long long
	AtomicMax  // int, unsigned, long long, unsigned long long
	AtomicInc  // unsigned: ((old >= val) ? 0 : (old+1))
	AtomicDec  // unsigned: (((old == 0) || (old > val)) ? val : (old-1))
	AtomicCAS  // T atomicCAS(T* addr, T compare, T val): unsigned short, int, unsigned, unsigned long long
	AtomicAnd  // int, unsigned, unsigned long long
	AtomicOr   // int, unsigned, unsigned long long
	AtomicXor  // int, unsigned, unsigned long long

	// Math. T is float for the f-suffixed names and the __ intrinsics, double
	// for the plain names; the result is T unless noted.
	MathExp   // expf, exp
	MathExp2  // exp2f, exp2
	MathLog   // logf, log
	MathLog2  // log2f, log2
	MathLog10 // log10f, log10
	MathSqrt  // sqrtf, sqrt
	MathRsqrt // rsqrtf, rsqrt
	MathFabs  // fabsf, fabs
	MathFmin  // fminf, fmin
	MathFmax  // fmaxf, fmax
	MathFloor // floorf, floor
	MathCeil  // ceilf, ceil
	MathRound // roundf, round (half away from zero)
	MathRint  // rintf, rint (half to even)
	MathTrunc // truncf, trunc
	MathPow   // powf, pow
	MathSin   // sinf, sin
	MathCos   // cosf, cos
	MathTan   // tanf, tan
	MathTanh  // tanhf, tanh
	MathFmod  // fmodf, fmod
	MathFma   // fmaf, fma: one rounding
	FastExp   // __expf (float only)
	FastLog   // __logf
	FastPow   // __powf
	FastSin   // __sinf
	FastCos   // __cosf
	FastDiv   // __fdividef(float, float)
	FaddRn    // __fadd_rn(float, float): never contracted into an FMA
	FmulRn    // __fmul_rn(float, float): never contracted into an FMA
	FmaRn     // __fmaf_rn(float, float, float)
	Min       // min(a, b): T int, unsigned, long long, unsigned long long, float, double
	Max       // max(a, b): likewise
	Abs       // abs(int), llabs(long long): T int or long long
	// Classification, bool f(x) for a float or double x (Elem), exact on
	// the bits as CUDA's are: NaN of either sign, both zeros, subnormals.
	IsNaN    // isnan(x)
	IsInf    // isinf(x): +-infinity
	IsFinite // isfinite(x): neither NaN nor infinite
	SignBit  // signbit(x): the sign bit is set (true for -0.0 and a negative NaN)
	// LlRint is llrintf, llrint, lrintf and lrint: x rounded half to
	// even, as a long long (Elem is x's type). Out of range it clamps and
	// NaN gives 0, as CUDA's cvt.rni does, which is (long long)rint(x).
	LlRint

	// Reinterpretation of bits.
	FloatAsInt       // int __float_as_int(float)
	FloatAsUint      // unsigned __float_as_uint(float)
	IntAsFloat       // float __int_as_float(int)
	UintAsFloat      // float __uint_as_float(unsigned)
	DoubleAsLongLong // long long __double_as_longlong(double)
	LongLongAsDouble // double __longlong_as_double(long long)

	// Others.
	Ldg     // T __ldg(const T* p): a read-only load, T any scalar
	Clock   // long long clock64() / clock_t clock(): the SM cycle counter
	Clock64 //
	Trap    // void __trap(): abort the launch
	Printf  // int printf(const char* format, ...): Args[0] is the *StringLit;
	// the rest have had C's default argument promotions (float to double,
	// bool/char/short to int).
	GridSync // void: cooperative_groups grid_group::sync(), a barrier of the whole grid; the launch must be cooperative

	// Warp reductions (sm_80 and newer): T __reduce_OP_sync(unsigned mask,
	// T value), T unsigned or int (Elem) for add, min and max, unsigned
	// for and, or and xor. Every lane in mask gets the reduction of the
	// values of the lanes in its mask.
	ReduceAddSync
	ReduceMinSync
	ReduceMaxSync
	ReduceAndSync
	ReduceOrSync
	ReduceXorSync

	// Atomic loads and stores (cuda::atomic_ref's load and store): Args[0]
	// is a T* (Elem T); AtomicStore's Args[1] the value. Scope and Order
	// say how they order.
	AtomicLoad
	AtomicStore

	numBuiltins
)

var builtinNames = [numBuiltins]string{
	ThreadIdxX: "threadIdx.x", ThreadIdxY: "threadIdx.y", ThreadIdxZ: "threadIdx.z",
	BlockIdxX: "blockIdx.x", BlockIdxY: "blockIdx.y", BlockIdxZ: "blockIdx.z",
	BlockDimX: "blockDim.x", BlockDimY: "blockDim.y", BlockDimZ: "blockDim.z",
	GridDimX: "gridDim.x", GridDimY: "gridDim.y", GridDimZ: "gridDim.z",
	SyncThreads: "__syncthreads", SyncThreadsCount: "__syncthreads_count",
	SyncThreadsAnd: "__syncthreads_and", SyncThreadsOr: "__syncthreads_or",
	SyncWarp: "__syncwarp", ThreadFence: "__threadfence", ThreadFenceBlock: "__threadfence_block",
	ThreadFenceSystem: "__threadfence_system",
	ShflSync:          "__shfl_sync", ShflUpSync: "__shfl_up_sync", ShflDownSync: "__shfl_down_sync",
	ShflXorSync: "__shfl_xor_sync", BallotSync: "__ballot_sync", AnySync: "__any_sync",
	AllSync: "__all_sync", ActiveMask: "__activemask", MatchAnySync: "__match_any_sync",
	MatchAllSync: "__match_all_sync", ReduceAddSync: "__reduce_add_sync", ReduceMinSync: "__reduce_min_sync",
	ReduceMaxSync: "__reduce_max_sync", ReduceAndSync: "__reduce_and_sync", ReduceOrSync: "__reduce_or_sync",
	ReduceXorSync: "__reduce_xor_sync", AtomicLoad: "cuda::atomic_ref::load", AtomicStore: "cuda::atomic_ref::store",
	Popc: "__popc", Popcll: "__popcll", Ffs: "__ffs", Ffsll: "__ffsll", Clz: "__clz", Clzll: "__clzll",
	Brev: "__brev", Brevll: "__brevll",
	AtomicAdd: "atomicAdd", AtomicSub: "atomicSub", AtomicExch: "atomicExch", AtomicMin: "atomicMin",
	AtomicMax: "atomicMax", AtomicInc: "atomicInc", AtomicDec: "atomicDec", AtomicCAS: "atomicCAS",
	AtomicAnd: "atomicAnd", AtomicOr: "atomicOr", AtomicXor: "atomicXor",
	MathExp: "exp", MathExp2: "exp2", MathLog: "log", MathLog2: "log2", MathLog10: "log10",
	MathSqrt: "sqrt", MathRsqrt: "rsqrt", MathFabs: "fabs", MathFmin: "fmin", MathFmax: "fmax",
	MathFloor: "floor", MathCeil: "ceil", MathRound: "round", MathRint: "rint", MathTrunc: "trunc",
	MathPow: "pow", MathSin: "sin", MathCos: "cos", MathTan: "tan", MathTanh: "tanh", MathFmod: "fmod",
	MathFma: "fma", FastExp: "__expf", FastLog: "__logf", FastPow: "__powf", FastSin: "__sinf",
	FastCos: "__cosf", FastDiv: "__fdividef", FaddRn: "__fadd_rn", FmulRn: "__fmul_rn", FmaRn: "__fmaf_rn",
	Min: "min", Max: "max", Abs: "abs",
	IsNaN: "isnan", IsInf: "isinf", IsFinite: "isfinite", SignBit: "signbit", LlRint: "llrint",
	FloatAsInt: "__float_as_int", FloatAsUint: "__float_as_uint", IntAsFloat: "__int_as_float",
	UintAsFloat: "__uint_as_float", DoubleAsLongLong: "__double_as_longlong",
	LongLongAsDouble: "__longlong_as_double",
	Ldg:              "__ldg", Clock: "clock", Clock64: "clock64", Trap: "__trap", Printf: "printf",
	GridSync: "grid_group::sync",
}

func (b Builtin) String() string {
	if b < numBuiltins && builtinNames[b] != "" {
		return builtinNames[b]
	}
	return "builtin?"
}

// IsAtomic reports whether b is one of the atomic read-modify-write functions.
func (b Builtin) IsAtomic() bool { return b >= AtomicAdd && b <= AtomicXor }

// IsSpecialRegister reports whether b is threadIdx, blockIdx, blockDim or gridDim.
func (b Builtin) IsSpecialRegister() bool { return b >= ThreadIdxX && b <= GridDimZ }
