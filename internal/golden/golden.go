package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files with the tests' output instead of comparing")

// Check compares got with the contents of the file at path. It fails t,
// naming the first line that differs, when they are not equal or the file
// cannot be read; under -update it writes got to path instead.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("golden: update %s: %v", path, err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden: %v (run go test with -update to create it)", err)
	}
	if d := Diff(got, want); d != "" {
		t.Errorf("golden: %s: output differs from the golden file (run go test with -update to accept it): %s", path, d)
	}
}

// Diff describes the first difference between got and want: the line
// number and both lines, or which one is longer. It returns "" when they
// are equal.
func Diff(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	g, w := lines(got), lines(want)
	for i := 0; i < len(g) || i < len(w); i++ {
		switch {
		case i >= len(g):
			return fmt.Sprintf("line %d: got end of output, want %q (%d more lines)", i+1, w[i], len(w)-i)
		case i >= len(w):
			return fmt.Sprintf("line %d: got %q, want end of file (%d more lines)", i+1, g[i], len(g)-i)
		case !bytes.Equal(g[i], w[i]):
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, g[i], w[i])
		}
	}
	return "" // not reached: unequal inputs differ in some line
}

// lines splits b after each newline, with no empty last line.
func lines(b []byte) [][]byte {
	l := bytes.SplitAfter(b, []byte("\n"))
	if len(l[len(l)-1]) == 0 {
		l = l[:len(l)-1]
	}
	return l
}
