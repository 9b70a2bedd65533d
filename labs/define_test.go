package labs_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
)

type defSettings struct {
	Sizes []int   `lab:"sizes" max:"1<<20" usage:"element counts"`
	Block int     `lab:"block-size" max:"1024" usage:"threads per block"`
	Runs  int     `lab:"runs" max:"100" usage:"timed launches (empty: the lab's choice)"`
	Seed  uint64  `lab:"seed" max:"1<<30" usage:"seed"`
	Tol   float64 `lab:"tolerance" usage:"relative error"`
	Order string  `lab:"order" choices:"seeded|deterministic" usage:"the order"`
	Note  string  // no tag: not an option
}

func defineFake(run func(defSettings)) labs.Lab {
	return labs.Define(labs.Definition[defSettings, fakeReport]{
		Info:     labs.Info{Name: "defined"},
		Defaults: defSettings{Sizes: []int{4096, 65536}, Block: 256, Seed: 7, Tol: 0.1, Order: "seeded"},
		Valid:    map[string]func(int) error{"block-size": powerOfTwo},
		Usage:    map[string]string{"order": "the order of the atomics: seeded or deterministic"},
		Run: func(dev *gpu.Device, s defSettings, p labs.Progress) (fakeReport, error) {
			run(s)
			return fakeReport{s.Sizes}, nil
		},
	})
}

func TestDefineOptions(t *testing.T) {
	l := defineFake(func(defSettings) {})
	var got []string
	for _, o := range l.Options() {
		got = append(got, strings.Join([]string{o.Name, o.Kind.String(), o.Default, o.Usage}, "/"))
		if (o.Valid != nil) != (o.Name == "block-size") {
			t.Errorf("option %s: Valid set %v", o.Name, o.Valid != nil)
		}
	}
	want := []string{
		"sizes/comma-separated whole numbers/4096,65536/element counts",
		"block-size/whole number/256/threads per block",
		"runs/whole number//timed launches (empty: the lab's choice)",
		"seed/whole number/7/seed",
		"tolerance/number/0.1/relative error",
		"order/text/seeded/the order of the atomics: seeded or deterministic",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("options:\n got %q\nwant %q", got, want)
	}
	if o := l.Options()[0]; o.Max != 1<<20 {
		t.Errorf("sizes: Max = %d, want %d", o.Max, 1<<20)
	}
	if o := l.Options()[5]; !reflect.DeepEqual(o.Choices, []string{"seeded", "deterministic"}) {
		t.Errorf("order: Choices = %q", o.Choices)
	}
}

func TestDefineRunDecodes(t *testing.T) {
	var got defSettings
	l := defineFake(func(s defSettings) { got = s })
	s, err := labs.Resolve("defined", l.Options(), map[string]string{"sizes": "32,64", "seed": "9", "tolerance": "0.5", "order": "deterministic", "runs": "3"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Run(nil, s, nil); err != nil {
		t.Fatal(err)
	}
	want := defSettings{Sizes: []int{32, 64}, Block: 256, Runs: 3, Seed: 9, Tol: 0.5, Order: "deterministic"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Run got settings %+v, want %+v", got, want)
	}
	if _, err := labs.Resolve("defined", l.Options(), map[string]string{"block-size": "96"}); err == nil || !strings.Contains(err.Error(), "power of two") {
		t.Errorf("block-size=96: error %v, want the Valid function's", err)
	}
}

func TestDefinePanicsOnBadTags(t *testing.T) {
	type badMax struct {
		N int `lab:"n" max:"lots"`
	}
	type badType struct {
		M map[string]int `lab:"m"`
	}
	type twice struct {
		A int `lab:"n"`
		B int `lab:"n"`
	}
	for name, define := range map[string]func(){
		"max":   func() { labs.Define(labs.Definition[badMax, fakeReport]{Run: runNothing[badMax]}) },
		"type":  func() { labs.Define(labs.Definition[badType, fakeReport]{Run: runNothing[badType]}) },
		"twice": func() { labs.Define(labs.Definition[twice, fakeReport]{Run: runNothing[twice]}) },
		"valid": func() {
			labs.Define(labs.Definition[defSettings, fakeReport]{Run: runNothing[defSettings], Valid: map[string]func(int) error{"nope": nil}})
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Define did not panic", name)
				}
			}()
			define()
		}()
	}
}

func runNothing[S any](*gpu.Device, S, labs.Progress) (fakeReport, error) { return fakeReport{}, nil }

type predictSettings struct {
	Predict string `lab:"predict" spec:"sim" usage:"the simulated device that predicts a GPU"`
}

// TestSpecSimTag: a spec:"sim" setting (a lab's predict) is checked when
// settings are resolved, on any device, not only where a GPU reads it.
func TestSpecSimTag(t *testing.T) {
	l := labs.Define(labs.Definition[predictSettings, fakeReport]{
		Info: labs.Info{Name: "predicting"},
		Run: func(*gpu.Device, predictSettings, labs.Progress) (fakeReport, error) {
			return fakeReport{}, nil
		},
	})
	for _, ok := range []string{"", "none", "sim:t4", "sim:h200?seed=3"} {
		if _, err := labs.Resolve("predicting", l.Options(), map[string]string{"predict": ok}); err != nil {
			t.Errorf("predict=%s: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"garbage!!":            "want a sim: device spec",
		"cuda":                 `"cuda" is not a simulator`,
		"sim:../../etc/passwd": `bad profile "../../etc/passwd"`,
	} {
		_, err := labs.Resolve("predicting", l.Options(), map[string]string{"predict": bad})
		if err == nil || !strings.Contains(err.Error(), "predict="+bad) || !strings.Contains(err.Error(), want) {
			t.Errorf("predict=%s: got %v, want an error with %q", bad, err, want)
		}
	}
}
