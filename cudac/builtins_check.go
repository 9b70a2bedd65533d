package cudac

import (
	"fmt"
	"strings"
)

// bcat is how a built-in function's call is checked.
type bcat uint8

const (
	bcFixed    bcat = iota // fixed parameter and result types
	bcSyncWarp             // __syncwarp(mask = 0xffffffff)
	bcShfl                 // the shuffles
	bcMatchAny
	bcMatchAll
	bcReduce // __reduce_*_sync
	bcAtomic
	bcMathF // float only: the f-suffixed names and the __ intrinsics
	bcMathD // plain names: float or double by the arguments
	bcMinMax
	bcClassify // isnan, isinf, isfinite, signbit: one float or double, bool
	bcRoundInt // llrint, lrint (float or double by the argument), llrintf, lrintf
	bcAbs
	bcLdg
	bcPrintf
)

type builtinFunc struct {
	b      Builtin
	cat    bcat
	params []*Type // bcFixed
	result *Type   // bcFixed
	elem   *Type   // Elem for bcFixed; the fixed operand type of umin, llabs, ...
	n      int     // arity of a math function
	kinds  []Kind  // pointee kinds of an atomic
	scope  Scope   // an atomic's or a fence's scope
}

var (
	atomicAddKinds  = []Kind{Int32, Uint32, Uint64, Float32, Float64}
	atomicSubKinds  = []Kind{Int32, Uint32}
	atomicExchKinds = []Kind{Int32, Uint32, Uint64, Float32}
	atomicMinKinds  = []Kind{Int32, Uint32, Int64, Uint64}
	atomicIncKinds  = []Kind{Uint32}
	atomicCASKinds  = []Kind{Uint16, Int32, Uint32, Uint64}
	atomicBitKinds  = []Kind{Int32, Uint32, Uint64}
)

// scoped returns a copy of f with scope s.
func scoped(f *builtinFunc, s Scope) *builtinFunc {
	g := *f
	g.scope = s
	return &g
}

func fixed(b Builtin, result *Type, params ...*Type) *builtinFunc {
	f := &builtinFunc{b: b, cat: bcFixed, params: params, result: result}
	if len(params) > 0 && b >= Popc {
		f.elem = params[0]
	}
	return f
}

