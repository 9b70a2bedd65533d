package gpu

import (
	"strings"
	"testing"
)

// FuzzParseSpec feeds device specs to ParseSpec. It must never panic; an
// error must say "gpu: ..."; a spec it accepts must print (String) in a
// form that parses back to the same spec, so a spec can travel through a
// flag, an environment variable or a JSON report unchanged. Its seed
// corpus is in testdata/fuzz/FuzzParseSpec.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{
		"", "sim", "sim:t4", "sim:H200?seed=7&order=deterministic", "sim:t4?budget=-1", "sim:t4?budget=1000",
		"sim:h200?memory=relaxed&interleave=fine", "sim:t4?clock=1590.5", "cuda", "cuda:1", "cuda?timeout=30s",
		"sim:t4?seed=18446744073709551615", "sim:t4?fmad=false&racecheck=false", "garbage", "sim:?", "sim:t4?&&",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSpec(text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "gpu: ") {
				t.Fatalf("ParseSpec(%q): error %q does not start with \"gpu: \"", text, err)
			}
			return
		}
		canon := s.String()
		again, err := ParseSpec(canon)
		if err != nil {
			t.Fatalf("ParseSpec(%q) = %q, which does not parse: %v", text, canon, err)
		}
		if again.String() != canon || again != s {
			t.Fatalf("ParseSpec(%q) = %q, which parses to %q (%+v, want %+v)", text, canon, again.String(), again, s)
		}
	})
}
