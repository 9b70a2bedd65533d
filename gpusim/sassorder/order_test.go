package sassorder

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAnalyzeRecordedKernels checks the order against the H200 evidence's
// listings: the queue lab's popThread and popWarp load the memory
// descriptor (ULDC.64 c[0x0][0x208]) before the head's LDC.64; fidelity's
// pop_thread loads the head first and the descriptor just before its ATOMG.
func TestAnalyzeRecordedKernels(t *testing.T) {
	for _, tc := range []struct {
		file            string
		want            bool
		uldc, ldc, atom string // the addresses Analyze should name
	}{
		{"nvrtc-lab-popThread.sass", true, "0060", "0070", "00a0"},
		{"nvrtc-lab-popWarp.sass", true, "0030", "0110", "0160"},
		{"nvrtc-fid-pop_thread.sass", false, "", "0060", "00a0"},
	} {
		o, err := Analyze(readTestdata(t, tc.file))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if o.ConstFirst != tc.want || o.FirstULDC.Addr != tc.uldc || o.LastLDC.Addr != tc.ldc || o.Atomic.Addr != tc.atom {
			t.Errorf("%s: const first %v (ULDC %q, LDC %q, atomic %q), want %v (%q, %q, %q)", tc.file,
				o.ConstFirst, o.FirstULDC.Addr, o.LastLDC.Addr, o.Atomic.Addr, tc.want, tc.uldc, tc.ldc, tc.atom)
		}
		if o.Atomic.Opcode != "ATOMG" {
			t.Errorf("%s: first atomic %v, want an ATOMG", tc.file, o.Atomic)
		}
	}
}

// TestAnalyzeProlog checks the per-kernel table of
// calibration/evidence/2026-12-01-h200-prolog's README against its SASS.
func TestAnalyzeProlog(t *testing.T) {
	want := map[string]bool{"f_isslab": true, "f_issdesc": true, "f_span": true, "f_iss": false, "f_isspad": false, "f_bare": false}
	fns := Functions(readTestdata(t, "prolog.sm_90.sass"))
	if len(fns) != len(want) {
		t.Fatalf("%d functions, want %d", len(fns), len(want))
	}
	for _, f := range fns {
		name := ""
		for k := range want {
			if strings.Contains(f.Name, k+"E") {
				name = k
			}
		}
		if name == "" {
			t.Fatalf("unexpected function %s", f.Name)
		}
		o, err := Analyze(f.SASS)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if o.Atomic.Line == 0 {
			t.Errorf("%s: no global atomic found", name)
		}
		if o.ConstFirst != want[name] {
			t.Errorf("%s: const first %v, want %v (ULDC %v, LDC %v, atomic %v)", name, o.ConstFirst, want[name], o.FirstULDC, o.LastLDC, o.Atomic)
		}
		delete(want, name)
	}
}

