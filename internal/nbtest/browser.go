package nbtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// browser is a headless Chromium driven through the DevTools protocol over
// a pipe (--remote-debugging-pipe): the browser reads commands on its file
// descriptor 3 and writes replies and events on 4, as JSON messages ended
// by a NUL byte. No port is opened and no client library is needed.
type browser struct {
	cmd    *exec.Cmd
	toB    *os.File // our end of the browser's fd 3
	stderr *bytes.Buffer

	mu      sync.Mutex
	nextID  int
	pending map[int]chan cdpReply
	readErr error
	closed  chan struct{} // closed when the reader stops

	session string // the page's session id, once attached
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// chromiumFlags are what headless Chromium needs on these machines: no
// sandbox as root, no GPU, and none of the background connections that a
// closed network refuses.
var chromiumFlags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
	"--remote-debugging-pipe",
}

// startBrowser starts Chromium with a fresh profile in profileDir.
func startBrowser(chromium, profileDir string) (*browser, error) {
	// fd 3: the browser reads; fd 4: the browser writes.
	bIn, toB, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	fromB, bOut, err := os.Pipe()
	if err != nil {
		bIn.Close()
		toB.Close()
		return nil, err
	}
	args := append(append([]string{}, chromiumFlags...), "--user-data-dir="+profileDir, "about:blank")
	cmd := exec.Command(chromium, args...)
	cmd.ExtraFiles = []*os.File{bIn, bOut}
	b := &browser{cmd: cmd, toB: toB, stderr: &bytes.Buffer{}, pending: map[int]chan cdpReply{}, closed: make(chan struct{})}
	cmd.Stderr = b.stderr
	err = cmd.Start()
	bIn.Close()
	bOut.Close()
	if err != nil {
		toB.Close()
		fromB.Close()
		return nil, fmt.Errorf("starting %s: %w", chromium, err)
	}
	go b.read(fromB)
	return b, nil
}

// read dispatches the browser's replies to their callers until the pipe
// closes. Events are not used.
func (b *browser) read(r io.ReadCloser) {
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<20)
	var err error
	for {
		var msg []byte
		msg, err = br.ReadBytes(0)
		if err != nil {
			break
		}
		var m struct {
			ID *int `json:"id"`
			cdpReply
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == nil {
			continue
		}
		b.mu.Lock()
		ch := b.pending[*m.ID]
		delete(b.pending, *m.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- m.cdpReply
		}
	}
	b.mu.Lock()
	b.readErr = fmt.Errorf("the browser closed its DevTools pipe: %w", err)
	b.mu.Unlock()
	close(b.closed)
}

// call sends a DevTools command (to the attached page, once there is one)
// and decodes its result into result, which may be nil.
func (b *browser) call(ctx context.Context, method string, params, result any) error {
	b.mu.Lock()
	if b.readErr != nil {
		err := b.readErr
		b.mu.Unlock()
		return fmt.Errorf("%s: %w", method, err)
	}
	b.nextID++
	id := b.nextID
	ch := make(chan cdpReply, 1)
	b.pending[id] = ch
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if b.session != "" {
		msg["sessionId"] = b.session
	}
	b.mu.Unlock()
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if _, err := b.toB.Write(append(data, 0)); err != nil {
		return fmt.Errorf("%s: writing to the browser: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("%s: %s (code %d)", method, r.Error.Message, r.Error.Code)
		}
		if result != nil {
			if err := json.Unmarshal(r.Result, result); err != nil {
				return fmt.Errorf("%s: decoding the reply: %w", method, err)
			}
		}
		return nil
	case <-b.closed:
		return fmt.Errorf("%s: %v", method, b.readErr)
	case <-ctx.Done():
		return fmt.Errorf("%s: %v", method, ctx.Err())
	}
}

// openPage opens a new tab of the given viewport size, attaches to it, and
// makes it refuse every http and https request: a notebook page must draw
// from what it holds, and the test must not wait on a network.
func (b *browser) openPage(ctx context.Context, width, height int) error {
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return err
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		return err
	}
	b.session = attached.SessionID
	for _, c := range []struct {
		method string
		params any
	}{
		{"Network.enable", nil},
		{"Network.setBlockedURLs", map[string]any{"urls": []string{"http://*", "https://*"}}},
		{"Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}},
	} {
		if err := b.call(ctx, c.method, c.params, nil); err != nil {
			return err
		}
	}
	return nil
}

// navigate loads url and waits until the page and everything it loads
// (scripts, images) have finished loading.
func (b *browser) navigate(ctx context.Context, url string) error {
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := b.call(ctx, "Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("loading %s: %s", url, nav.ErrorText)
	}
	for {
		var state struct{ Href, ReadyState string }
		err := b.eval(ctx, `({Href: location.href, ReadyState: document.readyState})`, &state)
		if err == nil && state.Href == url && state.ReadyState == "complete" {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("loading %s: %v (last state %+v, %w)", url, ctx.Err(), state, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// eval evaluates a JavaScript expression in the page, awaiting it if it is
// a promise, and decodes its value (as JSON) into result.
func (b *browser) eval(ctx context.Context, expr string, result any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := b.call(ctx, "Runtime.evaluate", map[string]any{
		"expression": expr, "awaitPromise": true, "returnByValue": true,
	}, &r)
	if err != nil {
		return err
	}
	if e := r.ExceptionDetails; e != nil {
		return fmt.Errorf("JavaScript exception: %s %s", e.Text, e.Exception.Description)
	}
	if result == nil {
		return nil
	}
	return json.Unmarshal(r.Result.Value, result)
}

// clip is a rectangle of the page, in CSS pixels.
type clip struct{ x, y, width, height float64 }

// screenshot returns a PNG of the rectangle r of the page, or of the
// whole page (not only the viewport) when r is nil.
func (b *browser) screenshot(ctx context.Context, r *clip) ([]byte, error) {
	if r == nil {
		var metrics struct {
			CSSContentSize struct{ Width, Height float64 } `json:"cssContentSize"`
		}
		if err := b.call(ctx, "Page.getLayoutMetrics", nil, &metrics); err != nil {
			return nil, err
		}
		r = &clip{0, 0, metrics.CSSContentSize.Width, metrics.CSSContentSize.Height}
	}
	var shot struct {
		Data []byte `json:"data"` // base64 in JSON
	}
	err := b.call(ctx, "Page.captureScreenshot", map[string]any{
		"format": "png", "captureBeyondViewport": true,
		"clip": map[string]any{"x": r.x, "y": r.y, "width": r.width, "height": r.height, "scale": 1},
	}, &shot)
	return shot.Data, err
}

// close ends the browser: politely, then by force.
func (b *browser) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b.session = ""
	_ = b.call(ctx, "Browser.close", nil, nil)
	done := make(chan struct{})
	go func() { b.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		b.cmd.Process.Kill()
		<-done
	}
	b.toB.Close()
}
