package cudac

import (
	"fmt"
	"strconv"
	"strings"
)

// Dump formats a checked node compactly, for tests and debugging. An
// expression is an S-expression whose compound nodes end in ":type":
//
//	(< (conv i):unsigned long long n):bool
//
// Variables print as their names and constants as value:type. Implicit
// conversions print as (conv x):T, casts as (cast x):T. Statements and
// functions print one statement per line, indented by two spaces.
func Dump(n Node) string {
	var d dumper
	switch n := n.(type) {
	case *Func:
		d.fn(n)
	case Stmt:
		d.stmt(n, 0)
	case Expr:
		d.expr(n)
	case *Var:
		fmt.Fprintf(&d.b, "%s %s %s", n.Space, n.T, n.Name)
	case *Case:
		d.cas(n, 0)
	default:
		fmt.Fprintf(&d.b, "%T", n)
	}
	return strings.TrimRight(d.b.String(), "\n")
}

type dumper struct{ b strings.Builder }

func (d *dumper) fn(f *Func) {
	kind := "__device__"
	if f.Kernel {
		kind = "__global__"
	}
	fmt.Fprintf(&d.b, "%s %s %s\n", kind, f.Result, f.Signature())
	if f.Body != nil {
		d.stmt(f.Body, 0)
	}
}

func (d *dumper) line(depth int, format string, args ...any) {
	d.b.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(&d.b, format, args...)
	d.b.WriteByte('\n')
}

func (d *dumper) str(x Expr) string {
	var e dumper
	e.expr(x)
	return e.b.String()
}

func (d *dumper) stmt(s Stmt, depth int) {
	switch s := s.(type) {
	case nil:
		d.line(depth, "<nil>")
	case *Block:
		d.line(depth, "{")
		for _, x := range s.Stmts {
			d.stmt(x, depth+1)
		}
		d.line(depth, "}")
	case *DeclStmt:
		v := s.Var
		prefix := "decl"
		switch {
		case v.Extern:
			prefix = "decl extern shared"
		case v.Space == SpaceShared:
			prefix = "decl shared"
		}
		if v.Const {
			prefix += " const"
		}
		text := fmt.Sprintf("%s %s %s", prefix, v.T, v.Name)
		if s.Init != nil {
			text += " = " + d.str(s.Init)
		}
		if s.InitList != nil {
			parts := make([]string, len(s.InitList))
			for i, x := range s.InitList {
				parts[i] = d.str(x)
			}
			text += " = {" + strings.Join(parts, ", ") + "}"
		}
		d.line(depth, "%s", text)
	case *ExprStmt:
		d.line(depth, "%s", d.str(s.X))
	case *If:
		d.line(depth, "if %s", d.str(s.Cond))
		d.stmt(s.Then, depth+1)
		if s.Else != nil {
			d.line(depth, "else")
			d.stmt(s.Else, depth+1)
		}
	case *For:
		init, cond, post := "", "", ""
		if s.Init != nil {
			var e dumper
			e.stmt(s.Init, 0)
			init = strings.Join(strings.Fields(e.b.String()), " ")
		}
		if s.Cond != nil {
			cond = d.str(s.Cond)
		}
		if s.Post != nil {
			post = d.str(s.Post)
		}
		d.line(depth, "for %s; %s; %s", init, cond, post)
		d.stmt(s.Body, depth+1)
	case *While:
		d.line(depth, "while %s", d.str(s.Cond))
		d.stmt(s.Body, depth+1)
	case *DoWhile:
		d.line(depth, "do")
		d.stmt(s.Body, depth+1)
		d.line(depth, "while %s", d.str(s.Cond))
	case *Break:
		d.line(depth, "break")
	case *Continue:
		d.line(depth, "continue")
	case *Return:
		if s.X == nil {
			d.line(depth, "return")
		} else {
			d.line(depth, "return %s", d.str(s.X))
		}
	case *Switch:
		d.line(depth, "switch %s", d.str(s.Tag))
		for _, c := range s.Cases {
			d.cas(c, depth+1)
		}
	case *Empty:
		d.line(depth, ";")
	default:
		d.line(depth, "%T", s)
	}
}

func (d *dumper) cas(c *Case, depth int) {
	if c.Default {
		d.line(depth, "default:")
	} else {
		d.line(depth, "case %d:", c.Value)
	}
	for _, x := range c.Body {
		d.stmt(x, depth+1)
	}
}

func (d *dumper) expr(x Expr) {
	b := &d.b
	open := func(op string, args ...Expr) {
		b.WriteString("(" + op)
		for _, a := range args {
			b.WriteByte(' ')
			d.expr(a)
		}
		b.WriteString("):" + x.Type().String())
	}
	switch x := x.(type) {
	case nil:
		b.WriteString("<nil>")
	case *Const:
		if x.T.IsFloat() {
			b.WriteString(strconv.FormatFloat(x.Float, 'g', -1, 64))
		} else {
			b.WriteString(constString(x))
		}
		b.WriteString(":" + x.T.String())
	case *StringLit:
		b.WriteString(strconv.Quote(x.Value))
	case *VarRef:
		b.WriteString(x.Var.Name)
	case *Unary:
		open([...]string{Neg: "-", BitNot: "~", LogNot: "!"}[x.Op], x.X)
	case *Binary:
		open(x.Op.String(), x.X, x.Y)
	case *PtrAdd:
		op := "ptr+"
		if x.Sub {
			op = "ptr-"
		}
		open(op, x.Ptr, x.Off)
	case *PtrDiff:
		open("ptrdiff", x.X, x.Y)
	case *Logical:
		op := "&&"
		if x.Op == LogOr {
			op = "||"
		}
		open(op, x.X, x.Y)
	case *CondExpr:
		open("?", x.Cond, x.X, x.Y)
	case *Assign:
		if x.Op == 0 {
			open("=", x.LHS, x.RHS)
		} else {
			b.WriteString("(" + x.Op.String() + "= ")
			d.expr(x.LHS)
			b.WriteByte(' ')
			d.expr(x.RHS)
			b.WriteString(")<" + x.OpType.String() + ">:" + x.Type().String())
		}
	case *IncDec:
		op := "++"
		if x.Dec {
			op = "--"
		}
		if x.Postfix {
			op = "post" + op
		}
		open(op, x.X)
	case *Conv:
		if x.Explicit {
			open("cast", x.X)
		} else {
			open("conv", x.X)
		}
	case *Index:
		open("index", x.X, x.Index)
	case *Member:
		b.WriteString("(. ")
		d.expr(x.X)
		b.WriteString(" " + x.Field.Name + "):" + x.Type().String())
	case *Deref:
		open("*", x.X)
	case *AddrOf:
		open("&", x.X)
	case *Call:
		open("call "+x.Func.Name, x.Args...)
	case *BuiltinCall:
		if x.Builtin.IsSpecialRegister() {
			b.WriteString(x.Builtin.String())
			return
		}
		name := x.Builtin.String()
		if x.Elem != nil {
			name += "<" + x.Elem.String() + ">"
		}
		open(name, x.Args...)
	case *Comma:
		open(",", x.X, x.Y)
	default:
		fmt.Fprintf(b, "%T", x)
	}
}
