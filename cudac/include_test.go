package cudac

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// memFiles is a ReadFile over a map of paths.
func memFiles(files map[string]string) Option {
	return ReadFile(func(path string) ([]byte, error) {
		if s, ok := files[filepath.ToSlash(path)]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
	})
}

func TestIncludeFromDisk(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("kernels/common.cuh", "#pragma once\n#include \"sub/scale.cuh\"\n#define BLOCK 128\n__device__ float twice(float x) { return scale(x, 2.0f); }\n")
	write("kernels/sub/scale.cuh", "#ifndef SCALE_CUH\n#define SCALE_CUH\n__device__ float scale(float x, float s) { return x * s; }\n#endif\n")
	write("inc/limits.cuh", "#ifndef LIMITS_CUH\n#define LIMITS_CUH\nconstexpr int kMax = 7;\n#endif\n")
	src := "#include <cstdio>\n#include \"common.cuh\"\n#include \"common.cuh\"\n#include \"sub/scale.cuh\"\n#include \"limits.cuh\"\n" +
		"__global__ void k(float* a) { a[threadIdx.x] = twice(a[threadIdx.x]) + BLOCK + kMax; }\n"
	main := filepath.Join(dir, "kernels", "main.cu")
	write("kernels/main.cu", src)
	prog, err := Compile(main, []byte(src), IncludeRoot(dir), IncludeDir(filepath.Join(dir, "inc")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range prog.Includes() {
		rel, _ := filepath.Rel(dir, in.Path)
		got = append(got, in.Name+"="+filepath.ToSlash(rel))
	}
	want := "common.cuh=kernels/common.cuh sub/scale.cuh=kernels/sub/scale.cuh limits.cuh=inc/limits.cuh"
	if strings.Join(got, " ") != want {
		t.Errorf("includes %q, want %q", strings.Join(got, " "), want)
	}
	if _, err := prog.Kernel("k"); err != nil {
		t.Error(err)
	}
}

func TestIncludeErrors(t *testing.T) {
	files := map[string]string{
		"bad.h":       "#define OK 1\n__device__ int f() { return undeclared; }\n",
		"outer.h":     "#include \"bad.h\"\n",
		"cycle_a.h":   "#include \"cycle_b.h\"\n",
		"cycle_b.h":   "#include \"cycle_a.h\"\n",
		"open_if.h":   "#if 1\nconstexpr int a = 1;\n",
		"endif.h":     "#endif\n",
		"self.h":      "#include \"self.h\"\n",
		"guarded.h":   "#ifndef G\n#define G\n#include \"guarded.h\"\nconstexpr int g = 1;\n#endif\n",
		"lexbad.h":    "constexpr int x = 1;\n@\n",
		"dir/a.h":     "#include \"b.h\"\n",
		"dir/b.h":     "constexpr int fromB = 2;\n",
		"deep.h":      "#include \"deep.h\"\n#define X\n",
		"once.h":      "#pragma once\nconstexpr int once = 1;\n",
		"unguarded.h": "constexpr int twice = 1;\n",
	}
	tests := []struct {
		name, src, want string
	}{
		{"error in a header", "#include \"bad.h\"\n__global__ void k() {}\n",
			"bad.h:2:29: undeclared identifier 'undeclared'\n    __device__ int f() { return undeclared; }\n                                ^\n    (included from e.cu:1:10)"},
		{"error two levels down", "\n#include \"outer.h\"\n",
			"bad.h:2:29: undeclared identifier 'undeclared'\n    __device__ int f() { return undeclared; }\n                                ^\n    (included from outer.h:1:10)\n    (included from e.cu:2:10)"},
		{"not found", "#include \"nowhere.h\"\n", "e.cu:1:10: cannot find include file \"nowhere.h\" (looked in ., extra)"},
		{"cycle", "#include \"cycle_a.h\"\n", "cycle_b.h:1:10: #include cycle: cycle_a.h includes cycle_b.h includes cycle_a.h"},
		{"self", "#include \"self.h\"\n", "self.h:1:10: #include cycle: self.h includes self.h"},
		{"unterminated if in a header", "#include \"open_if.h\"\n#endif\n", "e.cu:2:2: #endif without #if"},
		{"endif closing the includer's if", "#if 1\n#include \"endif.h\"\n#endif\n", "endif.h:1:2: #endif without #if"},
		{"lexical error in a header", "#include \"lexbad.h\"\n", "lexbad.h:2:1: unexpected character '@'"},
		{"no file name", "#include\n", "e.cu:1:2: #include expects \"FILENAME\" or <FILENAME>"},
		{"macro file name", "#define H \"bad.h\"\n#include H\n", "e.cu:2:10: #include expects \"FILENAME\" or <FILENAME>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile("e.cu", []byte(tt.src), memFiles(files), IncludeDir("extra"))
			if err == nil {
				t.Fatalf("compiled, want %q", tt.want)
			}
			if got := err.Error(); !strings.HasPrefix(got, tt.want) {
				t.Errorf("got\n%s\nwant prefix\n%s", got, tt.want)
			}
		})
	}
	ok := []struct{ name, src string }{
		{"guarded self include", "#include \"guarded.h\"\n__global__ void k(int* a) { a[0] = g; }\n"},
		{"relative to the including file", "#include \"dir/a.h\"\n__global__ void k(int* a) { a[0] = fromB; }\n"},
		{"pragma once", "#include \"once.h\"\n#include \"once.h\"\n__global__ void k(int* a) { a[0] = once; }\n"},
		{"system header in quotes", "#include \"cuda_runtime.h\"\n#include \"stdio.h\"\n__global__ void k() {}\n"},
		{"include in a skipped region", "#if 0\n#include \"nowhere.h\"\n#endif\n__global__ void k() {}\n"},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Compile("e.cu", []byte(tt.src), memFiles(files)); err != nil {
				t.Error(err)
			}
		})
	}
	// Twice without a guard is a redefinition, reported in the header.
	_, err := Compile("e.cu", []byte("#include \"unguarded.h\"\n#include \"unguarded.h\"\n"), memFiles(files))
	if err == nil || !strings.Contains(err.Error(), "unguarded.h:1:") || !strings.Contains(err.Error(), "included from e.cu:2:10") {
		t.Errorf("unguarded twice: %v", err)
	}
	// Unbounded self inclusion behind a guard that never holds stops.
	_, err = Compile("e.cu", []byte("#include \"deep.h\"\n"), memFiles(files))
	if err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("deep: %v", err)
	}
	// A read that fails for another reason than a missing file is reported.
	_, err = Compile("e.cu", []byte("#include \"x.h\"\n"), ReadFile(func(string) ([]byte, error) { return nil, errors.New("permission denied") }))
	if err == nil || !strings.Contains(err.Error(), "e.cu:1:10: cannot read include file \"x.h\": permission denied") {
		t.Errorf("read error: %v", err)
	}
}
