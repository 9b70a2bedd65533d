package charts

import (
	"fmt"
	"html"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
)

// Progress reports how far a long run has got. In a GoNB notebook it is
// one line of the cell's output, updated in place; on a terminal it is one
// line on stderr, rewritten in place and cleared by Done; anywhere else
// (stderr redirected to a file or a pipe, a test) it is silent.
//
// Updates are sent at most ten times a second, whatever the rate of
// calls, so a tight loop may report every step. A Progress is safe for
// concurrent use.
type Progress struct {
	label string
	mode  progressMode
	w     io.Writer // the terminal, in termMode
	id    string    // the notebook's display id, in notebookMode
	now   func() time.Time

	mu          sync.Mutex
	start, last time.Time
	done, total int
	detail      string
	sent        bool
}

type progressMode int

const (
	silentMode progressMode = iota
	notebookMode
	termMode
)

// termWidth is the longest progress line written to a terminal.
const termWidth = 79

// progressInterval is the least time between two updates sent.
const progressInterval = 100 * time.Millisecond

// NewProgress returns a progress reporter whose line starts with label.
func NewProgress(label string) *Progress {
	switch {
	case gonbui.IsNotebook:
		return newProgress(label, notebookMode, nil, time.Now)
	case isTerminal(os.Stderr):
		return newProgress(label, termMode, os.Stderr, time.Now)
	}
	return newProgress(label, silentMode, nil, time.Now)
}

// NewProgressTo returns a progress reporter that writes its line to w as
// it would to a terminal (rewritten in place with a carriage return),
// whatever w is: for a command's --progress flag, with stderr redirected.
func NewProgressTo(label string, w io.Writer) *Progress {
	return newProgress(label, termMode, w, time.Now)
}

func newProgress(label string, mode progressMode, w io.Writer, now func() time.Time) *Progress {
	p := &Progress{label: label, mode: mode, w: w, now: now}
	if mode == notebookMode {
		p.id = "warplab-progress-" + gonbui.UniqueId()
	}
	p.start = now()
	return p
}

// isTerminal reports whether f is a character device, such as a terminal.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Update reports that done of total steps are finished; detail, which may
// be empty, says what is being done ("n = 4194304"). A total of zero or
// less means the total is unknown.
func (p *Progress) Update(done, total int, detail string) {
	if p.mode == silentMode {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total, p.detail = done, total, detail
	now := p.now()
	if p.sent && now.Sub(p.last) < progressInterval && (total <= 0 || done < total) {
		return
	}
	p.last, p.sent = now, true
	p.send(p.line(now), false)
}

// Done ends the report. In a notebook the line is replaced by a summary
// ("label: 20/20 done in 3.1s"); on a terminal the line is cleared.
func (p *Progress) Done() {
	if p.mode == silentMode {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := p.now().Sub(p.start).Round(100 * time.Millisecond)
	summary := fmt.Sprintf("%s: done in %v", p.label, elapsed)
	if p.total > 0 {
		summary = fmt.Sprintf("%s: %d/%d done in %v", p.label, p.done, p.total, elapsed)
	}
	p.send(summary, true)
}

// line returns the progress line: "label: 3/20 (15%) 1.2s n = 4096".
func (p *Progress) line(now time.Time) string {
	var b strings.Builder
	b.WriteString(p.label + ": ")
	if p.total > 0 {
		fmt.Fprintf(&b, "%d/%d (%d%%)", p.done, p.total, p.done*100/p.total)
	} else {
		fmt.Fprintf(&b, "%d", p.done)
	}
	fmt.Fprintf(&b, " %v", now.Sub(p.start).Round(100*time.Millisecond))
	if p.detail != "" {
		b.WriteString(" " + p.detail)
	}
	return b.String()
}

// send shows s as the progress line; final is true for the last one.
func (p *Progress) send(s string, final bool) {
	switch p.mode {
	case notebookMode:
		bar := ""
		if !final && p.total > 0 {
			bar = fmt.Sprintf(`<progress value="%d" max="%d" style="width:10em;vertical-align:middle;margin-right:8px;"></progress>`, p.done, p.total)
		}
		gonbui.UpdateHTML(p.id, `<div style="font-family:monospace;font-size:12px;color:#444;">`+bar+html.EscapeString(s)+`</div>`)
		if final {
			gonbui.Sync()
		}
	case termMode:
		// \r returns to the start of the line, ESC[K clears to its end.
		// The line is cut to fit an 80-column terminal: a line that
		// wraps cannot be rewritten.
		if final {
			s = ""
		} else if r := []rune(s); len(r) > termWidth {
			s = string(r[:termWidth])
		}
		fmt.Fprint(p.w, "\r\x1b[K"+s)
	}
}
