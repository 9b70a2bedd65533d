package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// badInput is one bad or extreme command line and what warplab must do
// with it: exit with code and say want (a substring of stderr), within a
// few seconds, without flooding stderr. To cover a new case, add a row to
// badInputs (or to the rows a helper such as initRows makes).
type badInput struct {
	name string
	// args follow "warplab". In them {dir} is the directory that holds
	// the files of badInputFiles (written once per test run), so
	// "{dir}/k.cu" is the small kernel file.
	args []string
	env  map[string]string // environment variables for the run ("" unsets)
	code int               // the exit status
	want string            // a substring of stderr
	// out is a substring of stdout (for the inputs that are accepted).
	out string
	// maxErr bounds stderr in bytes (0: badInputMaxErr).
	maxErr int
}

// badInputMaxErr bounds what one bad input may print to stderr: a clear
// message, never a flood (a binary file's bytes, a megabyte of one line).
const badInputMaxErr = 4096

// badInputFiles are the sources the rows use, by name in {dir}.
var badInputFiles = map[string]string{
	"n.cu": "__global__ void useN(int* p) { p[0] = N; }\n",
	"k.cu": `__global__ void k(int* p, int n) { p[0] = n; }
__global__ void spin(int* p) { while (p[0] == 0) { } }
__global__ void say(int n) { for (int i = 0; i < n; i++) printf("thread %d says line %d of its printf output\n", threadIdx.x, i); }
`,
	"types.cu": `__global__ void kf32(float* p) {}
__global__ void kf64(double* p) {}
__global__ void ki32(int* p) {}
__global__ void ku32(unsigned* p) {}
__global__ void ki64(long long* p) {}
__global__ void ku64(unsigned long long* p) {}
__global__ void ki8(signed char* p) {}
__global__ void ku8(unsigned char* p) {}
__global__ void kbool(bool* p) {}
`,
	"align.cu": `struct __align__(16) S { float a, b, c, d; };
struct P { float4 v; float w; };
struct D { double2 d; };
__device__ float first(P p) { return p.v.x + p.w; }
__global__ void vec(float* p, int off) { float4 x = *(float4*)(p + off); p[0] = x.x + x.w; }
__global__ void aligned(float* p, int off) { S x = *(S*)(p + off); p[0] = x.a + x.d; }
__global__ void member(float* p, int off) { P x = *(P*)(p + off); p[0] = x.v.y + x.w; }
__global__ void dbl(float* p, int off) { D x = *(D*)(p + off); p[0] = (float)x.d.y; }
__global__ void byValue(float* p, int off) { p[0] = first(*(P*)(p + off)); }
__global__ void store(float* p, int off) { S x = {1, 2, 3, 4}; *(S*)(p + off) = x; }
`,
	"constant.cu":    "__constant__ float c[1<<20];\n__global__ void k(float* p, int i) { p[0] = c[i]; }\n",
	"constant2.cu":   "__constant__ float a[16384];\n__constant__ float b[1];\n__global__ void k(float* p, int i) { p[0] = a[i] + b[0]; }\n",
	"constant64k.cu": "__constant__ float a[16384];\n__global__ void k(float* p, int i) { p[0] = a[i]; }\n",
	"bom.cu":         "\xef\xbb\xbf__global__ void k(int* p, int n) { p[0] = n; }\n",
	"utf8.cu":        "__global__ void k(int* p, int n) { /* éé → */ p[0] = q; }\n",
	"binary.cu":      "\x7fELF\x02\x01\x01\x00" + strings.Repeat("\x00\x01\x02\xff\xfe", 20000) + "\n",
	"longline.cu":    "__global__ void k(int* p, int n) { " + strings.Repeat("p[0] = n; ", 80000) + "p[1] = q; }\n",
	"include.cu":     "#include \"/dev/zero\"\n__global__ void k(int* p, int n) { p[0] = n; }\n",
	"empty.cu":       "",
}

// runArgs is a `warplab run` of kernel in file with launch <<<1, 1>>> and
// more flags after.
func runArgs(file, kernel string, more ...string) []string {
	if !strings.HasPrefix(file, "/") {
		file = "{dir}/" + file
	}
	return append([]string{"run", file, "--kernel", kernel, "--grid", "1", "--block", "1"}, more...)
}

