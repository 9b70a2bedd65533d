//go:build linux && cgo

package cudarun

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"time"
)

// A fault such as an illegal address leaves CUDA unusable for the rest of
// the process: on the H200 with driver 580, after one, even
// cuDevicePrimaryCtxReset followed by cuDevicePrimaryCtxRetain, and
// cuCtxCreate, return CUDA_ERROR_ILLEGAL_ADDRESS. So after a fault cudarun
// moves the GPU work to a helper process: the program's own executable,
// started again with WARPLAB_CUDARUN_WORKER set, which serves driver calls
// over two pipes until its parent goes away. A fault in a helper ends that
// helper, and the next call starts a fresh one. NVRTC keeps running in the
// parent, which a fault does not affect.

// workerEnv tells a process started as a helper which GPU to serve.
const workerEnv = "WARPLAB_CUDARUN_WORKER"

func init() { serveIfWorker() }

// serveIfWorker turns this process into a helper when its parent started
// it as one (workerEnv set): it serves driver calls until the parent goes
// away and exits, before the program's main runs. It is the one place
// cudarun ends the process. It runs from init, not from a call in main,
// because the executable started again is whatever program imported
// cudarun: warplab, a test binary, a notebook's GoNB program; none of
// them would know to call it. Without workerEnv it does nothing.
func serveIfWorker() {
	if v := os.Getenv(workerEnv); v != "" {
		os.Exit(serveWorker(v))
	}
}

// wreq is one call to a helper.
type wreq struct {
	Op   string
	P    uint64
	N    int64
	Data []byte
	Name string
	L    launchReq
}

// wres is a helper's answer. Code and What describe a failed driver call
// (What alone, another failure).
type wres struct {
	Code int
	What string
	P    uint64
	Data []byte
	F    fnInfo
	L    launchRes
}

// serveWorker is a helper's main: it opens GPU arg (an ordinal) and
// serves calls on it.
func serveWorker(arg string) int {
	runtime.LockOSThread()
	return serveHelper(func() (driver, error) {
		ordinal, err := strconv.Atoi(arg)
		if err == nil {
			err = loadCUDA()
		}
		if err != nil {
			return nil, err
		}
		return newLocalDriver(ordinal)
	})
}

// serveHelper serves calls from descriptor 3 on the driver open returns,
// answering on descriptor 4, until descriptor 3 closes.
func serveHelper(open func() (driver, error)) int {
	in, out := os.NewFile(3, "requests"), os.NewFile(4, "responses")
	if in == nil || out == nil {
		fmt.Fprintln(os.Stderr, "cudarun: helper started without its pipes")
		return 2
	}
	bw := bufio.NewWriter(out)
	dec, enc := gob.NewDecoder(bufio.NewReader(in)), gob.NewEncoder(bw)
	reply := func(r *wres) bool { return enc.Encode(r) == nil && bw.Flush() == nil }

	var hello wres
	drv, err := open()
	if err != nil {
		hello.Code, hello.What = failure(err)
		reply(&hello)
		return 1
	}
	if !reply(&hello) {
		return 1
	}
	for {
		var q wreq
		if err := dec.Decode(&q); err != nil {
			return 0 // the parent has gone
		}
		var r wres
		var err error
		switch q.Op {
		case "alloc":
			r.P, err = drv.alloc(q.N)
		case "free":
			err = drv.free(q.P)
		case "write":
			err = drv.write(q.P, q.Data)
		case "read":
			r.Data = make([]byte, q.N)
			err = drv.read(r.Data, q.P)
		case "load":
			r.P, err = drv.loadModule(q.Data)
		case "unload":
			err = drv.unloadModule(q.P)
		case "func":
			r.F, err = drv.function(q.P, q.Name)
		case "shared":
			err = drv.setDynamicShared(q.P, int(q.N))
		case "gate":
			err = drv.setGate(q.Data)
		case "launch":
			r.L, err = drv.launch(q.L)
		default:
			err = fmt.Errorf("unknown call %q", q.Op)
		}
		if err != nil {
			r.Code, r.What = failure(err)
		}
		if !reply(&r) {
			return 1
		}
	}
}

// failure splits an error for the wire.
func failure(err error) (int, string) {
	var ce *cuError
	if errors.As(err, &ce) {
		return ce.code, ce.op
	}
	return 0, err.Error()
}

// errHelperDied marks a helper that stopped answering.
var errHelperDied = errors.New("the GPU helper process stopped")

// errPastLimit is a call that did not answer within its time limit; the
// helper has been killed.
var errPastLimit = errors.New("the GPU helper process was killed at the launch's time limit")

// errStopped is a call whose caller's context was cancelled before it
// answered; the helper process has been killed, as at the time limit.
var errStopped = errors.New("the GPU helper process was killed when the launch was cancelled")

// workerDriver is a driver whose calls run in a helper process.
type workerDriver struct {
	cmd  *exec.Cmd
	req  *os.File
	res  *os.File
	bw   *bufio.Writer
	enc  *gob.Encoder
	dec  *gob.Decoder
	dead error
	// closed: close has run (the process is killed and being reaped).
	closed bool
}

// startWorker starts a helper for GPU ordinal and waits for it to be ready.
func startWorker(ordinal int) (*workerDriver, error) {
	return startHelper(workerEnv + "=" + strconv.Itoa(ordinal))
}

