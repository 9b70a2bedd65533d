package cudac

import "testing"

func TestPrecedence(t *testing.T) {
	const decls = "int a = 1, b = 2, c = 3, d = 4; int* p = nullptr; bool x = true, y = false;\n"
	tests := []struct{ expr, want string }{
		{"a + b * c", "(+ a (* b c):int):int"},
		{"a * b + c", "(+ (* a b):int c):int"},
		{"a - b - c", "(- (- a b):int c):int"},
		{"a / b / c", "(/ (/ a b):int c):int"},
		{"a % b * c", "(* (% a b):int c):int"},
		{"a << 1 + b", "(<< a (+ 1:int b):int):int"},
		{"a + b << c", "(<< (+ a b):int c):int"},
		{"a < b == c > d", "(== (conv (< a b):bool):int (conv (> c d):bool):int):bool"},
		{"a & b == c", "(& a (conv (== b c):bool):int):int"},
		{"a | b ^ c & d", "(| a (^ b (& c d):int):int):int"},
		{"x || y && x", "(|| x (&& y x):bool):bool"},
		{"x && y || x", "(|| (&& x y):bool x):bool"},
		{"a ? b : c ? d : a", "(? (conv a):bool b (? (conv c):bool d a):int):int"},
		{"x ? a : b + c", "(? x a (+ b c):int):int"},
		{"a = b = c", "(= a (= b c):int):int"},
		{"a += b -= c", "(+= a (-= b c)<int>:int)<int>:int"},
		{"a = x ? b : c", "(= a (? x b c):int):int"},
		{"-a * b", "(* (- a):int b):int"},
		{"-p[1]", "(- (index p 1:long long):int):int"},
		{"*p++", "(* (post++ p):int*):int"},
		{"*++p", "(* (++ p):int*):int"},
		{"++*p", "(++ (* p):int):int"},
		{"!x == y", "(== (conv (! x):bool):int (conv y):int):bool"},
		{"~a & b", "(& (~ a):int b):int"},
		{"(a + b) * c", "(* (+ a b):int c):int"},
		{"a, b = c", "(, a (= b c):int):int"},
		{"sizeof a + b", "(+ 4:size_t (conv b):size_t):size_t"},
		{"(float)a / b", "(/ (cast a):float (conv b):float):float"},
		{"(float)(a / b)", "(cast (/ a b):int):float"},
		{"&p[a] - p", "(ptrdiff (& (index p (conv a):long long):int):int* p):long long"},
		{"a > b ? a : b", "(? (> a b):bool a b):int"},
		{"a & 1 ? b : c", "(? (conv (& a 1:int):int):bool b c):int"},
		{"a >> 1 >> 1", "(>> (>> a 1:int):int 1:int):int"},
		{"a - -b", "(- a (- b):int):int"},
		{"a-- - --b", "(- (post-- a):int (-- b):int):int"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			src := "__global__ void k() {\n" + decls + tt.expr + ";\n}\n"
			if got := lastStmt(t, src); got != tt.want {
				t.Errorf("%s\n got %s\nwant %s", tt.expr, got, tt.want)
			}
		})
	}
}
