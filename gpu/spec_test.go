package gpu

import (
	"encoding/json"
	"errors"
	"flag"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/gpu/driver"
)

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		check    func(Spec) bool
	}{
		{"", "", Spec.IsAuto},
		{"sim", "sim:t4?seed=1", func(s Spec) bool { return s.Profile() == "t4" && s.Seed() == 1 && s.RaceCheck() && s.FMAD() }},
		{"sim:t4", "sim:t4?seed=1", nil},
		{"sim:H200", "sim:h200?seed=1", func(s Spec) bool { return s.Profile() == "h200" }},
		{"sim:h200?seed=7&order=deterministic", "sim:h200?seed=7&order=deterministic",
			func(s Spec) bool { return s.Seed() == 7 && s.Order() == OrderDeterministic }},
		{"sim:t4?order=deterministic&seed=7", "sim:t4?seed=7&order=deterministic", nil},
		{"sim:t4?seed=0", "sim:t4?seed=0", func(s Spec) bool { return s.Seed() == 0 }},
		{"sim:t4?seed=18446744073709551615", "sim:t4?seed=18446744073709551615", nil},
		{"sim:t4?order=seeded&fmad=true&racecheck=true&clock=boost", "sim:t4?seed=1", nil},
		{"sim:t4?fmad=false&racecheck=false", "sim:t4?seed=1&fmad=false&racecheck=false",
			func(s Spec) bool { return !s.FMAD() && !s.RaceCheck() }},
		{"sim:t4?budget=1000", "sim:t4?seed=1&budget=1000", func(s Spec) bool { return s.Budget() == 1000 }},
		{"sim:t4?clock=base", "sim:t4?seed=1&clock=base", func(s Spec) bool { return s.Clock() == Clock{Base: true} }},
		{"sim:t4?clock=800", "sim:t4?seed=1&clock=800", func(s Spec) bool { return s.Clock() == Clock{MHz: 800} }},
		{"sim:t4?clock=1590.5", "sim:t4?seed=1&clock=1590.5", nil},
		{"sim:h200?memory=relaxed&seed=3", "sim:h200?seed=3&memory=relaxed", func(s Spec) bool { return s.Memory() == MemoryRelaxed }},
		{"sim:h200?memory=sc", "sim:h200?seed=1", func(s Spec) bool { return s.Memory() == MemorySC }},
		{"sim:h200?interleave=fine&memory=relaxed", "sim:h200?seed=1&memory=relaxed&interleave=fine", func(s Spec) bool {
			return s.Interleave() == InterleaveFine && s.WithInterleave(InterleaveCoarse).Interleave() == InterleaveCoarse
		}},
		{"sim:h200?interleave=coarse", "sim:h200?seed=1", func(s Spec) bool { return s.Interleave() == InterleaveCoarse }},
		{"cuda", "cuda:0", func(s Spec) bool { return s.Backend() == "cuda" && s.Ordinal() == 0 && !s.Seeded() && !s.RaceCheck() }},
		{"cuda:1", "cuda:1", func(s Spec) bool { return s.Ordinal() == 1 }},
		{"cuda:1?fmad=false", "cuda:1?fmad=false", func(s Spec) bool { return !s.FMAD() }},
		{"cuda?fmad=true", "cuda:0", nil},
		{"cuda", "cuda:0", func(s Spec) bool { return s.Timeout() == DefaultTimeout }},
		{"cuda?timeout=30s", "cuda:0?timeout=30s", func(s Spec) bool { return s.Timeout() == 30*time.Second }},
		{"cuda:1?timeout=1m30s&fmad=false", "cuda:1?fmad=false&timeout=1m30s", func(s Spec) bool { return s.Timeout() == 90*time.Second }},
		{"cuda?timeout=10s", "cuda:0", func(s Spec) bool { return s.Timeout() == DefaultTimeout }},
		{"cuda?timeout=0", "cuda:0?timeout=0", func(s Spec) bool { return s.Timeout() == 0 }},
		{"cuda?timeout=0s", "cuda:0?timeout=0", func(s Spec) bool { return s.Timeout() == 0 }},
		{"cuda?timeout=100ms", "cuda:0?timeout=100ms", func(s Spec) bool { return s.Timeout() == 100*time.Millisecond }},
		{"cuda", "cuda:0", func(s Spec) bool { return s.Timing() == DefaultTiming }},
		{"cuda?timing=" + DefaultTiming, "cuda:0", func(s Spec) bool { return s.Timing() == DefaultTiming }},
		{"cuda?timing=gated&timeout=0", "cuda:0?timeout=0" + optIf(DefaultTiming != TimingGated, "&timing=gated"), func(s Spec) bool {
			return s.Timing() == TimingGated && s.config().GatedTiming
		}},
		{"cuda:1?timing=ungated", "cuda:1" + optIf(DefaultTiming != TimingUngated, "?timing=ungated"), func(s Spec) bool {
			return s.Timing() == TimingUngated && !s.config().GatedTiming
		}},
		{"sim:t4", "sim:t4?seed=1", func(s Spec) bool { return s.Timing() == "" && !s.config().GatedTiming }},
		{"sim:t4", "sim:t4?seed=1", func(s Spec) bool { return s.Timeout() == DefaultSimTimeout }},
		{"sim:h200?timeout=30s", "sim:h200?seed=1&timeout=30s", func(s Spec) bool { return s.Timeout() == 30*time.Second }},
		{"sim:t4?timeout=1m", "sim:t4?seed=1", func(s Spec) bool { return s.Timeout() == DefaultSimTimeout }},
		{"sim:t4?timeout=10s", "sim:t4?seed=1&timeout=10s", func(s Spec) bool { return s.Timeout() == 10*time.Second }},
		{"sim:t4?timeout=0", "sim:t4?seed=1&timeout=0", func(s Spec) bool { return s.Timeout() == 0 }},
		{"fakegpu", "fakegpu", func(s Spec) bool { return s.Backend() == "fakegpu" }},
		{"fakegpu:dev-2", "fakegpu:dev-2", func(s Spec) bool { return s.Profile() == "dev-2" }},
	} {
		s, err := ParseSpec(tc.in)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tc.in, err)
			continue
		}
		if got := s.String(); got != tc.want {
			t.Errorf("ParseSpec(%q).String() = %q, want %q", tc.in, got, tc.want)
		}
		if tc.check != nil && !tc.check(s) {
			t.Errorf("ParseSpec(%q) = %#v: wrong fields", tc.in, s)
		}
		again, err := ParseSpec(s.String())
		if err != nil || again != s {
			t.Errorf("ParseSpec(%q) = %#v, %v; want the spec it was printed from, %#v", s.String(), again, err, s)
		}
	}
}

func TestParseSpecErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"sim:t4?budget=-1", `option budget=-1: want a positive number of warp instructions`},
		{"sim:t4?budget=0", `option budget=0: want a positive`},
		{"sim:t4?budget=many", `option budget=many: want a positive`},
		{"sim:t4?seed=-1", `option seed=-1: want a whole number from 0 to 18446744073709551615`},
		{"sim:t4?seed=x", `option seed=x: want a whole number`},
		{"sim:t4?seed=", `option seed=: want a whole number`},
		{"sim:t4?order=random", `option order=random: want seeded or deterministic`},
		{"sim:t4?fmad=maybe", `option fmad=maybe: want true or false`},
		{"sim:t4?racecheck=1", `option racecheck=1: want true or false`},
		{"sim:t4?clock=50", `option clock=50: want boost, base or MHz from 100 to 5000`},
		{"sim:t4?clock=NaN", `option clock=NaN: want boost, base or MHz`},
		{"sim:t4?clock=fast", `option clock=fast: want boost, base or MHz`},
		{"sim:t4?memory=weak", `option memory=weak: want sc or relaxed`},
		{"sim:t4?interleave=lanes", `option interleave=lanes: want coarse or fine`},
		{"cuda?timing=fast", `option timing=fast: want gated or ungated`},
		{"sim:t4?timing=gated", `unknown option timing (sim options: seed, order, fmad, racecheck, budget, clock, memory, interleave, timeout)`},
		{"cuda?interleave=fine", `unknown option interleave (cuda options: fmad, timeout, timing)`},
		{"cuda?memory=relaxed", `unknown option memory (cuda options: fmad, timeout, timing)`},
		{"sim:t4?speed=3", `unknown option speed (sim options: seed, order, fmad, racecheck, budget, clock, memory, interleave, timeout)`},
		{"sim:t4?Seed=3", `unknown option Seed (sim options: seed, order, fmad, racecheck, budget, clock, memory, interleave, timeout)`},
		{"cuda?seed=3", `unknown option seed (cuda options: fmad, timeout, timing)`},
		{"cuda:0?order=deterministic", `unknown option order (cuda options: fmad, timeout, timing)`},
		{"fakegpu?seed=3", `unknown option seed: backend fakegpu takes no options`},
		{"sim:t4?seed=1&seed=2", `option seed given twice`},
		{"cuda?timeout=-1s", `option timeout=-1s: want a duration from 100ms to 24h0m0s such as 30s or 2m, or 0 for no limit`},
		{"cuda?timeout=30", `option timeout=30: want a duration`},
		{"cuda?timeout=10ms", `option timeout=10ms: want a duration from 100ms`},
		{"cuda?timeout=25h", `option timeout=25h: want a duration`},
		{"cuda?timeout=", `option timeout=: want a duration`},
		{"sim:t4?timeout=-1s", `option timeout=-1s: want a duration from 100ms to 24h0m0s such as 30s or 2m, or 0 for no limit`},
		{"sim:h200?timeout=5", `option timeout=5: want a duration`},
		{"sim:t4?timeout=1ms", `option timeout=1ms: want a duration from 100ms`},
		{"sim:t4?seed", `option "seed": want NAME=VALUE`},
		{"sim:t4?seed=1&", `option "": want NAME=VALUE`},
		{"sim:t4?", `empty option list after ?`},
		{"cuda:x", `bad device ordinal "x": want a number such as cuda:1`},
		{"cuda:-1", `bad device ordinal "-1"`},
		{"cuda:", `bad device ordinal ""`},
		{"sim:", `bad profile "": want a profile name such as sim:t4`},
		{"sim:t 4", `bad profile "t 4"`},
		{":t4", `want BACKEND[:DEVICE][?OPTION=VALUE&...]`},
		{"?seed=1", `want BACKEND[:DEVICE]`},
		{"sim t4", `want BACKEND[:DEVICE]`},
		{"fakegpu:a/b", `bad device name "a/b"`},
	} {
		_, err := ParseSpec(tc.in)
		if err == nil {
			t.Errorf("ParseSpec(%q) succeeded, want an error", tc.in)
			continue
		}
		prefix := "gpu: device spec " + strconv.Quote(tc.in) + ": "
		if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tc.want) {
			t.Errorf("ParseSpec(%q) = %q, want %q followed by %q", tc.in, msg, prefix, tc.want)
		}
	}
}

