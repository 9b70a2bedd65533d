package profiles

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestEverySourceNamed checks that every parameter of every profile names
// where it comes from.
func TestEverySourceNamed(t *testing.T) {
	for _, name := range Names() {
		p, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		check := func(prefix string, v reflect.Value) {
			for i := 0; i < v.NumField(); i++ {
				f := v.Type().Field(i)
				switch f.Name {
				case "Name", "Device", "Arch", "Sources", "Cost", "Provenance", "Fits":
					continue
				}
				if v.Field(i).IsZero() && f.Name == "BaseClockMHz" {
					continue // not every datasheet gives one
				}
				src := p.Sources[prefix+f.Name]
				if src == "" {
					t.Errorf("%s: %s%s has no source", name, prefix, f.Name)
					continue
				}
				ok := false
				for _, kind := range []string{Datasheet, Measured, Calibrated, Guide} {
					ok = ok || strings.HasPrefix(src, kind)
				}
				if !ok {
					t.Errorf("%s: %s%s: source %q does not say datasheet, measured, calibrated or guide", name, prefix, f.Name, src)
				}
			}
		}
		check("", reflect.ValueOf(*p))
		check("Cost.", reflect.ValueOf(p.Cost))
		for key := range p.Sources {
			field := strings.TrimPrefix(key, "Cost.")
			var v reflect.Value
			if field != key {
				v = reflect.ValueOf(p.Cost).FieldByName(field)
			} else {
				v = reflect.ValueOf(*p).FieldByName(field)
			}
			if !v.IsValid() {
				t.Errorf("%s: source for unknown parameter %s", name, key)
			}
		}
	}
}

func TestGet(t *testing.T) {
	if _, err := Get("T4"); err != nil {
		t.Errorf("profile names are case-insensitive: %v", err)
	}
	if _, err := Get("v100"); err == nil || !strings.Contains(err.Error(), "h200") {
		t.Errorf("unknown profile: %v", err)
	}
}

