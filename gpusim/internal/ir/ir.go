package ir

import (
	"fmt"
	"strings"

	"github.com/warplab/warplab/cudac"
)

// The generic address windows.
const (
	SharedBase = 0x0000_0001_0000_0000 // shared memory of the thread's block
	SharedMax  = 0x0000_0000_1000_0000
	LocalBase  = 0x0000_0002_0000_0000 // the thread's own local memory
	LocalMax   = 0x0000_0000_1000_0000
	GlobalBase = 0x0000_7f00_0000_0000 // global allocations
)

// Reg is a register number; NoReg means none.
type Reg int32

// NoReg is the absent register.
const NoReg Reg = -1

// Op is an instruction's operation. Typed operations take their operand type
// from Inst.T (a cudac.Kind).
type Op uint8

const (
	Nop Op = iota

	// Data movement.
	Mov  // Dst = A
	MovI // Dst = Imm
	Sel  // Dst = C != 0 ? A : B   (64-bit copy)

	// Arithmetic and logic on T (Int32, Uint32, Int64, Uint64, Float32,
	// Float64). With FlagImmB the second operand is Imm instead of B.
	Add
	Sub
	Mul
	Div
	Rem
	And
	Or
	Xor
	Shl
	Shr // arithmetic for signed T
	Min
	Max
	// Comparisons on T, giving bool (0 or 1).
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	// Unary on T.
	Neg
	Not  // bitwise complement
	LNot // bool: Dst = A == 0
	Abs
	// Fma: Dst = A*B + C with one rounding (T Float32 or Float64).
	Fma
	// Lea: Dst = A + B*Imm, 64-bit address arithmetic (B is a signed 64-bit
	// index); with A NoReg, Dst = B*Imm.
	Lea
	// Cvt converts A from kind T2 to kind T (any scalar kinds, C's rules,
	// float to integer saturating as cvt.rzi does, NaN to 0).
	Cvt
	// Math applies a float function (Aux is the cudac.Builtin) to A (and B
	// for two-argument functions) in type T.
	Math
	// Bit operations on T Uint32 or Uint64 (Aux is the cudac.Builtin:
	// Popc, Clz, Ffs, Brev and their ll forms); the result is int except for Brev.
	Bits

	// S2R reads a special register: Aux is the cudac.Builtin (ThreadIdxX ...),
	// or one of the SR constants below.
	S2R

	// Memory. T is the memory kind (its size says how many bytes move);
	// the address is A + Imm, or Imm alone when A is NoReg.
	Ld // Dst = *(A+Imm), extended to a register value
	St // *(A+Imm) = B
	// Atom: an atomic read-modify-write; Aux is the cudac.Builtin, T the
	// element kind; A the address, B the operand, C the compare value of
	// atomicCAS; Dst the old value (NoReg when unused).
	Atom

	// Warp-level operations.
	Shfl     // Aux: ShflSync..ShflXorSync; A mask, B value (kind T), C lane/delta, Args[0] width
	Vote     // Aux: BallotSync, AnySync, AllSync, ActiveMask; A mask, B predicate
	Match    // Aux: MatchAnySync, MatchAllSync, Reduce*Sync; A mask, B value (kind T); MatchAll writes its predicate to Args[0]
	SyncWarp // A mask

	// Barriers and fences.
	Bar   // Aux: SyncThreads, SyncThreadsCount/And/Or; A predicate; Dst result
	Fence // Aux: ThreadFence, ThreadFenceBlock, ThreadFenceSystem; Scope and Order say what it orders

	// Control flow. Target is where to go when the active mask becomes
	// empty (or, for Jmp, always).
	Jmp
	If        // push{If}; else-lanes = mask &^ cond; mask &= cond; if empty goto Target (the Else or EndIf)
	Else      // mask = the entry's else-lanes; if empty goto Target (the EndIf)
	EndIf     // pop; mask = saved &^ parked; if empty goto Target
	Loop      // push{Loop}
	LoopTest  // lanes whose cond is false leave the loop (parked in it); if none left goto Target (the EndLoop)
	LoopBack  // the bottom test: lanes whose cond is false (or none, without Cmp) leave; if any remain goto Target (the top)
	ContJoin  // lanes parked by continue rejoin; if none active goto Target (the EndLoop)
	EndLoop   // pop, releasing the loop's parked lanes; mask = saved &^ parked; if empty goto Target
	Break     // park the active lanes in entry Aux; goto Target
	Continue  // park the active lanes in entry Aux as continuing; goto Target
	Return    // park the active lanes in function entry Aux; goto Target
	Func      // push{Func}
	EndFunc   // pop, releasing returned lanes; mask = saved &^ parked; if empty goto Target
	Switch    // push{Switch}: A is the tag, Vals the case values
	Case      // lanes whose tag A equals Imm and that have not entered a case join; if none active goto Target (the next label)
	Default   // lanes that match no case join; if none active goto Target
	EndSwitch // pop, releasing break lanes; mask = saved &^ parked; if empty goto Target
	Exit      // kernel return: the active lanes finish; goto Target
	End       // the end of the kernel: every lane still running finishes

	// GAddr: Dst = the address of Kernel.Globals[Aux] + Imm.
	GAddr

	// Others.
	Printf // Aux indexes Kernel.Formats; Args are the argument registers
	Trap
	Clock // Dst = the warp's clock (cycles)

	numOps
)

