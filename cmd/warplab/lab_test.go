package main

import (
	"bytes"
	"encoding/json"
	"image/png"
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

// small keeps the lab quick: two sizes, three determinism runs.
var small = []string{"--sizes", "4096,65536", "--determinism-n", "4096", "--determinism-runs", "3"}

func TestLabText(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	code, out, errs := runWarplab(append([]string{"lab", "day26", "--device", "sim:t4"}, small...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"One sum, three ways: 256 threads per block",
		"times modelled, t4 profile; the model is deterministic, so one launch per cell",
		"Same input, 3 runs each: how many different sums?",
		"Block sizes at n = 65536: each column's ratio to the 256-thread run",
		"Day 26 lab on Tesla T4 (gpusim profile t4): ",
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
		Seconds float64
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, out)
	}
	if doc.Device.Spec != "sim:t4?seed=1" || doc.Sweep.Timing != "modelled, t4 profile" || len(doc.Sweep.Rows) != 2 ||
		len(doc.BlockSizes.Rows) != 3 || doc.Seconds <= 0 {
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
}

func TestLabMarkdown(t *testing.T) {
	code, out, errs := runWarplab(append([]string{"lab", "day26", "--device", "sim:t4", "--markdown"}, small...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "| n | global (ms) |") || !strings.Contains(out, "**One sum, three ways: 256 threads per block**") {
		t.Errorf("not Markdown:\n%s", out)
	}
}

func TestLabErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"lab"}, "want one lab name"},
		{[]string{"lab", "day99"}, `no lab "day99"`},
		{[]string{"lab", "day26", "--sizes", "4096,x"}, `--sizes 4096,x: "x" is not a positive integer`},
		{[]string{"lab", "day26", "--json", "--markdown"}, "choose one"},
		{[]string{"lab", "day26", "--device", "sim:t4", "--block-sizes", "96", "--sizes", "4096"}, "atomics: block size 96: want a power of two"},
	} {
		code, _, errs := runWarplab(tc.args...)
		if code != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("warplab %s: exit %d, stderr %q; want 1 and %q", strings.Join(tc.args, " "), code, errs, tc.want)
		}
	}
}
