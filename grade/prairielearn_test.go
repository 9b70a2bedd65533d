package grade

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const plQuestion = "../deploy/prairielearn/questions/warplab-histogram"

// TestPrairieLearnQuestion: the example question's info.json has the
// fields PrairieLearn's external grading reads, with a timeout above the
// key's time limit, and its entrypoint is executable.
func TestPrairieLearnQuestion(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(plQuestion, "info.json"))
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		UUID, Title, Topic, Type, GradingMethod string
		ExternalGradingOptions                  struct {
			Enabled           bool
			Image, Entrypoint string
			Timeout           float64
		}
	}
	if err := json.Unmarshal(data, &info); err != nil {
		t.Fatal(err)
	}
	o := info.ExternalGradingOptions
	if info.UUID == "" || info.Title == "" || info.Type != "v3" || info.GradingMethod != "External" || !o.Enabled || o.Image == "" || o.Entrypoint != "/grade/tests/run.sh" {
		t.Errorf("info.json: %+v", info)
	}
	k, err := LoadKey("keys/histogram.toml")
	if err != nil {
		t.Fatal(err)
	}
	if o.Timeout <= k.limit.Seconds() {
		t.Errorf("timeout %gs is not above the key's time limit %v: PrairieLearn would stop the grader first", o.Timeout, k.limit)
	}
	st, err := os.Stat(filepath.Join(plQuestion, "tests", "run.sh"))
	if err != nil || st.Mode()&0o100 == 0 {
		t.Errorf("tests/run.sh: %v, mode %v", err, st.Mode())
	}
}

// TestPrairieLearnEntrypoint runs the question's run.sh with a warplab
// that fails and one that works.
func TestPrairieLearnEntrypoint(t *testing.T) {
	script, _ := filepath.Abs(filepath.Join(plQuestion, "tests", "run.sh"))
	for _, tt := range []struct{ name, fake, want string }{
		{"fails", "#!/bin/sh\nexit 1\n", `"gradable": false`},
		{"works", "#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ \"$1\" = --out ]; then o=$2; fi; shift; done\n" +
			"mkdir -p \"$o/s\" && echo '{\"gradable\": true, \"score\": 0.5, \"message\": \"7 of 14 points\", \"tests\": []}' > \"$o/s/results.json\"\n", `"score": 0.5`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			bin := filepath.Join(root, "bin")
			os.MkdirAll(bin, 0o755)
			os.MkdirAll(filepath.Join(root, "student"), 0o755)
			os.WriteFile(filepath.Join(bin, "warplab"), []byte(tt.fake), 0o755)
			cmd := exec.Command(script)
			cmd.Env = append(os.Environ(), "WARPLAB_GRADE_ROOT="+root, "PATH="+bin+":"+os.Getenv("PATH"))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("run.sh: %v\n%s", err, out)
			}
			data, err := os.ReadFile(filepath.Join(root, "results", "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var v map[string]any
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if !strings.Contains(string(data), tt.want) {
				t.Errorf("results.json %s, want %s", data, tt.want)
			}
			if errs := validatePrairieLearn(v); len(errs) > 0 {
				t.Errorf("results.json does not validate: %v", errs)
			}
		})
	}
}
