package engine

import "testing"

// TestReplay checks the schedulers' fluid on warps whose answers follow
// from the definition: alone, or together under the scheduler's rate, a
// warp ends at its own end; oversubscribed, the warps share the rate.
func TestReplay(t *testing.T) {
	for _, c := range []struct {
		name string
		recs []warpRec
		ipc  float64
		want int64
	}{
		{"one warp", []warpRec{{start: 10, end: 110, slots: 50}}, 1, 110},
		{"two under the rate", []warpRec{{start: 0, end: 100, slots: 40}, {start: 0, end: 100, slots: 40}}, 1, 100},
		// Two warps each asking one slot a cycle share one: both take twice as long.
		{"two at twice the rate", []warpRec{{start: 0, end: 100, slots: 100}, {start: 0, end: 100, slots: 100}}, 1, 200},
		// Eight warps of a dependent chain at a quarter slot a cycle each
		// (an FMA every four cycles) take twice their time, as eight warps
		// a scheduler do on the H200 (sm_issue.csv: 9.4 cycles an FMA).
		{"eight chains", func() []warpRec {
			var r []warpRec
			for i := 0; i < 8; i++ {
				r = append(r, warpRec{start: 0, end: 4000, slots: 1000})
			}
			return r
		}(), 1, 8000},
		// A short warp slows a long one only while both run: the long one
		// loses half of the short one's 100 cycles of work.
		{"short and long", []warpRec{{start: 0, end: 1000, slots: 1000}, {start: 0, end: 100, slots: 100}}, 1, 1100},
		// Apart in time, nothing is shared.
		{"apart", []warpRec{{start: 0, end: 100, slots: 100}, {start: 200, end: 300, slots: 100}}, 1, 300},
		{"empty span", []warpRec{{start: 50, end: 50, slots: 3}}, 1, 50},
	} {
		if got := replay(c.recs, c.ipc); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
