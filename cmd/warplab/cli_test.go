package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestUsageAndExitCodes checks what a user sees for help and for a
// command line that cannot run: usage to stdout with status 0 when asked
// for, usage to stderr with status 2 when the command line is wrong, and
// status 1 with "warplab CMD: why" when the command runs and fails.
func TestUsageAndExitCodes(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	src := writeFile(t, "k.cu", "__global__ void k(int* p) { p[0] = 1; }\n")
	for _, tc := range []struct {
		name      string
		args      []string
		code      int
		out, errs string // substrings of stdout and stderr ("" checks nothing)
		quietOut  bool   // stdout must be empty
		quietErrs bool   // stderr must be empty
	}{
		{name: "no arguments", args: nil, code: 0, out: "commands:", quietErrs: true},
		{name: "help", args: []string{"help"}, code: 0, out: `Run "warplab help COMMAND"`, quietErrs: true},
		{name: "-h", args: []string{"-h"}, code: 0, out: "commands:", quietErrs: true},
		{name: "--help", args: []string{"--help"}, code: 0, out: "commands:", quietErrs: true},
		{name: "help run", args: []string{"help", "run"}, code: 0, errs: "usage: warplab run FILE.cu"},
		{name: "help fidelity", args: []string{"help", "fidelity"}, code: 0, errs: "usage: warplab fidelity"},
		{name: "help of an unknown command", args: []string{"help", "nope"}, code: 2, errs: `warplab help: unknown command "nope"`, quietOut: true},
		{name: "unknown command", args: []string{"nope"}, code: 2, errs: `warplab: unknown command "nope"`, quietOut: true},
		{name: "unknown flag", args: []string{"run", src, "--no-such-flag"}, code: 2, errs: "flag provided but not defined: -no-such-flag", quietOut: true},
		{name: "devices with an argument", args: []string{"devices", "extra"}, code: 1, errs: "unexpected arguments: extra"},
		{name: "devices unknown flag", args: []string{"devices", "--yaml"}, code: 2, errs: "usage: warplab devices"},
		{name: "fidelity with an argument", args: []string{"fidelity", "extra"}, code: 2, errs: "usage: warplab fidelity", quietOut: true},
		{name: "fidelity unknown profile", args: []string{"fidelity", "--profile", "k80"}, code: 2,
			errs: `warplab fidelity: no reference table for profile "k80" (have t4, h200)`, quietOut: true},
		{name: "run without a file", args: []string{"run", "--kernel", "k"}, code: 1, errs: "want exactly one .cu file, got 0 arguments"},
		{name: "run with two files", args: []string{"run", src, src, "--kernel", "k"}, code: 1, errs: "want exactly one .cu file, got 2 arguments"},
		{name: "run without --kernel", args: []string{"run", src, "--grid", "1", "--block", "1"}, code: 1, errs: "warplab run: missing --kernel NAME"},
		{name: "run with --runs 0", args: []string{"run", src, "--kernel", "k", "--grid", "1", "--block", "1", "--runs", "0"}, code: 1, errs: "--runs 0: want at least 1"},
		{name: "run of a missing file", args: []string{"run", src + ".missing", "--kernel", "k", "--grid", "1", "--block", "1", "--buf", "p=i32:1"}, code: 1, errs: "k.cu.missing"},
		{name: "bad --print", args: []string{"run", src, "--kernel", "k", "--grid", "1", "--block", "1", "--buf", "p=i32:1", "--print", "p:0"}, code: 1, errs: `K "0" is not a positive integer`},
		{name: "bad --scalar", args: []string{"run", src, "--kernel", "k", "--grid", "1", "--block", "1", "--scalar", "n=i32:x"}, code: 1, errs: `"x" is not a valid i32`},
		{name: "bad --device", args: []string{"run", src, "--kernel", "k", "--grid", "1", "--block", "1", "--buf", "p=i32:1", "--device", "tpu"}, code: 1, errs: "tpu"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := warplab(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errs)
			}
			if !strings.Contains(out, tc.out) {
				t.Errorf("stdout lacks %q:\n%s", tc.out, out)
			}
			if !strings.Contains(errs, tc.errs) {
				t.Errorf("stderr lacks %q:\n%s", tc.errs, errs)
			}
			if tc.quietOut && out != "" {
				t.Errorf("stdout is not empty:\n%s", out)
			}
			if tc.quietErrs && errs != "" {
				t.Errorf("stderr is not empty:\n%s", errs)
			}
		})
	}
}

