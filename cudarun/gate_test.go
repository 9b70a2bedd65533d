//go:build linux && cgo

package cudarun

import (
	"strings"
	"testing"
	"time"

	gpudriver "github.com/warplab/warplab/gpu/driver"
)

// TestGateFor checks which launches go behind the timing gate: those that
// ask for it, once the gate is set up, except a kernel's first launch (the
// driver may load the kernel then and wait for the gate) and every launch
// of a kernel whose gate once expired.
func TestGateFor(t *testing.T) {
	for _, tc := range []struct {
		asked, ready, launched, expired bool
		want                            gateUse
		err                             string
	}{
		{false, false, false, false, gateUnasked, ""},
		{false, true, true, false, gateUnasked, ""},
		{true, false, true, false, gateUnasked, "not set up"},
		{true, true, false, false, gateFirst, ""},
		{true, true, true, false, gateHeld, ""},
		{true, true, true, true, gateOff, ""},
		{true, true, false, true, gateOff, ""},
	} {
		got, err := gateFor(tc.asked, tc.ready, tc.launched, tc.expired)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("gateFor(asked %v, ready %v, launched %v, expired %v) = %v, %v; want %v, error %q",
				tc.asked, tc.ready, tc.launched, tc.expired, got, err, tc.want, tc.err)
		}
	}
}

// TestGateNote checks what a timing's source says of each use of the gate:
// nothing where the time is what was asked for, a reason where a gated
// device's launch was not gated.
func TestGateNote(t *testing.T) {
	for g, want := range map[gateUse]string{
		gateUnasked: "",
		gateHeld:    "",
		gateFirst:   "first launch",
		gateExpired: "includes the host's submission",
		gateOff:     "gate expired",
	} {
		if got := g.note(); (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("gateUse(%d).note() = %q, want it to say %q", g, got, want)
		}
	}
}

// TestGatedLaunch runs gated launches against a fake helper: the gate is
// set up in the helper before the first gated launch, the launch carries
// the request over the pipe, and a fresh helper after a fault gets the
// gate again; an ungated device on the same GPU does not ask for it.
func TestGatedLaunch(t *testing.T) {
	d, pids := fakeGPU(t, 5*time.Second)
	d.cfg.GatedTiming = true
	m, _, store := fakeModule(t, d)
	launch := func(d *device, v uint64) *gpudriver.Result {
		t.Helper()
		mem, err := d.Alloc(8)
		if err != nil {
			t.Fatal(err)
		}
		defer mem.Free()
		mod := m
		if mod.dev != d {
			mod = &module{dev: d, prog: m.prog, names: m.names, funcs: map[string]*function{}, img: m.img}
		}
		res, err := mod.Launch(store, oneThread, []gpudriver.ArgValue{{Param: store.Params[0], Mem: mem}, {Param: store.Params[1], Bits: v}})
		if err != nil {
			t.Fatalf("launch: %v", err)
		}
		return res
	}
	if res := launch(d, 1); res.Timing.Source != "measured, fake GPU" || d.st.gated != d.st.drv {
		t.Errorf("gated launch: source %q, gate set up on the helper's driver %v", res.Timing.Source, d.st.gated == d.st.drv)
	}
	if caps := d.Capabilities(); !caps.GatedTiming || !caps.MeasuredTiming {
		t.Errorf("capabilities %+v: want measured, gated", caps)
	}
	// A fault retires the helper; the next gated launch sets up the gate
	// in the new one (the fake refuses a gated launch before setGate).
	d.st.mu.Lock()
	d.st.retire("a fault in the test")
	d.st.mu.Unlock()
	launch(d, 2)
	if len(*pids) != 2 || d.st.gated != d.st.drv {
		t.Errorf("after the fault: %d helpers, gate set up on the new one %v; want 2, true", len(*pids), d.st.gated == d.st.drv)
	}
	ungated := &device{st: d.st, cfg: gpudriver.Config{Spec: "cuda:0?timing=ungated", Timeout: d.cfg.Timeout}, mems: map[*memory]bool{}}
	if res := launch(ungated, 3); res.Timing.Source != "measured, fake GPU" || ungated.Capabilities().GatedTiming {
		t.Errorf("ungated launch: source %q, capabilities %+v", res.Timing.Source, ungated.Capabilities())
	}
}
