package sassorder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// testSource stands for a source file's bytes; the tests' registry files
// are generated here, never committed to the registry.
var testSource = []byte("__global__ void popThread(unsigned* head) { atomicAdd(head, 1u); }\n")

func testHeader() Header {
	return Header{
		File: "labs/queue/kernels/queue.cu", Kernel: "popThread", Symbol: "_Z9popThreadPjjjiijPf",
		SourceSHA256: SourceSHA256(testSource), Arch: "sm_90", Defines: "none", NVRTC: "13.0",
		Disassembler: "cuobjdump, Cuda compilation tools, release 13.0, V13.0.88",
		Date:         time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC),
		Command:      RecordCommand("labs/queue/kernels/queue.cu", "popThread", "sm_90"),
	}
}

func TestFileName(t *testing.T) {
	sum := SourceSHA256(testSource)
	if got, want := FileName("popThread", testSource), "popThread-"+sum[:12]+".sass"; got != want {
		t.Errorf("FileName = %q, want %q", got, want)
	}
	if got := FileName("sumTree<256>", testSource); !strings.HasPrefix(got, "sumTree_256_-") {
		t.Errorf("template kernel's name %q", got)
	}
	if got, want := testHeader().FileName(), FileName("popThread", testSource); got != want {
		t.Errorf("Header.FileName = %q, want %q", got, want)
	}
	if got, want := RecordCommand("labs/atomics/kernels/tree.cu", "sumTree<256>", "sm_90"),
		"warplab sass labs/atomics/kernels/tree.cu --kernel 'sumTree<256>' --arch sm_90 --record gpusim/sassorder/sm_90"; got != want {
		t.Errorf("RecordCommand = %q, want %q", got, want)
	}
}

func TestFormatParse(t *testing.T) {
	sass := readTestdata(t, "nvrtc-lab-popThread.sass")
	b, err := Format(testHeader(), sass)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	want := []string{
		Magic,
		"// file: labs/queue/kernels/queue.cu",
		"// kernel: popThread",
		"// symbol: _Z9popThreadPjjjiijPf",
		"// source sha256: " + SourceSHA256(testSource),
		"// arch: sm_90",
		"// defines: none",
		"// nvrtc: 13.0",
		"// disassembler: cuobjdump, Cuda compilation tools, release 13.0, V13.0.88",
		"// date: 2026-12-01T04:00:00Z",
		"// command: warplab sass labs/queue/kernels/queue.cu --kernel popThread --arch sm_90 --record gpusim/sassorder/sm_90",
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d: %q, want %q", i+1, lines[i], w)
		}
	}
	h, body, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if h != testHeader() {
		t.Errorf("Parse gave header %+v, want %+v", h, testHeader())
	}
	if body != sass {
		t.Errorf("Parse gave another SASS body (%d bytes, want %d)", len(body), len(sass))
	}
}

