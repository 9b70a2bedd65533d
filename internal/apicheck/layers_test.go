package apicheck

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// imports returns the module packages each package under dir imports in
// its non-test files, by package directory relative to the root; imports
// are relative to the module too ("gpu", "labs/atomics").
func imports(t *testing.T, dir string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(filepath.Join(root, dir), func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(file, ".go") || strings.HasSuffix(file, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(file))
		rel = filepath.ToSlash(rel)
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if q, ok := strings.CutPrefix(p, module+"/"); ok && !slices.Contains(out[rel], q) {
				out[rel] = append(out[rel], q)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no package under %s imports anything of the module", dir)
	}
	return out
}

// under reports whether pkg is dir or a package below it.
func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

// TestLayering checks who may import whom, as DESIGN.md draws the
// layers: the labs run on package gpu and never choose a backend (the
// command, the notebooks' package labs/nb and the tests register them);
// the grader knows the lab contract (package labs) and no lab by name;
// package gpu and its sub-packages import nothing above them.
func TestLayering(t *testing.T) {
	backends := []string{"gpusim", "cudarun"}
	for pkg, ims := range imports(t, "labs") {
		if pkg == "labs/nb" {
			continue // the notebooks' entry point registers the backends, as cmd/warplab does
		}
		for _, im := range ims {
			if slices.ContainsFunc(backends, func(b string) bool { return under(im, b) }) {
				t.Errorf("%s imports %s: a lab runs on package gpu; whoever runs it registers the backends", pkg, im)
			}
			if under(im, "grade") || under(im, "cmd") {
				t.Errorf("%s imports %s: the labs sit below the grader and the command", pkg, im)
			}
		}
	}
	for pkg, ims := range imports(t, "grade") {
		for _, im := range ims {
			if under(im, "labs") && im != "labs" {
				t.Errorf("%s imports %s: the grader knows the lab contract (package labs), not a lab", pkg, im)
			}
			if slices.ContainsFunc(backends, func(b string) bool { return under(im, b) }) {
				t.Errorf("%s imports %s: the grader opens devices through package gpu", pkg, im)
			}
		}
	}
	for pkg, ims := range imports(t, "gpu") {
		for _, im := range ims {
			if !under(im, "gpu") && im != "cudac" && !under(im, "internal") {
				t.Errorf("%s imports %s: package gpu and its sub-packages import only cudac below them", pkg, im)
			}
		}
	}
}

// The rule finds what it is for: a lab importing a backend.
func TestUnder(t *testing.T) {
	if !under("gpusim/profiles", "gpusim") || !under("gpusim", "gpusim") || under("gpusimx", "gpusim") {
		t.Error("under is wrong")
	}
}
