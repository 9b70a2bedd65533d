package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// Why a launch was halted from outside (exec.halt).
const (
	haltNone     = iota
	haltTimeout  // Config.Timeout passed
	haltDeadline // Config.Ctx's deadline passed
	haltCancel   // Config.Ctx was cancelled
)

// progressEvery is how often a long launch's progress is reported.
const progressEvery = 250 * time.Millisecond

// watch starts the goroutine that halts the launch at its time limit or
// when its context is done, and reports its progress once it has run for
// driver.ProgressAfter. The instructions never wait for it: the engine
// reads exec.halt every spendStep warp instructions and at every event of
// the scheduler, so a halt takes effect within microseconds. The returned
// function stops the goroutine.
func (x *exec) watch() (stop func()) {
	cfg := x.cfg
	var ctxDone <-chan struct{}
	if cfg.Ctx != nil {
		ctxDone = cfg.Ctx.Done()
	}
	if cfg.Timeout <= 0 && ctxDone == nil && cfg.Progress == nil {
		return func() {}
	}
	quit := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		start := time.Now()
		var limit <-chan time.Time
		if cfg.Timeout > 0 {
			t := time.NewTimer(cfg.Timeout)
			defer t.Stop()
			limit = t.C
		}
		var tick <-chan time.Time
		if cfg.Progress != nil {
			t := time.NewTicker(progressEvery)
			defer t.Stop()
			tick = t.C
		}
		for {
			select {
			case <-quit:
				return
			case <-limit:
				x.halt.Store(haltTimeout)
				return
			case <-ctxDone:
				if dl, ok := cfg.Ctx.Deadline(); ok && !time.Now().Before(dl) || errors.Is(cfg.Ctx.Err(), context.DeadlineExceeded) {
					x.halt.Store(haltDeadline)
				} else {
					x.halt.Store(haltCancel)
				}
				return
			case now := <-tick:
				if now.Sub(start) >= driver.ProgressAfter {
					cfg.Progress(x.doneBlocks.Load(), x.blocks)
				}
			}
		}
	}()
	// The goroutine has stopped when stop returns: no progress report
	// arrives after the launch has returned.
	return func() { close(quit); <-exited }
}

// halted fails the launch that was halted from outside; w is the warp
// that noticed, or nil when the scheduler did, which then names the warp
// it would have run next.
func (x *exec) halted(w *warp) {
	if w == nil {
		x.haltedAt(x.nextWarp())
		return
	}
	x.haltedAt(w)
}

// nextWarp returns the warp the scheduler would run next, or nil.
func (x *exec) nextWarp() *warp {
	for _, b := range x.ready {
		if w := b.pick(); w != nil {
			return w
		}
	}
	for _, e := range x.heap {
		if e.b != nil {
			if w := e.b.pick(); w != nil {
				return w
			}
		}
	}
	return nil
}

func (x *exec) haltedAt(w *warp) {
	if x.main.err != nil && (w == nil || w.blk.ctx.err != nil) {
		return
	}
	e := &driver.LaunchError{Kernel: x.k.Name}
	done := x.doneBlocks.Load()
	switch x.halt.Load() {
	case haltTimeout:
		e.Kind = driver.ErrTimeout
		e.Msg = fmt.Sprintf("the launch ran past the device's time limit of %v with %d of its %d blocks finished (an endless loop, or a grid too large for the simulator?); raise the limit with warplab run --timeout or the device option timeout= (0 for none)",
			x.cfg.Timeout, done, x.blocks)
	case haltDeadline:
		e.Kind = driver.ErrTimeout
		e.Msg = fmt.Sprintf("the caller's deadline passed with %d of the launch's %d blocks finished", done, x.blocks)
		if cause := context.Cause(x.cfg.Ctx); cause != nil && cause != context.DeadlineExceeded {
			e.Msg = fmt.Sprintf("%v, with %d of the launch's %d blocks finished", cause, done, x.blocks)
		}
	default:
		e.Kind = context.Canceled
		e.Msg = fmt.Sprintf("cancelled with %d of the launch's %d blocks finished", done, x.blocks)
	}
	if w != nil {
		e.Pos = w.pos()
		e.Msg += fmt.Sprintf("; warp %d of block (%d,%d,%d) was here", w.idx, w.blk.id.X, w.blk.id.Y, w.blk.id.Z)
	}
	if w != nil && w.blk.ctx != x.main {
		w.blk.ctx.err = e
		return
	}
	x.main.err = e
}

// DefaultWarpBudget returns the warp instructions one warp of a launch
// may execute when the launch sets no budget: enough for a warp to visit
// every element of the device memory in use, its share of it in a
// grid-stride loop, 16 times over with the whole kernel's code per
// element, and never less than 2^24 (about a second of simulation), so
// that one warp spinning in an endless loop is caught after its own
// instructions, whatever the grid's size.
func DefaultWarpBudget(k *ir.Kernel, threads, memBytes int64) int64 {
	perThread := memBytes/max(threads, 1) + 1
	b := int64(16) * int64(len(k.Code)) * perThread
	if perThread > 1<<40 || b < 0 {
		return 1 << 62
	}
	return max(1<<24, b)
}

// overWarpBudget fails the launch for one warp that ran past its own
// budget, naming the loop it was in.
func (x *exec) overWarpBudget(w *warp) {
	if w.blk.ctx.err != nil {
		return
	}
	pc := int(w.pc) - 1
	e := &driver.LaunchError{Kind: driver.ErrBudget, Kernel: x.k.Name, Pos: w.pos()}
	where := fmt.Sprintf("it was at %s", e.Pos)
	if loop := x.loopAround(pc); loop >= 0 {
		e.Pos = x.k.PosOf(loop)
		where = fmt.Sprintf("it was in the loop at %s (at %s)", e.Pos, x.k.PosOf(pc))
	}
	e.Msg = fmt.Sprintf("warp %d of block (%d,%d,%d) executed more than %d warp instructions, one warp's budget (an endless loop?); %s; raise the limit with --max-instructions or LaunchConfig.MaxInstructions",
		w.idx, w.blk.id.X, w.blk.id.Y, w.blk.id.Z, x.perWarp, where)
	w.blk.ctx.err = e
}

// loopAround returns the innermost Loop instruction whose body holds pc,
// or -1.
func (x *exec) loopAround(pc int) int {
	code := x.k.Code
	for i := min(pc, len(code)-1); i >= 0; i-- {
		if code[i].Op != ir.Loop {
			continue
		}
		depth := 0
		for j := i; j < len(code); j++ {
			switch code[j].Op {
			case ir.Loop:
				depth++
			case ir.EndLoop:
				depth--
			}
			if depth == 0 {
				if j >= pc {
					return i
				}
				break
			}
		}
	}
	return -1
}
