package grade

import (
	"archive/zip"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func TestGradescopeZip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.zip")
	if err := GradescopeZip(p, []byte("lab = \"histogram\"\n"), []byte("binary")); err != nil {
		t.Fatal(err)
	}
	r, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var names []string
	for _, f := range r.File {
		names = append(names, f.Name)
		if (f.Name == "setup.sh" || f.Name == "run_autograder") && f.Mode()&0o100 == 0 {
			t.Errorf("%s is not executable", f.Name)
		}
	}
	sort.Strings(names)
	if strings.Join(names, " ") != "key.toml run_autograder setup.sh warplab" {
		t.Errorf("zip holds %v", names)
	}
	if !strings.Contains(GradescopeRun, "/autograder/results/results.json") || !strings.Contains(GradescopeRun, "/autograder/submission") {
		t.Error("run_autograder does not use Gradescope's paths")
	}
}
