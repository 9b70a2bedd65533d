package labs

import (
	"fmt"
	"html"
	"strings"
)

// Verdict is the outcome of one part of a check.
type Verdict string

const (
	// Pass: the part is right.
	Pass Verdict = "pass"
	// Fail: the part is wrong; the message says how.
	Fail Verdict = "fail"
	// Unanswered: the part is empty or still holds the placeholder.
	Unanswered Verdict = "unanswered"
	// Note: a remark that earns nothing and costs nothing ("going
	// further").
	Note Verdict = "note"
	// Pending: the part is prose an instructor grades by hand (see
	// Exercise.Prose); it earns nothing until the instructor's marks are
	// imported.
	Pending Verdict = "pending"
)

// Visibility says when a student sees a part of the feedback, in the
// terms course platforms use.
type Visibility string

const (
	// Visible parts are shown at once: every part the notebook's check
	// cell runs.
	Visible Visibility = "visible"
	// Hidden parts are shown as passed or failed, never with their inputs.
	Hidden Visibility = "hidden"
	// AfterDueDate parts are shown once the assignment is due.
	AfterDueDate Visibility = "after_due_date"
	// AfterPublished parts are shown once the instructor publishes the
	// grades.
	AfterPublished Visibility = "after_published"
)

// Delayed reports whether v shows a part to the student only later or
// never: where a platform cannot delay (PrairieLearn, a feedback file
// handed out at once), such a part shows only passed or failed.
func (v Visibility) Delayed() bool { return v != Visible && v != "" }

// Part is the verdict on one part of an answer.
type Part struct {
	// Name says what was checked: "ratios at 64 threads", "compiles".
	Name    string  `json:"name"`
	Verdict Verdict `json:"verdict"`
	Message string  `json:"message"`
	// Hint is the number of the notebook's hint to read, or 0.
	Hint int `json:"hint,omitempty"`
	// Points earned of MaxPoints; both 0 when the check does not score
	// (an instructor's key assigns points).
	Points    float64 `json:"points"`
	MaxPoints float64 `json:"max_points"`
	// Visibility is Visible unless an instructor's key says otherwise.
	Visibility Visibility `json:"visibility,omitempty"`
}

// OK reports whether the part does not stand in the way of a pass.
// A part pending an instructor's grading does not either.
func (p Part) OK() bool { return p.Verdict == Pass || p.Verdict == Note || p.Verdict == Pending }

// Feedback is what an exercise's check says about an answer, part by
// part: the type the notebook's check cell shows and the grader scores.
// charts.Show displays it as HTML; String renders it as text.
type Feedback struct {
	// Exercise names the exercise: "Day 26 exercise".
	Exercise string `json:"exercise"`
	// Device and Spec say what the answer was checked on, Timing where
	// the times came from ("modelled, t4 profile").
	Device string `json:"device,omitempty"`
	Spec   string `json:"spec,omitempty"`
	Timing string `json:"timing,omitempty"`
	// Tolerance says, in words, how close to the re-run a number must be.
	Tolerance string `json:"tolerance,omitempty"`
	Parts     []Part `json:"parts"`
	// Flags are remarks for the instructor only (an answer close to the
	// lab's own kernel): the grader reports them in the instructor's
	// detail, never in the student's feedback.
	Flags []string `json:"-"`
}

// Add appends a part and returns it for further setting.
func (f *Feedback) Add(name string, v Verdict, msg string) *Part {
	f.Parts = append(f.Parts, Part{Name: name, Verdict: v, Message: msg, Visibility: Visible})
	return &f.Parts[len(f.Parts)-1]
}

// Passf appends a passing part.
func (f *Feedback) Passf(name, format string, args ...any) *Part {
	return f.Add(name, Pass, fmt.Sprintf(format, args...))
}

// Failf appends a failing part.
func (f *Feedback) Failf(name, format string, args ...any) *Part {
	return f.Add(name, Fail, fmt.Sprintf(format, args...))
}

// Part returns the first part with the given name.
func (f Feedback) Part(name string) (Part, bool) {
	for _, p := range f.Parts {
		if p.Name == name {
			return p, true
		}
	}
	return Part{}, false
}

// OK reports whether every part of the answer is right; feedback with no
// parts is not.
func (f Feedback) OK() bool {
	scored := false
	for _, p := range f.Parts {
		if !p.OK() {
			return false
		}
		scored = scored || p.Verdict == Pass
	}
	return scored
}

// Score returns the points earned and the points possible.
func (f Feedback) Score() (points, max float64) {
	for _, p := range f.Parts {
		points += p.Points
		max += p.MaxPoints
	}
	return points, max
}

func (f Feedback) title() string {
	if f.Exercise != "" {
		return f.Exercise
	}
	return "Exercise"
}