func TestSpecWithSeed(t *testing.T) {
	s, err := ParseSpec("sim:h200?seed=3&order=deterministic&fmad=false")
	if err != nil {
		t.Fatal(err)
	}
	got := s.WithSeed(12)
	if got.String() != "sim:h200?seed=12&order=deterministic&fmad=false" || got.Seed() != 12 {
		t.Errorf("WithSeed(12) = %s", got)
	}
	if s.Seed() != 3 {
		t.Errorf("WithSeed changed the spec it was called on: %s", s)
	}
	c, _ := ParseSpec("cuda:1?fmad=false")
	if c.WithSeed(5) != c {
		t.Errorf("cuda WithSeed(5) = %s, want %s unchanged", c.WithSeed(5), c)
	}
	if (Spec{}).WithSeed(5) != (Spec{}) {
		t.Error("the automatic spec took a seed")
	}
}

func TestSpecText(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var s Spec
	fs.TextVar(&s, "device", Spec{}, "")
	if err := fs.Parse([]string{"--device", "sim:t4?order=deterministic"}); err != nil {
		t.Fatal(err)
	}
	if s.String() != "sim:t4?seed=1&order=deterministic" {
		t.Errorf("flag gives %s", s)
	}
	if err := fs.Parse([]string{"--device", "sim:t4?budget=-1"}); err == nil {
		t.Error("a bad spec is a good flag")
	}
	b, err := json.Marshal(struct{ D Spec }{s})
	if err != nil || string(b) != `{"D":"sim:t4?seed=1\u0026order=deterministic"}` {
		t.Errorf("json %s, %v", b, err)
	}
	var back struct{ D Spec }
	if err := json.Unmarshal(b, &back); err != nil || back.D != s {
		t.Errorf("json round trip: %s, %v", back.D, err)
	}
}

// specBackend records the config it is opened with.
type specBackend struct{ got *driver.Config }

func (b specBackend) Open(c driver.Config) (driver.Device, error) {
	*b.got = c
	return nil, errors.New("test backend opens nothing")
}

func (specBackend) Probe() []driver.Availability { return nil }