// startHelper starts the program's own executable with env (NAME=VALUE)
// added, which its init turns into a helper, and waits for it to be ready.
func startHelper(env string) (*workerDriver, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot start a GPU helper process: %w", err)
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	resR, resW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), env)
	cmd.ExtraFiles = []*os.File{reqR, resW} // descriptors 3 and 4
	cmd.Stderr = os.Stderr
	err = cmd.Start()
	reqR.Close()
	resW.Close()
	if err != nil {
		reqW.Close()
		resR.Close()
		return nil, fmt.Errorf("cannot start a GPU helper process (%s): %w", exe, err)
	}
	w := &workerDriver{cmd: cmd, req: reqW, res: resR, bw: bufio.NewWriter(reqW), dec: gob.NewDecoder(bufio.NewReader(resR))}
	w.enc = gob.NewEncoder(w.bw)
	var hello wres
	if err := w.dec.Decode(&hello); err != nil {
		w.close()
		return nil, fmt.Errorf("the GPU helper process (%s) did not start: %w", exe, err)
	}
	if err := answerErr(&hello); err != nil {
		w.close()
		return nil, fmt.Errorf("the GPU helper process could not open the GPU: %w", err)
	}
	return w, nil
}

func answerErr(r *wres) error {
	switch {
	case r.Code != 0:
		return &cuError{op: r.What, code: r.Code}
	case r.What != "":
		return errors.New(r.What)
	}
	return nil
}

// call sends q and waits for the answer.
func (w *workerDriver) call(q *wreq) (*wres, error) { return w.callWithin(q, 0, nil) }

// callWithin sends q and waits for the answer, at most limit when limit
// is positive and until stop is closed. Past the limit it kills the
// helper, whose CUDA context and everything in it go with it (the driver
// ends the kernel of a process that has gone), and returns errPastLimit;
// when stop closes first, it does the same and returns errStopped.
func (w *workerDriver) callWithin(q *wreq, limit time.Duration, stop <-chan struct{}) (*wres, error) {
	if w.dead != nil {
		return nil, w.dead
	}
	var r wres
	err := w.enc.Encode(q)
	if err == nil {
		err = w.bw.Flush()
	}
	if err == nil {
		err = w.await(&r, limit, stop)
	}
	if errors.Is(err, errPastLimit) || errors.Is(err, errStopped) {
		w.dead = err
		w.close()
		return nil, err
	}
	if err != nil {
		w.dead = fmt.Errorf("%w: %w", errHelperDied, err)
		return nil, w.dead
	}
	return &r, answerErr(&r)
}

// await decodes the helper's answer into r, giving up after limit when
// it is positive, or when stop closes.
func (w *workerDriver) await(r *wres, limit time.Duration, stop <-chan struct{}) error {
	if limit <= 0 && stop == nil {
		return w.dec.Decode(r)
	}
	done := make(chan error, 1)
	go func() { done <- w.dec.Decode(r) }()
	var expired <-chan time.Time
	if limit > 0 {
		timer := time.NewTimer(limit)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case err := <-done:
		return err
	case <-expired:
		// Kill first: the decoder then sees the pipe close and ends.
		w.cmd.Process.Kill()
		return errPastLimit
	case <-stop:
		w.cmd.Process.Kill()
		return errStopped
	}
}

func (w *workerDriver) alloc(n int64) (uint64, error) {
	r, err := w.call(&wreq{Op: "alloc", N: n})
	if err != nil {
		return 0, err
	}
	return r.P, nil
}

func (w *workerDriver) free(p uint64) error {
	_, err := w.call(&wreq{Op: "free", P: p})
	return err
}

func (w *workerDriver) write(p uint64, b []byte) error {
	_, err := w.call(&wreq{Op: "write", P: p, Data: b})
	return err
}

func (w *workerDriver) read(b []byte, p uint64) error {
	r, err := w.call(&wreq{Op: "read", P: p, N: int64(len(b))})
	if err != nil {
		return err
	}
	copy(b, r.Data)
	return nil
}

func (w *workerDriver) loadModule(image []byte) (uint64, error) {
	r, err := w.call(&wreq{Op: "load", Data: image})
	if err != nil {
		return 0, err
	}
	return r.P, nil
}

func (w *workerDriver) unloadModule(m uint64) error {
	_, err := w.call(&wreq{Op: "unload", P: m})
	return err
}

func (w *workerDriver) function(m uint64, name string) (fnInfo, error) {
	r, err := w.call(&wreq{Op: "func", P: m, Name: name})
	if err != nil {
		return fnInfo{}, err
	}
	return r.F, nil
}

func (w *workerDriver) setDynamicShared(f uint64, n int) error {
	_, err := w.call(&wreq{Op: "shared", P: f, N: int64(n)})
	return err
}

func (w *workerDriver) setGate(image []byte) error {
	_, err := w.call(&wreq{Op: "gate", Data: image})
	return err
}

// launch runs q in the helper, killing it if q.limit passes or q.stop
// closes first.
func (w *workerDriver) launch(q launchReq) (launchRes, error) {
	r, err := w.callWithin(&wreq{Op: "launch", L: q}, q.limit, q.stop)
	if r == nil {
		return launchRes{}, err
	}
	return r.L, err
}

// close ends the helper; its GPU memory goes with it. It does not wait
// for the process to go: the driver may take a moment to tear down a
// context whose kernel was still running, and the caller need not.
func (w *workerDriver) close() {
	if w.dead == nil {
		w.dead = errHelperDied
	}
	if w.closed {
		return
	}
	w.closed = true
	w.req.Close()
	w.res.Close()
	w.cmd.Process.Kill()
	go w.cmd.Wait()
}
