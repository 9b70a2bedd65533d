package nb

import (
	"errors"
	"testing"
)

// stopped runs f with exit replaced, and returns the status f exited with
// (-1 when it did not).
func stopped(t *testing.T, f func()) (status int) {
	t.Helper()
	status = -1
	old := exit
	t.Cleanup(func() { exit = old })
	exit = func(code int) { status = code; panic(stopPanic{}) }
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopPanic); !ok {
				panic(r)
			}
		}
	}()
	f()
	return status
}

type stopPanic struct{}

func TestMust(t *testing.T) {
	if got := stopped(t, func() { _ = Must(3, nil) }); got != -1 {
		t.Errorf("Must(3, nil) exited with %d", got)
	}
	if got := stopped(t, func() { _ = Must(0, errors.New("boom")) }); got != 1 {
		t.Errorf("Must(0, err) exited with %d, want 1", got)
	}
}

func TestOpenBadSpec(t *testing.T) {
	if got := stopped(t, func() { Open("sim:no-such-card") }); got != 1 {
		t.Errorf("Open of an unknown profile exited with %d, want 1", got)
	}
	if got := stopped(t, func() { Open("sim:t4") }); got != -1 {
		t.Errorf("Open(sim:t4) exited with %d", got)
	}
}
