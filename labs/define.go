package labs

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/warplab/warplab/gpu"
)

// Definition is a lab declared once: what it is, its settings as the
// tagged fields of a struct S, and the function that runs it. Define
// turns it into the Lab that Register takes.
//
// Every exported field of S with a `lab` tag is one option, in the order
// of the fields. The field's type gives the option's Kind:
//
//	int, uint64       Int
//	[]int             Ints
//	float64           Float
//	string (or a type whose underlying type is string)  String
//
// and its tags the rest:
//
//	lab:"block-size"       the option's name
//	usage:"threads per block, a multiple of 32"
//	max:"1024"             Max: a whole number, or 1<<N
//	choices:"u32|f32"      Choices of a String option, separated by |
//	spec:"sim"             a String option that is empty, "none" or a
//	                       sim: device spec (a lab's predict setting),
//	                       checked on any device (Option.ValidText)
//
// The option's Default is the field's value in Defaults, written as it
// would be set: an Int field that is 0 there has an empty Default (the
// lab's own choice; see Settings.Int), an Ints field is written with
// commas.
type Definition[S any, R Report] struct {
	Info Info
	// Defaults holds the value of every option that is not set.
	Defaults S
	// Valid checks the whole numbers of the named Int or Ints options
	// beyond their bounds (see Option.Valid).
	Valid map[string]func(int) error
	// Usage replaces the usage tag of the named options, for a usage
	// that is computed ("the rungs: by-warp, by-lane, ...").
	Usage map[string]string
	// Run runs the lab on dev with every option resolved into s.
	Run func(dev *gpu.Device, s S, p Progress) (R, error)
}

// Define returns the Lab that d declares. It panics when S's tags are
// malformed or Valid or Usage name an option S does not have: that is a
// programming error, found when the lab's package is initialised, and
// the lab's conformance test (labtest.RunAll) fails on it first.
func Define[S any, R Report](d Definition[S, R]) Lab {
	if d.Run == nil {
		panic("labs: Define of " + d.Info.Name + " with no Run")
	}
	opts, fields, err := optionsOf(reflect.ValueOf(d.Defaults), d.Valid, d.Usage)
	if err != nil {
		panic(fmt.Sprintf("labs: Define of %s: %v", d.Info.Name, err))
	}
	return &defined[S, R]{d: d, opts: opts, fields: fields}
}

type defined[S any, R Report] struct {
	d      Definition[S, R]
	opts   []Option
	fields []int // the field of S of each option
}

func (l *defined[S, R]) Info() Info { return l.d.Info }

func (l *defined[S, R]) Options() []Option { return append([]Option(nil), l.opts...) }

func (l *defined[S, R]) Run(dev *gpu.Device, s Settings, p Progress) (Report, error) {
	var v S
	rv := reflect.ValueOf(&v).Elem()
	for i, o := range l.opts {
		if err := decodeField(s, o, rv.Field(l.fields[i])); err != nil {
			return nil, err
		}
	}
	r, err := l.d.Run(dev, v, p)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Decode stores resolved settings in dst, a pointer to a struct whose
// options are tagged as Definition describes: each tagged field gets the
// setting of its name. A tagged field with no setting of its name, or
// of another kind, is an error.
func Decode(s Settings, dst any) error {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("labs: Decode into %T: want a pointer to a struct", dst)
	}
	v = v.Elem()
	opts, fields, err := optionsOf(v, nil, nil)
	if err != nil {
		return fmt.Errorf("labs: Decode into %T: %v", dst, err)
	}
	for i, o := range opts {
		if got, ok := s.opts[o.Name]; !ok || got.Kind != o.Kind {
			return fmt.Errorf("labs: Decode into %T: %s has no %v option %q", dst, s.owner, o.Kind, o.Name)
		}
		if err := decodeField(s, o, v.Field(fields[i])); err != nil {
			return err
		}
	}
	return nil
}

func decodeField(s Settings, o Option, f reflect.Value) error {
	switch o.Kind {
	case Int:
		x, err := s.Int(o.Name)
		if err != nil {
			return err
		}
		if f.Kind() == reflect.Uint64 {
			f.SetUint(uint64(x))
		} else {
			f.SetInt(int64(x))
		}
	case Ints:
		xs, err := s.Ints(o.Name)
		if err != nil {
			return err
		}
		f.Set(reflect.ValueOf(xs))
	case Float:
		x, err := s.Float(o.Name)
		if err != nil {
			return err
		}
		f.SetFloat(x)
	default:
		f.SetString(s.Text(o.Name))
	}
	return nil
}

var intsType = reflect.TypeOf([]int(nil))