// builtinFuncs maps each built-in function name to how it is checked.
var builtinFuncs = map[string]*builtinFunc{
	"__syncthreads":        fixed(SyncThreads, voidType),
	"__syncthreads_count":  fixed(SyncThreadsCount, int32Type, int32Type),
	"__syncthreads_and":    fixed(SyncThreadsAnd, int32Type, int32Type),
	"__syncthreads_or":     fixed(SyncThreadsOr, int32Type, int32Type),
	"__syncwarp":           {b: SyncWarp, cat: bcSyncWarp},
	"__threadfence":        fixed(ThreadFence, voidType),
	"__threadfence_block":  scoped(fixed(ThreadFenceBlock, voidType), ScopeBlock),
	"__threadfence_system": scoped(fixed(ThreadFenceSystem, voidType), ScopeSystem),

	"__shfl_sync":       {b: ShflSync, cat: bcShfl},
	"__shfl_up_sync":    {b: ShflUpSync, cat: bcShfl},
	"__shfl_down_sync":  {b: ShflDownSync, cat: bcShfl},
	"__shfl_xor_sync":   {b: ShflXorSync, cat: bcShfl},
	"__ballot_sync":     fixed(BallotSync, uint32Type, uint32Type, int32Type),
	"__any_sync":        fixed(AnySync, int32Type, uint32Type, int32Type),
	"__all_sync":        fixed(AllSync, int32Type, uint32Type, int32Type),
	"__activemask":      fixed(ActiveMask, uint32Type),
	"__match_any_sync":  {b: MatchAnySync, cat: bcMatchAny},
	"__match_all_sync":  {b: MatchAllSync, cat: bcMatchAll},
	"__reduce_add_sync": {b: ReduceAddSync, cat: bcReduce},
	"__reduce_min_sync": {b: ReduceMinSync, cat: bcReduce},
	"__reduce_max_sync": {b: ReduceMaxSync, cat: bcReduce},
	"__reduce_and_sync": {b: ReduceAndSync, cat: bcReduce},
	"__reduce_or_sync":  {b: ReduceOrSync, cat: bcReduce},
	"__reduce_xor_sync": {b: ReduceXorSync, cat: bcReduce},

	"__popc":   fixed(Popc, int32Type, uint32Type),
	"__popcll": fixed(Popcll, int32Type, uint64Type),
	"__ffs":    fixed(Ffs, int32Type, int32Type),
	"__ffsll":  fixed(Ffsll, int32Type, int64Type),
	"__clz":    fixed(Clz, int32Type, int32Type),
	"__clzll":  fixed(Clzll, int32Type, int64Type),
	"__brev":   fixed(Brev, uint32Type, uint32Type),
	"__brevll": fixed(Brevll, uint64Type, uint64Type),

	"atomicAdd":  {b: AtomicAdd, cat: bcAtomic, kinds: atomicAddKinds},
	"atomicSub":  {b: AtomicSub, cat: bcAtomic, kinds: atomicSubKinds},
	"atomicExch": {b: AtomicExch, cat: bcAtomic, kinds: atomicExchKinds},
	"atomicMin":  {b: AtomicMin, cat: bcAtomic, kinds: atomicMinKinds},
	"atomicMax":  {b: AtomicMax, cat: bcAtomic, kinds: atomicMinKinds},
	"atomicInc":  {b: AtomicInc, cat: bcAtomic, kinds: atomicIncKinds},
	"atomicDec":  {b: AtomicDec, cat: bcAtomic, kinds: atomicIncKinds},
	"atomicCAS":  {b: AtomicCAS, cat: bcAtomic, kinds: atomicCASKinds},
	"atomicAnd":  {b: AtomicAnd, cat: bcAtomic, kinds: atomicBitKinds},
	"atomicOr":   {b: AtomicOr, cat: bcAtomic, kinds: atomicBitKinds},
	"atomicXor":  {b: AtomicXor, cat: bcAtomic, kinds: atomicBitKinds},

	"__expf":     {b: FastExp, cat: bcMathF, n: 1},
	"__logf":     {b: FastLog, cat: bcMathF, n: 1},
	"__powf":     {b: FastPow, cat: bcMathF, n: 2},
	"__sinf":     {b: FastSin, cat: bcMathF, n: 1},
	"__cosf":     {b: FastCos, cat: bcMathF, n: 1},
	"__fdividef": {b: FastDiv, cat: bcMathF, n: 2},
	"__fadd_rn":  {b: FaddRn, cat: bcMathF, n: 2},
	"__fmul_rn":  {b: FmulRn, cat: bcMathF, n: 2},
	"__fmaf_rn":  {b: FmaRn, cat: bcMathF, n: 3},

	"min":    {b: Min, cat: bcMinMax},
	"max":    {b: Max, cat: bcMinMax},
	"umin":   {b: Min, cat: bcMinMax, elem: uint32Type},
	"umax":   {b: Max, cat: bcMinMax, elem: uint32Type},
	"llmin":  {b: Min, cat: bcMinMax, elem: int64Type},
	"llmax":  {b: Max, cat: bcMinMax, elem: int64Type},
	"ullmin": {b: Min, cat: bcMinMax, elem: uint64Type},
	"ullmax": {b: Max, cat: bcMinMax, elem: uint64Type},
	"abs":    {b: Abs, cat: bcAbs},

	"isnan":    {b: IsNaN, cat: bcClassify, n: 1},
	"isinf":    {b: IsInf, cat: bcClassify, n: 1},
	"isfinite": {b: IsFinite, cat: bcClassify, n: 1},
	"signbit":  {b: SignBit, cat: bcClassify, n: 1},
	"llrint":   {b: LlRint, cat: bcRoundInt, n: 1},
	"lrint":    {b: LlRint, cat: bcRoundInt, n: 1},
	"llrintf":  {b: LlRint, cat: bcRoundInt, n: 1, elem: float32Type},
	"lrintf":   {b: LlRint, cat: bcRoundInt, n: 1, elem: float32Type},
	"llabs":    {b: Abs, cat: bcAbs, elem: int64Type},
	"labs":     {b: Abs, cat: bcAbs, elem: longType},

	"__float_as_int":       fixed(FloatAsInt, int32Type, float32Type),
	"__float_as_uint":      fixed(FloatAsUint, uint32Type, float32Type),
	"__int_as_float":       fixed(IntAsFloat, float32Type, int32Type),
	"__uint_as_float":      fixed(UintAsFloat, float32Type, uint32Type),
	"__double_as_longlong": fixed(DoubleAsLongLong, int64Type, float64Type),
	"__longlong_as_double": fixed(LongLongAsDouble, float64Type, int64Type),

	"__ldg":   {b: Ldg, cat: bcLdg},
	"clock":   fixed(Clock, clockType),
	"clock64": fixed(Clock64, int64Type),
	"__trap":  fixed(Trap, voidType),
	"printf":  {b: Printf, cat: bcPrintf},
}

