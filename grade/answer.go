package grade

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"

	"github.com/warplab/warplab/labs"
)

// Refusal is why a submission cannot be graded: it is reported to the
// student and scores nothing, and it never stops the batch.
type Refusal struct {
	// Reason says what was wrong, with the cell's line where there is one.
	Reason string
}

func (r *Refusal) Error() string { return r.Reason }

func refusef(format string, args ...any) *Refusal {
	return &Refusal{Reason: fmt.Sprintf(format, args...)}
}

// constants are the named constants of every registered lab's package
// that an answer may use, by qualified name (labs.Exercise.Constants):
// the grader never imports a student's package, so it knows these values
// from the labs.
func constants() map[string]any {
	m := map[string]any{}
	for _, l := range labs.All() {
		if e := l.Info().Exercise; e != nil {
			for name, v := range e.Constants {
				m[name] = v
			}
		}
	}
	return m
}

// ParseAnswer reads the answer of exercise e from the Go source of an
// answer cell: one `var NAME = LITERAL` declaration, where the literal
// is built only of numbers, strings, booleans, composite literals of the
// answer's types and the labs' named constants. Anything else (an
// import, a function call, a closure, another declaration) is a Refusal
// with its line in the cell. Nothing of the cell is compiled or run.
func ParseAnswer(e *labs.Exercise, src string) (any, error) {
	const header = "package answer\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "answer", header+cellGo(src), parser.SkipObjectResolution)
	if err != nil {
		return nil, refusef("the answer cell is not Go: %s", shiftLines(err.Error()))
	}
	line := func(n ast.Node) int { return fset.Position(n.Pos()).Line - 1 }
	if len(f.Imports) > 0 {
		return nil, refusef("line %d: the answer cell imports %s; an answer is a literal value, it imports nothing", line(f.Imports[0]), f.Imports[0].Path.Value)
	}
	var value ast.Expr
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			return nil, refusef("line %d: the answer cell declares something other than the variable %q; an answer is only `var %s = ...`", line(d), e.Variable, e.Variable)
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if len(vs.Names) != 1 || vs.Names[0].Name != e.Variable || len(vs.Values) != 1 {
				return nil, refusef("line %d: the answer cell declares something other than the variable %q", line(vs), e.Variable)
			}
			if value != nil {
				return nil, refusef("line %d: %q is declared twice", line(vs), e.Variable)
			}
			value = vs.Values[0]
		}
	}
	if value == nil {
		return nil, refusef("the answer cell does not declare `var %s = ...`", e.Variable)
	}
	ptr := reflect.ValueOf(e.New())
	ev := evaluator{line: line, consts: constants()}
	if err := ev.eval(value, ptr.Elem()); err != nil {
		return nil, err
	}
	return ptr.Interface(), nil
}

// cellGo drops the GoNB special lines (%%, %, !) of a cell, keeping
// line numbers.
func cellGo(src string) string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!") {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// shiftLines rewrites go/parser's "answer:L:C" positions to cell lines.
func shiftLines(msg string) string {
	rest, ok := strings.CutPrefix(msg, "answer:")
	if !ok {
		return msg
	}
	l, tail, ok := strings.Cut(rest, ":")
	n, err := strconv.Atoi(l)
	if !ok || err != nil {
		return msg
	}
	return fmt.Sprintf("line %d:%s", n-1, tail)
}

type evaluator struct {
	line   func(ast.Node) int
	consts map[string]any
	nodes  int
}

// maxNodes bounds the literal's size, so a huge literal is refused
// rather than evaluated.
const maxNodes = 100_000

func (ev *evaluator) refuse(n ast.Node, format string, args ...any) error {
	return refusef("line %d: %s", ev.line(n), fmt.Sprintf(format, args...))
}

func (ev *evaluator) eval(x ast.Expr, v reflect.Value) error {
	ev.nodes++
	if ev.nodes > maxNodes {
		return ev.refuse(x, "the answer's literal is too large (more than %d values)", maxNodes)
	}
	t := v.Type()
	switch x := x.(type) {
	case *ast.ParenExpr:
		return ev.eval(x.X, v)
	case *ast.BasicLit:
		return ev.basic(x, "", v)
	case *ast.UnaryExpr:
		if b, ok := x.X.(*ast.BasicLit); ok && (x.Op == token.SUB || x.Op == token.ADD) {
			return ev.basic(b, x.Op.String(), v)
		}
		return ev.refuse(x, "%s is an expression, not a literal value", types.ExprString(x))
	case *ast.Ident:
		switch {
		case (x.Name == "true" || x.Name == "false") && t.Kind() == reflect.Bool:
			v.SetBool(x.Name == "true")
			return nil
		case x.Name == "nil" && (t.Kind() == reflect.Map || t.Kind() == reflect.Slice):
			return nil
		}
		return ev.refuse(x, "%s is a name, not a literal value of type %s", x.Name, t)
	case *ast.SelectorExpr:
		name := types.ExprString(x)
		c, ok := ev.consts[name]
		if !ok {
			return ev.refuse(x, "%s is not a constant the answer may use", name)
		}
		cv := reflect.ValueOf(c)
		if cv.Type() != t {
			return ev.refuse(x, "%s is a %s, want a %s", name, cv.Type(), t)
		}
		v.Set(cv)
		return nil
	case *ast.CompositeLit:
		return ev.composite(x, v)
	case *ast.CallExpr:
		return ev.refuse(x, "%s calls a function; an answer is a literal value and the grader never runs it", types.ExprString(x.Fun))
	case *ast.FuncLit:
		return ev.refuse(x, "a function literal; an answer is a literal value and the grader never runs it")
	}
	return ev.refuse(x, "%s is an expression, not a literal value", types.ExprString(x))
}