// optionsOf reads the options of the tagged fields of def, a struct, with
// their defaults; it returns the options and the index of each one's
// field.
func optionsOf(def reflect.Value, valid map[string]func(int) error, usage map[string]string) ([]Option, []int, error) {
	t := def.Type()
	if t.Kind() != reflect.Struct {
		return nil, nil, fmt.Errorf("settings of type %s: want a struct", t)
	}
	var opts []Option
	var fields []int
	seen := map[string]bool{}
	for i := range t.NumField() {
		sf := t.Field(i)
		name, ok := sf.Tag.Lookup("lab")
		if !ok {
			continue
		}
		if !sf.IsExported() {
			return nil, nil, fmt.Errorf("field %s: an option's field must be exported", sf.Name)
		}
		if name == "" || seen[name] {
			return nil, nil, fmt.Errorf("field %s: option name %q empty or used twice", sf.Name, name)
		}
		seen[name] = true
		o := Option{Name: name, Usage: sf.Tag.Get("usage")}
		switch tag := sf.Tag.Get("spec"); tag {
		case "":
		case "sim":
			if sf.Type.Kind() != reflect.String {
				return nil, nil, fmt.Errorf("field %s: spec:\"sim\" on a field that is not a string", sf.Name)
			}
			o.ValidText = simSpec
		default:
			return nil, nil, fmt.Errorf("field %s: unknown spec:%q (want spec:\"sim\")", sf.Name, tag)
		}
		fv := def.Field(i)
		switch {
		case sf.Type == intsType:
			o.Kind = Ints
			var s []string
			for _, x := range fv.Interface().([]int) {
				s = append(s, strconv.Itoa(x))
			}
			o.Default = strings.Join(s, ",")
		case sf.Type.Kind() == reflect.Int || sf.Type.Kind() == reflect.Uint64:
			o.Kind = Int
			var x uint64
			if sf.Type.Kind() == reflect.Int {
				if fv.Int() < 0 {
					return nil, nil, fmt.Errorf("option %s: default %d below 1", name, fv.Int())
				}
				x = uint64(fv.Int())
			} else {
				x = fv.Uint()
			}
			if x != 0 {
				o.Default = strconv.FormatUint(x, 10)
			}
		case sf.Type.Kind() == reflect.Float64:
			o.Kind = Float
			o.Default = strconv.FormatFloat(fv.Float(), 'g', -1, 64)
		case sf.Type.Kind() == reflect.String:
			o.Kind = String
			o.Default = fv.String()
			if c, ok := sf.Tag.Lookup("choices"); ok {
				o.Choices = strings.Split(c, "|")
			}
		default:
			return nil, nil, fmt.Errorf("option %s: field of type %s: want int, uint64, []int, float64 or a string", name, sf.Type)
		}
		if m, ok := sf.Tag.Lookup("max"); ok {
			x, err := parseMax(m)
			if err != nil {
				return nil, nil, fmt.Errorf("option %s: max %q: %v", name, m, err)
			}
			o.Max = x
		}
		if u, ok := usage[name]; ok {
			o.Usage = u
		}
		o.Valid = valid[name]
		opts = append(opts, o)
		fields = append(fields, i)
	}
	for name := range valid {
		if !seen[name] {
			return nil, nil, fmt.Errorf("Valid names no option %q", name)
		}
	}
	for name := range usage {
		if !seen[name] {
			return nil, nil, fmt.Errorf("Usage names no option %q", name)
		}
	}
	return opts, fields, nil
}

// parseMax reads a max tag: a whole number, or 1<<N.
func parseMax(s string) (int, error) {
	if b, ok := strings.CutPrefix(s, "1<<"); ok {
		n, err := strconv.Atoi(b)
		if err != nil || n < 0 || n > 30 {
			return 0, fmt.Errorf("want 1<<N with N from 0 to 30")
		}
		return 1 << n, nil
	}
	x, err := strconv.Atoi(s)
	if err != nil || x < 1 {
		return 0, fmt.Errorf("want a whole number at least 1, or 1<<N")
	}
	return x, nil
}

// simSpec checks a spec:"sim" setting: empty, "none" or a sim: device
// spec. A lab reads it only on a GPU, so without this check a bad value
// on the simulator would pass unnoticed.
func simSpec(v string) error {
	if v == "" || v == "none" {
		return nil
	}
	s, err := gpu.ParseSpec(v)
	if err != nil {
		return fmt.Errorf("want a sim: device spec such as sim:t4, \"none\" or nothing: %w", err)
	}
	if s.Backend() != "sim" {
		return fmt.Errorf("%q is not a simulator: want a sim: device spec such as sim:t4, \"none\" or nothing", v)
	}
	return nil
}
