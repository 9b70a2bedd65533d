package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/gpusim/sassorder"
)

// TestSassRecordRefuses checks what --record refuses before it needs
// NVRTC: macro definitions, --fmad=false, a path that is not relative to
// the repository root, and a source with #include.
func TestSassRecordRefuses(t *testing.T) {
	src := writeFile(t, "k.cu", "__global__ void k(int* p) { atomicAdd(p, 1); }\n")
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sass", src, "--kernel", "k", "--record", dir, "--define", "K=4"}, "--record with --define: the registry holds kernels compiled without macro definitions"},
		{[]string{"sass", src, "--kernel", "k", "--record", dir, "--fmad=false"}, "--record with --fmad=false"},
		{[]string{"sass", src, "--kernel", "k", "--record", dir}, "want the source's path relative to the repository root"},
		{[]string{"sass", "../k.cu", "--kernel", "k", "--record", dir}, "want the source's path relative to the repository root"},
	} {
		code, _, errs := warplab(t, tc.args...)
		if code != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want it to say %q", tc.args, code, errs, tc.want)
		}
	}
	t.Chdir(filepath.Dir(src))
	if err := os.WriteFile("inc.cuh", []byte("__device__ int one() { return 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("inc.cu", []byte("#include \"inc.cuh\"\n__global__ void k(int* p) { atomicAdd(p, one()); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := warplab(t, "sass", "inc.cu", "--kernel", "k", "--record", dir)
	if code != 1 || !strings.Contains(errs, "--record: inc.cu includes inc.cuh") {
		t.Errorf("a source with #include: exit %d, stderr %q", code, errs)
	}
}

// TestRecordSASS checks the file that --record writes, from a listing
// NVRTC and cuobjdump made on the H200 machine: its name, its header and
// that the registry reads it back.
func TestRecordSASS(t *testing.T) {
	sass, err := os.ReadFile("../../gpusim/sassorder/testdata/nvrtc-lab-popThread.sass")
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("__global__ void popThread(unsigned* head) { atomicAdd(head, 1u); }\n")
	sum := sassorder.SourceSHA256(src)
	h := sassorder.Header{
		File: "labs/queue/kernels/queue.cu", Kernel: "popThread", Symbol: "_Z9popThreadPjjjiijPf",
		SourceSHA256: sum, Arch: "sm_90", Defines: "none", NVRTC: "13.0",
		Disassembler: "cuobjdump, Cuda compilation tools, release 13.0, V13.0.88",
		Date:         time.Date(2026, 12, 1, 5, 0, 0, 123, time.FixedZone("CET", 3600)),
	}
	dir := filepath.Join(t.TempDir(), "sm_90")
	var out bytes.Buffer
	if err := recordSASS(&out, dir, h, string(sass)); err != nil {
		t.Fatal(err)
	}
	name := "popThread-" + sum[:12] + ".sass"
	if name != sassorder.FileName("popThread", src) {
		t.Fatalf("name %s, registry's %s", name, sassorder.FileName("popThread", src))
	}
	p := filepath.Join(dir, name)
	if want := "wrote " + p + ": const first: true (ULDC.64 UR6, c[0x0][0x208] before LDC.64 R2, c[0x0][0x210] before ATOMG.E.ADD.STRONG.GPU PT, R3, desc[UR6][R2.64], R7)\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(strings.SplitAfter(string(b), "\n")[:11], "")
	want := sassorder.Magic + "\n" +
		"// file: labs/queue/kernels/queue.cu\n" +
		"// kernel: popThread\n" +
		"// symbol: _Z9popThreadPjjjiijPf\n" +
		"// source sha256: " + sum + "\n" +
		"// arch: sm_90\n" +
		"// defines: none\n" +
		"// nvrtc: 13.0\n" +
		"// disassembler: cuobjdump, Cuda compilation tools, release 13.0, V13.0.88\n" +
		"// date: 2026-12-01T04:00:00Z\n" +
		"// command: warplab sass labs/queue/kernels/queue.cu --kernel popThread --arch sm_90 --record gpusim/sassorder/sm_90\n"
	if head != want {
		t.Errorf("header:\n%s\nwant:\n%s", head, want)
	}
	got, body, err := sassorder.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if body != string(sass) || got.Kernel != "popThread" || got.SourceSHA256 != sum {
		t.Errorf("read back %+v and %d bytes of SASS, want %d", got, len(body), len(sass))
	}
}

func TestDescribeOrder(t *testing.T) {
	for _, tc := range []struct{ sass, want string }{
		{"/*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ EXIT ;\n", "no global atomic (const first: false)"},
		{"/*0000*/ ULDC.64 UR4, c[0x0][0x208] ;\n/*0010*/ ATOMG.E.ADD PT, R3, desc[UR4][R2.64], R7 ;\n", "const first: false (no LDC before ATOMG.E.ADD PT, R3, desc[UR4][R2.64], R7)"},
		{"/*0000*/ LDC.64 R2, c[0x0][0x210] ;\n/*0010*/ REDG.E.ADD desc[UR4][R2.64], R7 ;\n", "const first: false (no ULDC before LDC.64 R2, c[0x0][0x210], the last LDC before REDG.E.ADD desc[UR4][R2.64], R7)"},
	} {
		o, err := sassorder.Analyze(tc.sass)
		if err != nil {
			t.Fatal(err)
		}
		if got := describeOrder(o); got != tc.want {
			t.Errorf("describeOrder = %q, want %q", got, tc.want)
		}
	}
}

func TestVersionLine(t *testing.T) {
	const cuobjdump = "cuobjdump: NVIDIA (R) CUDA Object File Dump Tool\nCopyright (c) 2005-2025 NVIDIA Corporation\nBuilt on Wed_Aug_20_01:58:59_PM_PDT_2025\nCuda compilation tools, release 13.0, V13.0.88\nBuild cuda_13.0.r13.0/compiler.36424714_0\n"
	if got, want := versionLine(cuobjdump), "Cuda compilation tools, release 13.0, V13.0.88"; got != want {
		t.Errorf("versionLine = %q, want %q", got, want)
	}
	if got, want := versionLine("tool 1.2\n"), "tool 1.2"; got != want {
		t.Errorf("versionLine = %q, want %q", got, want)
	}
}
