package grade

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
)

// DefaultTimeLimit is a submission's wall-clock limit when the key sets
// none.
const DefaultTimeLimit = 5 * time.Minute

// Key is an instructor's key for one lab: the checks a submission
// faces, the points of each part, and the budgets. It is a TOML file
// kept apart from the student material (see KeyTemplate).
type Key struct {
	// Lab is the lab's name or alias: "day26".
	Lab string `toml:"lab"`
	// Device is the simulator spec the checks run on: "sim:t4" unless
	// set. Student kernels never run on a real GPU.
	Device string `toml:"device"`
	// TimeLimit is the wall-clock limit of one submission, all checks
	// together: "2m".
	TimeLimit string `toml:"time_limit"`
	// Course, when set, enters every student's variant (labs.VariantFor)
	// as WARPLAB_COURSE does in the notebooks: a new course string gives
	// every student new parameters.
	Course string `toml:"course"`
	// Settings apply to every check (budgets: instruction budget, time
	// limit per launch) after the student's variant and before a check's
	// own.
	Settings map[string]any `toml:"settings"`
	// Checks run in order; each runs the exercise's Check once.
	Checks []Check `toml:"check"`

	// Path is the file the key was read from.
	Path string `toml:"-"`

	lab      labs.Lab
	ex       *labs.Exercise
	limit    time.Duration
	resolved []labs.Settings
	// sets are each check's settings as text, the key's then the check's.
	sets []map[string]string
	refs sync.Map // shared references by check and settings
}

// Check is one run of the exercise's check under some settings.
type Check struct {
	// Name names the check in results: "visible", "hidden sizes".
	Name string `toml:"name"`
	// Visibility is visible, hidden, after_due_date or after_published
	// (Gradescope's terms): when the student sees this check's parts. A
	// hidden check's parts show passed or failed, never their messages,
	// which would name the inputs; where a platform cannot delay
	// (PrairieLearn, Markdown feedback) after_due_date and
	// after_published parts are shown as hidden ones. The full messages
	// always reach the instructor (instructor.csv, Gradescope's
	// instructor view).
	Visibility labs.Visibility `toml:"visibility"`
	// Settings are the exercise's options for this check: other sizes,
	// seeds, tolerances.
	Settings map[string]any `toml:"settings"`
	// Points are the points of each part of the feedback, by the part's
	// name; a part earns them when it passes. Parts not listed are
	// reported and earn nothing. A part that judges prose (the
	// exercise's Prose) cannot be given points here: see Manual.
	Points map[string]float64 `toml:"points"`
	// Manual are the points of the parts an instructor grades by hand:
	// the exercise's prose ("justified", "sentence"). They show as
	// pending until the instructor's marks are imported (ApplyMarks).
	Manual map[string]float64 `toml:"manual"`
}

// LoadKey reads and validates the key at path.
func LoadKey(path string) (*Key, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("grade: key: %w", err)
	}
	return ParseKey(path, data)
}

// ParseKey parses and validates a key read from path: a TOML error or an
// unknown field names its line, a wrong setting names its check and
// option.
func ParseKey(path string, data []byte) (*Key, error) {
	k := &Key{Path: path}
	md, err := toml.Decode(string(data), k)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("grade: key %s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("grade: key %s: %v", path, err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		var names []string
		for _, x := range u {
			names = append(names, x.String())
		}
		return nil, fmt.Errorf("grade: key %s: unknown fields %s (known: lab, device, time_limit, course, settings, [[check]] with name, visibility, settings, points, manual)", path, strings.Join(names, ", "))
	}
	if err := k.validate(); err != nil {
		return nil, fmt.Errorf("grade: key %s: %w", path, err)
	}
	return k, nil
}