func badInputs() []badInput {
	k := func(more ...string) []string {
		return runArgs("k.cu", "k", append([]string{"--buf", "p=i32:1", "--scalar", "n=i32:1"}, more...)...)
	}
	useN := func(more ...string) []string {
		return runArgs("n.cu", "useN", append([]string{"--buf", "p=i32:1", "--print", "p"}, more...)...)
	}
	rows := []badInput{
		// Sources.
		{name: "source /dev/zero", args: runArgs("/dev/zero", "k"), code: 1, want: "larger than 4194304 bytes (4 MiB), the most a source may be"},
		{name: "source missing", args: runArgs("missing.cu", "k"), code: 1, want: "missing.cu: no such file"},
		{name: "source a directory", args: runArgs(".", "k"), code: 1, want: "is a directory, not a source file"},
		{name: "source empty", args: runArgs("empty.cu", "k", "--buf", "p=i32:1"), code: 1, want: `no kernel named "k"`},
		{name: "source binary", args: runArgs("binary.cu", "k"), code: 1, want: `binary.cu:1:1: unexpected character '\x7f'`},
		{name: "source one long line", args: runArgs("longline.cu", "k", "--buf", "p=i32:2", "--scalar", "n=i32:1"), code: 1,
			want: "longline.cu:1:800043: undeclared identifier 'q'\n    ..."},
		{name: "source with a byte-order mark", args: runArgs("bom.cu", "k", "--buf", "p=i32:1", "--scalar", "n=i32:7", "--print", "p"), code: 0, out: "p[0:1] = 7"},
		{name: "source with non-ASCII text", args: runArgs("utf8.cu", "k", "--buf", "p=i32:1", "--scalar", "n=i32:1"), code: 1,
			want: "utf8.cu:1:54: undeclared identifier 'q'\n    __global__ void k(int* p, int n) { /* éé → */ p[0] = q; }\n                                                         ^"},
		{name: "source includes /dev/zero", args: runArgs("include.cu", "k", "--buf", "p=i32:1", "--scalar", "n=i32:1"), code: 1,
			want: `include.cu:1:10: #include "/dev/zero": an absolute path`},
		{name: "constant bank 4 MB", args: runArgs("constant.cu", "k", "--buf", "p=f32:1", "--scalar", "i=i32:0"), code: 1,
			want: "constant.cu:1:20: __constant__ variables take at most 65536 bytes (64 KB, the constant bank): 'c' is 4194304 bytes"},
		{name: "constant bank 64 KB and 4 bytes", args: runArgs("constant2.cu", "k", "--buf", "p=f32:1", "--scalar", "i=i32:0"), code: 1,
			want: "constant2.cu:2:20: __constant__ variables take at most 65536 bytes (64 KB, the constant bank): 'b' is 4 bytes, after 65536 bytes"},
		{name: "constant bank exactly 64 KB", args: runArgs("constant64k.cu", "k", "--buf", "p=f32:1", "--scalar", "i=i32:0"), code: 0},

		// Defines.
		{name: "define without a name", args: useN("--define", "=3"), code: 1, want: "--define =3: the macro name is empty"},
		{name: "define with a bad name", args: useN("--define", "3x=1"), code: 1, want: `--define 3x=1: "3x" is not a macro name`},
		{name: "define of a function-like macro", args: useN("--define", "F(x)=x"), code: 1, want: `--define F(x)=x: "F(x)" is not a macro name`},
		{name: "define NAME alone is 1", args: useN("--define", "N"), code: 0, out: "p[0:1] = 1"},
		{name: "define NAME= is empty", args: useN("--define", "N="), code: 1, want: "expected an expression, found ';' (N comes from --define N=)"},
		{name: "define with a bad value", args: useN("--define", "N=+"), code: 1, want: "n.cu:1:40: expected an expression, found ';' (N comes from --define N=+)"},
		{name: "define with a bad token", args: useN("--define", `N="abc`), code: 1, want: `n.cu:1:39: missing terminating '"' character (N comes from --define N="abc)`},
		{name: "define twice differently", args: useN("--define", "N=1", "--define", "N=2"), code: 1, want: `--define N=2: N is already defined as "1" by an earlier --define`},
		{name: "define missing", args: useN(), code: 1, want: "n.cu:1:39: undeclared identifier 'N'"},

		// Budgets.
		{name: "max-instructions negative", args: k("--max-instructions", "-5"), code: 1, want: "--max-instructions -5: want a positive number of warp instructions, or 0 for the default"},
		{name: "max-instructions not a number", args: k("--max-instructions", "many"), code: 2, want: `invalid value "many" for flag -max-instructions`},
		{name: "max-instructions reached", args: runArgs("k.cu", "spin", "--buf", "p=i32:1", "--max-instructions", "1000"), code: 1,
			want: "k.cu:2:44: instruction budget exceeded in kernel spin: more than 1000 warp instructions"},
		{name: "budget negative", args: k("--device", "sim:t4?budget=-1"), code: 2, want: "option budget=-1: want a positive number of warp instructions"},
		{name: "budget zero", args: k("--device", "sim:t4?budget=0"), code: 2, want: "option budget=0: want a positive number of warp instructions"},
		{name: "budget not a number", args: k("--device", "sim:t4?budget=lots"), code: 2, want: "budget=lots"},
		{name: "runs zero", args: k("--runs", "0"), code: 1, want: "--runs 0: want at least 1"},
		{name: "reps zero", args: k("--reps", "0"), code: 1, want: "--reps 0: want 1 to 100000"},
		{name: "warmup negative", args: k("--warmup", "-2"), code: 1, want: "--warmup -2: want 0 to 100000"},
		{name: "timeout negative", args: k("--timeout", "-1s"), code: 1, want: "--timeout -1s: want a positive duration"},

		// Device specs.
		{name: "device unknown backend", args: k("--device", "tpu"), code: 1, want: `no backend "tpu"`},
		{name: "device unknown profile", args: k("--device", "sim:k80"), code: 1, want: `no device profile "k80"`},
		{name: "device unknown option", args: k("--device", "sim:t4?bogus=1"), code: 2, want: "unknown option bogus (sim options:"},
		{name: "device bad order", args: k("--device", "sim:t4?order=sideways"), code: 2, want: "order=sideways"},
		{name: "WARPLAB_DEVICE garbage", args: k(), env: map[string]string{"WARPLAB_DEVICE": "garbage"}, code: 1, want: "WARPLAB_DEVICE=garbage"},
		{name: "WARPLAB_DEVICE garbage with a seed", args: k("--seed", "3"), env: map[string]string{"WARPLAB_DEVICE": "garbage"}, code: 1, want: "$WARPLAB_DEVICE=garbage"},
		{name: "WARPLAB_DEVICE bad option", args: k(), env: map[string]string{"WARPLAB_DEVICE": "sim:t4?budget=-1"}, code: 1, want: "WARPLAB_DEVICE"},

		// Scalars and type errors.
		{name: "scalar out of range", args: runArgs("k.cu", "k", "--buf", "p=i32:1", "--scalar", "n=i32:99999999999"), code: 1, want: "--scalar n=i32:99999999999: VALUE 99999999999 is out of range for i32 (-2147483648 to 2147483647)"},
		{name: "scalar negative unsigned", args: runArgs("k.cu", "k", "--buf", "p=i32:1", "--scalar", "n=u32:-1"), code: 1, want: "VALUE -1 is out of range for u32 (0 to 4294967295)"},
		{name: "scalar not a number", args: runArgs("k.cu", "k", "--buf", "p=i32:1", "--scalar", "n=i32:ten"), code: 1, want: `VALUE "ten" is not a valid i32`},
		{name: "buffer of the wrong type", args: runArgs("k.cu", "k", "--buf", "p=u64:1", "--scalar", "n=i32:1"), code: 1, want: "argument 1 (int* p): got a buffer of unsigned long long, want int"},
		{name: "scalar for a pointer", args: runArgs("k.cu", "k", "--scalar", "p=i32:1", "--scalar", "n=i32:1"), code: 1, want: "argument 1 (int* p): got int, want a buffer (int*)"},
		{name: "buffer for a scalar", args: runArgs("k.cu", "k", "--buf", "p=i32:1", "--buf", "n=u64:1"), code: 1, want: "argument 2 (int n): got unsigned long long*, want int"},

		// Buffer specs (the INIT values are in initRows).
		{name: "buf count negative", args: runArgs("k.cu", "k", "--buf", "p=i32:-1", "--scalar", "n=i32:1"), code: 1, want: `count "-1" is not a non-negative integer`},
		{name: "buf unknown type", args: runArgs("k.cu", "k", "--buf", "p=i128:1", "--scalar", "n=i32:1"), code: 1, want: `unknown type "i128"`},
		{name: "buf unknown INIT", args: runArgs("k.cu", "k", "--buf", "p=i32:1:ones", "--scalar", "n=i32:1"), code: 1, want: `unknown INIT "ones"`},
		{name: "buf empty", args: runArgs("k.cu", "k", "--buf", "p=i32:0", "--scalar", "n=i32:1"), code: 1, want: "0 bytes past the end of the allocation passed as p"},

		// Launches.
		{name: "grid zero", args: runArgs("k.cu", "k", "--grid", "0"), code: 1, want: `--grid 0: "0" is not a positive integer`},
		{name: "grid four dimensions", args: runArgs("k.cu", "k", "--grid", "1,1,1,1"), code: 1, want: "--grid 1,1,1,1: at most three dimensions"},
		{name: "grid past 2^31-1", args: k("--grid", "2147483648"), code: 1, want: "grid x dimension 2147483648 exceeds 2^31-1"},
		{name: "grid y past 65535", args: k("--grid", "1,70000"), code: 1, want: "y and z may not exceed 65535"},
		{name: "block past 1024", args: k("--block", "2048"), code: 1, want: "block 2048 has 2048 threads; Tesla T4 (gpusim profile t4) allows at most 1024"},
		{name: "shared negative", args: k("--shared", "-1"), code: 1, want: "dynamic shared memory -1 bytes is negative"},
		{name: "shared past the block's", args: k("--shared", "1000000"), code: 1, want: "the block needs 1000000 bytes of shared memory"},
		{name: "kernel unknown", args: runArgs("k.cu", "nope", "--buf", "p=i32:1"), code: 1, want: `no kernel named "nope" in`},
		{name: "null pointer store", args: runArgs("k.cu", "k", "--buf", "p=null", "--scalar", "n=i32:1"), code: 1, want: "address 0x0 is a null pointer"},
		{name: "printf past the device buffer", args: []string{"run", "{dir}/k.cu", "--kernel", "say", "--grid", "1", "--block", "64", "--scalar", "n=i32:1000"}, code: 0,
			want: "printf-cut: printf output cut at 1048576 bytes", out: "thread 0 says line 0"},

		// The command line itself.
		{name: "help of an unknown command", args: []string{"help", "bogus"}, code: 2, want: `warplab help: unknown command "bogus"`},
		{name: "unknown command", args: []string{"bogus"}, code: 2, want: `warplab: unknown command "bogus"`},
		{name: "lab option as a flag", args: []string{"lab", "day26", "--sizes", "4096"}, code: 2, want: "--sizes is not a flag of warplab lab; the lab option sizes is set with --set sizes=4096"},
		{name: "lab unknown flag", args: []string{"lab", "day26", "--frobnicate"}, code: 2, want: "flag provided but not defined: -frobnicate"},
		{name: "lab bad option value", args: []string{"lab", "day26", "--set", "runs=-3"}, code: 2, want: "runs=-3"},
		{name: "lab plot unwritable", args: []string{"lab", "day26", "--device", "sim:t4", "--plot", "/proc/warplab-plots"}, code: 1, want: "--plot /proc/warplab-plots"},
	}
	// A 16-byte struct or vector moved from a 4-byte offset faults, as on
	// the H200 (calibration/evidence/2026-11-30-h200-cuda-subset-2.txt), whether
	// it is a float4, an aligned struct, a struct with a float4 member, a
	// double2, copied by value into a call, or stored.
	for _, kern := range []string{"vec", "aligned", "member", "dbl", "byValue", "store"} {
		rows = append(rows,
			badInput{name: "misaligned 16-byte " + kern, args: runArgs("align.cu", kern, "--buf", "p=f32:64", "--scalar", "off=i32:1"), code: 1,
				want: "misaligned address in kernel " + kern},
			badInput{name: "aligned 16-byte " + kern, args: runArgs("align.cu", kern, "--buf", "p=f32:64", "--scalar", "off=i32:4"), code: 0})
	}
	return append(rows, initRows()...)
}

