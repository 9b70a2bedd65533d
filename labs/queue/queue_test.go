package queue

import (
	"fmt"
	"os"
	"strings"
	"testing"

	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
)

// TestH200CopyMatchesEvidence reads the embedded copies of the queue
// measurements (scripts/check.sh keeps them the same as H200Evidence and
// H200LabEvidence).
func TestH200CopyMatchesEvidence(t *testing.T) {
	ms, err := H200Measurements()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2*2*13 {
		t.Errorf("%d rows, want %d", len(ms), 2*2*13)
	}
	if m, ok := H200Measured(Even(), PerThread, 4); !ok || m.MedianMs != 0.03494 {
		t.Errorf("even thread k=4: %+v %v", m, ok)
	}
	if ms, err = H200LabMeasurements(); err != nil || len(ms) != 2*2*5 {
		t.Errorf("lab rows: %d, %v; want %d", len(ms), err, 2*2*5)
	}
	if m, ok := H200LabMeasured(Even(), PerThread, 8); !ok || m.MedianMs != 0.04826 || m.MinMs != 0.04810 || m.MaxMs != 0.04886 {
		t.Errorf("lab even thread k=8: %+v %v", m, ok)
	}
	// Every cell the lab predicts has a measurement of the lab's own kernels.
	for _, set := range []H200Set{EvenSet, AllSet} {
		cs, err := set.cells()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if _, ok := H200LabMeasured(c.costs, c.pop, c.k); !ok {
				t.Errorf("%s: no measurement of the lab's kernels", c.detail())
			}
		}
	}
}