// Flags modify an instruction.
type Flags uint16

const (
	// FlagImmB: the second operand is Imm, not B.
	FlagImmB Flags = 1 << iota
	// FlagAggregatable: the compiler aggregates an integer atomic per warp:
	// its address is the same for every lane (statically) and its
	// operation one that nvcc aggregates (see lowerer.aggregation).
	FlagAggregatable
	// FlagVolatile: a volatile access, which the scheduler orders against
	// other warps like an atomic.
	FlagVolatile
	// FlagUniform: the operands of a branch's comparison hold the same value
	// in every active lane (by the divergence analysis), so one lane decides.
	FlagUniform
	// FlagBarrier marks an If, Loop or LoopTest whose body contains a
	// __syncthreads: threads of a block that go different ways there
	// diverge at a barrier.
	FlagBarrier
	// FlagAggFullWarp: an aggregatable atomic is aggregated only when all
	// 32 lanes of the warp are active (the compiler's guard around a
	// shuffle prefix sum); otherwise every lane issues its own.
	FlagAggFullWarp
	// FlagAlign8 and FlagAlign16 mark the first load or store of a copy of
	// a struct aligned to 8 or 16 bytes (float2, float4, int4, ...), which
	// the hardware moves with one wide access: its address must be aligned
	// to the struct's alignment.
	FlagAlign8
	FlagAlign16
	// FlagPopcInc: a 32-bit integer atomicAdd of the constant 1 whose
	// result is unused, which nvcc compiles for shared memory to
	// ATOMS.POPC.INC: the lanes on one address are one operation.
	FlagPopcInc
)

// Space hints where a memory instruction's address probably points. The
// engine checks the hinted window first and falls back to the others.
type Space uint8

const (
	SpaceGeneric Space = iota
	SpaceGlobal
	SpaceShared
	SpaceLocal
)

func (s Space) String() string {
	return [...]string{"generic", "global", "shared", "local"}[s]
}

// Inst is one instruction.
type Inst struct {
	Op    Op
	T     cudac.Kind // operand type
	T2    cudac.Kind // source type of Cvt
	Space Space      // memory instructions: the address's likely window
	Flags Flags
	Dst   Reg
	A     Reg
	B     Reg
	C     Reg
	Imm   uint64
	// Cmp is the comparison of an If or LoopTest: the condition is
	// A Cmp B (or A Cmp Imm with FlagImmB) in type T.
	Cmp Op
	// Target is a jump target (an instruction index).
	Target int32
	// Aux is a cudac.Builtin, a stack-entry index or a table index.
	Aux int32
	// Scope and Order are the scope and memory order of an Atom, a Fence,
	// or an Ld or St that is an atomic load or store (cuda::atomic_ref):
	// atomicAdd_block is an Atom with ScopeBlock, __threadfence_block() a
	// Fence with ScopeBlock and OrderSeqCst. The zero values are device
	// scope and the construct's default order (relaxed for atomics, a plain
	// access for Ld and St). An Ld or St with an Order is an atomic load or
	// store: the relaxed model orders it among blocks like a volatile
	// access, and a lowering sets FlagVolatile too so that the default
	// scheduler does.
	Scope cudac.Scope
	Order cudac.MemoryOrder
	// Pos indexes Kernel.Pos: where in the source this came from.
	Pos  int32
	Args []Reg
	Vals []int64
}

