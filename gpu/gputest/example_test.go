package gputest_test

import (
	"flag"
	"fmt"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpu/gputest"
	_ "github.com/warplab/warplab/gpusim"
)

// A backend runs the suite from its own tests, opening a fresh device for
// each subtest (here the simulator's T4 profile) or ending the subtest
// with the reason where it cannot. In a backend's package the function is
// a test, func TestConformance(t *testing.T); this example runs it through
// the testing package, so a failing subtest fails the example.
func ExampleRunAll() {
	opened := 0
	testConformance := func(t *testing.T) {
		gputest.RunAll(t, func(t *testing.T) *gpu.Device {
			d, err := gpu.Open("sim:t4")
			if err != nil {
				t.Fatal(err)
			}
			opened++
			return d
		})
	}
	ok := runTest("TestConformance", testConformance)
	n := len(gputest.Names())
	fmt.Println("passed:", ok)
	fmt.Println("a device per subtest:", opened >= n && opened%n == 0)
	// Output:
	// passed: true
	// a device per subtest: true
}

// runTest runs fn as a top-level test with testing.RunTests, reporting
// whether it passed. The command line's -test.run and -test.skip select
// the example, not fn's subtests, and -test.v would write fn's progress
// into the example's output; they are set aside while fn runs.
func runTest(name string, fn func(*testing.T)) bool {
	saved := map[string]string{}
	for f, v := range map[string]string{"test.run": "", "test.skip": "", "test.v": "false"} {
		if fl := flag.Lookup(f); fl != nil {
			saved[f] = fl.Value.String()
			flag.Set(f, v)
		}
	}
	defer func() {
		for f, v := range saved {
			flag.Set(f, v)
		}
	}()
	all := func(pat, str string) (bool, error) { return true, nil }
	return testing.RunTests(all, []testing.InternalTest{{Name: name, F: fn}})
}

func ExampleNames() {
	names := gputest.Names()
	fmt.Println(len(names) > 20, names[0])
	// Output: true ExactSums
}
