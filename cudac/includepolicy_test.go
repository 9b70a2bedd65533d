package cudac

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
)

// secret is text no diagnostic may quote: it stands for an instructor's
// key or the environment of the grading machine.
const secret = "SECRET_TOKEN_7f3a"

// TestNoFileAccessByDefault: without an include option Compile reads no
// file, whatever the name, and says so without quoting anything.
func TestNoFileAccessByDefault(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "key.toml")
	if err := os.WriteFile(key, []byte("points = 1 # "+secret+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "near.h"), []byte(secret+" x;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.cu")
	for _, tt := range []struct{ name, want string }{
		{"key.toml", "this compilation reads no files"},
		{"near.h", "this compilation reads no files"},
		{key, "an absolute path"},
		{"/proc/self/environ", "an absolute path"},
		{"/etc", "an absolute path"},
		{"../../etc/passwd", "this compilation reads no files"},
	} {
		src := "#include \"" + tt.name + "\"\n__global__ void k(int* p) { p[0] = 1; }\n"
		_, err := Compile(main, []byte(src))
		if err == nil {
			t.Errorf("#include %q compiled", tt.name)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tt.want) || strings.Contains(msg, secret) {
			t.Errorf("#include %q: %s\nwant %q and no file text", tt.name, msg, tt.want)
		}
	}
	// Toolkit headers are still known without a file.
	if _, err := Compile(main, []byte("#include \"cuda_runtime.h\"\n#include <cstdio>\n__global__ void k() {}\n")); err != nil {
		t.Error(err)
	}
}

// TestIncludeRootConfines: IncludeRoot reads the tree's regular files and
// refuses ways out of it and files that are not regular.
func TestIncludeRootConfines(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "src")
	write := func(p, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "local.h"), "#define LOCAL 3\n")
	write(filepath.Join(root, "sub", "deep.h"), "#define DEEP 4\n")
	write(filepath.Join(base, "outside.h"), "#define "+secret+" 1\n")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(base, "outside.h"), filepath.Join(root, "out.h")))
	must(os.Symlink("/dev/zero", filepath.Join(root, "zero.h")))
	must(os.Symlink("local.h", filepath.Join(root, "alias.h")))
	must(syscall.Mkfifo(filepath.Join(root, "fifo.h"), 0o644))
	must(os.Mkdir(filepath.Join(root, "dir.h"), 0o755))
	write(filepath.Join(root, "big.h"), strings.Repeat("// x\n", MaxIncludeBytes/5+1))
	main := filepath.Join(root, "main.cu")
	ok := "#include \"local.h\"\n#include \"sub/deep.h\"\n#include \"alias.h\"\n__global__ void k(int* p) { p[0] = LOCAL + DEEP; }\n"
	prog, err := Compile(main, []byte(ok), IncludeRoot(root))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(prog.Includes()); n != 3 {
		t.Errorf("%d includes, want 3", n)
	}
	for _, tt := range []struct{ name, want string }{
		{"../outside.h", "outside the directories #include may read"},
		{"sub/../../outside.h", "outside the directories #include may read"},
		{"out.h", "outside the directories #include may read"},
		{"zero.h", "outside the directories #include may read"},
		{"fifo.h", "a FIFO, not a regular file"},
		{"dir.h", "a directory, not a file"},
		{"big.h", "larger than"},
		{filepath.Join(base, "outside.h"), "an absolute path"},
		{"/etc", "an absolute path"},
		{"/proc/self/environ", "an absolute path"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := Compile(main, []byte("#include \""+tt.name+"\"\n__global__ void k() {}\n"), IncludeRoot(root))
			done <- err
		}()
		err := <-done
		if err == nil {
			t.Errorf("#include %q compiled", tt.name)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tt.want) || strings.Contains(msg, secret) {
			t.Errorf("#include %q: %s\nwant %q and no file text", tt.name, msg, tt.want)
		}
	}
}

func TestIncludeFS(t *testing.T) {
	fsys := fstest.MapFS{
		"kernels/ops.cuh": {Data: []byte("#define OPS 2\n")},
	}
	_, err := Compile("kernels/main.cu", []byte("#include \"ops.cuh\"\n__global__ void k(int* p) { p[0] = OPS; }\n"), IncludeFS(fsys))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile("kernels/main.cu", []byte("#include \"../../x.h\"\n"), IncludeFS(fsys))
	if err == nil || !strings.Contains(err.Error(), "outside the directories") {
		t.Errorf("leaving the FS: %v", err)
	}
}
