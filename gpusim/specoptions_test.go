package gpusim_test

import (
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
)

// TestSpecOptionErrors checks that each malformed simulator spec is
// refused with an error naming what is wrong, and that the options that
// are right open a device whose spec says so.
func TestSpecOptionErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"sim:k80", "k80"},
		{"sim:t4?seed=x", "seed=x"},
		{"sim:t4?seed=-1", "seed=-1"},
		{"sim:t4?order=random", "want seeded or deterministic"},
		{"sim:t4?fmad=maybe", "fmad=maybe"},
		{"sim:t4?racecheck=2", "racecheck=2"},
		{"sim:t4?budget=lots", "budget=lots"},
		{"sim:t4?clock=50", "5000"},
		{"sim:t4?clock=fast", "clock=fast"},
		{"sim:h200?clock=base", "profile h200 has no base clock"},
		{"sim:t4?speed=2", "unknown option"},
		{"sim:t4?seed=1;x", "sim:t4?seed=1;x"},
	} {
		d, err := gpu.Open(tc.spec)
		if err == nil {
			d.Close()
			t.Errorf("%s opened; want an error", tc.spec)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want it to say %q", tc.spec, err, tc.want)
		}
	}
	for spec, want := range map[string]string{
		"sim:t4?seed=7&order=deterministic":                            "seed=7",
		"sim:T4?clock=base":                                            "sim:t4",
		"sim:h200?fmad=false&racecheck=false&budget=100000&clock=1500": "fmad=false",
	} {
		d, err := gpu.Open(spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		if got := d.Info().Spec; !strings.Contains(got, want) {
			t.Errorf("%s opened as %s; want it to contain %q", spec, got, want)
		}
		d.Close()
	}
}
