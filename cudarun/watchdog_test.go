//go:build linux && cgo

package cudarun

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/warplab/warplab/cudac"
	gpudriver "github.com/warplab/warplab/gpu/driver"
)

// fakeHelperEnv makes the test binary, started as a helper, serve a
// fakeDriver instead of a GPU: the watchdog's process handling is tested
// without one.
const fakeHelperEnv = "WARPLAB_CUDARUN_FAKE_HELPER"

func init() {
	if os.Getenv(fakeHelperEnv) != "" {
		os.Exit(serveHelper(func() (driver, error) { return newFakeDriver(), nil }))
	}
}

// fakeDriver keeps memory in a map. Its kernels are "spin", whose launch
// never returns, and "store", which writes its second argument (8 bytes)
// at the address of its first.
type fakeDriver struct {
	mu   sync.Mutex
	mem  map[uint64][]byte
	next uint64
	gate bool // setGate has run with fakeGateImage
}

// fakeGateImage is the gate kernel's image a fake GPU state hands out.
const fakeGateImage = "fake gate"

const (
	fakeSpin  = 1
	fakeStore = 2
)

func newFakeDriver() *fakeDriver { return &fakeDriver{mem: map[uint64][]byte{}, next: 1 << 20} }

func (f *fakeDriver) alloc(n int64) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.next
	f.next += uint64(n) + 256
	f.mem[p] = make([]byte, n)
	return p, nil
}

func (f *fakeDriver) free(p uint64) error {
	delete(f.mem, p)
	return nil
}

// span returns the bytes at p..p+n within one allocation.
func (f *fakeDriver) span(p uint64, n int) ([]byte, error) {
	for base, b := range f.mem {
		if p >= base && p+uint64(n) <= base+uint64(len(b)) {
			return b[p-base : p-base+uint64(n)], nil
		}
	}
	return nil, &cuError{op: "cuMemcpy", code: cudaErrorInvalidValue}
}

func (f *fakeDriver) write(p uint64, b []byte) error {
	dst, err := f.span(p, len(b))
	if err == nil {
		copy(dst, b)
	}
	return err
}

func (f *fakeDriver) read(b []byte, p uint64) error {
	src, err := f.span(p, len(b))
	if err == nil {
		copy(b, src)
	}
	return err
}

func (f *fakeDriver) loadModule([]byte) (uint64, error) { return 7, nil }
func (f *fakeDriver) unloadModule(uint64) error         { return nil }

func (f *fakeDriver) function(m uint64, name string) (fnInfo, error) {
	switch name {
	case "spin":
		return fnInfo{H: fakeSpin, MaxThreads: 1024}, nil
	case "store":
		return fnInfo{H: fakeStore, MaxThreads: 1024}, nil
	}
	return fnInfo{}, fmt.Errorf("no kernel %s", name)
}

func (f *fakeDriver) setDynamicShared(uint64, int) error { return nil }

func (f *fakeDriver) setGate(image []byte) error {
	if string(image) != fakeGateImage {
		return fmt.Errorf("gate image %q, want %q", image, fakeGateImage)
	}
	f.gate = true
	return nil
}

func (f *fakeDriver) launch(q launchReq) (launchRes, error) {
	if q.Fn == fakeSpin {
		select {} // an endless loop, as far as the parent can tell
	}
	dst, err := f.span(q.Args[0], 8)
	if err != nil {
		return launchRes{Stage: 3}, &cuError{op: "cuEventSynchronize", code: cudaErrorIllegalAddress}
	}
	binary.LittleEndian.PutUint64(dst, q.Args[1])
	res := launchRes{Ms: 0.005}
	if q.Gated {
		if !f.gate {
			return launchRes{}, fmt.Errorf("a gated launch before setGate")
		}
		res.Gate = gateHeld
	}
	return res, nil
}

func (f *fakeDriver) close() {}

