package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
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

	// The Gradescope autograder zip.
	zip := filepath.Join(dir, "autograder.zip")
	if code := Main([]string{"grade", "package", "gradescope", "../../grade/keys/histogram.toml", "-o", zip, "--binary", "../../go.mod"}, &stdout, &stderr); code != 0 {
		t.Fatalf("package: %s", stderr.String())
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
