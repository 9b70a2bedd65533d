package gpusim_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warplab/warplab/gpu"
)

// spinSrc spins in every warp (spin) or in one warp of block 7 (spinOne):
// p[0] is zero and nothing sets it.
const spinSrc = `__global__ void spin(int* p) {
    int i = 0;
    while (atomicAdd(p, 0) == 0) {
        i++;
    }
    p[1] = i;
}
__global__ void spinOne(int* p) {
    if (blockIdx.x == 7 && threadIdx.x == 35) {
        for (;;) {
            if (p[0] != 0) break;
        }
    }
}
`

// TestTimeout checks that a kernel spinning in every warp of a huge grid,
// which the instruction budget would let run for minutes, stops at the
// device's time limit (timeout=) with a message that says so, names the
// limit and the line the warp was at.
func TestTimeout(t *testing.T) {
	d := open(t, "sim:t4?timeout=300ms")
	k := kernel(t, d, spinSrc, "spin")
	p := zeros[int32](t, d, 2)
	start := time.Now()
	le := launchErr(t, k, gpu.LaunchConfig{Grid: gpu.D1(65536), Block: gpu.D1(1024)}, gpu.ErrTimeout, p)
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("a launch with a 300ms limit stopped after %v", el)
	}
	for _, want := range []string{"time limit of 300ms", "of its 65536 blocks finished", "timeout="} {
		if !strings.Contains(le.Error(), want) {
			t.Errorf("error %q does not say %q", le, want)
		}
	}
	if le.Pos.Line < 2 || le.Pos.Line > 4 {
		t.Errorf("error at line %d, want the loop's (2 to 4): %v", le.Pos.Line, le)
	}
}

// TestWarpBudget checks that one warp spinning in a grid of 2^26 threads
// fails after its own budget, fast, whatever the grid's size (the
// launch's budget scales with it), naming the warp, its block and the
// loop's line.
func TestWarpBudget(t *testing.T) {
	d := open(t, "sim:t4?timeout=0")
	k := kernel(t, d, spinSrc, "spinOne")
	p := zeros[int32](t, d, 1)
	start := time.Now()
	le := launchErr(t, k, gpu.LaunchConfig{Grid: gpu.D1(65536), Block: gpu.D1(1024)}, gpu.ErrBudget, p)
	t.Logf("caught after %v: %v", time.Since(start), le)
	for _, want := range []string{"kernel spinOne", "warp 1 of block (7,0,0)", "one warp's budget", "in the loop at spinone.cu:10:9", "--max-instructions"} {
		if !strings.Contains(le.Error(), want) {
			t.Errorf("error %q does not say %q", le, want)
		}
	}
	if le.Pos.Line != 10 {
		t.Errorf("error at line %d, want the loop's, 10", le.Pos.Line)
	}
}

// TestCancel checks that cancelling a launch's context stops it promptly
// with an error that wraps context.Canceled, that a deadline gives
// ErrTimeout, and that the device still works afterwards.
func TestCancel(t *testing.T) {
	d := open(t, "sim:t4?timeout=0")
	k := kernel(t, d, spinSrc, "spin")
	p := zeros[int32](t, d, 2)
	cfg := gpu.LaunchConfig{Grid: gpu.D1(65536), Block: gpu.D1(1024)}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err := k.LaunchContext(ctx, cfg, p)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled launch: %v, want context.Canceled", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("cancelled after 200ms, returned after %v", el)
	}
	if _, err := k.LaunchContext(ctx, cfg, p); !errors.Is(err, context.Canceled) {
		t.Errorf("launch on a cancelled context: %v, want context.Canceled", err)
	}
	dl, cancel2 := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel2()
	if _, err := k.LaunchContext(dl, cfg, p); !errors.Is(err, gpu.ErrTimeout) || !strings.Contains(err.Error(), "deadline") {
		t.Errorf("launch past its context's deadline: %v, want ErrTimeout naming the deadline", err)
	}
	ok := kernel(t, d, `__global__ void one(int* p) { p[threadIdx.x] = 1; }`, "one")
	launch(t, ok, 1, 2, p)
	if got := download(t, p); got[0] != 1 || got[1] != 1 {
		t.Errorf("after the cancelled launches, a launch wrote %v, want [1 1]", got)
	}
}

// recorder is a gpu.Progress that keeps its updates.
type recorder struct {
	mu      sync.Mutex
	updates [][2]int
	details []string
	done    int
}

func (r *recorder) Update(done, total int, detail string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = append(r.updates, [2]int{done, total})
	r.details = append(r.details, detail)
}

func (r *recorder) Done() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done++
}

// TestProgress checks that a launch longer than two seconds reports the
// blocks it has finished, of the grid's total, never more, and ends the
// report; and that a short launch reports nothing.
func TestProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a launch of more than two seconds")
	}
	d := open(t, "sim:t4?timeout=0")
	k := kernel(t, d, spinSrc, "spin")
	p := zeros[int32](t, d, 2)
	var r recorder
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err := k.LaunchContext(ctx, gpu.LaunchConfig{Grid: gpu.D1(65536), Block: gpu.D1(1024), Progress: &r}, p)
	if !errors.Is(err, gpu.ErrTimeout) {
		t.Fatalf("launch: %v, want ErrTimeout at the 3s deadline", err)
	}
	if len(r.updates) == 0 || r.done != 1 {
		t.Fatalf("%d updates and %d Done calls, want some updates and one Done", len(r.updates), r.done)
	}
	for i, u := range r.updates {
		if u[1] != 65536 || u[0] < 0 || u[0] > u[1] || r.details[i] != "blocks" {
			t.Errorf("update %d: %d of %d %s, want at most 65536 of 65536 blocks", i, u[0], u[1], r.details[i])
		}
	}
	var short recorder
	ok := kernel(t, d, `__global__ void one(int* p) { p[threadIdx.x] = 1; }`, "one")
	if _, err := ok.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(2), Progress: &short}, p); err != nil {
		t.Fatal(err)
	}
	if len(short.updates) != 0 || short.done != 0 {
		t.Errorf("a short launch reported %d updates, %d Done calls; want none", len(short.updates), short.done)
	}
}