// initRows checks every INIT form on every --buf type: values that fit
// are accepted, values that do not are refused with the value, the type
// and its range.
func initRows() []badInput {
	buf := func(typ, spec string) []string {
		return runArgs("types.cu", "k"+typ, "--buf", "p="+typ+":"+spec, "--print", "p:4")
	}
	var rows []badInput
	ok := func(typ, spec, out string) {
		rows = append(rows, badInput{name: "INIT " + typ + ":" + spec, args: buf(typ, spec), code: 0, out: out})
	}
	bad := func(typ, spec, want string) {
		rows = append(rows, badInput{name: "INIT " + typ + ":" + spec, args: buf(typ, spec), code: 1, want: want})
	}
	// The three of the issue.
	bad("i32", "4:randint:0:99999999999:1", "INIT randint:0:99999999999:1: HI 99999999999 is out of range for i32 (-2147483648 to 2147483647)")
	bad("u32", "4:randint:-5:5:1", "INIT randint:-5:5:1: LO -5 is out of range for u32 (0 to 4294967295)")
	bad("f32", "4:uniform:-1e300:1e300:1", "INIT uniform:-1e300:1e300:1: LO -1e300 is out of range for f32 (finite, magnitude at most 3.4028235e+38)")

	type limits struct {
		typ, min, max, below, above string
	}
	for _, l := range []limits{
		{"i8", "-128", "127", "-129", "128"},
		{"u8", "0", "255", "-1", "256"},
		{"i32", "-2147483648", "2147483647", "-2147483649", "2147483648"},
		{"u32", "0", "4294967295", "-1", "4294967296"},
		{"i64", "-9223372036854775808", "9223372036854775807", "-9223372036854775809", "9223372036854775808"},
		{"u64", "0", "18446744073709551615", "-1", "18446744073709551616"},
	} {
		rng := fmt.Sprintf("out of range for %s (%s to %s)", l.typ, l.min, l.max)
		ok(l.typ, "4:zero", "p[0:4] = 0 0 0 0")
		ok(l.typ, "4:iota", "p[0:4] = 0 1 2 3")
		ok(l.typ, "4:mod:3", "p[0:4] = 0 1 2 0")
		ok(l.typ, "4:const:"+l.max, "p[0:4] = "+strings.Repeat(l.max+" ", 3)+l.max)
		ok(l.typ, "4:const:"+l.min, "p[0:4] = "+strings.Repeat(l.min+" ", 3)+l.min)
		ok(l.typ, "4:randint:"+l.min+":"+l.max+":7", "p[0:4] = ")
		ok(l.typ, "4:randint:"+l.max+":"+l.max+":7", "p[0:4] = "+strings.Repeat(l.max+" ", 3)+l.max)
		bad(l.typ, "4:const:"+l.above, "V "+l.above+" is "+rng)
		bad(l.typ, "4:const:"+l.below, "V "+l.below+" is "+rng)
		bad(l.typ, "4:randint:"+l.below+":0:1", "LO "+l.below+" is "+rng)
		bad(l.typ, "4:randint:0:"+l.above+":1", "HI "+l.above+" is "+rng)
		bad(l.typ, "4:uniform:0:1:1", "uniform makes floats; use randint for "+l.typ)
		bad(l.typ, "4:randint:3:2:1", "HI 2 is below LO 3")
	}
	// iota and mod whose values pass the type's maximum.
	bad("i8", "200:iota", "INIT iota: the last value, 199, is out of range for i8 (-128 to 127): use mod:K to wrap")
	ok("i8", "200:mod:128", "p[0:4] = 0 1 2 3")
	ok("u8", "200:mod:300", "p[0:4] = 0 1 2 3") // K past the type, but not the values
	bad("u8", "1000:mod:300", "K 300 makes values up to 299, out of range for u8 (0 to 255)")
	ok("u8", "256:iota", "p[0:4] = 0 1 2 3")
	bad("u8", "257:iota", "the last value, 256, is out of range for u8")
	for _, f := range []struct{ typ, max, over string }{
		{"f32", "3.4028235e+38", "3.5e38"},
		{"f64", "1.7976931348623157e+308", "1e309"},
	} {
		rng := "out of range for " + f.typ + " (finite, magnitude at most " + f.max + ")"
		ok(f.typ, "4:iota", "p[0:4] = 0 1 2 3")
		ok(f.typ, "4:const:-"+f.max, "p[0:4] = -"+f.max)
		ok(f.typ, "4:uniform:-1:1:3", "p[0:4] = ")
		ok(f.typ, "4:randint:-5:5:3", "p[0:4] = ")
		bad(f.typ, "4:const:"+f.over, "V "+f.over+" is "+rng)
		bad(f.typ, "4:uniform:-"+f.over+":0:1", "LO -"+f.over+" is "+rng)
		bad(f.typ, "4:uniform:0:"+f.over+":1", "HI "+f.over+" is "+rng)
		bad(f.typ, "4:uniform:nan:1:1", "LO nan is "+rng)
		bad(f.typ, "4:uniform:0:inf:1", "HI inf is "+rng)
		bad(f.typ, "4:uniform:1:0:1", "HI 0 is below LO 1")
		bad(f.typ, "4:randint:0.5:2:1", "randint bounds must be integers: LO is 0.5")
		bad(f.typ, "4:randint:0:99999999999999999999:1", "randint for "+f.typ+" draws from the int64 range")
		bad(f.typ, "4:uniform:0:1:-1", `SEED "-1" is not an integer`)
	}
	bad("f64", "4:uniform:-1e308:1.7e308:1", "HI - LO is 1.7e+308 - -1e+308, not a finite float64")
	ok("bool", "4:zero", "p[0:4] = 0 0 0 0")
	ok("bool", "4:const:true", "p[0:4] = 1 1 1 1")
	ok("bool", "4:mod:2", "p[0:4] = 0 1 0 1")
	ok("bool", "4:randint:0:1:9", "p[0:4] = ")
	bad("bool", "4:iota", "a bool buffer takes zero, const:true|false, mod:2 or randint:0:1:SEED")
	bad("bool", "4:mod:3", "a bool buffer takes zero")
	bad("bool", "4:randint:0:2:1", "HI 2 is out of range for bool (0 to 1)")
	bad("bool", "4:const:maybe", `V "maybe" is not a valid bool`)
	bad("bool", "4:uniform:0:1:1", "uniform makes floats; use randint for bool")
	return rows
}

