package gpu_test

import (
	"fmt"
	"log"
	"strings"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
)

func TestResultFormat(t *testing.T) {
	r := &gpu.Result{
		Kernel: "sum", Grid: gpu.D1(4), Block: gpu.D1(256), Device: "Tesla T4 (gpusim profile t4)", Seed: 3,
		Timing: gpu.Timing{Ms: 0.0123, Source: "modelled, t4 profile", Breakdown: []gpu.TimeComponent{
			{Resource: "l2 atomic chain", Ms: 0.01, Detail: "one <address>"}, {Resource: "launch", Ms: 0.0023},
		}},
		Counters:    &gpu.Counters{Blocks: 4, Warps: 32, Threads: 1024, WarpInstructions: 1234567, GlobalAtomicOps: 1024, GlobalAtomicIssued: 32},
		Diagnostics: []gpu.Diagnostic{{Kind: "race", Pos: cudac.Pos{File: "a.cu", Line: 3, Col: 5}, Msg: "x & y"}},
		Printf:      "hi",
	}
	s := r.String()
	for _, want := range []string{"sum<<<4, 256>>> on Tesla T4 (gpusim profile t4) (seed 3)", "0.01230 ms (modelled, t4 profile)",
		"l2 atomic chain", "a.cu:3:5: race: x & y", "printf:\nhi\n", "warp instructions", "1,234,567", "issued to the L2"} {
		if !strings.Contains(s, want) {
			t.Errorf("String lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "shuffles") {
		t.Errorf("String shows a zero counter:\n%s", s)
	}
	h := r.HTML()
	for _, want := range []string{`class="warplab-result"`, "sum&lt;&lt;&lt;4, 256&gt;&gt;&gt;", "one &lt;address&gt;", "x &amp; y", `class="warplab-counters"`} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q:\n%s", want, h)
		}
	}
	var none *gpu.Result
	if none.String() != "no result" {
		t.Error("a nil result does not print")
	}
	var nc *gpu.Counters
	if !strings.Contains(nc.String(), "no counters") || nc.Entries() != nil {
		t.Error("nil counters do not print")
	}
	measured := gpu.Timing{Ms: 1.5, Source: "measured, NVIDIA H200", Measured: true}
	if got := measured.String(); got != "1.500 ms (measured, NVIDIA H200)" {
		t.Errorf("measured timing prints %q", got)
	}
}

func TestCounterEntriesCoverEveryField(t *testing.T) {
	// Every numeric field of Counters (ByClass's among them) is one entry:
	// a field added to Counters must be added to Entries.
	c := &gpu.Counters{}
	fields := strings.Count(fmt.Sprintf("%+v", *c), ":") - 1 // ByClass itself holds the others
	if n := len(c.Entries()); n != fields {
		t.Errorf("Entries lists %d counters; Counters has %d numeric fields", n, fields)
	}
}

// A launch prints its shape, time and breakdown, and its counters.
func ExampleResult_String() {
	dev, err := gpu.Open("sim:t4?seed=1")
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	mod, err := dev.Compile("count.cu", []byte(`
__global__ void count(unsigned* c) { atomicAdd(c, 1u); }`))
	if err != nil {
		log.Fatal(err)
	}
	k, err := mod.Kernel("count")
	if err != nil {
		log.Fatal(err)
	}
	c, err := gpu.NewBuffer[uint32](dev, 1)
	if err != nil {
		log.Fatal(err)
	}
	res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(2), Block: gpu.D1(64)}, c)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.SplitN(res.String(), "\n", 2)[0])
	fmt.Print(res.Counters)
	// Output:
	// count<<<2, 64>>> on Tesla T4 (gpusim profile t4) (seed 1)
	// launch:
	//   blocks                                       2
	//   warps                                        4
	//   threads                                    128
	//   resident blocks per SM                      16
	//   waves                                        1
	// instructions:
	//   warp instructions                           12
	//   thread instructions                        384
	//   integer                                      4
	//   atomic                                       4
	//   control                                      4
	// L2 (modelled):
	//   sector accesses                              4
	//   sector hits                                  3
	//   slices                                      16
	//   busiest slice's sectors                      4
	// global atomics:
	//   requests                                     4
	//   lane operations                            128
	//   issued to the L2                             4
	//   aggregated by the compiler                 124
	//   distinct addresses                           1
	//   distinct 128-byte lines                      1
	//   longest chain on one address                 4
	//   longest chain on one line                    4
}