// TestSweepShape: with even costs the time falls from k = 1 and rises
// again once the batches are fewer than the threads; every output is
// right; nvcc's warp aggregation shows in the counters.
func TestSweepShape(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	s, err := Sweep(dev, SweepOptions{Items: 1 << 16, BlocksPerSM: 1, K: []int{1, 2, 64, 512}, Costs: []Costs{Even()}, Pops: []Pop{PerThread, PerWarp}, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if !s.OK() {
		t.Fatalf("an item went wrong:\n%s", s.Table())
	}
	r1, _ := s.Row(Even(), PerThread, 1)
	r512, _ := s.Row(Even(), PerThread, 512)
	bk, bms := s.Best(Even(), PerThread)
	if bk == 512 || r512.Ms < 2*bms || r1.Ms < bms {
		t.Errorf("times k=1 %.4f, k=512 %.4f, best k=%d %.4f: want the tail to make k=512 at least twice the best", r1.Ms, r512.Ms, bk, bms)
	}
	if r1.Issued*32 > r1.LaneAtomics+32*int64(s.Blocks*s.Block/32) || r1.Issued >= r1.LaneAtomics {
		t.Errorf("k=1: %d lane calls, %d to the L2: want one per warp", r1.LaneAtomics, r1.Issued)
	}
	w, _ := s.Row(Even(), PerWarp, 2)
	if !w.OK || w.Pops != (1<<16)/64 {
		t.Errorf("per warp k=2: %+v", w)
	}
	if err := s.Chart().Validate(); err != nil {
		t.Error(err)
	}
}

// TestUnevenRanking: the H200's uneven sweep at its size (4M items,
// 1056 blocks of 256) is fastest at one item a pop and slower at 4 and 8
// (0.146, 0.155 to 0.156 and 0.167 to 0.170 ms in every committed run):
// at one item a pop every warp works and the pops hide behind the work,
// each warp popping again as soon as its scheduler has issued its last
// item, where 4 and 8 leave a longer tail of heavy items.
func TestUnevenRanking(t *testing.T) {
	if testing.Short() {
		t.Skip("three launches of 4M items on sim:h200: about 25 s")
	}
	dev := testenv.Open(t, "sim:h200?timeout=0") // six launches of 4M items: no wall-clock limit on a busy machine
	s, err := Sweep(dev, SweepOptions{Items: h200Items, BlocksPerSM: 8, K: []int{1, 4, 8}, Costs: []Costs{Uneven(), Even()}, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if !s.OK() {
		t.Fatalf("an item went wrong:\n%s", s.Table())
	}
	r1, _ := s.Row(Uneven(), PerThread, 1)
	r4, _ := s.Row(Uneven(), PerThread, 4)
	r8, _ := s.Row(Uneven(), PerThread, 8)
	if !(r1.Ms < r4.Ms && r4.Ms < r8.Ms) {
		t.Errorf("uneven: k=1 %.4f, k=4 %.4f, k=8 %.4f ms: want the time to rise with k from k = 1, as on the H200\n%s", r1.Ms, r4.Ms, r8.Ms, s.Table())
	}
	// The notebook's H200 table: with even costs the head limits k = 1,
	// and k = 4 or 8 is fastest.
	if bk, _ := s.Best(Even(), PerThread); bk == 1 {
		t.Errorf("even: fastest at k = 1 on sim:h200 at the H200's size; the H200 and the lab's text: k = 4 to 8\n%s", s.Table())
	}
}

// TestConclusionsOnEveryProfile runs the lab's default sweep on the
// profiles the lab offers a student by default (sim:t4, the notebooks'
// device, and sim:h200, whose cells it predicts) and checks what the lab
// states on any device: the lane atomics fall by k and reach the L2 once
// per warp; past a few batches per thread the tail makes the largest k at
// least twice the fastest, with either costs; and the table's conclusions
// name the fastest k this device gives, which is the device's (the t4
// profile's even queue is fastest at k = 1, where the H200's at 4M items
// is fastest at 4: the note says the fastest k depends on the GPU).
func TestConclusionsOnEveryProfile(t *testing.T) {
	for _, spec := range []string{"sim:t4", "sim:h200"} {
		dev := testenv.Open(t, spec)
		s, err := Sweep(dev, SweepOptions{Progress: labs.NoProgress()})
		if err != nil {
			t.Fatal(err)
		}
		if !s.OK() {
			t.Fatalf("%s: an item went wrong:\n%s", spec, s.Table())
		}
		notes := strings.Join(s.Conclusions(), "\n")
		for _, c := range []Costs{Even(), Uneven()} {
			bk, bms := s.Best(c, PerThread)
			var prev Row
			for _, r := range s.Rows {
				if r.Costs != c || r.Pop != PerThread {
					continue
				}
				if prev.K > 0 && r.LaneAtomics >= prev.LaneAtomics {
					t.Errorf("%s %s: lane atomicAdds %d at k=%d, %d at k=%d: want them to fall with k", spec, c, r.LaneAtomics, r.K, prev.LaneAtomics, prev.K)
				}
				if r.Issued*32 > r.LaneAtomics+32*int64(s.Blocks*s.Block/32) {
					t.Errorf("%s %s k=%d: %d atomics to the L2 for %d lane calls: want one per warp", spec, c, r.K, r.Issued, r.LaneAtomics)
				}
				prev = r
			}
			if prev.Ms < 2*bms {
				t.Errorf("%s %s: k=%d %.4f ms against the fastest %.4f: want the tail to make it at least twice", spec, c, prev.K, prev.Ms, bms)
			}
			if want := fmt.Sprintf("%s, per thread: fastest at k = %d here", c, bk); !strings.Contains(notes, want) {
				t.Errorf("%s: the conclusions do not say %q:\n%s", spec, want, notes)
			}
		}
		t.Logf("%s:\n%s", spec, notes)
	}
}

func TestCheckItems(t *testing.T) {
	c := Uneven()
	got := make([]float32, 100)
	for i := range got {
		got[i] = c.want(uint32(i))
	}
	if p := checkItems(c, got); p != "" {
		t.Errorf("right output: %s", p)
	}
	got[7] = 0
	if p := checkItems(c, got); !strings.Contains(p, "item 7 was never worked") {
		t.Errorf("missing item: %q", p)
	}
	heavy := 0
	for i := range 6400 {
		if c.cost(uint32(i)) == c.Heavy {
			heavy++
		}
	}
	if heavy < 50 || heavy > 150 {
		t.Errorf("%d heavy items in 6400, want about 100", heavy)
	}
}

func TestBadOptions(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	for _, tc := range []struct {
		o    SweepOptions
		want string
	}{
		{SweepOptions{K: []int{3}}, "power of two"},
		{SweepOptions{Costs: []Costs{{Light: 1, Heavy: 2, Period: 3}}}, "period 3"},
		{SweepOptions{Pops: []Pop{"block"}}, "unknown pop"},
		{SweepOptions{Items: maxItems + 1}, "Items"},
	} {
		if _, err := Sweep(dev, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.o, err, tc.want)
		}
	}
	if _, err := labs.Run(dev, "queue", map[string]string{"k": "5"}, labs.NoProgress()); err == nil || !strings.Contains(err.Error(), "power of two") {
		t.Errorf("k=5: %v", err)
	}
	if _, err := Fidelity("", "most", nil); err == nil {
		t.Error("Fidelity of an unknown set: no error")
	}
}

func TestExercise(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	c := ExerciseConfig{Costs: Costs{Light: 8, Heavy: 512, Period: 16}, Items: 1 << 16, BlocksPerSM: 1, MaxK: 64, Tolerance: 0.15}
	if f := CheckConfig(dev, Answer{}, c); f.OK() || f.Parts[0].Verdict != labs.Unanswered {
		t.Errorf("empty: %s", f)
	}
	if f := CheckConfig(dev, Answer{K: 3, Ms: 1, Why: "x"}, c); f.OK() {
		t.Errorf("k=3 passed: %s", f)
	}
	s, err := Sweep(dev, SweepOptions{Items: c.Items, BlocksPerSM: c.BlocksPerSM, K: []int{1, 2, 4, 8, 16, 32, 64}, Costs: []Costs{c.Costs}, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	bk, bms := s.Best(c.Costs, PerThread)
	why := "smaller batches pop more often and larger ones leave the tail to a few threads"
	best := CheckConfig(dev, Answer{K: bk, Ms: bms, Why: why}, c)
	if !best.OK() {
		t.Errorf("best k=%d: %s", bk, best)
	}
	// The exercise declares the parts its check reports (a key's points).
	var names []string
	for _, p := range best.Parts {
		names = append(names, p.Name)
	}
	if want := exercise().Parts; strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("the check reports parts %q, the exercise declares %q", names, want)
	}
	worst, _ := s.Row(c.Costs, PerThread, 64)
	if worst.Ms < 1.5*bms {
		t.Fatalf("k=64 %.4f ms, best %.4f: no wrong answer at this size", worst.Ms, bms)
	}
	f := CheckConfig(dev, Answer{K: 64, Ms: worst.Ms, Why: why}, c)
	if p, _ := f.Part(PartFastest); p.Verdict != labs.Fail {
		t.Errorf("k=64 passed: %s", f)
	}
}

func TestRegistered(t *testing.T) {
	l, err := labs.Lookup("queue")
	if err != nil {
		t.Fatal(err)
	}
	if l.Info().Exercise == nil {
		t.Error("no exercise")
	}
	if _, err := os.Stat("../../" + l.Info().Notebook); err != nil {
		t.Error(err)
	}
}