// TestHelpListsEveryCommand checks that help names each registered
// command with its summary, and that each command's own help prints its
// usage line and flags.
func TestHelpListsEveryCommand(t *testing.T) {
	_, out, _ := warplab(t, "help")
	for name, c := range commands {
		if !strings.Contains(out, fmt.Sprintf("  %-10s %s\n", name, c.summary)) {
			t.Errorf("help does not list %s (%q):\n%s", name, c.summary, out)
		}
		code, _, errs := warplab(t, "help", name)
		if code != 0 || !strings.Contains(errs, "usage: warplab "+name) {
			t.Errorf("help %s: exit %d, stderr:\n%s", name, code, errs)
		}
	}
}

// bufKernels declares one kernel per --buf type, each taking a pointer of
// that type and leaving it as it is.
const bufKernels = `
__global__ void kf32(float* p) {}
__global__ void kf64(double* p) {}
__global__ void ki32(int* p) {}
__global__ void ku32(unsigned* p) {}
__global__ void ki64(long long* p) {}
__global__ void ku64(unsigned long long* p) {}
`

// printed runs kernel k<typ> on a buffer p=typ:count:init and returns the
// values --print p shows.
func printed(t *testing.T, src, typ string, count int, init string) ([]string, int, string) {
	t.Helper()
	buf := fmt.Sprintf("p=%s:%d", typ, count)
	if init != "" {
		buf += ":" + init
	}
	code, out, errs := warplab(t, "run", src, "--kernel", "k"+typ, "--grid", "1", "--block", "1",
		"--buf", buf, "--print", "p", "--device", "sim:t4")
	if code != 0 {
		return nil, code, errs
	}
	prefix := fmt.Sprintf("p[0:%d] = ", count)
	for _, l := range strings.Split(out, "\n") {
		if _, rest, ok := strings.Cut(l, prefix); ok {
			return strings.Fields(rest), 0, errs
		}
	}
	t.Fatalf("no %q line in:\n%s", prefix, out)
	return nil, 0, ""
}