// String returns the feedback as text, one line per part.
func (f Feedback) String() string {
	var b strings.Builder
	verdict := "not yet"
	if f.OK() {
		verdict = "all right"
	}
	fmt.Fprintf(&b, "%s: %s", f.title(), verdict)
	if f.Device != "" {
		fmt.Fprintf(&b, " (checked on %s", f.Device)
		if f.Timing != "" {
			fmt.Fprintf(&b, ", %s", f.Timing)
		}
		b.WriteString(")")
	}
	b.WriteByte('\n')
	for _, p := range f.Parts {
		fmt.Fprintf(&b, "%s %s: %s", textMark(p.Verdict), p.Name, p.Message)
		if p.Hint > 0 {
			fmt.Fprintf(&b, " (Hint %d)", p.Hint)
		}
		if p.MaxPoints > 0 {
			fmt.Fprintf(&b, " [%g/%g]", p.Points, p.MaxPoints)
		}
		b.WriteByte('\n')
	}
	if f.Tolerance != "" {
		fmt.Fprintf(&b, "A number counts as right %s.\n", f.Tolerance)
	}
	return b.String()
}

func textMark(v Verdict) string {
	switch v {
	case Pass:
		return "[ok]  "
	case Note:
		return "[note]"
	case Pending:
		return "[hand]"
	}
	return "[todo]"
}

// Markdown returns the feedback as Markdown, for a grader's per-student
// file.
func (f Feedback) Markdown() string {
	var b strings.Builder
	verdict := "not yet"
	if f.OK() {
		verdict = "all right"
	}
	fmt.Fprintf(&b, "### %s: %s\n\n", f.title(), verdict)
	if f.Device != "" {
		fmt.Fprintf(&b, "Checked on %s", f.Device)
		if f.Timing != "" {
			fmt.Fprintf(&b, " (%s)", f.Timing)
		}
		b.WriteString(".\n\n")
	}
	for _, p := range f.Parts {
		mark := map[Verdict]string{Pass: "✓", Note: "ℹ"}[p.Verdict]
		if mark == "" {
			mark = "✗"
		}
		fmt.Fprintf(&b, "- %s **%s**: %s", mark, p.Name, p.Message)
		if p.Hint > 0 {
			fmt.Fprintf(&b, " (read Hint %d)", p.Hint)
		}
		if p.MaxPoints > 0 {
			fmt.Fprintf(&b, " — %g/%g points", p.Points, p.MaxPoints)
		}
		b.WriteByte('\n')
	}
	if f.Tolerance != "" {
		fmt.Fprintf(&b, "\nA number counts as right %s.\n", f.Tolerance)
	}
	return b.String()
}

// HTML returns the feedback as an HTML fragment with inline styles.
func (f Feedback) HTML() string {
	var b strings.Builder
	border, title := "#d4a72c", "not yet: see the parts marked below"
	if f.OK() {
		border, title = "#2da44e", "all right"
	}
	fmt.Fprintf(&b, `<div class="warplab-feedback" style="font-family:sans-serif;font-size:14px;border-left:4px solid %s;background:#fafafa;padding:8px 12px;margin:6px 0;">`, border)
	fmt.Fprintf(&b, `<div style="font-weight:bold;margin-bottom:4px;">%s: %s</div>`, html.EscapeString(f.title()), html.EscapeString(title))
	if f.Device != "" {
		fmt.Fprintf(&b, `<div style="color:#555;font-size:12px;margin-bottom:6px;">Checked on %s`, html.EscapeString(f.Device))
		if f.Timing != "" {
			fmt.Fprintf(&b, ` (%s)`, html.EscapeString(f.Timing))
		}
		if f.Tolerance != "" {
			fmt.Fprintf(&b, `; a number counts as right %s`, html.EscapeString(f.Tolerance))
		}
		b.WriteString(`.</div>`)
	}
	b.WriteString(`<ul style="margin:0;padding-left:0;list-style:none;">`)
	for _, p := range f.Parts {
		mark, color := "✗", "#b35900"
		switch p.Verdict {
		case Pass:
			mark, color = "✓", "#1a7f37"
		case Note:
			mark, color = "ℹ", "#0969da"
		}
		fmt.Fprintf(&b, `<li style="margin:3px 0;"><span style="color:%s;font-weight:bold;display:inline-block;width:1.3em;">%s</span><b>%s</b>: <span style="white-space:pre-wrap">%s</span>`,
			color, mark, html.EscapeString(p.Name), html.EscapeString(p.Message))
		if p.Hint > 0 {
			fmt.Fprintf(&b, ` <span style="background:#ddf4ff;border-radius:8px;padding:0 6px;font-size:12px;">read Hint %d</span>`, p.Hint)
		}
		if p.MaxPoints > 0 {
			fmt.Fprintf(&b, ` <span style="color:#555;font-size:12px;">%g/%g</span>`, p.Points, p.MaxPoints)
		}
		b.WriteString("</li>")
	}
	b.WriteString("</ul></div>")
	return b.String()
}
