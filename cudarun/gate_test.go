//go:build linux && cgo

package cudarun

import (
	"strings"
	"testing"
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