func (k *Key) validate() error {
	if k.Lab == "" {
		return errors.New("lab is not set")
	}
	l, err := labs.Lookup(k.Lab)
	if err != nil {
		return err
	}
	ex := l.Info().Exercise
	if ex == nil {
		return fmt.Errorf("lab %s has no exercise to grade", k.Lab)
	}
	k.lab, k.ex = l, ex
	if k.Device == "" {
		k.Device = gpu.DefaultSim
	}
	s, err := gpu.ParseSpec(k.Device)
	if err != nil {
		return fmt.Errorf("device: %v", err)
	}
	if !strings.HasPrefix(s.String(), "sim") {
		return fmt.Errorf("device %q: student kernels run only on the simulator (sim:...)", k.Device)
	}
	k.limit = DefaultTimeLimit
	if k.TimeLimit != "" {
		if k.limit, err = time.ParseDuration(k.TimeLimit); err != nil || k.limit <= 0 {
			return fmt.Errorf("time_limit %q: want a positive duration such as \"2m\"", k.TimeLimit)
		}
	}
	if len(k.Checks) == 0 {
		return errors.New("no [[check]]: a key needs at least the visible check")
	}
	names := map[string]bool{}
	k.resolved, k.sets = nil, nil
	prose := proseParts(ex)
	for i, c := range k.Checks {
		where := fmt.Sprintf("check %d (%q)", i+1, c.Name)
		if c.Name == "" {
			return fmt.Errorf("check %d: name is not set", i+1)
		}
		if names[c.Name] {
			return fmt.Errorf("%s: the name is used twice", where)
		}
		names[c.Name] = true
		switch c.Visibility {
		case "":
			k.Checks[i].Visibility = labs.Visible
		case labs.Visible, labs.Hidden, labs.AfterDueDate, labs.AfterPublished:
		default:
			return fmt.Errorf("%s: visibility %q: want visible, hidden, after_due_date or after_published", where, c.Visibility)
		}
		if len(c.Points) == 0 && len(c.Manual) == 0 {
			return fmt.Errorf("%s: no points: give each part's points, e.g. points = { correct = 4 }", where)
		}
		for _, p := range c.sortedParts() {
			if v := c.Points[p]; v < 0 || v != v {
				return fmt.Errorf("%s: points of %q: %v is negative", where, p, v)
			}
			if len(ex.Parts) > 0 && !slices.Contains(ex.Parts, p) {
				return fmt.Errorf("%s: points for %q: the exercise reports no such part, so they could never be earned (its parts: %s)", where, p, quoteAll(ex.Parts))
			}
			if prose[p] {
				return fmt.Errorf("%s: part %q is prose, which the grader never scores: give its points under manual = { %q = %g }", where, p, p, c.Points[p])
			}
		}
		for p, v := range c.Manual {
			if v < 0 || v != v {
				return fmt.Errorf("%s: manual points of %q: %v is negative", where, p, v)
			}
			if !prose[p] {
				return fmt.Errorf("%s: manual part %q is not prose of this exercise (its prose parts: %s)", where, p, strings.Join(sortedKeys(prose), ", "))
			}
			if _, ok := c.Points[p]; ok {
				return fmt.Errorf("%s: part %q has both points and manual points", where, p)
			}
		}
		set := map[string]string{}
		for _, m := range []map[string]any{k.Settings, c.Settings} {
			for n, v := range m {
				text, err := settingText(v)
				if err != nil {
					return fmt.Errorf("%s: setting %s: %v", where, n, err)
				}
				set[n] = text
			}
		}
		rs, err := labs.Resolve(k.lab.Info().Name+" exercise", ex.Options, set)
		if err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		k.resolved = append(k.resolved, rs)
		k.sets = append(k.sets, set)
	}
	return nil
}

// quoteAll lists names quoted, comma-separated.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Variant returns a student's variant of the key's exercise: derived from
// the student's identity as the platform gives it and the key's course,
// never from anything the notebook says.
func (k *Key) Variant(student string) labs.Variant {
	return k.ex.VariantOf(k.LabName(), k.Course, student)
}

// settingsFor resolves check i's settings for a student's variant: the
// exercise's defaults, then the variant's, then the key's and the
// check's, so a hidden check varies sizes and seeds on top of the
// variant.
func (k *Key) settingsFor(i int, v labs.Variant) (labs.Settings, string, error) {
	if len(v.Settings) == 0 {
		return k.resolved[i], "", nil
	}
	set := map[string]string{}
	for n, x := range v.Settings {
		set[n] = x
	}
	for n, x := range k.sets[i] {
		set[n] = x
	}
	rs, err := labs.Resolve(k.LabName()+" exercise", k.ex.Options, set)
	if err != nil {
		return labs.Settings{}, "", fmt.Errorf("the variant's settings are wrong (not the answer): %v", err)
	}
	return rs, labs.Variant{Settings: set}.String(), nil
}

// settingText writes a TOML value as the text labs.Resolve parses: an
// array is comma-separated.
func settingText(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case int64, float64, bool:
		return fmt.Sprint(v), nil
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			t, err := settingText(x)
			if err != nil {
				return "", err
			}
			parts[i] = t
		}
		return strings.Join(parts, ","), nil
	}
	return "", fmt.Errorf("%v is a %T, want a string, number or array", v, v)
}

// Exercise returns the exercise the key grades.
func (k *Key) Exercise() *labs.Exercise { return k.ex }

// LabName returns the lab's name.
func (k *Key) LabName() string { return k.lab.Info().Name }

// MaxScore returns the points possible.
func (k *Key) MaxScore() float64 {
	var m float64
	for _, c := range k.Checks {
		for _, p := range c.Points {
			m += p
		}
		for _, p := range c.Manual {
			m += p
		}
	}
	return m
}

