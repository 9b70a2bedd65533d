//go:build unix

package atomics

import (
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

// BenchmarkDay26Lab runs the whole lab on the simulator, as the notebook
// and "warplab lab day26" do: one iteration is the sweep, the determinism
// table and the block-size table at their default sizes. Besides ns/op
// (wall time) it reports each experiment's wall seconds and the CPU
// seconds the iteration used, which exceed the wall time when the
// simulator's batches run on several cores:
//
//	go test ./labs/atomics -run '^$' -bench Day26Lab -benchtime 1x
func BenchmarkDay26Lab(b *testing.B) {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		b.Fatal(err)
	}
	defer dev.Close()
	steps := []struct {
		metric string
		run    func() error
	}{
		{"sweep-s/op", func() error { _, err := Sweep(dev, SweepOptions{Progress: NoProgress}); return err }},
		{"determinism-s/op", func() error { _, err := Determinism(dev, DeterminismOptions{Progress: NoProgress}); return err }},
		{"blocksizes-s/op", func() error { _, err := BlockSizes(dev, BlockSizeOptions{Progress: NoProgress}); return err }},
	}
	wall := make([]time.Duration, len(steps))
	cpu0 := cpuTime()
	for b.Loop() {
		for i, s := range steps {
			start := time.Now()
			if err := s.run(); err != nil {
				b.Fatal(err)
			}
			wall[i] += time.Since(start)
		}
	}
	n := float64(b.N)
	for i, s := range steps {
		b.ReportMetric(wall[i].Seconds()/n, s.metric)
	}
	b.ReportMetric((cpuTime()-cpu0).Seconds()/n, "cpu-s/op")
}