func (ev *evaluator) basic(b *ast.BasicLit, sign string, v reflect.Value) error {
	t := v.Type()
	switch b.Kind {
	case token.STRING:
		if sign != "" || t.Kind() != reflect.String {
			return ev.refuse(b, "a string where a %s belongs", t)
		}
		s, err := strconv.Unquote(b.Value)
		if err != nil {
			return ev.refuse(b, "bad string literal: %v", err)
		}
		v.SetString(s)
		return nil
	case token.INT, token.FLOAT:
		text := sign + b.Value
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n, err := strconv.ParseInt(strings.ReplaceAll(text, "_", ""), 0, t.Bits())
			if err != nil {
				return ev.refuse(b, "%s is not a %s", text, t)
			}
			v.SetInt(n)
			return nil
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			n, err := strconv.ParseUint(strings.ReplaceAll(text, "_", ""), 0, t.Bits())
			if err != nil || sign == "-" {
				return ev.refuse(b, "%s is not a %s", text, t)
			}
			v.SetUint(n)
			return nil
		case reflect.Float32, reflect.Float64:
			f, err := strconv.ParseFloat(text, t.Bits())
			if err != nil {
				return ev.refuse(b, "%s is not a %s", text, t)
			}
			v.SetFloat(f)
			return nil
		}
	}
	return ev.refuse(b, "%s where a %s belongs", b.Value, t)
}

func (ev *evaluator) composite(x *ast.CompositeLit, v reflect.Value) error {
	t := v.Type()
	if x.Type != nil {
		if got := types.ExprString(x.Type); got != t.String() {
			return ev.refuse(x, "a %s where a %s belongs", got, t)
		}
	}
	switch t.Kind() {
	case reflect.Struct:
		keyed := len(x.Elts) > 0
		for _, e := range x.Elts {
			_, ok := e.(*ast.KeyValueExpr)
			keyed = keyed && ok
		}
		if !keyed && len(x.Elts) > 0 {
			if len(x.Elts) != t.NumField() {
				return ev.refuse(x, "%s has %d fields, the literal gives %d: name them", t, t.NumField(), len(x.Elts))
			}
			for i, e := range x.Elts {
				if !t.Field(i).IsExported() {
					return ev.refuse(e, "%s.%s is not a field an answer sets", t, t.Field(i).Name)
				}
				if err := ev.eval(e, v.Field(i)); err != nil {
					return err
				}
			}
			return nil
		}
		seen := map[string]bool{}
		for _, e := range x.Elts {
			kv := e.(*ast.KeyValueExpr)
			id, ok := kv.Key.(*ast.Ident)
			if !ok {
				return ev.refuse(kv, "a field name is an identifier")
			}
			f, ok := t.FieldByName(id.Name)
			if !ok || !f.IsExported() || len(f.Index) != 1 {
				return ev.refuse(kv, "%s has no field %s", t, id.Name)
			}
			if seen[id.Name] {
				return ev.refuse(kv, "field %s is set twice", id.Name)
			}
			seen[id.Name] = true
			if err := ev.eval(kv.Value, v.Field(f.Index[0])); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		m := reflect.MakeMapWithSize(t, len(x.Elts))
		for _, e := range x.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				return ev.refuse(e, "a map literal's element needs a key")
			}
			k := reflect.New(t.Key()).Elem()
			if err := ev.eval(kv.Key, k); err != nil {
				return err
			}
			if m.MapIndex(k).IsValid() {
				return ev.refuse(kv, "key %v is given twice", k)
			}
			val := reflect.New(t.Elem()).Elem()
			if err := ev.eval(kv.Value, val); err != nil {
				return err
			}
			m.SetMapIndex(k, val)
		}
		v.Set(m)
		return nil
	case reflect.Slice:
		s := reflect.MakeSlice(t, len(x.Elts), len(x.Elts))
		for i, e := range x.Elts {
			if _, ok := e.(*ast.KeyValueExpr); ok {
				return ev.refuse(e, "indexed slice literals are not supported: list the values")
			}
			if err := ev.eval(e, s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	}
	return ev.refuse(x, "a composite literal where a %s belongs", t)
}
