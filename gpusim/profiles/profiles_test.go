package profiles

import (
	"reflect"
	"strings"
	"testing"
)

// TestEverySourceNamed checks that every parameter of every profile names
// where it comes from.
func TestEverySourceNamed(t *testing.T) {
	for _, name := range Names() {
		p, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		check := func(prefix string, v reflect.Value) {
			for i := 0; i < v.NumField(); i++ {
				f := v.Type().Field(i)
				switch f.Name {
				case "Name", "Device", "Arch", "Sources", "Cost":
					continue
				}
				if v.Field(i).IsZero() && f.Name == "BaseClockMHz" {
					continue // not every datasheet gives one
				}
				src := p.Sources[prefix+f.Name]
				if src == "" {
					t.Errorf("%s: %s%s has no source", name, prefix, f.Name)
					continue
				}
				ok := false
				for _, kind := range []string{Datasheet, Measured, Calibrated, Guide} {
					ok = ok || strings.HasPrefix(src, kind)
				}
				if !ok {
					t.Errorf("%s: %s%s: source %q does not say datasheet, measured, calibrated or guide", name, prefix, f.Name, src)
				}
			}
		}
		check("", reflect.ValueOf(*p))
		check("Cost.", reflect.ValueOf(p.Cost))
		for key := range p.Sources {
			field := strings.TrimPrefix(key, "Cost.")
			var v reflect.Value
			if field != key {
				v = reflect.ValueOf(p.Cost).FieldByName(field)
			} else {
				v = reflect.ValueOf(*p).FieldByName(field)
			}
			if !v.IsValid() {
				t.Errorf("%s: source for unknown parameter %s", name, key)
			}
		}
	}
}

func TestGet(t *testing.T) {
	if _, err := Get("T4"); err != nil {
		t.Errorf("profile names are case-insensitive: %v", err)
	}
	if _, err := Get("v100"); err == nil || !strings.Contains(err.Error(), "h200") {
		t.Errorf("unknown profile: %v", err)
	}
}
