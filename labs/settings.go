package labs

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Kind is the type of an option's value.
type Kind int

const (
	// String is any text, or one of the option's Choices when it has any.
	String Kind = iota
	// Int is one whole number, at least 1; or, for an option whose
	// Default is empty, nothing: the lab's own choice (see Settings.Int).
	Int
	// Ints is a comma-separated list of whole numbers, each at least 1.
	Ints
	// Float is one finite number.
	Float
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "whole number"
	case Ints:
		return "comma-separated whole numbers"
	case Float:
		return "number"
	}
	return "text"
}

var kindNames = [...]string{String: "string", Int: "int", Ints: "ints", Float: "float"}

// MarshalText writes a Kind as its name in JSON: "string", "int", "ints"
// or "float".
func (k Kind) MarshalText() ([]byte, error) {
	if k < 0 || int(k) >= len(kindNames) {
		return nil, fmt.Errorf("labs: no kind %d", int(k))
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText reads a Kind written by MarshalText.
func (k *Kind) UnmarshalText(b []byte) error {
	i := slices.Index(kindNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("labs: no kind %q (kinds: %s)", b, strings.Join(kindNames[:], ", "))
	}
	*k = Kind(i)
	return nil
}

// Option is one setting of a lab or of an exercise's check, set by name:
// `warplab lab day26 --set sizes=4096,65536`, or a hidden check in an
// instructor's key.
type Option struct {
	// Name is the setting's name, lower case with hyphens: "block-size".
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Default is the value used when the setting is not given, written as
	// it would be set. An empty Default of an Int option leaves the choice
	// to the lab, which its Usage explains.
	Default string `json:"default"`
	// Usage says what the setting changes, with its unit.
	Usage string `json:"usage"`
	// Max bounds every whole number in the value (0: no bound), so that a
	// setting cannot ask for more memory or time than the lab may use.
	Max int `json:"max,omitempty"`
	// Choices, for a String option, are the values it accepts.
	Choices []string `json:"choices,omitempty"`
	// Valid, if set, checks each whole number of an Int or Ints value
	// beyond its range ("a power of two"), so that Resolve refuses it
	// before anything runs. Its error says what is wanted.
	Valid func(int) error `json:"-"`
	// ValidText, if set, checks a String value (a device spec, a path),
	// so that Resolve refuses it before anything runs, on any device.
	// Its error says what is wanted.
	ValidText func(string) error `json:"-"`
}

// Settings are resolved settings: every option of a lab or exercise by
// name, given or default, each value checked against its option's kind.
type Settings struct {
	owner  string
	values map[string]string
	opts   map[string]Option
}

// Resolve checks settings against options and fills in the defaults of
// those not given. owner names the lab or exercise in errors. An unknown
// name is an error that lists the options; a value that does not parse
// as its kind, or is out of range, is an error that names the setting.
func Resolve(owner string, opts []Option, set map[string]string) (Settings, error) {
	s := Settings{owner: owner, values: map[string]string{}, opts: map[string]Option{}}
	var known []string
	for _, o := range opts {
		s.opts[o.Name] = o
		s.values[o.Name] = o.Default
		known = append(known, o.Name)
	}
	for k, v := range set {
		if _, ok := s.opts[k]; !ok {
			if len(known) == 0 {
				return Settings{}, fmt.Errorf("labs: %s has no options (got %q)", owner, k)
			}
			return Settings{}, fmt.Errorf("labs: %s has no option %q (options: %s)", owner, k, strings.Join(known, ", "))
		}
		s.values[k] = strings.TrimSpace(v)
	}
	for _, o := range opts {
		if err := s.check(o); err != nil {
			return Settings{}, err
		}
	}
	return s, nil
}

// ParseSet parses "KEY=VALUE" assignments into a settings map; a key set
// twice takes the last value.
func ParseSet(assignments []string) (map[string]string, error) {
	m := map[string]string{}
	for _, a := range assignments {
		k, v, ok := strings.Cut(a, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("labs: setting %q: want KEY=VALUE", a)
		}
		m[k] = strings.TrimSpace(v)
	}
	return m, nil
}

func (s Settings) check(o Option) error {
	switch o.Kind {
	case Int:
		_, err := s.Int(o.Name)
		return err
	case Ints:
		_, err := s.Ints(o.Name)
		return err
	case Float:
		_, err := s.Float(o.Name)
		return err
	}
	if len(o.Choices) > 0 && !slices.Contains(o.Choices, s.values[o.Name]) {
		return s.errorf(o.Name, "want one of %s", strings.Join(o.Choices, ", "))
	}
	if o.ValidText != nil {
		if err := o.ValidText(s.values[o.Name]); err != nil {
			return s.errorf(o.Name, "%v", err)
		}
	}
	return nil
}

// Text returns a setting's value as given.
func (s Settings) Text(name string) string { return s.values[name] }

// Values returns every setting, for reports.
func (s Settings) Values() map[string]string {
	m := make(map[string]string, len(s.values))
	for k, v := range s.values {
		m[k] = v
	}
	return m
}

// Int returns a setting that holds one whole number. An option whose
// Default is empty may be left empty too: Int then returns 0, for the
// lab's own choice ("10 timed runs on a GPU, 1 on the simulator").
func (s Settings) Int(name string) (int, error) {
	xs, err := s.Ints(name)
	if err != nil {
		return 0, err
	}
	if len(xs) == 0 && s.opts[name].Default == "" {
		return 0, nil
	}
	if len(xs) != 1 {
		return 0, s.errorf(name, "want one whole number")
	}
	return xs[0], nil
}

// Ints returns a setting that holds comma-separated whole numbers, each
// at least 1 and at most the option's Max. An empty value is an empty
// list.
func (s Settings) Ints(name string) ([]int, error) {
	v, ok := s.values[name]
	if !ok {
		return nil, fmt.Errorf("labs: %s has no option %q", s.owner, name)
	}
	if v == "" {
		return nil, nil
	}
	var xs []int
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		x, err := strconv.ParseInt(f, 10, 64)
		switch {
		case err != nil:
			return nil, s.errorf(name, "%q is not a whole number", f)
		case x < 1:
			return nil, s.errorf(name, "%d: want at least 1", x)
		case s.opts[name].Max > 0 && x > int64(s.opts[name].Max):
			return nil, s.errorf(name, "%d: at most %d", x, s.opts[name].Max)
		case x > math.MaxInt32:
			return nil, s.errorf(name, "%d: at most %d", x, math.MaxInt32)
		}
		if valid := s.opts[name].Valid; valid != nil {
			if err := valid(int(x)); err != nil {
				return nil, s.errorf(name, "%d: %v", x, err)
			}
		}
		xs = append(xs, int(x))
	}
	return xs, nil
}

// Float returns a setting that holds one finite number.
func (s Settings) Float(name string) (float64, error) {
	v, ok := s.values[name]
	if !ok {
		return 0, fmt.Errorf("labs: %s has no option %q", s.owner, name)
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, s.errorf(name, "%q is not a finite number", v)
	}
	return x, nil
}

func (s Settings) errorf(name, format string, args ...any) error {
	return fmt.Errorf("labs: %s: %s=%s: %s", s.owner, name, s.values[name], fmt.Sprintf(format, args...))
}