func TestFormatParseErrors(t *testing.T) {
	sass := readTestdata(t, "nvrtc-lab-popThread.sass")
	for _, tc := range []struct {
		name string
		edit func(*Header)
		want string
	}{
		{"defines", func(h *Header) { h.Defines = "K=4" }, `header defines "K=4"`},
		{"empty kernel", func(h *Header) { h.Kernel = "" }, "header kernel"},
		{"two-line file", func(h *Header) { h.File = "a\nb" }, "header file"},
		{"short sha", func(h *Header) { h.SourceSHA256 = "abc" }, "want 64 lower-case hex digits"},
		{"arch", func(h *Header) { h.Arch = "90" }, `header arch "90"`},
		{"date", func(h *Header) { h.Date = time.Time{} }, "date"},
	} {
		h := testHeader()
		tc.edit(&h)
		if _, err := Format(h, sass); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Format error %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := Format(testHeader(), "no code\n"); err == nil || !strings.Contains(err.Error(), "no instructions") {
		t.Errorf("Format of a listing without code: %v", err)
	}
	good, err := Format(testHeader(), sass)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file, want string
	}{
		{"empty", "", "line 1: want the recorder's first line"},
		{"a plain listing", sass, "line 1: want the recorder's first line"},
		{"missing key", strings.Replace(string(good), "// symbol: _Z9popThreadPjjjiijPf\n", "", 1), `line 4: want "// symbol: ...", got "// source sha256:`},
		{"cut short", strings.Join(strings.SplitAfter(string(good), "\n")[:3], ""), `line 4: want "// symbol: ...", got ""`},
		{"bad date", strings.Replace(string(good), "2026-12-01T04:00:00Z", "yesterday", 1), "line 10: date"},
		{"defines", strings.Replace(string(good), "// defines: none", "// defines: K=4", 1), `header defines "K=4"`},
	} {
		if _, _, err := Parse([]byte(tc.file)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Parse error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestRegistryLookup builds a registry from a file generated here (the
// committed popThread listing under a test header) and looks it up.
func TestRegistryLookup(t *testing.T) {
	h := testHeader()
	b, err := Format(h, readTestdata(t, "nvrtc-lab-popThread.sass"))
	if err != nil {
		t.Fatal(err)
	}
	fid := h
	fid.Kernel = "pop_thread"
	fb, err := Format(fid, readTestdata(t, "nvrtc-fid-pop_thread.sass"))
	if err != nil {
		t.Fatal(err)
	}
	r := load(fstest.MapFS{
		"sm_90/" + h.FileName():           {Data: b},
		"sm_90/" + fid.FileName():         {Data: fb},
		"sm_90/README.md":                 {Data: []byte("not a registry file\n")},
		"sm_80/" + h.FileName():           {Data: b},                    // filed under the wrong arch
		"sm_90/popWarp-0123456789ab.sass": {Data: b},                    // under another kernel's name
		"sm_90/broken-0123456789ab.sass":  {Data: []byte("LDC R1 ;\n")}, // not the recorder's
	})
	entries, errs := r.list()
	if len(entries) != 2 || entries[0].Path != "sm_90/"+h.FileName() || entries[1].Path != "sm_90/"+fid.FileName() {
		t.Errorf("entries %+v", entries)
	}
	wantErrs := []string{
		"sm_80/popThread-" + h.SourceSHA256[:12] + ".sass: sassorder: recorded for sm_90, filed under sm_80",
		"sm_90/broken-0123456789ab.sass: sassorder: line 1: want the recorder's first line",
		"sm_90/popWarp-0123456789ab.sass: sassorder: kernel popThread of a source with SHA-256 " + h.SourceSHA256 + " belongs in " + h.FileName(),
	}
	if len(errs) != len(wantErrs) {
		t.Fatalf("errors %v, want %d", errs, len(wantErrs))
	}
	for i, w := range wantErrs {
		if !strings.HasPrefix(errs[i].Error(), w) {
			t.Errorf("error %d: %v, want %q", i, errs[i], w)
		}
	}
	if e, ok := r.lookup("sm_90", "popThread", testSource); !ok || !e.Order.ConstFirst || e.Header.Symbol != "_Z9popThreadPjjjiijPf" {
		t.Errorf("lookup popThread: %v %+v", ok, e)
	}
	if e, ok := r.lookup("sm_90", "pop_thread", testSource); !ok || e.Order.ConstFirst {
		t.Errorf("lookup pop_thread: %v %+v", ok, e)
	}
	for _, tc := range []struct{ arch, kernel, src string }{
		{"sm_90", "popThread", string(testSource) + "// edited\n"},
		{"sm_80", "popThread", string(testSource)},
		{"sm_90", "popWarp", string(testSource)},
	} {
		if e, ok := r.lookup(tc.arch, tc.kernel, []byte(tc.src)); ok {
			t.Errorf("lookup(%s, %s, %d bytes) found %s", tc.arch, tc.kernel, len(tc.src), e.Path)
		}
	}
}

// TestRegistryMatchesSources checks the embedded registry: every file
// reads and names a source file of the repository. A recording of an
// earlier version of its source is evidence of that version (nothing
// reads it to predict a time, so an edit need not re-record it): the test
// logs it with the command that re-records it.
func TestRegistryMatchesSources(t *testing.T) {
	entries, errs := Entries()
	for _, err := range errs {
		t.Errorf("registry file: %v", err)
	}
	for _, e := range entries {
		h := e.Header
		src, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(h.File)))
		if err != nil {
			t.Errorf("%s: the recorded kernel's source: %v (remove the file if the source is gone)", e.Path, err)
			continue
		}
		if got := SourceSHA256(src); got != h.SourceSHA256 {
			t.Logf("%s: %s changed since %s's SASS was recorded (SHA-256 %s, recorded %s): re-record it on a machine with NVRTC and cuobjdump, from the repository root,\n\t%s\nand remove gpusim/sassorder/%s (scripts/sass-record.sh OUTDIR records both queue kernels)",
				e.Path, h.File, h.Kernel, got[:12], h.SourceSHA256[:12], RecordCommand(h.File, h.Kernel, h.Arch), e.Path)
		}
	}
}