// sortedParts returns a check's part names in a fixed order.
func (c Check) sortedParts() []string {
	var names []string
	for n := range c.Points {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// KeyTemplate returns a commented starting key for lab: the visible check
// with the exercise's default settings, and a hidden check to edit.
func KeyTemplate(lab string) (string, error) {
	l, err := labs.Lookup(lab)
	if err != nil {
		return "", fmt.Errorf("grade: %w", err)
	}
	info := l.Info()
	ex := info.Exercise
	if ex == nil {
		return "", fmt.Errorf("grade: lab %s has no exercise to grade", info.Name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Instructor key for %s (%s).\n", info.Name, info.Title)
	b.WriteString("# Keep this file out of the student material: its hidden checks are the\n# ones students never see. Check it with `warplab grade key check FILE`.\n\n")
	fmt.Fprintf(&b, "lab = %q\n", info.Name)
	fmt.Fprintf(&b, "# The simulator the checks run on; student code never runs on a GPU.\ndevice = %q\n", gpu.DefaultSim)
	b.WriteString("# Wall-clock limit of one submission, all checks together.\ntime_limit = \"2m\"\n\n")
	b.WriteString("# Settings every check starts from (budgets). The exercise's options:\n")
	for _, o := range ex.Options {
		fmt.Fprintf(&b, "#   %s (%s, default %q): %s\n", o.Name, o.Kind, o.Default, o.Usage)
	}
	b.WriteString("[settings]\n\n")
	b.WriteString("# The notebook's own check: the student has seen these results.\n[[check]]\nname = \"visible\"\nvisibility = \"visible\"\n")
	table, free := pointsFor(ex)
	if table == "" {
		return "", fmt.Errorf("grade: lab %s: its exercise declares no parts to give points", info.Name)
	}
	fmt.Fprintf(&b, "# Points per part of the check's feedback, by the part's name. The parts\n# the check reports: %s.\n", quoteAll(ex.Parts))
	if len(free) > 0 {
		fmt.Fprintf(&b, "# Earning nothing here (an untouched template passes them): %s.\n", quoteAll(free))
	}
	b.WriteString("points = { " + table + " }\n")
	if m := manualFor(ex); m != "" {
		b.WriteString("# Prose is graded by hand, never by the grader: it shows as pending\n# and `warplab grade` lists it in manual.csv (see --manual).\n")
		b.WriteString("manual = { " + m + " }\n")
	}
	b.WriteString("\n")
	b.WriteString("# A hidden check: change the exercise's options (other sizes, seeds,\n# tolerances). Students see it only as passed or failed.\n")
	b.WriteString("# [[check]]\n# name = \"hidden sizes\"\n# visibility = \"hidden\"\n")
	for _, o := range ex.Options {
		if o.Name == "sizes" || o.Name == "seeds" {
			fmt.Fprintf(&b, "# settings = { %s = %q }\n", o.Name, o.Default)
			break
		}
	}
	b.WriteString("# points = { " + table + " }\n")
	return b.String(), nil
}

// pointsFor proposes points for the parts the exercise's check reports
// (its Parts) at the exercise's proposed points (its Points), as a TOML
// inline table; parts proposed at nothing are left out and listed in
// free.
func pointsFor(ex *labs.Exercise) (table string, free []string) {
	var items []string
	prose := proseParts(ex)
	for _, p := range ex.Parts {
		if prose[p] {
			continue // graded by hand: see manualFor
		}
		v := ex.Points[p]
		if v <= 0 {
			free = append(free, p)
			continue
		}
		name := p
		if !isBareKey(p) {
			name = strconv.Quote(p)
		}
		items = append(items, fmt.Sprintf("%s = %g", name, v))
	}
	return strings.Join(items, ", "), free
}

// isBareKey reports whether s is a TOML bare key.
func isBareKey(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return s != ""
}

// proseParts returns the names of an exercise's prose parts.
func proseParts(ex *labs.Exercise) map[string]bool {
	prose := map[string]bool{}
	if ex.Prose != nil {
		for p := range ex.Prose(ex.New()) {
			prose[p] = true
		}
	}
	return prose
}

// manualFor proposes manual points for an exercise's prose parts: the
// exercise's suggested points, else 2.
func manualFor(ex *labs.Exercise) string {
	var parts []string
	for _, p := range sortedKeys(proseParts(ex)) {
		v := ex.Points[p]
		if v <= 0 {
			v = 2
		}
		parts = append(parts, fmt.Sprintf("%q = %g", p, v))
	}
	return strings.Join(parts, ", ")
}
