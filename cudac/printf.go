package cudac

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxPrintfWidth is the largest field width or precision a printf
// format may give, in the format or through '*': a device's printf buffer
// holds 1 MiB (cudaLimitPrintfFifoSize), so a wider field could not be
// printed whole. A larger width in the format is an error; a larger one
// from a '*' argument is cut to it when the kernel runs.
const MaxPrintfWidth = 1 << 20

// fmtSpec is one conversion of a printf format: f[start:end] is its text.
type fmtSpec struct {
	start, end int
	flags      string
	width      string // digits, or "*"
	prec       string // "" (none), "." and digits, or ".*"
	length     string
	conv       byte
}

// stars is how many int arguments the '*'s of s take.
func (s fmtSpec) stars() int {
	n := 0
	if s.width == "*" {
		n++
	}
	if s.prec == ".*" {
		n++
	}
	return n
}

// parseFormat splits a printf format into its conversions ("%%" included).
func parseFormat(f string) ([]fmtSpec, string) {
	var specs []fmtSpec
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		s := fmtSpec{start: i}
		i++
		if i < len(f) && f[i] == '%' {
			s.conv, s.end = '%', i+1
			specs = append(specs, s)
			continue
		}
		j := i
		for i < len(f) && strings.IndexByte("-+ #0'", f[i]) >= 0 {
			i++
		}
		s.flags = f[j:i]
		j = i
		if i < len(f) && f[i] == '*' {
			i++
		} else {
			for i < len(f) && isDigit(f[i]) {
				i++
			}
		}
		s.width = f[j:i]
		if i < len(f) && f[i] == '.' {
			j = i
			i++
			if i < len(f) && f[i] == '*' {
				i++
			} else {
				for i < len(f) && isDigit(f[i]) {
					i++
				}
			}
			s.prec = f[j:i]
		}
		j = i
		for i < len(f) && strings.IndexByte("hlLqjzt", f[i]) >= 0 {
			i++
		}
		s.length = f[j:i]
		if i >= len(f) {
			return nil, fmt.Sprintf("incomplete format specifier '%s'", f[s.start:])
		}
		s.conv, s.end = f[i], i+1
		specs = append(specs, s)
	}
	return specs, ""
}

// printf checks a printf call: the format must be a string literal, the
// other arguments get the default argument promotions and must match the
// format's conversions. A string literal argument of a %s conversion is
// folded into the format.
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
	// C's printf stops at the format's first NUL ("a\0b" prints "a"), and
	// a %s argument's text at its own.
	if i := strings.IndexByte(str.Val, 0); i >= 0 {
		cut := *str
		cut.Val = str.Val[:i]
		str = &cut
	}
	format, rest, ok := c.foldStrings(str, e.Args[1:])
	if !ok {
		return badExpr(e.P)
	}
	args := []Expr{&StringLit{P: str.P, Value: format}}
	for _, a := range rest {
		x := c.expr(a)
		if isBad(x) {
			ok = false
			continue
		}
		t := x.Type()
		switch {
		case t.Kind == Float32:
			x = c.conv(x, float64Type)
		case t.Kind == Bool || t.Kind == Int8 || t.Kind == Uint8 || t.Kind == Int16 || t.Kind == Uint16:
			x = c.conv(x, int32Type)
		case t.Kind == Struct || t.Kind == Void:
			c.errorf(x.Pos(), "cannot pass a value of type '%s' to printf", t)
			ok = false
		}
		args = append(args, x)
	}
	if !ok {
		return badExpr(e.P)
	}
	if pos, msg := checkFormat(format, args[1:]); msg != "" {
		if !pos.IsValid() {
			pos = str.P
		}
		c.errorf(pos, "%s", msg)
		return badExpr(e.P)
	}
	return &BuiltinCall{P: e.P, Builtin: Printf, Args: args, T: int32Type}
}