// TestBufTypesAndInits runs every --buf TYPE with every INIT form and
// checks the values the kernel receives against what each form means.
func TestBufTypesAndInits(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	src := writeFile(t, "bufs.cu", bufKernels)
	for _, typ := range []string{"f32", "f64", "i32", "u32", "i64", "u64"} {
		float := typ[0] == 'f'
		t.Run(typ, func(t *testing.T) {
			check := func(init string, want []string) {
				t.Helper()
				got, code, errs := printed(t, src, typ, len(want), init)
				if code != 0 {
					t.Fatalf("INIT %q: exit %d: %s", init, code, errs)
				}
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("INIT %q: got %v, want %v", init, got, want)
				}
			}
			check("", []string{"0", "0", "0"}) // INIT defaults to zero
			check("zero", []string{"0", "0", "0", "0"})
			check("iota", []string{"0", "1", "2", "3", "4"})
			check("mod:3", []string{"0", "1", "2", "0", "1", "2", "0"})
			if float {
				check("const:2.5", []string{"2.5", "2.5"})
			} else {
				check("const:7", []string{"7", "7", "7"})
			}
			if typ == "i32" || typ == "i64" {
				check("const:-7", []string{"-7", "-7"})
			}

			// randint: integers in [LO, HI], the same for the same seed,
			// different for another.
			draw := func(init string) []string {
				t.Helper()
				got, code, errs := printed(t, src, typ, 64, init)
				if code != 0 {
					t.Fatalf("INIT %q: exit %d: %s", init, code, errs)
				}
				return got
			}
			ri := draw("randint:3:9:11")
			seen := map[string]bool{}
			for _, s := range ri {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil || v != math.Trunc(v) || v < 3 || v > 9 {
					t.Errorf("randint:3:9:11 gave %q, want an integer in [3, 9]", s)
				}
				seen[s] = true
			}
			if len(seen) < 5 {
				t.Errorf("randint:3:9:11: 64 draws took only %d of 7 values: %v", len(seen), ri)
			}
			if again := draw("randint:3:9:11"); strings.Join(again, " ") != strings.Join(ri, " ") {
				t.Errorf("the same seed drew %v, then %v", ri, again)
			}
			if other := draw("randint:3:9:12"); strings.Join(other, " ") == strings.Join(ri, " ") {
				t.Errorf("seeds 11 and 12 drew the same values %v", ri)
			}
			if !float {
				return
			}
			u := draw("uniform:-1:1:5")
			for _, s := range u {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil || v < -1 || v >= 1 {
					t.Errorf("uniform:-1:1:5 gave %q, want a float in [-1, 1)", s)
				}
			}
			if other := draw("uniform:-1:1:6"); strings.Join(other, " ") == strings.Join(u, " ") {
				t.Errorf("seeds 5 and 6 drew the same values")
			}
		})
	}
}

// TestBufErrors checks each malformed --buf says what is wrong with it.
func TestBufErrors(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	src := writeFile(t, "bufs.cu", bufKernels)
	for _, tc := range []struct{ typ, buf, want string }{
		{"i32", "p", "want NAME=TYPE:COUNT:INIT"},
		{"i32", "=i32:1", "want NAME=TYPE:COUNT:INIT"},
		{"i32", "p=i32", "INIT defaults to zero"},
		{"i32", "p=i32:-1", `count "-1" is not a non-negative integer`},
		{"i32", "p=i32:x", `count "x" is not a non-negative integer`},
		{"i32", "p=i32:4:ones", `unknown INIT "ones"`},
		{"i32", "p=i32:4:iota:2", "INIT iota takes 0 values, got 1"},
		{"i32", "p=i32:4:mod", "INIT mod takes 1 values, got 0"},
		{"i32", "p=i32:4:mod:0", "K must be positive"},
		{"i32", "p=i32:4:mod:x", "INIT mod:x:"},
		{"i32", "p=i32:4:const:1.5", "INIT const:1.5:"},
		{"u32", "p=u32:4:const:-1", "INIT const:-1:"},
		{"f32", "p=f32:4:const:abc", "INIT const:abc:"},
		{"i32", "p=i32:4:uniform:0:1:1", "uniform makes floats; use randint for i32"},
		{"f32", "p=f32:4:uniform:1:0:1", "HI 0 is below LO 1"},
		{"f32", "p=f32:4:uniform:0:1", "INIT uniform takes 3 values, got 2"},
		{"f32", "p=f32:4:uniform:0:1:x", "INIT uniform:0:1:x:"},
		{"i32", "p=i32:4:randint:0.5:3:1", "randint bounds must be integers"},
		{"i32", "p=i32:4:randint:a:3:1", "INIT randint:a:3:1:"},
	} {
		code, _, errs := warplab(t, "run", src, "--kernel", "k"+tc.typ, "--grid", "1", "--block", "1", "--buf", tc.buf, "--device", "sim:t4")
		if code != 1 || !strings.Contains(errs, "--buf "+tc.buf+": ") || !strings.Contains(errs, tc.want) {
			t.Errorf("--buf %s: exit %d, stderr %q; want 1 and %q", tc.buf, code, errs, tc.want)
		}
	}
}
