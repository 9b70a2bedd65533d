//go:build linux && cgo

package cudarun

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"time"
	"unsafe"
)

// driver does the work that needs a CUDA context on one GPU: in this
// process (localDriver), or in a helper process (workerDriver) once a
// fault has left this process's CUDA unusable. Handles (device pointers,
// modules, functions) are plain integers, meaningful only to the driver
// that made them.
type driver interface {
	alloc(n int64) (uint64, error) // zeroed
	free(p uint64) error
	write(p uint64, b []byte) error
	read(b []byte, p uint64) error
	loadModule(image []byte) (uint64, error)
	unloadModule(m uint64) error
	function(m uint64, name string) (fnInfo, error)
	setDynamicShared(f uint64, n int) error
	// setGate loads image, the gate kernel (gateSource), as the timing
	// gate of the driver's context; a second call does nothing.
	setGate(image []byte) error
	launch(q launchReq) (launchRes, error)
	close()
}

// fnInfo is a kernel's handle and the attributes cudarun checks a launch
// against.
type fnInfo struct {
	H          uint64
	Static     int // static shared memory, bytes
	MaxThreads int // the most threads per block the compiled kernel allows
}

// launchReq is one timed launch.
type launchReq struct {
	Fn           uint64
	Grid, Block  [3]uint32
	Shared       uint32
	Args         []uint64 // one 8-byte slot per parameter
	CapturePrint bool     // the kernel may call printf: capture descriptor 1
	Cooperative  bool     // launch with cuLaunchCooperativeKernel
	// Gated queues the launch behind the timing gate (timing=gated; the
	// driver's setGate must have run), except as launchRes.Gate says.
	Gated bool
	// limit is the wall-clock limit of the launch, 0 for none; only a
	// helper's driver (workerDriver) can enforce one, by killing the
	// helper. It stays in the parent: gob sends exported fields only.
	limit time.Duration
	// stop, when it closes, ends the launch the same way (a cancelled
	// context); nil for never.
	stop <-chan struct{}
}

// launchRes is what a launch gave. Stage says how far it got, for an
// error: 0-2 the steps of launchTimed, 3 synchronising, 4 reading the time.
type launchRes struct {
	Ms     float32
	Printf []byte
	Stage  int
	Gate   gateUse
}

// gateUse says how a launch that asked for the timing gate used it.
type gateUse int

const (
	gateUnasked gateUse = iota // the launch did not ask for it
	gateHeld                   // queued behind the gate: the GPU's time alone
	// gateFirst: the kernel's first launch in this context, never gated:
	// the driver may load the kernel then (lazy loading), which waits for
	// the work already queued, the gate included, and would stall until
	// the gate gave up.
	gateFirst
	// gateExpired: the gate gave up waiting (gateLimit) before the host
	// had queued the launch, so its time includes some of the host's
	// submission; the kernel is not gated again in this context.
	gateExpired
	gateOff // an earlier launch of the kernel let its gate expire
)

// gateFor decides whether a launch goes behind the gate: asked, the
// launch asked for it (timing=gated); ready, the gate is set up; launched,
// the kernel has been launched before in this context; expired, an
// earlier gate of the kernel's expired.
func gateFor(asked, ready, launched, expired bool) (gateUse, error) {
	switch {
	case !asked:
		return gateUnasked, nil
	case !ready:
		return gateUnasked, fmt.Errorf("the timing gate is not set up")
	case expired:
		return gateOff, nil
	case !launched:
		return gateFirst, nil
	}
	return gateHeld, nil
}

// gateLimit is how long the gate kernel waits for the host to release it.
// Queuing a launch takes microseconds; a wait this long means the driver
// itself waited for the gate (a synchronising launch), and the launch
// goes on at once instead of stalling.
const gateLimit = 200 * time.Millisecond

// localDriver runs the driver API in this process on one context.
type localDriver struct {
	ctx         cuCtx
	start, stop unsafe.Pointer // the timing events
	gate        *gate          // nil until setGate
	// launched holds the kernels launched at least once (the gate is
	// not used at a first launch); nogate those whose gate expired.
	launched, nogate map[uint64]bool
}