func init() {
	// The scoped atomics (atomicAdd_block, atomicAdd_system, ...) are the
	// atomics with the scope recorded (BuiltinCall.Scope): the simulator's
	// relaxed memory model honours it.
	for name, bf := range builtinFuncs {
		if bf.cat == bcAtomic && bf.scope == ScopeDevice {
			builtinFuncs[name+"_block"] = scoped(bf, ScopeBlock)
			builtinFuncs[name+"_system"] = scoped(bf, ScopeSystem)
		}
	}
	math := []struct {
		b Builtin
		n int
	}{
		{MathExp, 1}, {MathExp2, 1}, {MathLog, 1}, {MathLog2, 1}, {MathLog10, 1}, {MathSqrt, 1},
		{MathRsqrt, 1}, {MathFabs, 1}, {MathFmin, 2}, {MathFmax, 2}, {MathFloor, 1}, {MathCeil, 1},
		{MathRound, 1}, {MathRint, 1}, {MathTrunc, 1}, {MathPow, 2}, {MathSin, 1}, {MathCos, 1},
		{MathTan, 1}, {MathTanh, 1}, {MathFmod, 2}, {MathFma, 3},
	}
	for _, m := range math {
		name := m.b.String()
		builtinFuncs[name] = &builtinFunc{b: m.b, cat: bcMathD, n: m.n}
		builtinFuncs[name+"f"] = &builtinFunc{b: m.b, cat: bcMathF, n: m.n}
	}
	for _, name := range []string{"acos", "asin", "atan", "atan2", "sinh", "cosh", "asinh", "acosh",
		"atanh", "cbrt", "hypot", "erf", "erfc", "expm1", "log1p", "exp10", "copysign", "lgamma",
		"tgamma", "sincos", "sinpi", "cospi", "frexp", "ldexp", "modf", "remainder", "nextafter",
		"fdim", "logb", "ilogb", "scalbn", "norm3d", "rcbrt", "normcdf"} {
		unsupportedNames[name] = fmt.Sprintf("math function '%s' is not supported", name)
		unsupportedNames[name+"f"] = fmt.Sprintf("math function '%sf' is not supported", name)
	}
	for _, name := range []string{"__saturatef", "__frcp_rn", "__fsqrt_rn", "__exp10f", "__log2f",
		"__log10f", "__tanf", "__sincosf", "__dadd_rn", "__dmul_rn", "__fsub_rn", "__fdiv_rn",
		"__fmaf_rz", "__float2int_rn", "__float2uint_rn", "__int2float_rn",
		"__umul64hi", "__mul64hi", "__fns", "__nanosleep", "__reduce_add_sync",
		"__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",
		"__reduce_xor_sync", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv", "__stcg", "__stwb",
		"__stcs", "__stwt", "__isGlobal", "__isShared", "globaltimer", "__prof_trigger", "__brkpt", "__assertfail"} {
		unsupportedNames[name] = fmt.Sprintf("'%s' is not supported", name)
	}
}

