package charts

import (
	"errors"
	"strings"
	"testing"
)

type htmlOnly struct{}

func (htmlOnly) HTML() string { return "<b>only html</b>" }

type htmlAndText struct{}

func (htmlAndText) HTML() string   { return "<b>feedback</b>" }
func (htmlAndText) String() string { return "feedback" }

type stringer struct{}

func (stringer) String() string { return "a < b" }

// TestStaticOutput checks what Show displays for each kind of item but
// a chart.
func TestStaticOutput(t *testing.T) {
	table := NewTable("T", Column{Header: "a"})
	table.AddRow(Int(1))
	for _, tc := range []struct {
		name        string
		item        any
		html, plain string
	}{
		{"nil", nil, "", ""},
		{"nil table", (*Table)(nil), "", ""},
		{"nil chart", (*Chart)(nil), "", ""},
		// The table's own renderers are tested in render_test.go; here the
		// expectation is written out, so that Show cannot pass by
		// rendering a table some other way than its HTML and its text.
		{"table", table, ">1</td></tr>\n</tbody>\n</table></div>\n", "T\na\n-\n1\n"},
		{"error", errors.New("x < y"), "x &lt; y</div>", "x < y"},
		{"HTMLer", htmlOnly{}, "<b>only html</b>", "<b>only html</b>"},
		{"HTMLer and Stringer", htmlAndText{}, "<b>feedback</b>", "feedback"},
		{"string", "a < b", `<pre style="margin:6px 0;">a &lt; b</pre>`, "a < b"},
		{"Stringer", stringer{}, `<pre style="margin:6px 0;">a &lt; b</pre>`, "a < b"},
		{"other", 42, `<pre style="margin:6px 0;">42</pre>`, "42"},
	} {
		h, plain, ok := staticOutput(tc.item)
		if !ok {
			t.Errorf("%s: not a static output", tc.name)
			continue
		}
		if !strings.HasSuffix(h, tc.html) || plain != tc.plain {
			t.Errorf("%s: got (%q, %q), want HTML ending %q and text %q", tc.name, h, plain, tc.html, tc.plain)
		}
	}
	if _, _, ok := staticOutput(&Chart{}); ok {
		t.Error("a chart is a static output")
	}
	if _, _, ok := staticOutput(&BarChart{}); ok {
		t.Error("a bar chart is a static output")
	}
}