// Kernel is a lowered kernel, ready to run.
type Kernel struct {
	Name string
	Func *cudac.Func
	Code []Inst
	// NumRegs is the number of registers per lane.
	NumRegs int
	// Params gives each parameter's register; its value is set at launch.
	Params []Reg
	// LocalBytes is the per-thread local memory size.
	LocalBytes int64
	// SharedBytes is the static shared memory per block; dynamic shared
	// memory starts at DynSharedOffset.
	SharedBytes     int64
	DynSharedOffset int64
	// SharedVars describes the shared memory layout, for messages.
	SharedVars []SharedVar
	// MaxStack is the deepest mask stack any instruction uses.
	MaxStack int
	// Pos maps Inst.Pos to source positions.
	Pos []cudac.Pos
	// Formats are printf's formats.
	Formats []Format
	// Globals are the module variables the code addresses, for the engine to place.
	Globals []*cudac.Var
}

// SharedVar is one __shared__ variable's place in the block's shared memory.
type SharedVar struct {
	Name     string
	Offset   int64
	Size     int64 // 0 for dynamic shared memory, sized at launch
	ElemSize int64 // element size of an array, else the variable's size
	Dynamic  bool
}

// Format is one printf call's format and argument kinds.
type Format struct {
	Text  string
	Kinds []cudac.Kind
}

// PosOf returns the source position of instruction i.
func (k *Kernel) PosOf(i int) cudac.Pos {
	if i < 0 || i >= len(k.Code) {
		return cudac.Pos{}
	}
	return k.Pos[k.Code[i].Pos]
}

var opNames = [numOps]string{
	Nop: "nop", Mov: "mov", MovI: "movi", Sel: "sel",
	Add: "add", Sub: "sub", Mul: "mul", Div: "div", Rem: "rem", And: "and", Or: "or", Xor: "xor",
	Shl: "shl", Shr: "shr", Min: "min", Max: "max",
	Eq: "eq", Ne: "ne", Lt: "lt", Le: "le", Gt: "gt", Ge: "ge",
	Neg: "neg", Not: "not", LNot: "lnot", Abs: "abs", Fma: "fma", Lea: "lea", Cvt: "cvt",
	Math: "math", Bits: "bits", S2R: "s2r",
	Ld: "ld", St: "st", Atom: "atom",
	Shfl: "shfl", Vote: "vote", Match: "match", SyncWarp: "syncwarp",
	Bar: "bar", Fence: "fence",
	Jmp: "jmp", If: "if", Else: "else", EndIf: "endif", Loop: "loop", LoopTest: "looptest", LoopBack: "loopback",
	ContJoin: "contjoin", EndLoop: "endloop", Break: "break", Continue: "continue", Return: "return",
	Func: "func", EndFunc: "endfunc", Switch: "switch", Case: "case", Default: "default",
	EndSwitch: "endswitch", Exit: "exit", End: "end",
	GAddr: "gaddr", Printf: "printf", Trap: "trap", Clock: "clock",
}

func (op Op) String() string {
	if op < numOps && opNames[op] != "" {
		return opNames[op]
	}
	return fmt.Sprintf("op%d", op)
}

// IsControl reports whether op changes the mask or the instruction pointer.
func (op Op) IsControl() bool { return op >= Jmp && op <= End }

func (r Reg) String() string {
	if r == NoReg {
		return "_"
	}
	return fmt.Sprintf("r%d", r)
}