func TestAnalyzeShapes(t *testing.T) {
	const (
		stack = "        /*0000*/                   LDC R1, c[0x0][0x28] ;   /* 0x00000a00ff017b82 */\n" +
			"                                                         /* 0x000fe20000000800 */\n"
		uldc    = "        /*0010*/                   ULDC.64 UR4, c[0x0][0x208] ;   /* 0x0000820000047ab9 */\n"
		uldc32  = "        /*0010*/                   ULDC UR4, c[0x0][0x218] ;   /* 0x0000820000047ab9 */\n"
		ldc     = "        /*0020*/                   LDC.64 R2, c[0x0][0x210] ;   /* 0x00008400ff027b82 */\n"
		predLDC = "        /*0020*/               @!P1 LDC.64 R2, c[0x0][0x210] ;   /* 0x00008400ff027b82 */\n"
		atoms   = "        /*0030*/                   ATOMS.ADD RZ, [R0], R5 ;   /* 0x000000050000738c */\n"
		redux   = "        /*0030*/                   REDUX.SUM UR5, R4 ;   /* 0x00000000040573c4 */\n"
		atomg   = "        /*0040*/               @P0 ATOMG.E.ADD.STRONG.GPU PT, R3, desc[UR4][R2.64], R7 ;   /* 0x00000007020309a8 */\n"
		redg    = "        /*0040*/                   REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5 ;   /* 0x000000050200798e */\n"
		atom    = "        /*0040*/                   ATOM.E.ADD.STRONG.GPU PT, R3, [R2.64], R7 ;   /* 0x000000070203738a */\n"
		exit    = "        /*0050*/                   EXIT ;   /* 0x000000000000794d */\n"
		nvdis   = "        /*0010*/                   ULDC.64 UR4, c[0x0][0x208] ;\n" +
			".L_x_0:\n" +
			"        /*0020*/                   LDC.64 R2, c[0x0][0x210] ;\n" +
			"        /*0040*/                   RED.E.ADD.STRONG.GPU [R2.64], R7 ;\n"
	)
	for _, tc := range []struct {
		name string
		sass string
		want bool
	}{
		{"ULDC.64 before the LDC", stack + uldc + ldc + atomg + exit, true},
		{"ULDC (32-bit) before the LDC", stack + uldc32 + ldc + atomg, true},
		{"predicated LDC", stack + uldc + predLDC + atomg, true},
		{"REDG", stack + uldc + ldc + redg, true},
		{"generic ATOM", stack + uldc + ldc + atom, true},
		{"nvdisasm's RED", nvdis, true},
		{"LDC first, ULDC just before the atomic", stack + ldc + uldc + atomg, false},
		{"no ULDC", stack + ldc + atomg, false},
		{"no LDC at all", uldc + atomg, false},
		{"no global atomic", stack + uldc + ldc + exit, false},
		{"shared atomic and REDUX only", stack + uldc + ldc + atoms + redux + exit, false},
		{"shared atomic before the global one", stack + uldc + ldc + atoms + atomg, true},
	} {
		o, err := Analyze(tc.sass)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if o.ConstFirst != tc.want {
			t.Errorf("%s: const first %v, want %v (%+v)", tc.name, o.ConstFirst, tc.want, o)
		}
	}
}

func TestAnalyzeNoInstructions(t *testing.T) {
	for _, text := range []string{"", "\n\n", "// popThread: sm_90\n\t\tFunction : k\n\t.headerflags @\"EF_CUDA_SM90\"\n",
		"                  /* 0x000fe20000000800 */\n", "/*zz*/ LDC R1, c[0x0][0x28] ;\n", "/*0000*/ ;\n"} {
		_, err := Analyze(text)
		if err == nil || !strings.Contains(err.Error(), "sassorder: no instructions in the listing") {
			t.Errorf("Analyze(%q): error %v, want no instructions", text, err)
		}
	}
}

func TestFunctions(t *testing.T) {
	if fns := Functions("no functions\n"); len(fns) != 0 {
		t.Errorf("got %d functions from text without any", len(fns))
	}
	fns := Functions(readTestdata(t, "nvrtc-lab-popThread.sass"))
	if len(fns) != 1 || fns[0].Name != "_Z9popThreadPjjjiijPf" || !strings.HasPrefix(strings.TrimSpace(fns[0].SASS), "Function : _Z9popThreadPjjjiijPf") {
		t.Fatalf("functions %+v", fns)
	}
}

func ExampleAnalyze() {
	o, err := Analyze(`
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   ULDC.64 UR6, c[0x0][0x208] ;
        /*0020*/                   LDC.64 R2, c[0x0][0x210] ;
        /*0030*/               @P0 ATOMG.E.ADD.STRONG.GPU PT, R3, desc[UR6][R2.64], R7 ;
`)
	if err != nil {
		panic(err)
	}
	fmt.Println(o.ConstFirst, o.FirstULDC.Addr, o.LastLDC.Addr, o.Atomic.Opcode)
	// Output: true 0010 0020 ATOMG
}
