package cudac

import (
	"fmt"
	"strings"
)

// printf checks a printf call: the format must be a string literal, the
// other arguments get the default argument promotions and must match the
// format's conversions.
func (c *checker) printf(e *sCall) Expr {
	if len(e.Args) == 0 {
		c.errorf(e.P, "too few arguments to 'printf' (want at least 1, have 0)")
		return badExpr(e.P)
	}
	str, ok := e.Args[0].(*sStr)
	if !ok {
		c.expr0(e.Args[0])
		c.errorf(startPos(e.Args[0]), "the format of printf must be a string literal")
		return badExpr(e.P)
	}
	args := []Expr{&StringLit{P: str.P, Value: str.Val}}
	ok = true
	for _, a := range e.Args[1:] {
		if s, isStr := a.(*sStr); isStr {
			c.errorf(s.P, "string literal arguments to printf are not supported; write the text into the format")
			ok = false
			continue
		}
		x := c.expr(a)
		if isBad(x) {
			ok = false
			continue
		}
		t := x.Type()
		switch {
		case t.Kind == Float32:
			x = c.conv(x, Float64Type)
		case t.Kind == Bool || t.Kind == Int8 || t.Kind == Uint8 || t.Kind == Int16 || t.Kind == Uint16:
			x = c.conv(x, Int32Type)
		case t.Kind == Struct || t.Kind == Void:
			c.errorf(x.Pos(), "cannot pass a value of type '%s' to printf", t)
			ok = false
		}
		args = append(args, x)
	}
	if !ok {
		return badExpr(e.P)
	}
	if pos, msg := checkFormat(str.Val, args[1:]); msg != "" {
		if !pos.IsValid() {
			pos = str.P
		}
		c.errorf(pos, "%s", msg)
		return badExpr(e.P)
	}
	return &BuiltinCall{P: e.P, Builtin: Printf, Args: args, T: Int32Type}
}

// checkFormat validates a printf format against its (promoted) arguments.
// It returns the position to blame (zero for the format) and a message.
func checkFormat(f string, args []Expr) (Pos, string) {
	n := 0 // arguments used
	argName := func(i int) string { return fmt.Sprintf("argument %d", i+2) }
	next := func(spec string, want string) (Expr, string) {
		if n >= len(args) {
			return nil, fmt.Sprintf("format '%s' expects a matching %s argument, but there are too few arguments", spec, want)
		}
		n++
		return args[n-1], ""
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		start := i
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		for i < len(f) && strings.IndexByte("-+ #0'", f[i]) >= 0 {
			i++
		}
		var stars []int
		if i < len(f) && f[i] == '*' {
			stars = append(stars, start)
			i++
		}
		for i < len(f) && isDigit(f[i]) {
			i++
		}
		if i < len(f) && f[i] == '.' {
			i++
			if i < len(f) && f[i] == '*' {
				stars = append(stars, start)
				i++
			}
			for i < len(f) && isDigit(f[i]) {
				i++
			}
		}
		lenStart := i
		for i < len(f) && strings.IndexByte("hlLqjzt", f[i]) >= 0 {
			i++
		}
		length := f[lenStart:i]
		if i >= len(f) {
			return Pos{}, fmt.Sprintf("incomplete format specifier '%s'", f[start:])
		}
		conv := f[i]
		spec := f[start : i+1]
		switch length {
		case "", "h", "hh", "l", "ll", "z", "j", "t":
		case "L":
			return Pos{}, fmt.Sprintf("format '%s': long double is not supported", spec)
		default:
			return Pos{}, fmt.Sprintf("invalid length modifier in format '%s'", spec)
		}
		for range stars {
			a, msg := next(spec, "'int' (for '*')")
			if msg != "" {
				return Pos{}, msg
			}
			if !a.Type().IsInteger() || a.Type().Size() > 4 {
				return a.Pos(), fmt.Sprintf("field width '*' in format '%s' expects an 'int', but %s has type '%s'", spec, argName(n-1), a.Type())
			}
		}
		switch conv {
		case 'd', 'i', 'u', 'o', 'x', 'X', 'c':
			wide := length == "l" || length == "ll" || length == "z" || length == "j" || length == "t"
			want := "'int'"
			if conv != 'd' && conv != 'i' && conv != 'c' {
				want = "'unsigned int'"
			}
			if wide {
				want = "64-bit integer"
			}
			a, msg := next(spec, want)
			if msg != "" {
				return Pos{}, msg
			}
			t := a.Type()
			if !t.IsInteger() {
				return a.Pos(), fmt.Sprintf("format '%s' expects an integer argument, but %s has type '%s'", spec, argName(n-1), t)
			}
			if conv == 'c' && wide {
				return Pos{}, fmt.Sprintf("wide characters in format '%s' are not supported", spec)
			}
			if wide && t.Size() != 8 {
				return a.Pos(), fmt.Sprintf("format '%s' expects a 64-bit integer argument, but %s has type '%s' (use '%%%s')", spec, argName(n-1), t, string(conv))
			}
			if !wide && t.Size() == 8 {
				return a.Pos(), fmt.Sprintf("format '%s' expects an argument of type %s, but %s has type '%s' (use '%%ll%s')", spec, want, argName(n-1), t, string(conv))
			}
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
			a, msg := next(spec, "'double'")
			if msg != "" {
				return Pos{}, msg
			}
			if !a.Type().IsFloat() {
				return a.Pos(), fmt.Sprintf("format '%s' expects an argument of type 'double', but %s has type '%s'", spec, argName(n-1), a.Type())
			}
			if length != "" && length != "l" {
				return Pos{}, fmt.Sprintf("invalid length modifier in format '%s'", spec)
			}
		case 's':
			a, msg := next(spec, "'char*'")
			if msg != "" {
				return Pos{}, msg
			}
			t := a.Type()
			if t.Kind != Pointer || t.Elem.Kind != Int8 && t.Elem.Kind != Uint8 {
				return a.Pos(), fmt.Sprintf("format '%s' expects an argument of type 'char*', but %s has type '%s'", spec, argName(n-1), t)
			}
		case 'p':
			a, msg := next(spec, "pointer")
			if msg != "" {
				return Pos{}, msg
			}
			if a.Type().Kind != Pointer {
				return a.Pos(), fmt.Sprintf("format '%s' expects a pointer argument, but %s has type '%s'", spec, argName(n-1), a.Type())
			}
		case 'n':
			return Pos{}, "'%n' is not supported in printf formats"
		default:
			return Pos{}, fmt.Sprintf("invalid conversion specifier '%c' in format '%s'", conv, spec)
		}
	}
	if n < len(args) {
		return args[n].Pos(), fmt.Sprintf("too many arguments for format (it uses %d, have %d)", n, len(args))
	}
	return Pos{}, ""
}