// TestBadInputs runs every row of badInputs and checks its exit status,
// its message, the size of its stderr and that it answers quickly.
func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	for name, text := range badInputFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, tc := range badInputs() {
		if seen[tc.name] {
			t.Fatalf("two rows named %q", tc.name)
		}
		seen[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("WARPLAB_DEVICE", "")
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "{dir}", dir)
			}
			if runtime.GOOS != "linux" && strings.Contains(strings.Join(args, " "), "/dev/zero") {
				t.Skip("no /dev/zero")
			}
			start := time.Now()
			code, out, errs := warplab(t, args...)
			elapsed := time.Since(start)
			errs = strings.ReplaceAll(errs, dir, "{dir}")
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstderr: %.2000s", code, tc.code, errs)
			}
			if !strings.Contains(errs, tc.want) {
				t.Errorf("stderr lacks %q:\n%.2000s", tc.want, errs)
			}
			if !strings.Contains(out, tc.out) {
				t.Errorf("stdout lacks %q:\n%.2000s", tc.out, out)
			}
			if max := cmp(tc.maxErr, badInputMaxErr); len(errs) > max {
				t.Errorf("stderr is %d bytes, more than %d:\n%.2000s", len(errs), max, errs)
			}
			// Generous for a loaded machine: each row is a parse, a
			// compile or a small launch.
			if elapsed > 20*time.Second {
				t.Errorf("took %v", elapsed)
			}
		})
	}
}

// cmp returns v, or def when v is 0.
func cmp(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
