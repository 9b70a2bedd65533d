package charts

import (
	"bytes"
	"fmt"
	"html"
	"reflect"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// InNotebook reports whether the program runs as a GoNB notebook cell,
// where Show displays things.
func InNotebook() bool { return gonbui.IsNotebook }

// Show displays each item in the GoNB notebook as the output of the
// running cell:
//
//   - a Tabler (such as a *Table) as an HTML table;
//   - a Figure (a *Chart or *BarChart) as an interactive echarts chart;
//   - an error as a red message;
//   - an HTMLer (a lab's exercise feedback, a code listing) as its HTML;
//   - a string or a fmt.Stringer as preformatted text;
//   - anything else as fmt's %v, preformatted.
//
// nil and nil pointers (the *Chart of a result that has none) are skipped.
//
// Each output also carries a plain-text rendering (text/plain), which is
// what a text export of the notebook shows. Use ShowPNG for a static
// image of a chart. A chart that cannot be drawn shows why in its place.
//
// Outside GoNB (a test, the command line) Show does nothing at all: it
// writes nothing to stdout or stderr and returns. Programs that run in
// both places print the text rendering themselves (Table.String).
func Show(items ...any) {
	if !gonbui.IsNotebook {
		return
	}
	for _, item := range items {
		showOne(item)
	}
	// A large output can be lost when the cell's program exits before
	// GoNB has read it.
	gonbui.Sync()
}

// HTMLer is implemented by anything that renders itself as an HTML
// fragment, such as a lab's exercise feedback or a code listing. Show
// displays it as HTML, with its String method, when it has one, as the
// plain-text rendering.
type HTMLer interface {
	HTML() string
}

func showOne(item any) {
	if h, plain, ok := staticOutput(item); ok {
		if h != "" || plain != "" {
			display(h, plain)
		}
		return
	}
	switch v := item.(type) {
	case Figure:
		s, err := InteractiveHTML(v)
		if err != nil {
			showError(err)
			return
		}
		display(s, "chart: "+v.title())
	}
}

// isNilPointer reports whether item is nil or a nil pointer, such as the
// *Table or *Chart of a result that has none: Show and ShowPNG skip it.
func isNilPointer(item any) bool {
	if item == nil {
		return true
	}
	v := reflect.ValueOf(item)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// staticOutput returns the HTML and plain text that Show displays for
// item, for everything but a Figure (ok is false for a Figure). Both are
// empty for nil.
func staticOutput(item any) (htmlText, plain string, ok bool) {
	if isNilPointer(item) {
		return "", "", true
	}
	switch v := item.(type) {
	case Tabler:
		t := v.Table()
		if t == nil {
			return "", "", true
		}
		return t.HTML(), t.String(), true
	case Figure:
		return "", "", false
	case error:
		return errorHTML(v), v.Error(), true
	case HTMLer:
		h := v.HTML()
		plain := h
		if s, ok := v.(fmt.Stringer); ok {
			plain = s.String()
		}
		return h, plain, true
	case string:
		return preHTML(v), v, true
	case fmt.Stringer:
		s := v.String()
		return preHTML(s), s, true
	}
	s := fmt.Sprintf("%v", item)
	return preHTML(s), s, true
}

// ShowPNG displays each figure in the GoNB notebook as a PNG image drawn by
// gonum/plot, at the figure's size in CSS pixels (the image has PNGScale
// times as many pixels). A figure that cannot be drawn shows why in its
// place. Like Show, it does nothing outside GoNB.
func ShowPNG(figs ...Figure) {
	if !gonbui.IsNotebook {
		return
	}
	for _, f := range figs {
		if isNilPointer(f) {
			continue
		}
		var buf bytes.Buffer
		if err := WriteImage(&buf, f, "png"); err != nil {
			showError(err)
			continue
		}
		w, h := f.size()
		gonbui.SendData(&protocol.DisplayData{
			Data: map[protocol.MIMEType]any{
				protocol.MIMEImagePNG:  buf.Bytes(),
				protocol.MIMETextPlain: "chart: " + f.title(),
			},
			Metadata: map[string]any{
				string(protocol.MIMEImagePNG): map[string]int{"width": w, "height": h},
			},
		})
	}
	gonbui.Sync()
}

func display(htmlText, plain string) {
	gonbui.SendData(&protocol.DisplayData{
		Data: map[protocol.MIMEType]any{
			protocol.MIMETextHTML:  htmlText,
			protocol.MIMETextPlain: plain,
		},
	})
}

func showError(err error) {
	display(errorHTML(err), err.Error())
}

func errorHTML(err error) string {
	return `<div style="font-family:sans-serif;color:#a00;background:#fff0f0;border:1px solid #e99;padding:6px 10px;margin:6px 0;">` +
		html.EscapeString(err.Error()) + `</div>`
}

func preHTML(s string) string {
	return `<pre style="margin:6px 0;">` + html.EscapeString(s) + `</pre>`
}
