//go:build unix

package atomics

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/warplab/warplab/gpu"
)

// cpuTime returns the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestDay26WallTime runs the whole lab on the simulator, as the notebook
// and "warplab lab day26" do, and logs how long each experiment took,
// in wall time and CPU time. It asserts nothing about the times: they
// depend on the machine and on what else runs on it. Run it with -v to
// see them.
func TestDay26WallTime(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole lab (about 17 s of CPU time)")
	}
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	var total, totalCPU time.Duration
	step := func(name string, run func() error) {
		start, cpu := time.Now(), cpuTime()
		if err := run(); err != nil {
			t.Fatal(err)
		}
		wall, used := time.Since(start), cpuTime()-cpu
		total += wall
		totalCPU += used
		t.Logf("%-12s wall %5.1f s, CPU %5.1f s", name, wall.Seconds(), used.Seconds())
	}
	step("sweep", func() error { _, err := Sweep(dev, SweepOptions{Progress: NoProgress}); return err })
	step("determinism", func() error { _, err := Determinism(dev, DeterminismOptions{Progress: NoProgress}); return err })
	step("block sizes", func() error { _, err := BlockSizes(dev, BlockSizeOptions{Progress: NoProgress}); return err })
	t.Logf("Day 26 lab on %s: wall %.1f s, CPU %.1f s, GOMAXPROCS %d, %d CPUs",
		dev.Info().Name, total.Seconds(), totalCPU.Seconds(), runtime.GOMAXPROCS(0), runtime.NumCPU())
}
