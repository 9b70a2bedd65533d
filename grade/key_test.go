package grade

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warplab/warplab/labs"
)

func TestKeyErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"lab = \"histogram\"\ntime_limit = = 1\n", "bad.toml:2:"},
		{"lab = \"nope\"\n[[check]]\nname = \"v\"\npoints = { correct = 1 }\n", "nope"},
		{"lab = \"histogram\"\n", "no [[check]]"},
		{"lab = \"histogram\"\ncolour = 3\n[[check]]\nname = \"v\"\npoints = { correct = 1 }\n", "unknown fields colour"},
		{"lab = \"histogram\"\n[[check]]\nname = \"v\"\nvisibility = \"secret\"\npoints = { correct = 1 }\n", "visibility \"secret\""},
		{"lab = \"histogram\"\n[[check]]\nname = \"v\"\n", "no points"},
		{"lab = \"histogram\"\n[[check]]\nname = \"v\"\npoints = { correct = -1 }\n", "negative"},
		{"lab = \"histogram\"\n[[check]]\nname = \"v\"\nsettings = { sizes = [10000000000] }\npoints = { correct = 1 }\n", "sizes"},
		{"lab = \"histogram\"\ndevice = \"cuda\"\n[[check]]\nname = \"v\"\npoints = { correct = 1 }\n", "only on the simulator"},
		{"lab = \"histogram\"\ntime_limit = \"soon\"\n[[check]]\nname = \"v\"\npoints = { correct = 1 }\n", "time_limit"},
		{"lab = \"histogram\"\n[[check]]\nname = \"v\"\npoints = { correct = 1 }\n[[check]]\nname = \"v\"\npoints = { correct = 1 }\n", "used twice"},
	} {
		_, err := ParseKey("bad.toml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "grade: key bad.toml") {
			t.Errorf("%q: got %v, want an error with %q", tc.text, err, tc.want)
		}
	}
}

// Every lab with an exercise gets a starting key that validates.
func TestKeyTemplates(t *testing.T) {
	for _, l := range labs.All() {
		if l.Info().Exercise == nil {
			continue
		}
		lab := l.Info().Name
		text, err := KeyTemplate(lab)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseKey(lab+".toml", []byte(text)); err != nil {
			t.Errorf("%s: the starting key does not validate: %v\n%s", lab, err, text)
		}
	}
	if _, err := KeyTemplate("playground"); err == nil {
		t.Error("a lab without an exercise gets a key")
	}
}

// Hidden checks live only in keys: no notebook holds a key's hidden
// settings, and the student image copies no key.
func TestHiddenChecksOnlyInKeys(t *testing.T) {
	keys, _ := filepath.Glob("keys/*.toml")
	if len(keys) < 6 {
		t.Fatalf("want a key per exercise lab, found %v", keys)
	}
	notebooks, _ := filepath.Glob("../notebooks/*.ipynb")
	var all []string
	for _, nb := range notebooks {
		data, err := os.ReadFile(nb)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, string(data))
	}
	for _, p := range keys {
		k, err := LoadKey(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range k.Checks {
			if c.Visibility == "visible" {
				continue
			}
			for name := range c.Settings {
				v := k.resolved[i].Text(name)
				for j, text := range all {
					if strings.Contains(strings.ReplaceAll(text, " ", ""), name+"="+v) || strings.Contains(text, "\""+v+"\"") {
						t.Errorf("%s: %s's hidden %s=%s appears in %s", p, c.Name, name, v, notebooks[j])
					}
				}
			}
		}
	}
	data, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Logf("no Dockerfile to check: %v", err)
		return
	}
	// The build context reaches the student stages only through the build
	// stage, which must prune every keys folder from the source it ships.
	stage := ""
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 4 && strings.EqualFold(f[0], "FROM") && strings.EqualFold(f[2], "AS") {
			stage = f[3]
		}
		if len(f) < 3 || !strings.EqualFold(f[0], "COPY") || strings.HasPrefix(f[1], "--from") {
			continue
		}
		for _, src := range f[1 : len(f)-1] {
			whole := src == "." || src == "./"
			if strings.Contains(src, "grade") || (whole && stage != "build") {
				t.Errorf("Dockerfile:%d (stage %s) copies %s from the build context where a student image may get it", i+1, stage, src)
			}
		}
	}
	if !strings.Contains(string(data), "-type d -name keys") {
		t.Error("the Dockerfile's build stage does not prune keys folders from the source it ships to students")
	}
	// Tests and testdata hold the exercises' right answers.
	if !strings.Contains(string(data), "-type d -name testdata") || !strings.Contains(string(data), "-name '*_test.go'") {
		t.Error("the Dockerfile's build stage does not prune tests and testdata (solutions) from the source it ships to students")
	}
}

// Day 26 and every lab whose exercise is a student kernel (its check has
// an instruction budget) has a key in keys/.
func TestEveryKernelLabHasAKey(t *testing.T) {
	for _, l := range labs.All() {
		ex := l.Info().Exercise
		if ex == nil {
			continue
		}
		kernel := false
		for _, o := range ex.Options {
			kernel = kernel || o.Name == "budget"
		}
		name := l.Info().Name
		if !kernel && name != "day26" {
			continue
		}
		k, err := LoadKey("keys/" + name + ".toml")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		hidden := name == "day26"
		for _, c := range k.Checks {
			hidden = hidden || c.Visibility != labs.Visible
		}
		if !hidden {
			t.Errorf("%s: the key has no hidden check", name)
		}
	}
}