// newLocalDriver retains GPU ordinal's primary context and creates the
// timing events. The CUDA driver must be loaded.
func newLocalDriver(ordinal int) (*localDriver, error) {
	d, err := cuDevice(ordinal)
	if err != nil {
		return nil, err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ctx, err := primaryCtxRetain(d)
	if err != nil {
		return nil, err
	}
	l := &localDriver{ctx: ctx, launched: map[uint64]bool{}, nogate: map[uint64]bool{}}
	if err := ctxSetCurrent(ctx); err != nil {
		return nil, err
	}
	if l.start, err = eventCreate(); err != nil {
		return nil, err
	}
	if l.stop, err = eventCreate(); err != nil {
		return nil, err
	}
	return l, nil
}

// call runs f on a locked OS thread with the context current.
func (l *localDriver) call(f func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := ctxSetCurrent(l.ctx); err != nil {
		return err
	}
	return f()
}

func (l *localDriver) alloc(n int64) (uint64, error) {
	var p uint64
	err := l.call(func() error {
		var err error
		if p, err = memAlloc(n); err != nil {
			return err
		}
		if err = memZero(p, n); err != nil {
			memFree(p)
			p = 0
		}
		return err
	})
	return p, err
}

func (l *localDriver) free(p uint64) error {
	return l.call(func() error { return memFree(p) })
}

func (l *localDriver) write(p uint64, b []byte) error {
	return l.call(func() error { return memcpyHtoD(p, b) })
}

func (l *localDriver) read(b []byte, p uint64) error {
	return l.call(func() error { return memcpyDtoH(b, p) })
}

func (l *localDriver) loadModule(image []byte) (uint64, error) {
	var m uint64
	err := l.call(func() error {
		var err error
		m, err = moduleLoad(image)
		return err
	})
	return m, err
}

func (l *localDriver) unloadModule(m uint64) error {
	return l.call(func() error { return moduleUnload(m) })
}

func (l *localDriver) function(m uint64, name string) (fnInfo, error) {
	var fi fnInfo
	err := l.call(func() error {
		h, err := moduleFunction(m, name)
		if err != nil {
			return err
		}
		fi.H = h
		fi.Static, _ = funcAttr(h, funcAttrSharedSize)
		fi.MaxThreads, _ = funcAttr(h, funcAttrMaxThreadsPerBlock)
		return nil
	})
	return fi, err
}

func (l *localDriver) setDynamicShared(f uint64, n int) error {
	return l.call(func() error { return funcSetAttr(f, funcAttrMaxDynamicShared, n) })
}

func (l *localDriver) setGate(image []byte) error {
	if l.gate != nil {
		return nil
	}
	return l.call(func() error {
		m, err := moduleLoad(image)
		if err != nil {
			return err
		}
		f, err := moduleFunction(m, gateKernel)
		if err == nil {
			// Asking an attribute loads the kernel now, not at its
			// first launch.
			_, err = funcAttr(f, funcAttrNumRegs)
		}
		var g *gate
		if err == nil {
			g, err = newGate(f, gateLimit)
		}
		if err != nil {
			moduleUnload(m)
			return err
		}
		l.gate = g
		return nil
	})
}

// launch records the start event, launches, records the stop event, and
// waits for the stop event; behind the timing gate when q.Gated, except
// at the kernel's first launch and after its gate has once expired. With CapturePrint, descriptor 1 points at a
// temporary file while the launch is synchronised, which is when the
// driver writes device printf output.
func (l *localDriver) launch(q launchReq) (launchRes, error) {
	var res launchRes
	err := l.call(func() error {
		var capture *os.File
		if q.CapturePrint {
			f, err := os.CreateTemp("", "warplab-printf-*")
			if err != nil {
				return fmt.Errorf("capture printf: %w", err)
			}
			os.Remove(f.Name())
			defer f.Close()
			capture = f
		}
		var g *gate
		var err error
		res.Gate, err = gateFor(q.Gated, l.gate != nil, l.launched[q.Fn], l.nogate[q.Fn])
		if err != nil {
			return err
		}
		if res.Gate == gateHeld {
			g = l.gate
		}
		stage, err := launchTimed(q.Fn, q.Grid, q.Block, q.Shared, q.Args, q.Cooperative, l.start, l.stop, g)
		l.launched[q.Fn] = true
		if err != nil {
			res.Stage = stage
			return err
		}
		res.Stage = 3
		if capture != nil {
			restore, rerr := redirectStdout(capture)
			if rerr != nil {
				return rerr
			}
			err = eventSynchronize(l.stop)
			if err == nil {
				err = ctxSynchronize() // flushes the printf buffer
			}
			if rerr := restore(); rerr != nil && err == nil {
				err = rerr
			}
			if _, serr := capture.Seek(0, io.SeekStart); serr == nil {
				res.Printf, _ = io.ReadAll(capture)
			}
		} else {
			err = eventSynchronize(l.stop)
		}
		if err != nil {
			return err
		}
		if g != nil && g.expired() {
			res.Gate = gateExpired
			l.nogate[q.Fn] = true
		}
		res.Stage = 4
		res.Ms, err = eventElapsed(l.start, l.stop)
		return err
	})
	return res, err
}

// close leaves the context as it is: after a fault it cannot be used, and
// otherwise the process keeps it for the next Open.
func (l *localDriver) close() {}