// fakeGPU returns a GPU state whose helper processes serve a fakeDriver,
// and a device on it with the given time limit; pids receives each
// helper's process id.
func fakeGPU(t *testing.T, limit time.Duration) (*device, *[]int) {
	t.Helper()
	var pids []int
	s := &gpuState{arch: "sm_90", info: gpudriver.Info{Backend: "cuda", Name: "fake GPU", MaxThreadsPerBlock: 1024, MaxSharedPerBlock: 48 << 10}}
	s.gateImage = func() ([]byte, error) { return []byte(fakeGateImage), nil }
	s.helper = func() (driver, error) {
		w, err := startHelper(fakeHelperEnv + "=1")
		if err == nil {
			pids = append(pids, w.cmd.Process.Pid)
		}
		return w, err
	}
	drv, err := s.helper()
	if err != nil {
		t.Fatal(err)
	}
	s.drv = drv
	t.Cleanup(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.retire("the end of the test")
	})
	return &device{st: s, cfg: gpudriver.Config{Spec: "cuda:0", Timeout: limit}, mems: map[*memory]bool{}}, &pids
}

// fakeModule is a module of kernels spin and store on d, as if NVRTC had
// compiled it.
func fakeModule(t *testing.T, d *device) (*module, *cudac.Func, *cudac.Func) {
	t.Helper()
	prog, err := cudac.Compile("fake.cu", []byte(`
__global__ void spin(int *flag) { while (*(volatile int *)flag == 0) {} }
__global__ void store(unsigned long long *p, unsigned long long v) { *p = v; }
`))
	if err != nil {
		t.Fatal(err)
	}
	m := &module{dev: d, prog: prog, names: []string{"spin", "store"}, funcs: map[string]*function{},
		img: &Image{Arch: "sm_90", Data: []byte{0}, Lowered: map[string]string{"spin": "spin", "store": "store"}}}
	if err := d.st.do(m.load); err != nil {
		t.Fatal(err)
	}
	spin, _ := prog.Kernel("spin")
	store, _ := prog.Kernel("store")
	return m, spin, store
}

var oneThread = gpudriver.LaunchConfig{Grid: gpudriver.Dim3{X: 1, Y: 1, Z: 1}, Block: gpudriver.Dim3{X: 1, Y: 1, Z: 1}}

// storeAndRead launches store of v into a fresh buffer and reads it back.
func storeAndRead(t *testing.T, d *device, m *module, store *cudac.Func, v uint64) uint64 {
	t.Helper()
	mem, err := d.Alloc(8)
	if err != nil {
		t.Fatalf("alloc: %v", err)
	}
	defer mem.Free()
	args := []gpudriver.ArgValue{{Param: store.Params[0], Mem: mem}, {Param: store.Params[1], Bits: v}}
	if _, err := m.Launch(store, oneThread, args); err != nil {
		t.Fatalf("launch store: %v", err)
	}
	var b [8]byte
	if _, err := mem.ReadAt(b[:], 0); err != nil {
		t.Fatalf("read: %v", err)
	}
	return binary.LittleEndian.Uint64(b[:])
}