func TestOpenSpecs(t *testing.T) {
	var got driver.Config
	Register("spectest", specBackend{&got})
	defer func() {
		registryMu.Lock()
		delete(registry, "spectest")
		registryMu.Unlock()
	}()

	_, err := Open("spectest:dev1")
	if got.Spec != "spectest:dev1" || got.Device != "dev1" || err == nil || err.Error() != "gpu: open spectest:dev1: test backend opens nothing" {
		t.Errorf("Open gave the backend %s and returned %v", got.Spec, err)
	}
	if _, err := Open("sim:t4?budget=-1"); err == nil || !strings.HasPrefix(err.Error(), `gpu: device spec "sim:t4?budget=-1": option budget=-1`) {
		t.Errorf("Open with a bad budget: %v", err)
	}
	if _, err := Open("nosuch:x"); err == nil || !strings.Contains(err.Error(), `no backend "nosuch" (registered: `) {
		t.Errorf("Open of an unregistered backend: %v", err)
	}

	for _, tc := range []struct{ env, want string }{
		{"garbage", `gpu: WARPLAB_DEVICE=garbage: open garbage: no backend "garbage"`},
		{"sim:t4?budget=-1", `gpu: WARPLAB_DEVICE=sim:t4?budget=-1: option budget=-1: want a positive number`},
		{"sim t4", `gpu: WARPLAB_DEVICE=sim t4: want BACKEND[:DEVICE]`},
		{"spectest:x?seed=1", `gpu: WARPLAB_DEVICE=spectest:x?seed=1: unknown option seed`},
		{"spectest:fromenv", `gpu: WARPLAB_DEVICE=spectest:fromenv: open spectest:fromenv: test backend opens nothing`},
	} {
		t.Setenv(EnvDevice, tc.env)
		_, err := Open("")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s=%s: Open(\"\") = %v, want %q", EnvDevice, tc.env, err, tc.want)
		}
		_, err2 := OpenSpec(Spec{})
		if err == nil || err2 == nil || err.Error() != err2.Error() {
			t.Errorf("%s=%s: OpenSpec(Spec{}) = %v, Open(\"\") = %v", EnvDevice, tc.env, err2, err)
		}
	}
	if got.Spec != "spectest:fromenv" {
		t.Errorf("WARPLAB_DEVICE opened %s", got.Spec)
	}
}

func TestSimSpec(t *testing.T) {
	s, err := SimSpec("H200")
	want, _ := ParseSpec("sim:h200")
	if err != nil || s != want {
		t.Errorf("SimSpec(H200) = %s, %v; want %s", s, err, want)
	}
	for _, bad := range []string{"", "t 4", "t4?seed=3", "t4:x"} {
		if _, err := SimSpec(bad); err == nil {
			t.Errorf("SimSpec(%q) succeeded", bad)
		}
	}
}

func TestWithTimeout(t *testing.T) {
	cuda, _ := ParseSpec("cuda:1?fmad=false")
	for _, tc := range []struct {
		d    time.Duration
		want string
		lim  time.Duration
	}{
		{30 * time.Second, "cuda:1?fmad=false&timeout=30s", 30 * time.Second},
		{0, "cuda:1?fmad=false&timeout=0", 0},
		{DefaultTimeout, "cuda:1?fmad=false", DefaultTimeout},
	} {
		s, err := cuda.WithTimeout(tc.d)
		if err != nil {
			t.Fatalf("WithTimeout(%v): %v", tc.d, err)
		}
		if s.String() != tc.want || s.Timeout() != tc.lim {
			t.Errorf("WithTimeout(%v) = %s, limit %v; want %s, limit %v", tc.d, s, s.Timeout(), tc.want, tc.lim)
		}
	}
	for _, d := range []time.Duration{-time.Second, time.Millisecond, 48 * time.Hour} {
		if _, err := cuda.WithTimeout(d); err == nil || !strings.Contains(err.Error(), "gpu: time limit") {
			t.Errorf("WithTimeout(%v): error %v, want one about the time limit", d, err)
		}
	}
	sim, _ := ParseSpec("sim:t4")
	if s, err := sim.WithTimeout(time.Second); err != nil || s.String() != "sim:t4?seed=1&timeout=1s" || s.Timeout() != time.Second {
		t.Errorf("sim WithTimeout(1s) = %s, %v; want sim:t4?seed=1&timeout=1s", s, err)
	}
	if s, err := sim.WithTimeout(DefaultSimTimeout); err != nil || s != sim {
		t.Errorf("sim WithTimeout(DefaultSimTimeout) = %s, %v; want the spec unchanged", s, err)
	}
	if s, err := (Spec{}).WithTimeout(time.Second); err != nil || !s.IsAuto() {
		t.Errorf("automatic spec WithTimeout = %s, %v; want it unchanged", s, err)
	}
	if got := cuda.config().Timeout; got != DefaultTimeout {
		t.Errorf("config().Timeout = %v, want %v", got, DefaultTimeout)
	}
}

// optIf returns s when cond holds, else "".
func optIf(cond bool, s string) string {
	if cond {
		return s
	}
	return ""
}
