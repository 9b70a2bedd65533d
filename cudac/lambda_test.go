package cudac

import (
	"strings"
	"testing"
)

func TestLambdaChecks(t *testing.T) {
	ok := []string{
		"auto f = [](int a) { return a + 1; }; p[0] = f(2);",
		"int k = 3; auto f = [=]() { return k; }; p[0] = f();",
		"int k = 3; auto f = [&]() { k++; }; f(); p[0] = k;",
		"int k = 3; auto f = [k]() mutable { k++; return k; }; p[0] = f();",
		"auto f = [] __device__ (int a) -> float { return a; }; p[0] = (int)f(1);",
		"__shared__ int s; auto f = []() { return s; }; p[0] = f();",
		"constexpr int kN = 4; auto f = []() { return kN; }; p[0] = f();",
	}
	for _, body := range ok {
		src := "__global__ void k(int* p) { " + body + " }"
		if _, err := Compile("l.cu", []byte(src)); err != nil {
			t.Errorf("%s: %v", body, err)
		}
	}
	bad := []struct{ body, want string }{
		{"int k = 3; auto f = []() { return k; };", "l.cu:1:63: variable 'k' is not captured by the lambda"},
		{"int k = 3; auto f = [k]() { k++; };", "l.cu:1:58: cannot increment 'k': it is const"},
		{"int a[4]; auto f = [=]() { return a[0]; };", "capturing the array 'a' by value is not supported"},
		{"int (*g)(int) = 0; g = [](int a) { return a; };", "l.cu:"},
		{"p[0] = [](int a) { return a; }(3);", "a lambda is supported only stored in an 'auto' local"},
		{"auto f = [](int a) { auto g = [](int b) { return b; }; return g(a); };", "a lambda inside a lambda is not supported"},
		{"int f2 = [](int a) { return a; };", "a lambda must be stored in an 'auto' variable"},
		{"auto f = [this]() { return 1; };", "unsupported lambda capture 'this'"},
		{"auto f = [](int a) { return a; }; p[0] = f(1, 2);", "too many arguments to 'lambda@1:"},
		{"auto f = [](int a = 2) { return a; };", "default arguments of lambdas are not supported"},
	}
	for _, tt := range bad {
		src := "__global__ void k(int* p) { " + tt.body + " }"
		_, err := Compile("l.cu", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.body, err, tt.want)
		}
	}
}