// TestWatchdogKillsHelper runs the watchdog against a fake helper: a
// launch that never returns fails with ErrTimeout at the limit, the
// helper process is killed, buffers from before are reported lost, and
// the next launch runs in a fresh helper.
func TestWatchdogKillsHelper(t *testing.T) {
	const limit = 300 * time.Millisecond
	d, pids := fakeGPU(t, limit)
	m, spin, store := fakeModule(t, d)
	if got := storeAndRead(t, d, m, store, 41); got != 41 {
		t.Fatalf("store before the limit: read %d, want 41", got)
	}
	flag, err := d.Alloc(4)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = m.Launch(spin, oneThread, []gpudriver.ArgValue{{Param: spin.Params[0], Mem: flag}})
	took := time.Since(start)
	if !errors.Is(err, gpudriver.ErrTimeout) {
		t.Fatalf("endless launch: error %v, want ErrTimeout", err)
	}
	var le *gpudriver.LaunchError
	if !errors.As(err, &le) || le.Kernel != "spin" {
		t.Fatalf("endless launch: error %#v, want a *LaunchError for kernel spin", err)
	}
	for _, want := range []string{"time limit exceeded in kernel spin", "300ms", "cuda:0?timeout=", "killed", "next call"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if took < limit || took > limit+2*time.Second {
		t.Errorf("the launch failed after %v; want the limit, %v, to %v", took, limit, limit+2*time.Second)
	}
	first := (*pids)[0]
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(first, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("helper process %d still exists 5s after the limit", first)
		}
		time.Sleep(20 * time.Millisecond)
	}
	var b [4]byte
	if _, err := flag.ReadAt(b[:], 0); err == nil || !strings.Contains(err.Error(), "lost when the context was reset after kernel spin ran past its 300ms time limit") {
		t.Errorf("reading a buffer from before the limit: %v, want an error naming what lost it", err)
	}
	if err := flag.Free(); err != nil {
		t.Errorf("freeing a lost buffer: %v", err)
	}
	if got := storeAndRead(t, d, m, store, 42); got != 42 {
		t.Errorf("store after the limit: read %d, want 42", got)
	}
	if len(*pids) != 2 || (*pids)[1] == first {
		t.Errorf("helper processes %v: want a second one after the limit", *pids)
	}
}

// TestNoLimitWaits checks that a launch within its limit, and one with no
// limit, answer as usual and keep the helper.
func TestNoLimitWaits(t *testing.T) {
	for _, limit := range []time.Duration{0, 5 * time.Second} {
		d, pids := fakeGPU(t, limit)
		m, _, store := fakeModule(t, d)
		for v := uint64(1); v <= 3; v++ {
			if got := storeAndRead(t, d, m, store, v); got != v {
				t.Errorf("limit %v: read %d, want %d", limit, got, v)
			}
		}
		if len(*pids) != 1 {
			t.Errorf("limit %v: %d helper processes, want 1", limit, len(*pids))
		}
	}
}

// TestLaunchContextStopsHelper checks LaunchContext against a fake
// helper: a deadline earlier than the device's limit stops an endless
// launch at the deadline (ErrTimeout, naming the caller's deadline), a
// cancelled context stops it at once (context.Canceled), and each time
// the next launch runs in a fresh helper.
func TestLaunchContextStopsHelper(t *testing.T) {
	d, pids := fakeGPU(t, time.Minute)
	m, spin, store := fakeModule(t, d)
	endless := func(ctx context.Context) (time.Duration, error) {
		flag, err := d.Alloc(4)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = m.LaunchContext(ctx, spin, oneThread, []gpudriver.ArgValue{{Param: spin.Params[0], Mem: flag}})
		return time.Since(start), err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	took, err := endless(ctx)
	if !errors.Is(err, gpudriver.ErrTimeout) || !strings.Contains(err.Error(), "the caller's deadline passed") {
		t.Errorf("past the context's deadline: %v, want ErrTimeout naming the caller's deadline", err)
	}
	if took > 3*time.Second {
		t.Errorf("a 300ms deadline stopped the launch after %v", took)
	}
	if got := storeAndRead(t, d, m, store, 7); got != 7 {
		t.Errorf("store after the deadline: read %d, want 7", got)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel2)
	took, err = endless(ctx2)
	if !errors.Is(err, context.Canceled) || took > 3*time.Second {
		t.Errorf("cancelled after 200ms: %v after %v, want context.Canceled promptly", err, took)
	}
	if _, err := endless(ctx2); !errors.Is(err, context.Canceled) {
		t.Errorf("a launch on a cancelled context: %v, want context.Canceled", err)
	}
	if got := storeAndRead(t, d, m, store, 8); got != 8 {
		t.Errorf("store after the cancellation: read %d, want 8", got)
	}
	if len(*pids) != 3 {
		t.Errorf("helper processes %v: want three, one more after each stop", *pids)
	}
}