// foldStrings writes the string literal arguments of %s conversions into
// the format and returns it with the remaining arguments.
func (c *checker) foldStrings(str *sStr, args []sExpr) (string, []sExpr, bool) {
	hasStr := false
	for _, a := range args {
		if _, ok := a.(*sStr); ok {
			hasStr = true
		}
	}
	if !hasStr {
		return str.Val, args, true
	}
	specs, msg := parseFormat(str.Val)
	if msg != "" {
		c.errorf(str.P, "%s", msg)
		return "", nil, false
	}
	var b strings.Builder
	var rest []sExpr
	last, ai := 0, 0
	for _, s := range specs {
		if s.conv == '%' {
			continue
		}
		for k := 0; k < s.stars() && ai < len(args); k++ {
			rest = append(rest, args[ai])
			ai++
		}
		if ai >= len(args) {
			break
		}
		if lit, ok := args[ai].(*sStr); ok {
			if s.conv != 's' || s.stars() > 0 || s.length != "" || strings.Trim(s.flags, "-") != "" {
				c.errorf(lit.P, "a string literal argument needs a plain %%s conversion, not '%s'", str.Val[s.start:s.end])
				return "", nil, false
			}
			if v, err := strconv.Atoi(s.width); s.width != "" && (err != nil || v > MaxPrintfWidth) {
				c.errorf(str.P, "format '%s': a field width over %d is not supported (a device's printf buffer holds 1 MiB)", str.Val[s.start:s.end], MaxPrintfWidth)
				return "", nil, false
			}
			val := lit.Val
			if i := strings.IndexByte(val, 0); i >= 0 {
				val = val[:i]
			}
			if s.prec == "." {
				val = ""
			} else if p, err := strconv.Atoi(strings.TrimPrefix(s.prec, ".")); s.prec != "" && err == nil && p < len(val) {
				val = val[:p] // Go's precision counts runes; C's counts bytes
			}
			text := fmt.Sprintf("%"+s.flags+s.width+"s", val)
			b.WriteString(str.Val[last:s.start])
			b.WriteString(strings.ReplaceAll(text, "%", "%%"))
			last = s.end
		} else {
			rest = append(rest, args[ai])
		}
		ai++
	}
	for ; ai < len(args); ai++ {
		if lit, ok := args[ai].(*sStr); ok {
			c.errorf(lit.P, "too many arguments for format")
			return "", nil, false
		}
		rest = append(rest, args[ai])
	}
	b.WriteString(str.Val[last:])
	return b.String(), rest, true
}

// checkFormat validates a printf format against its (promoted) arguments.
// It returns the position to blame (zero for the format) and a message.
func checkFormat(f string, args []Expr) (Pos, string) {
	specs, msg := parseFormat(f)
	if msg != "" {
		return Pos{}, msg
	}
	n := 0 // arguments used
	argName := func(i int) string { return fmt.Sprintf("argument %d", i+2) }
	next := func(spec string, want string) (Expr, string) {
		if n >= len(args) {
			return nil, fmt.Sprintf("format '%s' expects a matching %s argument, but there are too few arguments", spec, want)
		}
		n++
		return args[n-1], ""
	}
	for _, s := range specs {
		if s.conv == '%' {
			continue
		}
		spec := f[s.start:s.end]
		for _, n := range []string{s.width, strings.TrimPrefix(s.prec, ".")} {
			if v, err := strconv.Atoi(n); n != "*" && n != "" && (err != nil || v > MaxPrintfWidth) {
				return Pos{}, fmt.Sprintf("format '%s': a field width or precision over %d is not supported (a device's printf buffer holds 1 MiB)", spec, MaxPrintfWidth)
			}
		}
		switch s.length {
		case "", "h", "hh", "l", "ll", "z", "j", "t":
		case "L":
			return Pos{}, fmt.Sprintf("format '%s': long double is not supported", spec)
		default:
			return Pos{}, fmt.Sprintf("invalid length modifier in format '%s'", spec)
		}
		for range s.stars() {
			a, msg := next(spec, "'int' (for '*')")
			if msg != "" {
				return Pos{}, msg
			}
			if !a.Type().IsInteger() || a.Type().Size() > 4 {
				return a.Pos(), fmt.Sprintf("field width '*' in format '%s' expects an 'int', but %s has type '%s'", spec, argName(n-1), a.Type())
			}
		}
		switch conv := s.conv; conv {
		case 'd', 'i', 'u', 'o', 'x', 'X', 'c':
			wide := s.length == "l" || s.length == "ll" || s.length == "z" || s.length == "j" || s.length == "t"
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
				return a.Pos(), fmt.Sprintf("format '%s' expects a 64-bit integer argument, but %s has type '%s' (use '%%%c')", spec, argName(n-1), t, conv)
			}
			if !wide && t.Size() == 8 {
				return a.Pos(), fmt.Sprintf("format '%s' expects an argument of type %s, but %s has type '%s' (use '%%ll%c')", spec, want, argName(n-1), t, conv)
			}
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
			a, msg := next(spec, "'double'")
			if msg != "" {
				return Pos{}, msg
			}
			if !a.Type().IsFloat() {
				return a.Pos(), fmt.Sprintf("format '%s' expects an argument of type 'double', but %s has type '%s'", spec, argName(n-1), a.Type())
			}
			if s.length != "" && s.length != "l" {
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
			// A string literal was folded into the format: what is left
			// is a pointer to device memory.
			return a.Pos(), fmt.Sprintf("not supported: format '%s' with a pointer to characters in device memory (%s); only a string literal can be printed with %%s", spec, argName(n-1))
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
