package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runWarplab(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

// small keeps the lab quick: two sizes, a small determinism experiment.
var small = []string{"--set", "sizes=4096,65536", "--set", "determinism-n=4096", "--set", "determinism-runs=3"}

func TestLabList(t *testing.T) {
	code, out, errs := runWarplab("lab", "list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "NAME") || !strings.Contains(lines[0], "SIM TIME") {
		t.Fatalf("no table:\n%s", out)
	}
	var day26 string
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "day26 (atomics)") {
			day26 = l
		}
	}
	for _, want := range []string{"Day 26: one sum, three ways", "what a contended atomicAdd costs", "~"} {
		if !strings.Contains(day26, want) {
			t.Errorf("the day26 line lacks %q:\n%s", want, out)
		}
	}

	code, out, errs = runWarplab("lab", "list", "--json")
	var infos []struct {
		Name        string
		SimWallTime int64 `json:"sim_wall_time"`
		Exercise    struct{ Title string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &infos) != nil || len(infos) == 0 {
		t.Fatalf("lab list --json: exit %d, %s %s", code, out, errs)
	}
	found := false
	for _, info := range infos {
		if info.Name == "day26" {
			found = true
			if info.SimWallTime <= 0 || info.Exercise.Title != "Day 26 exercise" {
				t.Errorf("lab list --json: day26 is %+v", info)
			}
		}
	}
	if !found {
		t.Errorf("lab list --json has no day26: %+v", infos)
	}
}

func TestLabHelp(t *testing.T) {
	for _, args := range [][]string{{"lab", "day26", "--help"}, {"lab", "atomics", "-h"}, {"help", "lab", "day26"}} {
		// Help goes to stderr, as every command's does.
		code, _, out := runWarplab(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, out)
		}
		for _, want := range []string{
			"usage: warplab lab day26",
			"block-size (whole number, default 256, at most 1024)",
			"determinism-runs (whole number, default 20, at most 1000)",
			"the Day 26 course page",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: help lacks %q:\n%s", args, want, out)
			}
		}
	}
	code, _, out := runWarplab("lab", "--help")
	if code != 0 || !strings.Contains(out, "warplab lab list") || !strings.Contains(out, "day26 (atomics)") || !strings.Contains(out, "-set KEY=VALUE") {
		t.Errorf("lab --help: exit %d:\n%s", code, out)
	}
}

