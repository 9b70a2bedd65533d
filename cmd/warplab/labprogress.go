package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// labProgress reports a lab run's progress on stderr: on a terminal a
// line rewritten in place; elsewhere (a log, a pipe) nothing for a quick
// run, and, once the run has taken longer than quietFor, a line every
// every, so that a long run is never silent. Each line says how many of
// the current experiment's launches are done, what the last one was, and
// how long the run and the current launch have taken. It implements
// labs.Progress; a lab calls Done once per experiment.
type labProgress struct {
	w        io.Writer
	label    string
	term     bool
	quietFor time.Duration
	every    time.Duration
	now      func() time.Time

	mu          sync.Mutex
	start       time.Time // of the run
	last        time.Time // of the last update
	printed     time.Time // of the last line written
	done, total int
	detail      string
	// blocks and blockTotal are the current launch's finished blocks,
	// from the simulator, once the launch has run two seconds.
	blocks, blockTotal int
	drawn              bool // a terminal line is on screen
	stop               chan struct{}
	stopped            chan struct{}
	closeOnce          sync.Once
}

// newLabProgress starts reporting a run of label to w; Close stops it.
func newLabProgress(w io.Writer, label string, term bool) *labProgress {
	p := &labProgress{w: w, label: label, term: term, quietFor: 10 * time.Second, every: 10 * time.Second, now: time.Now,
		stop: make(chan struct{}), stopped: make(chan struct{})}
	p.start = p.now()
	p.last = p.start
	go p.heartbeat()
	return p
}

// heartbeat writes the progress line when no update has come for a while:
// a launch that runs for minutes still shows that the run is alive.
func (p *labProgress) heartbeat() {
	defer close(p.stopped)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			now := p.now()
			if now.Sub(p.start) >= p.quietFor && now.Sub(p.printed) >= p.every {
				p.write(now)
			}
			p.mu.Unlock()
		}
	}
}

// Update records that done of total launches of the current experiment
// are finished; detail says what the last one was.
func (p *labProgress) Update(done, total int, detail string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	p.done, p.total, p.detail, p.last = done, total, detail, now
	if p.term && now.Sub(p.printed) >= 100*time.Millisecond {
		p.write(now)
	}
}

// Done ends an experiment; the next Update starts another.
func (p *labProgress) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total, p.detail, p.last = 0, 0, "", p.now()
}

// Launches returns the gpu.Progress that receives the blocks of each long
// launch (gpu.WithLaunchProgress).
func (p *labProgress) Launches() launchBlocks { return launchBlocks{p} }

// launchBlocks records a launch's finished blocks in its labProgress.
type launchBlocks struct{ p *labProgress }

func (b launchBlocks) Update(done, total int, _ string) {
	b.p.mu.Lock()
	defer b.p.mu.Unlock()
	b.p.blocks, b.p.blockTotal = done, total
}

func (b launchBlocks) Done() {
	b.p.mu.Lock()
	defer b.p.mu.Unlock()
	b.p.blocks, b.p.blockTotal = 0, 0
}

// Close stops the heartbeat and clears a terminal's line. It may be
// called more than once.
func (p *labProgress) Close() {
	p.closeOnce.Do(func() { close(p.stop) })
	<-p.stopped
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.term && p.drawn {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", termLine))
		p.drawn = false
	}
}

// termLine is the longest progress line written to a terminal.
const termLine = 100

// line returns the progress line at now.
func (p *labProgress) line(now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "warplab lab %s: %v", p.label, now.Sub(p.start).Round(time.Second))
	running := now.Sub(p.last).Round(time.Second)
	if p.total > 0 {
		fmt.Fprintf(&b, ", %d/%d launches of this experiment done", p.done, p.total)
		if p.detail != "" {
			fmt.Fprintf(&b, " (last: %s)", p.detail)
		}
		if p.done < p.total {
			fmt.Fprintf(&b, "; the next running for %v", running)
		}
	} else {
		fmt.Fprintf(&b, ", an experiment's first launch running for %v", running)
	}
	if p.blockTotal > 0 {
		fmt.Fprintf(&b, ", %d of its %d blocks done", p.blocks, p.blockTotal)
	}
	return b.String()
}

// write writes the progress line; p.mu is held.
func (p *labProgress) write(now time.Time) {
	p.printed = now
	s := p.line(now)
	if !p.term {
		fmt.Fprintln(p.w, s)
		return
	}
	if len(s) > termLine {
		s = s[:termLine-3] + "..."
	}
	fmt.Fprintf(p.w, "\r%-*s", termLine, s)
	p.drawn = true
}

// isTerminalWriter reports whether w is a terminal (a character device).
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
