package apicheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the module path; root the module's directory.
const module = "github.com/warplab/warplab"

const root = "../.."

// pkg is one parsed package: its directory relative to the root and its
// non-test files.
type pkg struct {
	dir   string
	files []*ast.File
}

// publicPackages parses every package outside internal/, testdata/ and
// cmd/ (a command exports nothing).
func publicPackages(t *testing.T) []pkg {
	t.Helper()
	fset := token.NewFileSet()
	byDir := map[string]*pkg{}
	err := filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, file)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			base := d.Name()
			if rel != "." && (base == "internal" || base == "testdata" || base == "cmd" || strings.HasPrefix(base, ".") || base == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(file, ".go") || strings.HasSuffix(file, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		if byDir[dir] == nil {
			byDir[dir] = &pkg{dir: dir}
		}
		byDir[dir].files = append(byDir[dir].files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []pkg
	for _, p := range byDir {
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b pkg) int { return strings.Compare(a.dir, b.dir) })
	if len(out) < 5 {
		t.Fatalf("found only %d packages under %s", len(out), root)
	}
	return out
}

// internalImports maps a file's import names to import paths of internal
// packages.
func internalImports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		if !strings.HasPrefix(path, module+"/") || !slices.Contains(strings.Split(path, "/"), "internal") {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		m[name] = path
	}
	return m
}

// mentions returns the internal packages node refers to.
func mentions(node ast.Node, internal map[string]string) []string {
	var found []string
	if node == nil {
		return nil
	}
	ast.Inspect(node, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if path, ok := internal[id.Name]; ok {
					found = append(found, path+"."+sel.Sel.Name)
				}
			}
		}
		return true
	})
	return found
}

// exportedFields keeps a struct or interface type's exported fields and
// methods, so unexported ones may use internal types.
func exportedParts(e ast.Expr) []ast.Node {
	switch t := e.(type) {
	case *ast.StructType:
		var out []ast.Node
		for _, f := range t.Fields.List {
			if len(f.Names) == 0 || slices.ContainsFunc(f.Names, func(n *ast.Ident) bool { return n.IsExported() }) {
				out = append(out, f.Type)
			}
		}
		return out
	case *ast.InterfaceType:
		var out []ast.Node
		for _, f := range t.Methods.List {
			if len(f.Names) == 0 || f.Names[0].IsExported() {
				out = append(out, f.Type)
			}
		}
		return out
	}
	return []ast.Node{e}
}

// receiverExported reports whether a method's receiver type is exported.
func receiverExported(fd *ast.FuncDecl) bool {
	if fd.Recv == nil {
		return true
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

func report(t *testing.T, key, msg string) {
	t.Helper()
	t.Errorf("%s %s", key, msg)
}

// leak is an exported declaration that mentions internal types.
type leak struct {
	decl  string   // "func Model", "type Options", "var X"
	types []string // the internal types it mentions
}

// leaks returns the exported declarations of f that mention types of
// internal packages: in a signature, an exported field or method, an
// alias, or a variable's type or value.
func leaks(f *ast.File) []leak {
	internal := internalImports(f)
	if len(internal) == 0 {
		return nil
	}
	var out []leak
	add := func(decl string, m []string) {
		if len(m) > 0 {
			out = append(out, leak{decl, m})
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && receiverExported(d) {
				add("func "+d.Name.Name, mentions(d.Type, internal))
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					var m []string
					for _, part := range exportedParts(s.Type) {
						m = append(m, mentions(part, internal)...)
					}
					if s.TypeParams != nil {
						m = append(m, mentions(s.TypeParams, internal)...)
					}
					add("type "+s.Name.Name, m)
				case *ast.ValueSpec:
					for i, n := range s.Names {
						if !n.IsExported() {
							continue
						}
						m := mentions(s.Type, internal)
						if i < len(s.Values) {
							m = append(m, mentions(s.Values[i], internal)...)
						}
						add(d.Tok.String()+" "+n.Name, m)
					}
				}
			}
		}
	}
	return out
}

func TestNoInternalTypesInPublicAPI(t *testing.T) {
	for _, p := range publicPackages(t) {
		for _, f := range p.files {
			for _, l := range leaks(f) {
				report(t, p.dir+": "+l.decl, "mentions "+strings.Join(l.types, ", "))
			}
		}
	}
}

// TestNoMutableExportedVariables reports exported package variables: a
// caller could change them for every other user of the package. Error
// values (named Err...) are the one exception, as in the standard library.
func TestNoMutableExportedVariables(t *testing.T) {
	for _, p := range publicPackages(t) {
		for _, f := range p.files {
			for _, decl := range f.Decls {
				d, ok := decl.(*ast.GenDecl)
				if !ok || d.Tok != token.VAR {
					continue
				}
				for _, spec := range d.Specs {
					for _, n := range spec.(*ast.ValueSpec).Names {
						if n.IsExported() && !strings.HasPrefix(n.Name, "Err") {
							report(t, p.dir+": var "+n.Name, "is an exported variable: make it a function or a constant")
						}
					}
				}
			}
		}
	}
}

func TestRootIsTheModule(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !strings.Contains(string(b), "module "+module+"\n") {
		t.Fatalf("%s is not the root of %s: %v", root, module, err)
	}
}

// The checks find what they are for: a signature, a field and an alias
// that mention an internal type, and nothing in unexported parts.
func TestChecksFindLeaks(t *testing.T) {
	src := `package p
import (
	"github.com/warplab/warplab/gpusim/internal/engine"
	lk "github.com/warplab/warplab/labs/internal/labkit"
)
func Model(o *engine.Outcome) {}
func model(o *engine.Outcome) {}
type Options struct { Order engine.Order; order engine.Order }
type Progress = lk.Progress
type hidden struct{ o engine.Order }
var Default = engine.Order(1)
var fine = engine.Order(1)
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, l := range leaks(f) {
		found = append(found, l.decl+": "+strings.Join(l.types, ", "))
	}
	want := []string{
		"func Model: github.com/warplab/warplab/gpusim/internal/engine.Outcome",
		"type Options: github.com/warplab/warplab/gpusim/internal/engine.Order",
		"type Progress: github.com/warplab/warplab/labs/internal/labkit.Progress",
		"var Default: github.com/warplab/warplab/gpusim/internal/engine.Order",
	}
	if !slices.Equal(found, want) {
		t.Errorf("found %q, want %q", found, want)
	}
}
