package gpu

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
)

// fill sets every number, string and bool field of the struct v points to,
// recursively, to a value of its own, and returns the next counter.
func fill(v reflect.Value, n int) int {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Struct:
			n = fill(f, n)
			continue
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(n))
		case reflect.Uint64:
			f.SetUint(uint64(n))
		case reflect.Float64:
			f.SetFloat(float64(n) + 0.5)
		case reflect.String:
			f.SetString(fmt.Sprint("s", n))
		case reflect.Bool:
			f.SetBool(true)
		default:
			continue
		}
		n++
	}
	return n
}

// sameFields reports the first field of want's type that got lacks or
// holds another value, compared by name and recursively.
func sameFields(t *testing.T, what string, got, want reflect.Value) {
	t.Helper()
	if got.NumField() != want.NumField() {
		t.Errorf("%s: %s has %d fields, %s has %d", what, got.Type(), got.NumField(), want.Type(), want.NumField())
	}
	for i := 0; i < want.NumField(); i++ {
		name := want.Type().Field(i).Name
		g := got.FieldByName(name)
		if !g.IsValid() {
			t.Errorf("%s: %s has no field %s", what, got.Type(), name)
			continue
		}
		w := want.Field(i)
		if w.Kind() == reflect.Struct && w.Type() != reflect.TypeOf(cudac.Pos{}) {
			sameFields(t, what+"."+name, g, w)
			continue
		}
		if fmt.Sprint(g.Interface()) != fmt.Sprint(w.Interface()) {
			t.Errorf("%s.%s = %v, want %v", what, name, g.Interface(), w.Interface())
		}
	}
}

func TestConversionsCoverEveryField(t *testing.T) {
	var c driver.Counters
	fill(reflect.ValueOf(&c).Elem(), 1)
	sameFields(t, "Counters", reflect.ValueOf(*countersFrom(&c)), reflect.ValueOf(c))

	var info driver.Info
	fill(reflect.ValueOf(&info).Elem(), 1)
	sameFields(t, "Info", reflect.ValueOf(Info(info)), reflect.ValueOf(info))

	var caps driver.Capabilities
	fill(reflect.ValueOf(&caps).Elem(), 1)
	sameFields(t, "Capabilities", reflect.ValueOf(Capabilities(caps)), reflect.ValueOf(caps))

	r := &driver.Result{Device: "d", Seed: 9, Printf: "p",
		Timing:      driver.Timing{Ms: 1, Source: "s", Measured: true, Breakdown: []driver.TimeComponent{{Resource: "dram", Ms: 2, Detail: "x"}}},
		Counters:    &c,
		Diagnostics: []driver.Diagnostic{{Kind: "race", Pos: cudac.Pos{Line: 3}, Other: cudac.Pos{Line: 4}, Msg: "m"}},
	}
	res := resultFrom(r)
	if res.Device != "d" || res.Seed != 9 || res.Printf != "p" || res.Counters == nil ||
		len(res.Diagnostics) != 1 || res.Diagnostics[0].Other.Line != 4 ||
		len(res.Timing.Breakdown) != 1 || res.Timing.Breakdown[0].Detail != "x" || !res.Timing.Measured {
		t.Errorf("resultFrom = %+v", res)
	}
	// Every field of driver.Result is carried into Result.
	rt := reflect.TypeOf(*r)
	for i := 0; i < rt.NumField(); i++ {
		if _, ok := reflect.TypeOf(Result{}).FieldByName(rt.Field(i).Name); !ok {
			t.Errorf("Result has no field %s of driver.Result", rt.Field(i).Name)
		}
	}
	if got := resultFrom(&driver.Result{}); got.Diagnostics == nil || got.Counters != nil {
		t.Errorf("an empty result converts to %+v", got)
	}

	de := &driver.LaunchError{Kind: driver.ErrTrap, Kernel: "k", Msg: "m", HasThread: true,
		Block: driver.Dim3{X: 1, Y: 2, Z: 3}, Thread: driver.Dim3{X: 4, Y: 5, Z: 6}, Pos: cudac.Pos{Line: 7}, Addr: 8}
	var le *LaunchError
	if err := launchErrorFrom(de); !errors.As(err, &le) || !errors.Is(err, ErrTrap) {
		t.Fatalf("launchErrorFrom = %v", err)
	}
	sameFields(t, "LaunchError", reflect.ValueOf(*le), reflect.ValueOf(*de))
	if le.Error() != de.Error() {
		t.Errorf("LaunchError says %q, the backend's %q", le.Error(), de.Error())
	}
}
