package gpusim

import (
	"os"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/sassorder"
)

// TestConstFirstLookup checks which kernels constFirst looks up and that
// it caches the answer per module and kernel.
func TestConstFirstLookup(t *testing.T) {
	src := []byte("__global__ void pop(unsigned* h) { atomicAdd(h, 1u); }\n__global__ void other(unsigned* h) { atomicAdd(h, 2u); }\n")
	var calls []string
	lookupSASS = func(arch, kernel string, got []byte) (sassorder.Entry, bool) {
		calls = append(calls, arch+" "+kernel)
		if string(got) != string(src) {
			t.Errorf("looked up %q, want the program's source", got)
		}
		return sassorder.Entry{Order: sassorder.Order{ConstFirst: kernel == "pop"}}, true
	}
	t.Cleanup(func() { lookupSASS = sassorder.Lookup })
	for _, tc := range []struct {
		name  string
		fmad  bool
		opts  []cudac.Option
		want  bool
		calls int
	}{
		{"recorded", true, nil, true, 1},
		{"fmad=false", false, nil, false, 0},
		{"with a macro definition", true, []cudac.Option{cudac.Define("K", "4")}, false, 0},
	} {
		calls = nil
		dev, err := backend{}.Open(driver.Config{Device: "h200", FMAD: tc.fmad})
		if err != nil {
			t.Fatal(err)
		}
		prog, err := cudac.Compile("pop.cu", src, tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		mod, err := dev.Compile(prog)
		if err != nil {
			t.Fatal(err)
		}
		m := mod.(*module)
		pop, other := prog.Func("pop"), prog.Func("other")
		for range 2 {
			if got := m.constFirst(pop); got != tc.want {
				t.Errorf("%s: pop: %v, want %v", tc.name, got, tc.want)
			}
			if m.constFirst(other) {
				t.Errorf("%s: other: true", tc.name)
			}
		}
		if len(calls) != 2*tc.calls || (tc.calls > 0 && calls[0] != "sm_90 pop") {
			t.Errorf("%s: lookups %q, want %d each, of sm_90", tc.name, calls, tc.calls)
		}
	}
}

// TestConstFirstQueueLab checks the whole path on the registry as
// committed: the queue lab's source, compiled as a lab compiles it for
// sim:h200, gives popThread and popWarp the constant-first order, and the
// same source with a byte changed gives neither.
func TestConstFirstQueueLab(t *testing.T) {
	src, err := os.ReadFile("../labs/queue/kernels/queue.cu")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		src  []byte
		want bool
	}{
		{"as recorded", src, true},
		{"edited", append(append([]byte(nil), src...), '\n'), false},
	} {
		dev, err := backend{}.Open(driver.Config{Device: "h200", FMAD: true})
		if err != nil {
			t.Fatal(err)
		}
		prog, err := cudac.Compile("queue.cu", tc.src, cudac.Arch(dev.Info().Arch))
		if err != nil {
			t.Fatal(err)
		}
		mod, err := dev.Compile(prog)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"popThread", "popWarp"} {
			if got := mod.(*module).constFirst(prog.Func(k)); got != tc.want {
				t.Errorf("%s: %s: const first %v, want %v (an edited queue.cu wants its kernels re-recorded: labs/queue's TestRecordedSASS says how)", tc.name, k, got, tc.want)
			}
		}
	}
}