func TestLabText(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	code, out, errs := runWarplab(append([]string{"lab", "day26", "--device", "sim:t4"}, small...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"One sum, three ways: 256 threads per block",
		"times modelled, t4 profile: one launch, the cost model: the model is deterministic, so one launch suffices",
		"Same input, 3 runs each: how many different sums?",
		"Block sizes at n = 65536: each column's ratio to the 256-thread run",
		"Day 26: one sum, three ways on Tesla T4 (gpusim profile t4): ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if errs != "" {
		t.Errorf("stderr is not a terminal, yet: %q", errs)
	}
}

func TestLabJSONAndPlots(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "sim:t4")
	dir := filepath.Join(t.TempDir(), "plots")
	code, out, errs := runWarplab(append([]string{"lab", "--json", "day26", "--plot", dir}, small...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Lab struct {
			Name    string
			Sources []string
		}
		Options  []struct{ Name, Kind string }
		Settings map[string]string
		Device   struct{ Spec string }
		Elapsed  float64 `json:"elapsed_seconds"`
		Report   struct {
			Device struct{ Spec string }
			Sweep  struct {
				Timing string
				Rows   []struct{ N int }
			}
			BlockSizes struct {
				Rows []struct {
					BlockSize int `json:"block_size"`
				}
			} `json:"block_sizes"`
			WallTime int64 `json:"wall_time"`
		}
	}
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&doc); err != nil || dec.More() {
		t.Fatalf("not one JSON document: %v\n%s", err, out)
	}
	if doc.Lab.Name != "day26" || len(doc.Lab.Sources) == 0 || len(doc.Options) == 0 || doc.Options[0].Kind != "ints" {
		t.Errorf("lab info: %+v %+v", doc.Lab, doc.Options)
	}
	if doc.Settings["sizes"] != "4096,65536" || doc.Settings["determinism-runs"] != "3" || doc.Settings["block-size"] != "256" {
		t.Errorf("settings: %v", doc.Settings)
	}
	r := doc.Report
	if doc.Device.Spec != "sim:t4?seed=1" || r.Device.Spec != "sim:t4?seed=1" || r.Sweep.Timing != "modelled, t4 profile" ||
		len(r.Sweep.Rows) != 2 || len(r.BlockSizes.Rows) != 3 || r.WallTime <= 0 || math.Abs(doc.Elapsed-float64(r.WallTime)/1e9) > 1e-6 {
		t.Errorf("JSON document: %+v", doc)
	}
	for _, name := range []string{"sweep-time", "sweep-gbps", "determinism", "block-sizes", "block-sizes-time"} {
		f, err := os.Open(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Error(err)
			continue
		}
		if _, err := png.Decode(f); err != nil {
			t.Errorf("%s.png: %v", name, err)
		}
		f.Close()
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 5 {
		t.Errorf("%d files in the plot directory, want the 5 charts only", len(ents))
	}
}

// --set block-size changes the sweep: its title, and its times.
func TestLabSetBlockSize(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "sim:t4")
	args := []string{"lab", "day26", "--markdown", "--set", "sizes=65536", "--set", "determinism-n=4096",
		"--set", "determinism-runs=2", "--set", "block-sizes=256"}
	code, def, errs := runWarplab(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, set, errs := runWarplab(append(args, "--set", "block-size=128")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(def, "**One sum, three ways: 256 threads per block**") || !strings.Contains(set, "**One sum, three ways: 128 threads per block**") {
		t.Errorf("the sweep's title does not follow block-size:\n%s\n---\n%s", def, set)
	}
	row := func(md string) string {
		i := strings.Index(md, "| 65536 |")
		if i < 0 {
			t.Fatalf("no 65536 row:\n%s", md)
		}
		return md[i : i+strings.IndexByte(md[i:], '\n')]
	}
	if row(def) == row(set) {
		t.Errorf("the sweep's row is the same at 128 and 256 threads per block: %s", row(def))
	}
	if !strings.Contains(set, "Same input, 2 runs each") || !strings.Contains(set, "128 threads per block") {
		t.Errorf("determinism does not follow block-size:\n%s", set)
	}
}

func TestLabErrors(t *testing.T) {
	unwritable := filepath.Join(t.TempDir(), "file")
	os.WriteFile(unwritable, nil, 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"lab"}, 2, "want one lab name, or list, got 0 arguments"},
		{[]string{"lab", "day26", "atomics"}, 2, "want one lab name, or list, got 2 arguments"},
		{[]string{"lab", "day99"}, 2, `no lab "day99" (labs: `},
		{[]string{"help", "lab", "day99"}, 2, `no lab "day99"`},
		{[]string{"lab", "day26", "--set", "size=4096"}, 2, `day26 has no option "size" (options: sizes, block-size,`},
		{[]string{"lab", "day26", "--set", "sizes"}, 2, `setting "sizes": want KEY=VALUE`},
		{[]string{"lab", "day26", "--set", "sizes=4096,x"}, 2, `day26: sizes=4096,x: "x" is not a whole number`},
		{[]string{"lab", "day26", "--set", "sizes=100000000"}, 2, "sizes=100000000: 100000000: at most 67108864"},
		{[]string{"lab", "day26", "--set", "block-size=96"}, 2, "block-size=96: 96: want a power of two"},
		{[]string{"lab", "day26", "--set", "determinism-runs=5000"}, 2, "at most 1000"},
		{[]string{"lab", "day26", "--json", "--markdown"}, 2, "choose one"},
		{[]string{"lab", "day26", "--sizes", "4096"}, 2, "--sizes is not a flag of warplab lab; the lab option sizes is set with --set sizes=4096"},
		{[]string{"lab", "list", "--markdown"}, 2, "lab list takes only --json"},
		{[]string{"lab", "day26", "--device", "sim:t4", "--plot", filepath.Join(unwritable, "plots")}, 1, "--plot " + unwritable},
	} {
		code, _, errs := runWarplab(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("warplab %s: exit %d, stderr %q; want %d and %q", strings.Join(tc.args, " "), code, errs, tc.code, tc.want)
		}
	}
}
