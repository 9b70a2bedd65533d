package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDevices(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	code, out, errs := warplab(t, "devices")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "sim:t4") || !strings.Contains(out, "cuda") || !strings.Contains(out, "default device: ") {
		t.Errorf("devices output:\n%s", out)
	}
	text := out

	code, out, errs = warplab(t, "devices", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	var v struct {
		Devices []deviceRow `json:"devices"`
		Default string      `json:"default"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out)
	}
	backends := map[string]bool{}
	for _, d := range v.Devices {
		backends[d.Backend] = true
		if !d.Usable && d.Reason == "" {
			t.Errorf("%s is unusable without a reason", d.Spec)
		}
	}
	if !backends["sim"] || !backends["cuda"] || v.Default == "" {
		t.Errorf("--json: backends %v, default %q", backends, v.Default)
	}
	checkDeviceRows(t, text, v.Devices)

	t.Setenv("WARPLAB_DEVICE", "sim:h200")
	if _, out, _ = warplab(t, "devices"); !strings.Contains(out, "default device: sim:h200 (WARPLAB_DEVICE is set)") {
		t.Errorf("with WARPLAB_DEVICE set:\n%s", out)
	}
	t.Setenv("WARPLAB_DEVICE", "sim:h200?budget=-1")
	want := `default device: sim:h200?budget=-1 (WARPLAB_DEVICE is set but is not a device spec, so opening the default fails: gpu: device spec "sim:h200?budget=-1": option budget=-1: want a positive number of warp instructions)`
	if _, out, _ = warplab(t, "devices"); !strings.Contains(out, want) {
		t.Errorf("with a bad WARPLAB_DEVICE:\n%s\nwant %s", out, want)
	}
}

// checkDeviceRows checks the text listing against the JSON one, row by
// row: the same devices in the same order, each row's usable column, and
// under each unusable row its own reason.
func checkDeviceRows(t *testing.T, text string, rows []deviceRow) {
	t.Helper()
	lines := strings.Split(text, "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "BACKEND") {
		t.Fatalf("no header:\n%s", text)
	}
	i := 1
	for _, r := range rows {
		if i >= len(lines) {
			t.Fatalf("the text lists fewer devices than --json (%d):\n%s", len(rows), text)
		}
		f := strings.Fields(lines[i])
		usable := map[bool]string{true: "yes", false: "no"}[r.Usable]
		if len(f) < 3 || f[0] != r.Backend || f[1] != r.Spec || f[2] != usable {
			t.Errorf("line %d is %q, want %s %s %s", i+1, lines[i], r.Backend, r.Spec, usable)
		}
		i++
		if r.Usable {
			continue
		}
		if i >= len(lines) || strings.TrimSpace(lines[i]) != "why not: "+r.Reason {
			t.Errorf("%s is unusable; the line under it should be \"why not: %s\", got %q", r.Spec, r.Reason, lines[min(i, len(lines)-1)])
			continue
		}
		i++
	}
	if i >= len(lines) || lines[i] != "" || !strings.HasPrefix(lines[i+1], "default device: ") {
		t.Errorf("the text lists more devices than --json (%d), or no default after them:\n%s", len(rows), text)
	}
}

func TestSassErrors(t *testing.T) {
	src := writeFile(t, "k.cu", "__global__ void k(int* p) { p[0] = 1; }\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sass", src}, "missing --kernel"},
		{[]string{"sass", src, "--kernel", "nope"}, `no kernel named "nope"`},
		{[]string{"sass", src, "--kernel", "k", "--arch", "90"}, "want sm_XY"},
		{[]string{"sass", src, "--kernel", "k", "--define", "=1"}, "--define =1: the macro name is empty"},
	} {
		code, _, errs := warplab(t, tc.args...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want it to say %q", tc.args, code, errs, tc.want)
		}
	}
}

// A cuobjdump --dump-sass listing as CUDA 13 prints it (abridged).
const sampleDump = `
Fatbin elf code:
================
arch = sm_90
code version = [1,8]
host = linux
compile_size = 64bit

	code for sm_90
		Function : _Z5otherPi
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                    /* 0x00000a00ff017b82 */
        /*0010*/                   EXIT ;                                    /* 0x000000000000794d */
		..........


		Function : _Z15sumGlobalAtomicPKfPfm
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                    /* 0x00000a00ff017b82 */
        /*0090*/                   REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5 ;  /* 0x000000050200798e */
        /*00a0*/                   EXIT ;                                    /* 0x000000000000794d */
		..........
`

func TestCuobjdumpFunction(t *testing.T) {
	got := cuobjdumpFunction(sampleDump, "_Z15sumGlobalAtomicPKfPfm")
	if !strings.Contains(got, "REDG.E.ADD.F32") || strings.Contains(got, "_Z5otherPi") || !strings.HasPrefix(strings.TrimSpace(got), "Function : _Z15sumGlobalAtomicPKfPfm") {
		t.Errorf("cut out:\n%s", got)
	}
	if got := cuobjdumpFunction(sampleDump, "_Z4nonev"); got != "" {
		t.Errorf("an absent function gave:\n%s", got)
	}
}
