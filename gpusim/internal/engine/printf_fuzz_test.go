package engine

import (
	"regexp"
	"strings"
	"testing"

	"github.com/warplab/warplab/cudac"
)

// TestFormatCStars: '*' widths and precisions take int arguments (a
// negative width left-justifies, a negative precision is none) and a huge
// one is cut to cudac.MaxPrintfWidth instead of Go's "%!(BADWIDTH)".
func TestFormatCStars(t *testing.T) {
	kinds := []cudac.Kind{cudac.Int32, cudac.Int32, cudac.Int32}
	neg := func(v int32) uint64 { return uint64(uint32(v)) }
	tests := []struct {
		format string
		vals   []uint64
		want   string
	}{
		{"[%*d]", []uint64{5, 42}, "[   42]"},
		{"[%*d]", []uint64{neg(-5), 42}, "[42   ]"},
		{"[%.*d]", []uint64{4, 42}, "[0042]"},
		{"[%.*d]", []uint64{neg(-1), 42}, "[42]"},
		{"[%*.*d]", []uint64{6, 3, 7}, "[   007]"},
	}
	for _, tc := range tests {
		if got := FormatC(tc.format, tc.vals, kinds[:len(tc.vals)]); got != tc.want {
			t.Errorf("FormatC(%q, %v) = %q, want %q", tc.format, tc.vals, got, tc.want)
		}
	}
	got := FormatC("%*d", []uint64{2147483647, 1}, kinds[:2])
	if len(got) != cudac.MaxPrintfWidth || strings.Contains(got, "%!") || !strings.HasSuffix(got, " 1") {
		t.Errorf("a huge '*' width gave %d bytes ending %q, want %d bytes ending in \" 1\"", len(got), got[max(0, len(got)-10):], cudac.MaxPrintfWidth)
	}
}

// goFmtError matches Go's fmt error forms, "%!d(int=5)", "%!d(MISSING)",
// "%!(NOVERB)", "%!(BADWIDTH)": a C format may print "%!" itself ("%%%c"
// of '!', or an unknown conversion "%!" printed as written).
var goFmtError = regexp.MustCompile(`%!(\((NOVERB|BADWIDTH|BADPREC|BADINDEX|EXTRA)|[A-Za-z]\((MISSING\)|[A-Za-z0-9.*\[\]]+=))`)

// FuzzFormatC formats any format with an int and a double argument: it
// must not panic, never show Go's fmt errors ("%!"), and stay within the
// widths it may ask for.
func FuzzFormatC(f *testing.F) {
	for _, s := range []string{"%d %f", "%*d", "%-*.*f", "%2147483647d", "%.2147483647f", "%s", "%p %x", "%%%c", "%lld%lf", "%#o %+e %G %a", "% 05d", "%", "%*"} {
		f.Add(s, uint64(7), uint64(0x400921fb54442d18))
	}
	f.Fuzz(func(t *testing.T, format string, a, b uint64) {
		if len(format) > 256 {
			return
		}
		out := FormatC(format, []uint64{a, b}, []cudac.Kind{cudac.Int32, cudac.Float64})
		if goFmtError.MatchString(out) && !goFmtError.MatchString(format) {
			t.Fatalf("FormatC(%q) = %q: a Go fmt error", format, out)
		}
		if len(out) > len(format)+4*(cudac.MaxPrintfWidth+64) {
			t.Fatalf("FormatC(%q) gave %d bytes", format, len(out))
		}
	})
}
