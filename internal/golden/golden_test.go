package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		got, want string
		say       string // "" when equal, else a substring of the description
	}{
		{"a\nb\n", "a\nb\n", ""},
		{"", "", ""},
		{"a\nb\n", "a\nc\n", `line 2:` + "\n" + ` got: "b\n"` + "\n" + `want: "c\n"`},
		{"a\n", "a\nb\nc\n", `line 2: got end of output, want "b\n" (2 more lines)`},
		{"a\nb\n", "a\n", `line 2: got "b\n", want end of file (1 more lines)`},
		{"a\nb", "a\nb\n", `line 2:`},
	}
	for _, tt := range tests {
		d := Diff([]byte(tt.got), []byte(tt.want))
		if tt.say == "" && d != "" {
			t.Errorf("Diff(%q, %q) = %q, want none", tt.got, tt.want, d)
		}
		if tt.say != "" && !strings.Contains(d, tt.say) {
			t.Errorf("Diff(%q, %q) = %q, want it to contain %q", tt.got, tt.want, d, tt.say)
		}
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errors, fatals []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, format)
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatals = append(r.fatals, format)
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	r := &recorder{TB: t}
	Check(r, path, []byte("one\ntwo\n"))
	if len(r.errors)+len(r.fatals) != 0 {
		t.Errorf("Check of equal output failed: %q %q", r.errors, r.fatals)
	}

	r = &recorder{TB: t}
	Check(r, path, []byte("one\nthree\n"))
	if len(r.errors) != 1 {
		t.Errorf("Check of different output reported %d errors, want 1", len(r.errors))
	}

	r = &recorder{TB: t}
	Check(r, filepath.Join(dir, "missing.txt"), []byte("x"))
	if len(r.fatals) != 1 {
		t.Errorf("Check against a missing file reported %d fatal errors, want 1", len(r.fatals))
	}

	*update = true
	defer func() { *update = false }()
	r = &recorder{TB: t}
	Check(r, path, []byte("new\n"))
	if b, err := os.ReadFile(path); err != nil || string(b) != "new\n" {
		t.Errorf("Check under -update left %q, %v; want the new output", b, err)
	}
}
