package cudac

import "math"

// badExpr stands for an expression that failed to check; operations on it
// report nothing more.
func badExpr(pos Pos) Expr { return &Const{P: pos, T: invalidType} }

func isBad(x Expr) bool {
	if x == nil {
		return true
	}
	t := x.Type()
	return t == nil || t.Kind == Invalid
}

// normInt truncates v to the width of integer type t and sign- or
// zero-extends it, the way Const.Int holds values.
func normInt(v int64, t *Type) int64 {
	switch t.Kind {
	case Bool:
		if v != 0 {
			return 1
		}
		return 0
	case Int8:
		return int64(int8(v))
	case Uint8:
		return int64(uint8(v))
	case Int16:
		return int64(int16(v))
	case Uint16:
		return int64(uint16(v))
	case Int32:
		return int64(int32(v))
	case Uint32:
		return int64(uint32(v))
	}
	return v
}

func constTruth(k *Const) bool {
	if k.T.IsFloat() {
		return k.Float != 0
	}
	return k.Int != 0
}

func isZeroConst(k *Const) bool {
	if k.T.IsFloat() {
		return k.Float == 0 && !math.Signbit(k.Float)
	}
	return k.Int == 0
}

// roundFloat rounds v to t's precision.
func roundFloat(v float64, t *Type) float64 {
	if t.Kind == Float32 {
		return float64(float32(v))
	}
	return v
}

// floatToInt converts like the GPU's cvt.rzi: truncation toward zero,
// saturating at the limits of the type, NaN to 0.
func floatToInt(f float64, t *Type) int64 {
	if math.IsNaN(f) {
		return 0
	}
	f = math.Trunc(f)
	var lo, hi float64
	switch t.Kind {
	case Int8:
		lo, hi = math.MinInt8, math.MaxInt8
	case Uint8:
		lo, hi = 0, math.MaxUint8
	case Int16:
		lo, hi = math.MinInt16, math.MaxInt16
	case Uint16:
		lo, hi = 0, math.MaxUint16
	case Int32:
		lo, hi = math.MinInt32, math.MaxInt32
	case Uint32:
		lo, hi = 0, math.MaxUint32
	case Int64:
		if f <= math.MinInt64 {
			return math.MinInt64
		}
		if f >= math.MaxInt64 {
			return math.MaxInt64
		}
		return int64(f)
	case Uint64:
		if f <= 0 {
			return 0
		}
		if f >= math.MaxUint64 {
			return -1
		}
		return int64(uint64(f))
	}
	return int64(math.Max(lo, math.Min(hi, f)))
}

// convertConst converts a constant to scalar type t.
func convertConst(k *Const, t *Type) *Const {
	out := &Const{P: k.P, T: t}
	switch {
	case t.Kind == Bool:
		out.Int = b2i(constTruth(k))
	case t.IsInteger() || t.Kind == Pointer:
		if k.T.IsFloat() {
			out.Int = floatToInt(k.Float, t)
		} else {
			out.Int = normInt(k.Int, t)
		}
	case t.IsFloat():
		switch {
		case k.T.IsFloat():
			out.Float = roundFloat(k.Float, t)
		case k.T.IsSigned():
			if t.Kind == Float32 {
				out.Float = float64(float32(k.Int))
			} else {
				out.Float = float64(k.Int)
			}
		default:
			if t.Kind == Float32 {
				out.Float = float64(float32(uint64(k.Int)))
			} else {
				out.Float = float64(uint64(k.Int))
			}
		}
	}
	return out
}

// foldUnary folds -x, ~x and !x for a constant x already of type t (for !,
// bool).
func foldUnary(op UnaryOp, x *Const, t *Type, pos Pos) *Const {
	out := &Const{P: pos, T: t}
	switch op {
	case Neg:
		if t.IsFloat() {
			out.Float = -x.Float
		} else {
			out.Int = normInt(-x.Int, t)
		}
	case BitNot:
		out.Int = normInt(^x.Int, t)
	case LogNot:
		out.Int = b2i(!constTruth(x))
	}
	return out
}