// builtinCall checks a call of a built-in function.
func (c *checker) builtinCall(e *sCall, name string, bf *builtinFunc) Expr {
	if bf.cat == bcPrintf {
		return c.printf(e)
	}
	args, ok := c.args(e.Args)
	if !ok {
		return badExpr(e.P)
	}
	arity := func(min, max int) bool {
		switch {
		case len(args) < min:
			want := fmt.Sprint(min)
			if max > min {
				want = fmt.Sprint("at least ", min)
			}
			c.errorf(e.P, "too few arguments to '%s' (want %s, have %d)", name, want, len(args))
			return false
		case len(args) > max:
			want := fmt.Sprint(max)
			if max > min {
				want = fmt.Sprint("at most ", max)
			}
			c.errorf(e.P, "too many arguments to '%s' (want %s, have %d)", name, want, len(args))
			return false
		}
		return true
	}
	conv := func(i int, t *Type) bool {
		args[i] = c.convertTo(args[i], t, fmt.Sprintf("in argument %d of '%s'", i+1, name))
		return !isBad(args[i])
	}
	call := &BuiltinCall{P: e.P, Builtin: bf.b, Scope: bf.scope}
	switch bf.cat {
	case bcFixed:
		if !arity(len(bf.params), len(bf.params)) {
			return badExpr(e.P)
		}
		for i, t := range bf.params {
			if !conv(i, t) {
				return badExpr(e.P)
			}
		}
		call.Elem, call.T = bf.elem, bf.result
	case bcSyncWarp:
		if !arity(0, 1) {
			return badExpr(e.P)
		}
		if len(args) == 0 {
			args = []Expr{&Const{P: e.RPos, T: uint32Type, Int: 0xffffffff}}
		} else if !conv(0, uint32Type) {
			return badExpr(e.P)
		}
		call.T = voidType
	case bcShfl:
		if !arity(3, 4) || !conv(0, uint32Type) {
			return badExpr(e.P)
		}
		elem := c.warpValueType(name, args[1])
		if elem == nil {
			return badExpr(e.P)
		}
		args[1] = c.conv(args[1], elem)
		laneType := int32Type
		if bf.b == ShflUpSync || bf.b == ShflDownSync {
			laneType = uint32Type
		}
		if !conv(2, laneType) {
			return badExpr(e.P)
		}
		if len(args) == 3 {
			args = append(args, &Const{P: e.RPos, T: int32Type, Int: 32})
		} else if !conv(3, int32Type) {
			return badExpr(e.P)
		}
		call.Elem, call.T = elem, elem
	case bcReduce:
		if arch := c.impl.arch; arch < 800 {
			c.errorf(e.P, "'%s' needs compute capability 8.0 or newer (sm_80); this target is sm_%d, where NVRTC does not declare it", name, arch/10)
			return badExpr(e.P)
		}
		if !arity(2, 2) || !conv(0, uint32Type) {
			return badExpr(e.P)
		}
		elem := uint32Type
		if vt := args[1].Type(); bf.b == ReduceAddSync || bf.b == ReduceMinSync || bf.b == ReduceMaxSync {
			switch {
			case vt.IsInteger() && vt.Size() < 4 || vt.Kind == Int32 || vt.Kind == Bool:
				elem = int32Type // the int overload: an exact match after promotion
			case vt.Kind == Uint32:
			default:
				c.errorf(args[1].Pos(), "call of '%s' with a '%s' value is ambiguous: it has an unsigned int and an int overload (cast the value to one of them)", name, vt)
				return badExpr(e.P)
			}
		}
		if !conv(1, elem) {
			return badExpr(e.P)
		}
		call.Elem, call.T = elem, elem
	case bcMatchAny, bcMatchAll:
		n := 2
		if bf.cat == bcMatchAll {
			n = 3
		}
		if !arity(n, n) || !conv(0, uint32Type) {
			return badExpr(e.P)
		}
		elem := c.warpValueType(name, args[1])
		if elem == nil {
			return badExpr(e.P)
		}
		args[1] = c.conv(args[1], elem)
		if n == 3 && !conv(2, PointerTo(int32Type, false)) {
			return badExpr(e.P)
		}
		call.Elem, call.T = elem, uint32Type
	case bcAtomic:
		n := 2
		if bf.b == AtomicCAS {
			n = 3
		}
		if !arity(n, n) {
			return badExpr(e.P)
		}
		elem := c.atomicElem(name, bf, args[0])
		if elem == nil {
			return badExpr(e.P)
		}
		for i := 1; i < n; i++ {
			if !conv(i, elem) {
				return badExpr(e.P)
			}
		}
		call.Elem, call.T = elem, elem
	case bcMathF:
		if !arity(bf.n, bf.n) {
			return badExpr(e.P)
		}
		for i := range args {
			if !conv(i, float32Type) {
				return badExpr(e.P)
			}
		}
		call.Elem, call.T = float32Type, float32Type
	case bcMathD:
		if !arity(bf.n, bf.n) {
			return badExpr(e.P)
		}
		elem := float64Type
		anyFloat, anyDouble := false, false
		for i, a := range args {
			t := a.Type()
			if !t.IsArithmetic() {
				c.errorf(a.Pos(), "argument %d of '%s' must be a number, not '%s'", i+1, name, t)
				return badExpr(e.P)
			}
			anyFloat = anyFloat || t.Kind == Float32
			anyDouble = anyDouble || t.Kind == Float64
		}
		if anyFloat && !anyDouble {
			elem = float32Type
		}
		for i := range args {
			if !conv(i, elem) {
				return badExpr(e.P)
			}
		}
		call.Elem, call.T = elem, elem
	case bcRoundInt:
		if !arity(1, 1) {
			return badExpr(e.P)
		}
		t := args[0].Type()
		if !t.IsArithmetic() {
			c.errorf(args[0].Pos(), "argument of '%s' must be a number, not '%s'", name, t)
			return badExpr(e.P)
		}
		elem := float64Type
		if bf.elem != nil || t.Kind == Float32 {
			elem = float32Type
		}
		if !conv(0, elem) {
			return badExpr(e.P)
		}
		call.Elem, call.T = elem, int64Type
	case bcClassify:
		// Like C++'s overloads: a float stays float, anything else
		// arithmetic is classified as a double.
		if !arity(1, 1) {
			return badExpr(e.P)
		}
		t := args[0].Type()
		if !t.IsArithmetic() {
			c.errorf(args[0].Pos(), "argument of '%s' must be a number, not '%s'", name, t)
			return badExpr(e.P)
		}
		elem := float64Type
		if t.Kind == Float32 {
			elem = float32Type
		}
		if !conv(0, elem) {
			return badExpr(e.P)
		}
		call.Elem, call.T = elem, boolType
	case bcMinMax:
		if !arity(2, 2) {
			return badExpr(e.P)
		}
		elem := bf.elem
		if elem == nil {
			at, bt := args[0].Type(), args[1].Type()
			if !at.IsArithmetic() || !bt.IsArithmetic() {
				c.errorf(e.P, "no '%s' overload for ('%s', '%s')", name, at, bt)
				return badExpr(e.P)
			}
			elem = usualArith(at, bt)
		}
		if !conv(0, elem) || !conv(1, elem) {
			return badExpr(e.P)
		}
		call.Elem, call.T = elem, elem
		if k := c.foldMinMax(call, args); k != nil {
			return k
		}
	case bcAbs:
		if !arity(1, 1) {
			return badExpr(e.P)
		}
		elem := bf.elem
		if elem == nil {
			t := args[0].Type()
			switch pt := promote(t); {
			case pt.Kind == Int32 || pt.Kind == Int64:
				elem = pt
			case pt.IsFloat():
				call.Builtin = MathFabs
				elem = pt
			case pt.IsInteger():
				c.errorf(e.P, "call to 'abs' is ambiguous for an unsigned argument ('%s')", t)
				return badExpr(e.P)
			default:
				c.errorf(e.P, "no 'abs' overload for '%s'", t)
				return badExpr(e.P)
			}
		}
		if !conv(0, elem) {
			return badExpr(e.P)
		}
		call.Elem, call.T = elem, elem
	case bcLdg:
		if !arity(1, 1) {
			return badExpr(e.P)
		}
		t := args[0].Type()
		if t.Kind != Pointer || t == nullptrType || !t.Elem.IsScalar() {
			c.errorf(args[0].Pos(), "__ldg needs a pointer to a scalar, not '%s'", t)
			return badExpr(e.P)
		}
		elem := t.Elem
		if !conv(0, &Type{Kind: Pointer, Elem: elem, Const: true, Volatile: t.Volatile}) {
			return badExpr(e.P)
		}
		call.Elem, call.T = elem, elem
	}
	call.Args = args
	return call
}

