package testenv

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
)

// TestSkipOrFail checks that SkipOrFail skips without the variable and
// fails with it set to 1.
func TestSkipOrFail(t *testing.T) {
	const env = "WARPLAB_TESTENV_PROBE"
	for _, tc := range []struct {
		value          string
		skipped, fails bool
	}{{"", true, false}, {"0", true, false}, {"1", false, true}} {
		t.Setenv(env, tc.value)
		// A failing subtest would fail this test too, so SkipOrFail gets
		// a stand-in that records the call.
		rec := &recorder{TB: t}
		func() {
			defer func() { recover() }()
			SkipOrFail(rec, env, "no widget")
		}()
		if rec.skipped != tc.skipped || rec.failed != tc.fails {
			t.Errorf("%s=%q: skipped %v failed %v; want %v %v", env, tc.value, rec.skipped, rec.failed, tc.skipped, tc.fails)
		}
		if !strings.HasPrefix(rec.msg, "no widget") || tc.fails && !strings.Contains(rec.msg, env+"=1 requires it") {
			t.Errorf("%s=%q: message %q", env, tc.value, rec.msg)
		}
	}
}

// recorder stands in for a testing.TB, recording Skip and Fatal; both end
// the caller with a panic that the test recovers, as runtime.Goexit ends
// a real test.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}
func (r *recorder) Skip(args ...any) {
	r.skipped, r.msg = true, args[0].(string)
	panic("skip")
}
func (r *recorder) Fatal(args ...any) {
	r.failed, r.msg = true, fmt.Sprint(args...)
	panic("fatal")
}

// TestOpen checks that Open returns an open device, closed when the test
// ends, and fails the test on a spec that does not open.
func TestOpen(t *testing.T) {
	var k *gpu.Kernel
	t.Run("open", func(t *testing.T) {
		m, err := Open(t, "sim:t4").Compile("k.cu", []byte("__global__ void k() {}"))
		if err == nil {
			k, err = m.Kernel("k")
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32)}); err != nil {
			t.Fatalf("the device is not open: %v", err)
		}
	})
	if k == nil {
		t.FailNow()
	}
	if _, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32)}); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("a launch after the test ended: %v, want the device closed", err)
	}
	rec := &recorder{TB: t}
	func() {
		defer func() { recover() }()
		Open(rec, "nosuch:x")
	}()
	if !rec.failed || !strings.Contains(rec.msg, "nosuch") {
		t.Errorf("a bad spec: failed %v, message %q", rec.failed, rec.msg)
	}
}
