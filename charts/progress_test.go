package charts

import (
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock that moves only when told.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestProgressTerminal(t *testing.T) {
	var out strings.Builder
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := newProgress("sweep", termMode, &out, clock.now)
	p.Update(0, 4, "")
	clock.advance(50 * time.Millisecond)
	p.Update(1, 4, "n = 1024") // too soon: not sent
	clock.advance(100 * time.Millisecond)
	p.Update(2, 4, "n = 4096")
	clock.advance(time.Millisecond)
	p.Update(4, 4, "n = 65536") // the last step is always sent
	p.Done()
	want := "\r\x1b[Ksweep: 0/4 (0%) 0s" +
		"\r\x1b[Ksweep: 2/4 (50%) 200ms n = 4096" +
		"\r\x1b[Ksweep: 4/4 (100%) 200ms n = 65536" +
		"\r\x1b[K"
	if got := out.String(); got != want {
		t.Errorf("terminal output:\n got %q\nwant %q", got, want)
	}
}

func TestProgressTerminalCutsLongLines(t *testing.T) {
	var out strings.Builder
	p := newProgress("sweep", termMode, &out, time.Now)
	p.Update(1, 0, strings.Repeat("x", 200))
	line := strings.TrimPrefix(out.String(), "\r\x1b[K")
	if n := len([]rune(line)); n != termWidth {
		t.Errorf("line of %d runes, want %d: %q", n, termWidth, line)
	}
}

func TestProgressSilent(t *testing.T) {
	// NewProgress under go test: not a notebook, and stderr is not a
	// terminal when the test runs under go test's output capture or CI.
	if isTerminal(nil) {
		t.Fatal("isTerminal(nil) = true")
	}
	p := newProgress("quiet", silentMode, nil, time.Now)
	p.Update(1, 2, "x")
	p.Done() // must not panic on the nil writer
}