// String disassembles one instruction.
func (in *Inst) String() string {
	var b strings.Builder
	b.WriteString(in.Op.String())
	switch in.Op {
	case Cvt:
		fmt.Fprintf(&b, ".%s.%s", kindSuffix(in.T), kindSuffix(in.T2))
	case Math, Bits, S2R, Atom, Shfl, Vote, Match, Bar, Fence:
		fmt.Fprintf(&b, ".%s", cudac.Builtin(in.Aux))
		if in.T != cudac.Invalid {
			fmt.Fprintf(&b, ".%s", kindSuffix(in.T))
		}
	default:
		if in.T != cudac.Invalid && in.Cmp == 0 {
			fmt.Fprintf(&b, ".%s", kindSuffix(in.T))
		}
	}
	if in.Op == Ld || in.Op == St || in.Op == Atom {
		fmt.Fprintf(&b, ".%s", in.Space)
	}
	if in.Cmp != 0 {
		fmt.Fprintf(&b, ".%s.%s", in.Cmp, kindSuffix(in.T))
	}
	if in.Flags&FlagUniform != 0 {
		b.WriteString(".uni")
	}
	if in.Order != cudac.OrderDefault {
		fmt.Fprintf(&b, ".%s", in.Order)
	}
	if in.Scope != cudac.ScopeDevice {
		fmt.Fprintf(&b, ".%s", in.Scope)
	}
	if in.Flags&FlagVolatile != 0 {
		b.WriteString(".volatile")
	}
	if in.Flags&FlagAggregatable != 0 {
		b.WriteString(".agg")
	}
	if in.Flags&FlagAggFullWarp != 0 {
		b.WriteString(".full")
	}
	var ops []string
	if in.Dst != NoReg {
		ops = append(ops, in.Dst.String())
	}
	for _, r := range []Reg{in.A, in.B, in.C} {
		if r != NoReg {
			ops = append(ops, r.String())
		}
	}
	if in.Flags&FlagImmB != 0 || in.Op == MovI || in.Op == Lea || in.Op == Case || ((in.Op == Ld || in.Op == St) && in.Imm != 0) {
		ops = append(ops, fmt.Sprintf("#%#x", in.Imm))
	}
	for _, r := range in.Args {
		ops = append(ops, r.String())
	}
	if len(in.Vals) > 0 {
		ops = append(ops, fmt.Sprint(in.Vals))
	}
	switch in.Op {
	case Break, Continue, Return:
		ops = append(ops, fmt.Sprintf("entry%d", in.Aux))
	case Printf:
		ops = append(ops, fmt.Sprintf("fmt%d", in.Aux))
	}
	if in.Op.IsControl() && in.Op != Loop && in.Op != Func && in.Op != Switch && in.Op != End {
		ops = append(ops, fmt.Sprintf("->%d", in.Target))
	}
	if len(ops) > 0 {
		b.WriteString(" ")
		b.WriteString(strings.Join(ops, ", "))
	}
	return b.String()
}

func kindSuffix(k cudac.Kind) string {
	return [...]string{cudac.Invalid: "?", cudac.Void: "v", cudac.Bool: "pred", cudac.Int8: "s8", cudac.Uint8: "u8",
		cudac.Int16: "s16", cudac.Uint16: "u16", cudac.Int32: "s32", cudac.Uint32: "u32", cudac.Int64: "s64",
		cudac.Uint64: "u64", cudac.Float32: "f32", cudac.Float64: "f64", cudac.Pointer: "u64",
		cudac.Array: "?", cudac.Struct: "?"}[k]
}

// String disassembles the kernel, one instruction a line with its index
// and source line.
func (k *Kernel) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "kernel %s: %d regs, %d B local, %d B shared\n", k.Name, k.NumRegs, k.LocalBytes, k.SharedBytes)
	for i := range k.Code {
		p := k.PosOf(i)
		fmt.Fprintf(&b, "%4d  %-48s ; %d\n", i, k.Code[i].String(), p.Line)
	}
	return b.String()
}
