package grade

import (
	"archive/zip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func TestGradescopeZip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.zip")
	if err := writeZip(p, []byte("lab = \"histogram\"\n"), []byte("binary")); err != nil {
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
	run := GradescopeRun()
	if !strings.Contains(run, "/autograder") || !strings.Contains(run, "results/results.json") || !strings.Contains(run, "$root/submission") {
		t.Error("run_autograder does not use Gradescope's paths")
	}
	// Not an executable, and a dynamically linked one, are refused.
	if err := GradescopeZip(p, nil, []byte("binary")); err == nil || !strings.Contains(err.Error(), "not ELF") {
		t.Errorf("a non-ELF binary: %v", err)
	}
	if exe, err := os.Executable(); err == nil {
		data, _ := os.ReadFile(exe)
		if strings.Contains(string(data[:min(len(data), 4096)]), "ld-linux") {
			if err := GradescopeZip(p, nil, data); err == nil || !strings.Contains(err.Error(), "dynamically linked") {
				t.Errorf("the (dynamically linked) test binary: %v", err)
			}
		}
	}
}

// TestRunAutograder runs run_autograder with a warplab that fails and one
// that works: the first leaves the fallback results.json, the second the
// grader's.
func TestRunAutograder(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, tt := range []struct {
		name, fake, want string
	}{
		{"fails", "#!/bin/sh\necho boom >&2\nexit 3\n", "could not grade this submission"},
		{"crashes before writing", "#!/bin/sh\nkill -9 $$\n", "could not grade this submission"},
		{"works", "#!/bin/sh\n" +
			"while [ $# -gt 0 ]; do if [ \"$1\" = --out ]; then o=$2; fi; shift; done\n" +
			"mkdir -p \"$o/Ada\" && echo '{\"score\": 7, \"output\": \"graded\", \"tests\": []}' > \"$o/Ada/results.json\"\n", `"score": 7`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			bin := filepath.Join(root, "bin")
			os.MkdirAll(bin, 0o755)
			os.MkdirAll(filepath.Join(root, "submission"), 0o755)
			if err := os.WriteFile(filepath.Join(bin, "warplab"), []byte(tt.fake), 0o755); err != nil {
				t.Fatal(err)
			}
			script := filepath.Join(root, "run_autograder")
			if err := os.WriteFile(script, []byte(GradescopeRun()), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("bash", script)
			cmd.Env = append(os.Environ(), "WARPLAB_AUTOGRADER="+root, "PATH="+bin+":"+os.Getenv("PATH"))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("run_autograder: %v\n%s", err, out)
			}
			data, err := os.ReadFile(filepath.Join(root, "results", "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), tt.want) {
				t.Errorf("results.json %s, want %q", data, tt.want)
			}
			var v map[string]any
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatalf("results.json is not JSON: %v\n%s", err, data)
			}
			if errs := validateGradescope(v); len(errs) > 0 {
				t.Errorf("results.json does not validate: %v", errs)
			}
		})
	}
}
