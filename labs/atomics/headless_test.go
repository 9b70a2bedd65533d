//go:build unix

package atomics_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	_ "github.com/warplab/warplab/labs/atomics"
)

// cpuTime returns the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// stepTimer is a Progress that notes when each experiment ends.
type stepTimer struct{ ends []time.Time }

func (*stepTimer) Update(int, int, string) {}
func (s *stepTimer) Done()                 { s.ends = append(s.ends, time.Now()) }

// BenchmarkHeadless runs the whole lab through the registry with its
// default settings on sim:t4, as `warplab lab day26` does with no GPU:
// the sweep, the determinism table and the block-size table. Its ns/op
// on the 2-core development machine is the lab's Info().SimWallTime.
// It also reports each experiment's wall seconds, and the CPU seconds
// per run, which exceed the wall time when the simulator's launches run
// on several cores:
//
//	go test ./labs/atomics -run '^$' -bench Headless -benchtime 1x
//
// Each experiment is one notebook cell. The goal (issue 29, docs/speed.md):
// no cell over 3 s on the simulator and the notebook's Run All under 20 s
// on 2 cores, so each of sweep-s/op, determinism-s/op and blocksizes-s/op
// under 3 s; the determinism table (60 launches over 4M elements) is
// the one far from it.
func BenchmarkHeadless(b *testing.B) {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		b.Fatal(err)
	}
	defer dev.Close()
	steps := []string{"sweep-s/op", "determinism-s/op", "blocksizes-s/op"}
	wall := make([]time.Duration, len(steps))
	cpu0 := cpuTime()
	for b.Loop() {
		start := time.Now()
		timer := &stepTimer{}
		r, err := labs.Run(dev, "day26", nil, timer)
		if err != nil {
			b.Fatal(err)
		}
		if len(timer.ends) != len(steps) || len(r.Tables()) == 0 || r.Elapsed() <= 0 {
			b.Fatalf("the run ended %d experiments, want %d, and returned %d tables in %v",
				len(timer.ends), len(steps), len(r.Tables()), r.Elapsed())
		}
		for i, end := range timer.ends {
			wall[i] += end.Sub(start)
			start = end
		}
	}
	n := float64(b.N)
	for i, s := range steps {
		b.ReportMetric(wall[i].Seconds()/n, s)
	}
	b.ReportMetric((cpuTime()-cpu0).Seconds()/n, "cpu-s/op")
}
