package main

import (
	"bytes"
	"debug/elf"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestGradeCommand(t *testing.T) {
	dir := t.TempDir()
	good := `{"cells": [{"cell_type": "code", "metadata": {"tags": ["answer"]}, "source": ["var answer = histogram.Answer{Source: ` + "`" + `__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) { hist[0] = ; }` + "`" + `}\n"]}]}`
	os.WriteFile(filepath.Join(dir, "ann.ipynb"), []byte(good), 0o644)
	os.MkdirAll(filepath.Join(dir, "ben"), 0o755)
	os.WriteFile(filepath.Join(dir, "ben", "lab.ipynb"), []byte("{not json"), 0o644)
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := Main([]string{"grade", "--key", "../../grade/keys/histogram.toml", "--jobs", "2", "--format", "prairielearn", "--out", out,
		filepath.Join(dir, "ann.ipynb"), filepath.Join(dir, "ben")}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "graded 2 submissions (1 refused)") {
		t.Errorf("stdout: %s", stdout.String())
	}
	f, err := os.Open(filepath.Join(out, "gradebook.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) != 3 || recs[1][0] != "ann" || recs[1][5] != "0" || recs[2][0] != "ben" || recs[2][7] != "false" {
		t.Errorf("gradebook %q %v", recs, err)
	}
	var pl struct {
		Gradable bool
		Message  string
	}
	data, _ := os.ReadFile(filepath.Join(out, "ben", "results.json"))
	if err := json.Unmarshal(data, &pl); err != nil || pl.Gradable || !strings.Contains(pl.Message, "not valid JSON") {
		t.Errorf("ben's results.json: %s", data)
	}

	stdout.Reset()
	if code := Main([]string{"grade", "key", "init", "softmax"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), `lab = "softmax"`) {
		t.Errorf("key init: %d %s", code, stdout.String())
	}
	if code := Main([]string{"grade", "--key", "../../grade/keys/histogram.toml", "--format", "html", "x.ipynb"}, &stdout, &stderr); code != 2 {
		t.Errorf("an unknown format exits %d, want 2", code)
	}

	// Merge of one shard is the shard.
	merged := filepath.Join(dir, "merged.csv")
	if code := Main([]string{"grade", "merge", "-o", merged, filepath.Join(out, "gradebook.csv")}, &stdout, &stderr); code != 0 {
		t.Fatalf("merge: %s", stderr.String())
	}
	a, _ := os.ReadFile(merged)
	b, _ := os.ReadFile(filepath.Join(out, "gradebook.csv"))
	if !bytes.Equal(a, b) {
		t.Errorf("merged:\n%s\nwant:\n%s", a, b)
	}

	// The Gradescope autograder zip takes only a static executable
	// (TestPackageStatic builds one).
	zip := filepath.Join(dir, "autograder.zip")
	stderr.Reset()
	if code := Main([]string{"grade", "package", "gradescope", "../../grade/keys/histogram.toml", "-o", zip, "--binary", "../../go.mod"}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "not a linux/amd64 executable") {
		t.Errorf("package with go.mod as the binary: exit %d, %s", code, stderr.String())
	}
}

// TestGradeCollectionErrors: a list file with an endless line and a
// negative shard count are refused with what is wrong.
func TestGradeCollectionErrors(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"grade", "--key", "../../grade/keys/histogram.toml", "--list", "/dev/zero"}, &stdout, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), "/dev/zero:1: a line longer than 65536 bytes") || strings.Contains(stderr.String(), "token too long") {
		t.Errorf("--list /dev/zero: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	code = Main([]string{"grade", "--key", "../../grade/keys/histogram.toml", "--shard-count", "-1", "x.ipynb"}, &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "--shard-count -1") {
		t.Errorf("--shard-count -1: exit %d, stderr %q", code, stderr.String())
	}
}

// TestPackageStatic builds warplab as the instructor guide says
// (CGO_ENABLED=0), checks the ELF has no interpreter and no dynamic
// section, and packages it for Gradescope.
func TestPackageStatic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds warplab (about 10 s of CPU)")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the Gradescope binary is linux/amd64")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "warplab")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("the CGO_ENABLED=0 build has a %v segment", p.Type)
		}
	}
	if f.Section(".interp") != nil || f.Section(".dynamic") != nil {
		t.Error("the CGO_ENABLED=0 build has an .interp or .dynamic section")
	}
	f.Close()
	var stdout, stderr bytes.Buffer
	zip := filepath.Join(dir, "autograder.zip")
	if code := Main([]string{"grade", "package", "gradescope", "../../grade/keys/histogram.toml", "-o", zip, "--binary", bin}, &stdout, &stderr); code != 0 {
		t.Fatalf("package: %s", stderr.String())
	}
}

// TestGradeShardsMergeChecked: merge refuses shards that do not cover
// 0..N-1 (a Job whose completions differ from --shard-count).
func TestGradeShardsMergeChecked(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, n := range []string{"a", "b", "c"} {
		p := filepath.Join(dir, n+".ipynb")
		os.WriteFile(p, []byte("{}"), 0o644)
		paths = append(paths, p)
	}
	var stdout, stderr bytes.Buffer
	for i := 0; i < 2; i++ {
		args := append([]string{"grade", "--key", "../../grade/keys/histogram.toml", "--shard-count", "2", "--shard-index", strconv.Itoa(i), "--out", filepath.Join(dir, "s"+strconv.Itoa(i))}, paths...)
		if code := Main(args, &stdout, &stderr); code != 0 {
			t.Fatalf("shard %d: %s", i, stderr.String())
		}
	}
	s0, s1 := filepath.Join(dir, "s0", "gradebook.csv"), filepath.Join(dir, "s1", "gradebook.csv")
	if code := Main([]string{"grade", "merge", "-o", filepath.Join(dir, "all.csv"), s0, s1}, &stdout, &stderr); code != 0 {
		t.Fatalf("merge of both shards: %s", stderr.String())
	}
	stderr.Reset()
	if code := Main([]string{"grade", "merge", s0}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "shards 1 of 2 are missing") {
		t.Errorf("merge of one shard of two: exit %d, %s", code, stderr.String())
	}
}