// foldMinMax folds min and max of constants.
func (c *checker) foldMinMax(call *BuiltinCall, args []Expr) Expr {
	a, ok1 := args[0].(*Const)
	b, ok2 := args[1].(*Const)
	if !ok1 || !ok2 || call.Elem.IsFloat() {
		return nil
	}
	less := compareConst(Lt, a, b)
	k := a
	if less == (call.Builtin == Max) {
		k = b
	}
	out := *k
	out.P = call.P
	return &out
}

// warpValueType resolves the T of a shuffle or match: int, unsigned,
// long long, unsigned long long (and the longs), float or double; smaller
// integers promote to int.
func (c *checker) warpValueType(name string, x Expr) *Type {
	t := x.Type()
	switch t.Kind {
	case Int32, Uint32, Int64, Uint64, Float32, Float64:
		return t
	case Bool, Int8, Uint8, Int16, Uint16:
		return int32Type
	}
	c.errorf(x.Pos(), "no '%s' overload for a value of type '%s'", name, t)
	return nil
}

// atomicElem resolves the overload of an atomic from its pointer argument.
func (c *checker) atomicElem(name string, bf *builtinFunc, p Expr) *Type {
	t := p.Type()
	if t.Kind != Pointer || t == nullptrType {
		c.errorf(p.Pos(), "the first argument of '%s' must be a pointer, not '%s'", name, t)
		return nil
	}
	elem := t.Elem
	ok := false
	for _, k := range bf.kinds {
		if elem.Kind == k {
			ok = true
		}
	}
	if !ok || isLong(elem) {
		var names []string
		for _, k := range bf.kinds {
			names = append(names, k.String()+"*")
		}
		hint := ""
		if isLong(elem) && ok {
			hint = fmt.Sprintf("; '%s' is a long, so cast the pointer to '%s*'", elem, ScalarType(elem.Kind))
		}
		c.errorf(p.Pos(), "no '%s' overload for '%s' (it takes %s)%s", name, t, strings.Join(names, ", "), hint)
		return nil
	}
	if t.Const {
		c.errorf(p.Pos(), "'%s' cannot modify an object through a pointer to const ('%s')", name, t)
		return nil
	}
	if t.Volatile {
		c.errorf(p.Pos(), "no '%s' overload for a pointer to volatile ('%s')", name, t)
		return nil
	}
	return ScalarType(elem.Kind)
}