// bitWidth is the width in bits of an integer type.
func bitWidth(t *Type) int64 { return t.Size() * 8 }

// foldBinary folds x op y for constants of type t (the operands' common
// type; for shifts, x's type). It returns a message for an invalid
// operation.
func foldBinary(op BinaryOp, x, y *Const, t *Type, pos Pos) (*Const, string) {
	if op.IsComparison() {
		return &Const{P: pos, T: boolType, Int: b2i(compareConst(op, x, y))}, ""
	}
	out := &Const{P: pos, T: t}
	if t.IsFloat() {
		a, b := x.Float, y.Float
		var r float64
		switch op {
		case Add:
			r = a + b
		case Sub:
			r = a - b
		case Mul:
			r = a * b
		case Div:
			r = a / b
		}
		out.Float = roundFloat(r, t)
		return out, ""
	}
	a, b := x.Int, y.Int
	signed := t.IsSigned()
	var r int64
	switch op {
	case Add:
		r = a + b
	case Sub:
		r = a - b
	case Mul:
		r = a * b
	case Div, Rem:
		if b == 0 {
			return nil, "division by zero"
		}
		switch {
		case signed && b == -1:
			if op == Div {
				r = -a
			} else {
				r = 0
			}
		case signed:
			if op == Div {
				r = a / b
			} else {
				r = a % b
			}
		default:
			ua, ub := uint64(a), uint64(b)
			if op == Div {
				r = int64(ua / ub)
			} else {
				r = int64(ua % ub)
			}
		}
	case And:
		r = a & b
	case Or:
		r = a | b
	case Xor:
		r = a ^ b
	case Shl, Shr:
		if msg := shiftCountError(y, t); msg != "" {
			return nil, msg
		}
		n := uint64(b)
		if op == Shl {
			r = a << n
		} else if signed {
			r = a >> n
		} else {
			r = int64(uint64(a) >> n)
		}
	}
	out.Int = normInt(r, t)
	return out, ""
}

// shiftCountError checks a constant shift count against the width of the
// shifted type t.
func shiftCountError(y *Const, t *Type) string {
	if y.T.IsSigned() && y.Int < 0 {
		return "shift count is negative"
	}
	if uint64(y.Int) >= uint64(bitWidth(t)) {
		return "shift count >= width of type '" + t.String() + "'"
	}
	return ""
}

func compareConst(op BinaryOp, x, y *Const) bool {
	var c int
	switch {
	case x.T.IsFloat():
		a, b := x.Float, y.Float
		if math.IsNaN(a) || math.IsNaN(b) {
			return op == Ne
		}
		c = cmp3(a < b, a > b)
	case x.T.IsSigned():
		c = cmp3(x.Int < y.Int, x.Int > y.Int)
	default:
		a, b := uint64(x.Int), uint64(y.Int)
		c = cmp3(a < b, a > b)
	}
	switch op {
	case Eq:
		return c == 0
	case Ne:
		return c != 0
	case Lt:
		return c < 0
	case Le:
		return c <= 0
	case Gt:
		return c > 0
	}
	return c >= 0
}

func cmp3(lt, gt bool) int {
	if lt {
		return -1
	}
	if gt {
		return 1
	}
	return 0
}

// fitsType reports whether constant k's value is representable in integer
// type t (for template arguments, which may not narrow).
func fitsType(k *Const, t *Type) bool {
	if !k.T.IsInteger() || !t.IsInteger() {
		return false
	}
	v := k.Int
	if !k.T.IsSigned() && v < 0 {
		// A uint64 value above MaxInt64.
		return t.Kind == Uint64
	}
	if v < 0 && !t.IsSigned() {
		return false
	}
	return normInt(v, t) == v
}
