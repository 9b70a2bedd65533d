package cudac

import (
	"math"
	"strconv"
	"strings"
)

// Named spellings of the 64-bit and <cstdint> types. They have the kind of
// the type they alias and differ only in Name.
var (
	longType      = &Type{Kind: Int64, Name: "long"}
	ulongType     = &Type{Kind: Uint64, Name: "unsigned long"}
	sizeType      = &Type{Kind: Uint64, Name: "size_t"}
	ptrdiffType   = &Type{Kind: Int64, Name: "ptrdiff_t"}
	clockType     = &Type{Kind: Int64, Name: "clock_t"}
	invalidType   = &Type{Kind: Invalid}
	nullptrType   = &Type{Kind: Pointer, Elem: voidType, Name: "nullptr_t"}
	predefTypedef = map[string]*Type{
		"size_t": sizeType, "ptrdiff_t": ptrdiffType, "clock_t": clockType,
		"int8_t": {Kind: Int8, Name: "int8_t"}, "uint8_t": {Kind: Uint8, Name: "uint8_t"},
		"int16_t": {Kind: Int16, Name: "int16_t"}, "uint16_t": {Kind: Uint16, Name: "uint16_t"},
		"int32_t": {Kind: Int32, Name: "int32_t"}, "uint32_t": {Kind: Uint32, Name: "uint32_t"},
		"int64_t": {Kind: Int64, Name: "int64_t"}, "uint64_t": {Kind: Uint64, Name: "uint64_t"},
		"intptr_t": {Kind: Int64, Name: "intptr_t"}, "uintptr_t": {Kind: Uint64, Name: "uintptr_t"},
		"ssize_t":  {Kind: Int64, Name: "ssize_t"},
		"intmax_t": {Kind: Int64, Name: "intmax_t"}, "uintmax_t": {Kind: Uint64, Name: "uintmax_t"},
		// <sys/types.h>, which nvcc's host headers include on glibc.
		"uint": {Kind: Uint32, Name: "uint"}, "ushort": {Kind: Uint16, Name: "ushort"},
		"ulong": {Kind: Uint64, Name: "ulong"}, "u_char": {Kind: Uint8, Name: "u_char"},
		"u_short": {Kind: Uint16, Name: "u_short"}, "u_int": {Kind: Uint32, Name: "u_int"},
		"u_long": {Kind: Uint64, Name: "u_long"}, "u_int8_t": {Kind: Uint8, Name: "u_int8_t"},
		"u_int16_t": {Kind: Uint16, Name: "u_int16_t"}, "u_int32_t": {Kind: Uint32, Name: "u_int32_t"},
		"u_int64_t": {Kind: Uint64, Name: "u_int64_t"},
	}
)

// isLong reports whether t is spelled as a "long" (or a typedef of long):
// such a type has the kind of long long but is a different type to C++
// overload resolution, which matters for the atomics.
func isLong(t *Type) bool {
	switch t.Name {
	case "long", "unsigned long", "size_t", "ptrdiff_t", "clock_t", "int64_t", "uint64_t",
		"intptr_t", "uintptr_t", "ssize_t", "intmax_t", "uintmax_t", "ulong", "u_long", "u_int64_t":
		return true
	}
	return false
}

// parseIntLit converts an integer literal's spelling to its value and type
// by C++'s rules on LP64. err is a message on failure.
func parseIntLit(text string) (uint64, *Type, string) {
	s := strings.ReplaceAll(text, "'", "")
	base := 10
	switch {
	case len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	end := 0
	for end < len(s) && isHex(s[end]) && (base == 16 || isDigit(s[end])) {
		end++
	}
	digits, suffix := s[:end], s[end:]
	if digits == "" {
		if base == 8 { // just "0" with a suffix
			digits = "0"
		} else {
			return 0, nil, "invalid integer literal '" + text + "'"
		}
	}
	unsigned, longs := false, 0
	switch suffix {
	case "":
	case "u", "U":
		unsigned = true
	case "l", "L":
		longs = 1
	case "ul", "uL", "Ul", "UL", "lu", "lU", "Lu", "LU":
		unsigned, longs = true, 1
	case "ll", "LL":
		longs = 2
	case "ull", "uLL", "Ull", "ULL", "llu", "llU", "LLu", "LLU":
		unsigned, longs = true, 2
	default:
		return 0, nil, "invalid suffix '" + suffix + "' on integer literal"
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, nil, "integer literal is too large to be represented in any integer type"
		}
		return 0, nil, "invalid digit in integer literal '" + text + "'"
	}
	decimal := base == 10
	var cands []*Type
	switch {
	case !unsigned && longs == 0 && decimal:
		cands = []*Type{int32Type, longType}
	case !unsigned && longs == 0:
		cands = []*Type{int32Type, uint32Type, longType, ulongType}
	case unsigned && longs == 0:
		cands = []*Type{uint32Type, ulongType}
	case !unsigned && longs == 1 && decimal:
		cands = []*Type{longType}
	case !unsigned && longs == 1:
		cands = []*Type{longType, ulongType}
	case unsigned && longs == 1:
		cands = []*Type{ulongType}
	case !unsigned && decimal:
		cands = []*Type{int64Type}
	case !unsigned:
		cands = []*Type{int64Type, uint64Type}
	default:
		cands = []*Type{uint64Type}
	}
	for _, t := range cands {
		if fitsUnsigned(v, t) {
			return v, t, ""
		}
	}
	return 0, nil, "integer literal is too large to be represented in a signed integer type"
}

func fitsUnsigned(v uint64, t *Type) bool {
	switch t.Kind {
	case Int32:
		return v <= math.MaxInt32
	case Uint32:
		return v <= math.MaxUint32
	case Int64:
		return v <= math.MaxInt64
	}
	return true
}

// parseFloatLit converts a floating literal's spelling.
func parseFloatLit(text string) (float64, *Type, string) {
	s := strings.ReplaceAll(text, "'", "")
	t := float64Type
	hex := len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'f', 'F':
			if !hex || strings.ContainsAny(s, "pP") {
				t, s = float32Type, s[:n-1]
			}
		case 'l', 'L':
			return 0, nil, "long double is not supported"
		}
	}
	if strings.Contains(s, "_") {
		return 0, nil, "invalid floating literal '" + text + "'"
	}
	if hex && !strings.ContainsAny(s, "pP") {
		return 0, nil, "hexadecimal floating literal requires an exponent"
	}
	if t == float32Type {
		// Round once, straight to float32, as the compiler does.
		v, err := strconv.ParseFloat(s, 32)
		if err != nil && !isRangeErr(err) {
			return 0, nil, "invalid floating literal '" + text + "'"
		}
		if math.IsInf(v, 0) {
			return 0, nil, "floating literal '" + text + "' is too large for float"
		}
		return v, t, ""
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return 0, nil, "invalid floating literal '" + text + "'"
	}
	if math.IsInf(v, 0) {
		return 0, nil, "floating literal '" + text + "' is too large for double"
	}
	return v, t, ""
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
