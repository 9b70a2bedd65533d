package cudac

import (
	"fmt"
	"strings"
)

// Kind is the kind of a Type.
type Kind uint8

// The kinds of type. The integer kinds are ordered by rank within each
// signedness, and every signed kind is immediately followed by its unsigned
// counterpart.
const (
	Invalid Kind = iota
	Void
	Bool
	Int8
	Uint8
	Int16
	Uint16
	Int32
	Uint32
	Int64
	Uint64
	Float32
	Float64
	Pointer
	Array
	Struct
)

var kindNames = [...]string{
	Invalid: "invalid", Void: "void", Bool: "bool",
	Int8: "char", Uint8: "unsigned char", Int16: "short", Uint16: "unsigned short",
	Int32: "int", Uint32: "unsigned int", Int64: "long long", Uint64: "unsigned long long",
	Float32: "float", Float64: "double", Pointer: "pointer", Array: "array", Struct: "struct",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Type is a checked CUDA C type. Scalar types are the shared values below
// (compare them with ==); pointer and array types are built with PointerTo and
// ArrayOf and compared with Identical.
type Type struct {
	Kind Kind
	// Elem is the pointee of a Pointer and the element type of an Array.
	Elem *Type
	// Len is the length of an Array; -1 for an unsized array (extern __shared__ T a[]).
	Len int64
	// Const marks a pointee or element that is const-qualified: for a Pointer,
	// Const says the pointee is const ("const float*").
	Const bool
	// Volatile marks a pointer whose pointee is volatile ("volatile int*").
	Volatile bool
	// Struct describes a Struct type.
	Struct *StructType
	// Name is the spelling to use in diagnostics when it differs from the
	// kind's name ("size_t", "uint32_t", "long"). Empty for the canonical name.
	Name string
	// Group marks a cooperative groups type (Kind is Uint64: a group's
	// value is a handle, see GroupKind); GroupSize is a tile's size.
	Group     GroupKind
	GroupSize int64
	// AtomicRef marks cuda::atomic_ref<Elem, RefScope> (Kind is Uint64:
	// its value is the address of the object it refers to).
	AtomicRef bool
	RefScope  Scope
	// AtomicObj marks cuda::atomic<Elem, RefScope>, an object laid out as
	// its element (Kind is Elem's) that only member functions use.
	AtomicObj bool
}

// GroupKind says which cooperative groups type a Type is. A group's value
// is a 64-bit handle: bits 32 and up say what the group is at run time
// (GroupHandleBlock, GroupHandleWarp or GroupHandleGrid) and, for a
// group inside one warp (a tile, a coalesced or labelled group), the low
// 32 bits are its lane mask. A backend needs nothing more: every group
// operation is lowered by the front end to built-ins on the handle.
type GroupKind uint8

// The cooperative groups types.
const (
	NotGroup       GroupKind = iota
	GroupBlock               // cooperative_groups::thread_block
	GroupTile                // cooperative_groups::thread_block_tile<N>, N <= 32
	GroupCoalesced           // cooperative_groups::coalesced_group
	GroupGrid                // cooperative_groups::grid_group
	GroupThread              // cooperative_groups::thread_group: any of the others
)

// The run-time kinds in a group handle's high bits.
const (
	GroupHandleBlock = 1
	GroupHandleWarp  = 2
	GroupHandleGrid  = 3
)

// StructType is a struct's layout.
type StructType struct {
	Name   string
	Fields []*Field
	Size   int64 // sizeof, a multiple of Align
	Align  int64 // alignof, including any alignas
	Pos    Pos
}

// Field is one member of a struct.
type Field struct {
	Name   string
	Type   *Type
	Offset int64
	Pos    Pos
}

// FieldByName returns the named field, or nil.
func (s *StructType) FieldByName(name string) *Field {
	for _, f := range s.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// The scalar types.
var (
	voidType    = &Type{Kind: Void}
	boolType    = &Type{Kind: Bool}
	int8Type    = &Type{Kind: Int8}
	uint8Type   = &Type{Kind: Uint8}
	int16Type   = &Type{Kind: Int16}
	uint16Type  = &Type{Kind: Uint16}
	int32Type   = &Type{Kind: Int32}
	uint32Type  = &Type{Kind: Uint32}
	int64Type   = &Type{Kind: Int64}
	uint64Type  = &Type{Kind: Uint64}
	float32Type = &Type{Kind: Float32}
	float64Type = &Type{Kind: Float64}
)

// ScalarType returns the shared Type of a scalar kind.
func ScalarType(k Kind) *Type {
	switch k {
	case Void:
		return voidType
	case Bool:
		return boolType
	case Int8:
		return int8Type
	case Uint8:
		return uint8Type
	case Int16:
		return int16Type
	case Uint16:
		return uint16Type
	case Int32:
		return int32Type
	case Uint32:
		return uint32Type
	case Int64:
		return int64Type
	case Uint64:
		return uint64Type
	case Float32:
		return float32Type
	case Float64:
		return float64Type
	}
	return nil
}

// PointerTo returns the type "elem*", with the pointee const if isConst.
func PointerTo(elem *Type, isConst bool) *Type {
	return &Type{Kind: Pointer, Elem: elem, Const: isConst}
}

// ArrayOf returns the type "elem[n]"; n = -1 for an unsized array.
func ArrayOf(elem *Type, n int64) *Type {
	return &Type{Kind: Array, Elem: elem, Len: n}
}

// IsInteger reports whether t is bool or an integer type.
func (t *Type) IsInteger() bool {
	return t.Kind >= Bool && t.Kind <= Uint64 && t.Group == NotGroup && !t.AtomicRef && !t.AtomicObj
}

// IsFloat reports whether t is float or double.
func (t *Type) IsFloat() bool { return (t.Kind == Float32 || t.Kind == Float64) && !t.AtomicObj }

// IsArithmetic reports whether t is an integer or floating type.
func (t *Type) IsArithmetic() bool { return t.IsInteger() || t.IsFloat() }

// IsScalar reports whether t is arithmetic or a pointer.
func (t *Type) IsScalar() bool { return t.IsArithmetic() || t.Kind == Pointer }

// IsSigned reports whether t is a signed integer type.
func (t *Type) IsSigned() bool {
	switch t.Kind {
	case Int8, Int16, Int32, Int64:
		return true
	}
	return false
}

// Size returns sizeof(t) in bytes; 0 for void and unsized arrays.
func (t *Type) Size() int64 {
	switch t.Kind {
	case Bool, Int8, Uint8:
		return 1
	case Int16, Uint16:
		return 2
	case Int32, Uint32, Float32:
		return 4
	case Int64, Uint64, Float64, Pointer:
		return 8
	case Array:
		if t.Len < 0 {
			return 0
		}
		return t.Len * t.Elem.Size()
	case Struct:
		return t.Struct.Size
	}
	return 0
}

// Align returns alignof(t) in bytes.
func (t *Type) Align() int64 {
	switch t.Kind {
	case Array:
		return t.Elem.Align()
	case Struct:
		return t.Struct.Align
	case Void:
		return 1
	}
	return t.Size()
}

// Identical reports whether a and b are the same type, ignoring qualifiers
// and spellings (size_t and unsigned long long are identical).
func Identical(a, b *Type) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind {
		return false
	}
	if a.Group != b.Group || a.GroupSize != b.GroupSize {
		return false
	}
	if a.AtomicRef || b.AtomicRef || a.AtomicObj || b.AtomicObj {
		return a.AtomicRef == b.AtomicRef && a.AtomicObj == b.AtomicObj && a.RefScope == b.RefScope && Identical(a.Elem, b.Elem)
	}
	switch a.Kind {
	case Pointer:
		return Identical(a.Elem, b.Elem)
	case Array:
		return a.Len == b.Len && Identical(a.Elem, b.Elem)
	case Struct:
		return a.Struct == b.Struct
	}
	return true
}

// String spells t the way CUDA C would ("const float*", "int[256]").
func (t *Type) String() string {
	if t == nil {
		return "<nil>"
	}
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *Type) write(b *strings.Builder) {
	switch t.Kind {
	case Pointer:
		if t.Volatile {
			b.WriteString("volatile ")
		}
		if t.Const {
			b.WriteString("const ")
		}
		t.Elem.write(b)
		b.WriteString("*")
	case Array:
		// The element type first, then the dimensions outermost first:
		// int a[2][3] is "int[2][3]".
		e := t
		for e.Kind == Array {
			e = e.Elem
		}
		e.write(b)
		for e := t; e.Kind == Array; e = e.Elem {
			if e.Len < 0 {
				b.WriteString("[]")
			} else {
				fmt.Fprintf(b, "[%d]", e.Len)
			}
		}
	case Struct:
		b.WriteString(t.Struct.Name)
	default:
		if t.Name != "" {
			b.WriteString(t.Name)
		} else {
			b.WriteString(t.Kind.String())
		}
	}
}