// TestSourcesCiteFilesThatExist checks that every repository path a
// parameter's source names (docs/... or calibration/...) is a file or
// folder of the repository, so a moved evidence file cannot leave a
// dangling citation. calibration/ is a module of its own, outside this
// one: where it is absent (a copy of the module alone) its citations are
// not checked.
func TestSourcesCiteFilesThatExist(t *testing.T) {
	cited := regexp.MustCompile(`\b(docs|calibration)/[A-Za-z0-9_./-]*[A-Za-z0-9_]`)
	_, err := os.Stat(filepath.Join("..", "..", "calibration", "go.mod"))
	haveCalibration := err == nil
	if !haveCalibration {
		t.Log("no calibration/ beside the module: its citations are not checked")
	}
	n := 0
	for _, name := range Names() {
		p, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for key, src := range p.Sources {
			for _, path := range cited.FindAllString(src, -1) {
				if strings.HasPrefix(path, "calibration/") && !haveCalibration {
					continue
				}
				n++
				if _, err := os.Stat(filepath.Join("..", "..", filepath.FromSlash(path))); err != nil {
					t.Errorf("%s: source of %s cites %s: %v", name, key, path, err)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no profile source cites a file under docs/ or calibration/")
	}
}

// TestParallelLines checks the interpolation of Cost.L2LinesAtOnce: the
// measured points themselves, a value between two of them on log-log axes,
// the first point below it, and growth in proportion beyond the last up
// to L2MaxParallelLines.
func TestParallelLines(t *testing.T) {
	c := Cost{L2LinesAtOnce: []LinesAtOnce{{1, 1}, {2, 0.86}, {8, 1.92}, {128, 22.9}}, L2MaxParallelLines: 64}
	for _, tc := range []struct{ hot, want float64 }{
		{0.5, 1}, {1, 1}, {2, 0.86}, {8, 1.92}, {128, 22.9},
		{4, math.Sqrt(0.86 * 1.92)}, // halfway on log axes
		{256, 45.8}, {1 << 20, 64},
	} {
		if got := c.ParallelLines(tc.hot); math.Abs(got-tc.want) > 1e-9*tc.want {
			t.Errorf("ParallelLines(%g) = %g, want %g", tc.hot, got, tc.want)
		}
	}
	if got := (&Cost{}).ParallelLines(100); got != 1 {
		t.Errorf("no table: ParallelLines = %g, want 1", got)
	}
}

// TestFirstWaveCoversEverySM checks that a profile's first-wave start
// table, where it has one, gives every SM a start (the engine ignores a
// table of another length) and none before the launch's first block.
func TestFirstWaveCoversEverySM(t *testing.T) {
	for _, name := range Names() {
		p, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		fw := p.Cost.FirstWaveStartCycles
		if fw == nil {
			continue
		}
		if len(fw) != p.SMs {
			t.Errorf("%s: Cost.FirstWaveStartCycles has %d entries for %d SMs", name, len(fw), p.SMs)
		}
		first := false
		for sm, c := range fw {
			if c < 0 {
				t.Errorf("%s: SM %d's first block starts %d cycles before the launch's first", name, sm, c)
			}
			first = first || c == 0
		}
		if !first {
			t.Errorf("%s: no SM's first block starts at 0: the table is not relative to the launch's first block", name)
		}
	}
}

// TestProvenance checks that every profile says what its parameters rest
// on, and that exactly the profiles whose cost parameters are all another
// GPU's (every Cost source "assumed: the H200's value") say unmeasured.
func TestProvenance(t *testing.T) {
	for _, name := range Names() {
		p, _ := Get(name)
		if !strings.HasPrefix(p.Provenance, "measured: ") && !strings.HasPrefix(p.Provenance, "unmeasured: ") {
			t.Errorf("%s: provenance %q: want \"measured: ...\" or \"unmeasured: ...\"", name, p.Provenance)
		}
		copied := true
		for k, src := range p.Sources {
			if strings.HasPrefix(k, "Cost.") && !strings.Contains(src, "the H200's value") && !strings.Contains(src, "not modelled") {
				copied = false
			}
		}
		if copied != p.Unmeasured() {
			t.Errorf("%s: every cost parameter copied: %v; provenance %q", name, copied, p.Provenance)
		}
		if p.Unmeasured() && p.Label() != name+" (unmeasured: H200 parameters)" {
			t.Errorf("%s: label %q", name, p.Label())
		}
	}
	for _, name := range []string{"a100", "l4"} {
		if p, _ := Get(name); !p.Unmeasured() {
			t.Errorf("%s: no measurement of this GPU, but its provenance is %q", name, p.Provenance)
		}
	}
}

// TestFitsNameCitedEvidence checks each profile's Fits: a parameter with
// a source, paths that exist, and each path cited by the parameter's
// source (itself or a folder above it), so that Fits narrows what the
// source says and adds nothing it does not.
func TestFitsNameCitedEvidence(t *testing.T) {
	for _, name := range Names() {
		p, _ := Get(name)
		for param, fits := range p.Fits {
			src, ok := p.Sources[param]
			if !ok {
				t.Errorf("%s: Fits for %s, which has no source", name, param)
			}
			if len(fits) == 0 {
				t.Errorf("%s: Fits for %s lists nothing", name, param)
			}
			for _, f := range fits {
				path, _, _ := strings.Cut(f, ": ")
				if _, err := os.Stat(filepath.Join("..", "..", filepath.FromSlash(path))); err != nil {
					t.Errorf("%s: Fits of %s: %v", name, param, err)
				}
				cited := false
				for d := path; d != "." && d != "/"; d = filepath.Dir(d) {
					cited = cited || strings.Contains(src, d) && strings.Count(d, "/") >= 2
				}
				if !cited {
					t.Errorf("%s: Fits of %s names %s, which its source does not cite", name, param, path)
				}
			}
		}
	}
	h, _ := Get("h200")
	if got := h.FittingSources("Cost.ChainWriteShare"); len(got) != 1 || !strings.HasSuffix(got[0], "qk4/csv/qk4.csv") {
		t.Errorf("h200 Cost.ChainWriteShare fitting sources %q, want qk4.csv", got)
	}
	if got := h.FittingSources("Cost.IssueIPC"); got != nil {
		t.Errorf("h200 Cost.IssueIPC is the programming guide's: fitting sources %q", got)
	}
	a, _ := Get("a100")
	if got := a.FittingSources("Cost.ChainWriteShare"); len(got) != 1 {
		t.Errorf("a100 Cost.ChainWriteShare (the H200's) fitting sources %q", got)
	}
}
