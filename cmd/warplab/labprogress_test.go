package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the heartbeat's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A run that is not on a terminal is silent while quick, then says every
// so often how far it has got: launches, the last one, the current
// launch's blocks.
func TestLabProgressNotTerminal(t *testing.T) {
	var out syncBuffer
	p := newLabProgress(&out, "day26", false)
	p.mu.Lock()
	p.quietFor, p.every = 1500*time.Millisecond, time.Second
	p.mu.Unlock()
	p.Update(1, 15, "tree n=4096")
	p.Launches().Update(300, 1024, "blocks")
	time.Sleep(1200 * time.Millisecond)
	if s := out.String(); s != "" {
		t.Fatalf("progress written before quietFor: %q", s)
	}
	time.Sleep(1500 * time.Millisecond)
	p.Close()
	got := out.String()
	for _, want := range []string{"warplab lab day26: ", "1/15 launches of this experiment done (last: tree n=4096)", "the next running for", "300 of its 1024 blocks done"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\r") {
		t.Errorf("progress rewrites a line off a terminal: %q", got)
	}
}

// On a terminal the line is rewritten in place and cleared at the end.
func TestLabProgressTerminal(t *testing.T) {
	var out syncBuffer
	p := newLabProgress(&out, "queue", true)
	p.Update(2, 12, "k=4")
	p.Close()
	got := out.String()
	if !strings.HasPrefix(got, "\rwarplab lab queue: 0s, 2/12 launches") || !strings.HasSuffix(got, "\r") {
		t.Errorf("terminal progress = %q", got)
	}
}

// A lab run past --timeout stops promptly and says how far it got.
func TestLabTimeout(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	start := time.Now()
	code, _, errs := runWarplab("lab", "day26", "--device", "sim:t4", "--set", "sizes=4194304", "--timeout", "1s")
	if el := time.Since(start); el > time.Second+labGrace+time.Second {
		t.Errorf("--timeout 1s: returned after %v", el)
	}
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"stopped after --timeout 1s", "raise --timeout"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	for _, bad := range []string{"-1s", "soon"} {
		if code, _, errs := runWarplab("lab", "day26", "--timeout", bad); code != 2 || !strings.Contains(errs, "timeout") {
			t.Errorf("--timeout %s: exit %d, stderr %q; want 2 and an error naming --timeout", bad, code, errs)
		}
	}
}
