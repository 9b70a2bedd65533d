package labkit

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs"
)

func TestRunnerSeeds(t *testing.T) {
	dev, err := gpu.Open("sim:t4?seed=10&order=deterministic")
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRunner(dev)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Simulated() {
		t.Fatal("a simulator does not simulate")
	}
	if got, want := r.SimSpec(12).String(), "sim:t4?seed=12&order=deterministic"; got != want {
		t.Errorf("SimSpec(12) = %q, want %q", got, want)
	}
	// Jobs of 1, 3 and 2 launches start at seeds 10, 11 and 14.
	seeds := make([]uint64, 3)
	var jobs []Job
	for i, n := range []int{1, 3, 2} {
		jobs = append(jobs, Job{Launches: n, Do: func(s *Session) error {
			seeds[i] = s.Device.Spec().Seed()
			for range n {
				s.Launched()
			}
			return nil
		}})
	}
	var last atomic.Int64
	p := &countProgress{last: &last}
	if err := r.Run(jobs, p); err != nil {
		t.Fatal(err)
	}
	if seeds[0] != 10 || seeds[1] != 11 || seeds[2] != 14 {
		t.Errorf("seeds %v, want [10 11 14]", seeds)
	}
	if last.Load() != 6 || !p.done {
		t.Errorf("progress ended at %d (done %v), want 6 of 6", last.Load(), p.done)
	}
}

type countProgress struct {
	last *atomic.Int64
	done bool
}

func (p *countProgress) Update(done, total int, _ string) {
	if total == 6 {
		p.last.Store(int64(done))
	}
}
func (p *countProgress) Done() { p.done = true }

func TestRunnerStopsOnError(t *testing.T) {
	dev, _ := gpu.Open("sim:t4")
	r, _ := NewRunner(dev)
	r.Workers = 1
	boom := errors.New("boom")
	ran := 0
	jobs := []Job{
		{Launches: 1, Do: func(*Session) error { ran++; return boom }},
		{Launches: 1, Do: func(*Session) error { ran++; return nil }},
		{Launches: 1, Do: func(*Session) error { ran++; return nil }},
	}
	if err := r.Run(jobs, nil); !errors.Is(err, boom) {
		t.Errorf("err = %v, want boom", err)
	}
	if ran > 2 {
		t.Errorf("%d jobs ran after the first failed", ran-1)
	}
}

func TestPredictionSpec(t *testing.T) {
	for _, tc := range []struct {
		info gpu.Info
		want string
	}{
		{gpu.Info{Name: "NVIDIA H200", Arch: "sm_90"}, "sim:h200"},
		{gpu.Info{Name: "Tesla T4", Arch: "sm_75"}, "sim:t4"},
		{gpu.Info{Name: "NVIDIA H100 80GB HBM3", Arch: "sm_90"}, "sim:h200"},
		{gpu.Info{Name: "Some GPU", Arch: "sm_120"}, gpu.DefaultSim},
	} {
		want, _ := gpu.ParseSpec(tc.want)
		if got := PredictionSpec(tc.info); got != want {
			t.Errorf("PredictionSpec(%s) = %q, want %q", tc.info.Name, got, tc.want)
		}
	}
}

func TestFloats(t *testing.T) {
	xs := []float32{1e8, 1, -1e8, 1}
	if got := KahanSum(xs); got != 2 {
		t.Errorf("KahanSum = %v, want 2", got)
	}
	if !ExactInFloat32([]float32{0, 1, 2, 3}) || ExactInFloat32([]float32{0.5}) || ExactInFloat32([]float32{1 << 24, 1}) {
		t.Error("ExactInFloat32 is wrong")
	}
	if m, s := Mean([]float64{1, 2, 3}); m != 2 || math.Abs(s-1) > 1e-15 {
		t.Errorf("Mean = %v, %v", m, s)
	}
	if m, s := Mean([]float64{4}); m != 4 || s != 0 {
		t.Errorf("Mean of one = %v, %v", m, s)
	}
	if got := FormatFloat32(6289136.5); got != "6289136.5" {
		t.Errorf("FormatFloat32 = %q", got)
	}
}

func TestLaunchCounts(t *testing.T) {
	sim, gpuCaps := gpu.Capabilities{}, gpu.Capabilities{MeasuredTiming: true}
	for _, c := range []struct {
		caps               gpu.Capabilities
		warm, runs         int
		wantWarm, wantRuns int
	}{
		{sim, 0, 0, 0, 1},
		{gpuCaps, 0, 0, gpu.DefaultWarmUps, gpu.DefaultReps},
		{gpuCaps, -1, 5, 0, 5},
		{sim, 2, 7, 2, 7},
	} {
		w, r, err := LaunchCounts("lab", c.caps, c.warm, c.runs)
		if err != nil || w != c.wantWarm || r != c.wantRuns {
			t.Errorf("LaunchCounts(%+v, %d, %d) = %d, %d, %v; want %d, %d", c.caps, c.warm, c.runs, w, r, err, c.wantWarm, c.wantRuns)
		}
	}
	if _, _, err := LaunchCounts("queue", sim, 0, -3); err == nil || !strings.HasPrefix(err.Error(), "queue: Runs: ") {
		t.Errorf("negative runs: %v, want an error naming the lab", err)
	}
}

func TestJoinIntsReadsBack(t *testing.T) {
	opts := []labs.Option{{Name: "k", Kind: labs.Ints, Default: JoinInts([]int{1, 4, 32})}}
	s, err := labs.Resolve("lab", opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Ints("k")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int{1, 4, 32}) || JoinInts(nil) != "" {
		t.Errorf("read back %v, JoinInts(nil) = %q", got, JoinInts(nil))
	}
}

func TestReadInts(t *testing.T) {
	opts := []labs.Option{
		{Name: "a", Kind: labs.Int, Default: "3"},
		{Name: "b", Kind: labs.Int, Default: "5"},
		{Name: "c", Kind: labs.Ints, Default: "2,4"},
	}
	s, err := labs.Resolve("lab", opts, map[string]string{"b": "7"})
	if err != nil {
		t.Fatal(err)
	}
	var a, b int
	if err := ReadInts(s, map[string]*int{"a": &a, "b": &b}); err != nil || a != 3 || b != 7 {
		t.Errorf("a, b = %d, %d (%v), want 3, 7", a, b, err)
	}
	// c holds two numbers, not one; and "z" is no option. The first name
	// in order is reported.
	err = ReadInts(s, map[string]*int{"z": &a, "c": &b})
	if err == nil || !strings.Contains(err.Error(), "c=2,4: want one whole number") {
		t.Errorf("err = %v, want the error of c", err)
	}
	if err := ReadInts(s, map[string]*int{"y": &a}); err == nil || !strings.Contains(err.Error(), `no option "y"`) {
		t.Errorf("err = %v, want no option y", err)
	}
}

func TestWholeWarps(t *testing.T) {
	if WholeWarps(64) != nil || WholeWarps(48) == nil {
		t.Error("WholeWarps accepts 48 or refuses 64")
	}
}

func TestReportText(t *testing.T) {
	a := charts.NewTable("A", charts.Column{Header: "x"})
	a.AddRow(charts.Int(1))
	b := charts.NewTable("B", charts.Column{Header: "y"})
	b.AddRow(charts.Text("z"))
	got := ReportText([]*charts.Table{a, b}, "queue", "Tesla T4", 6.25)
	want := a.String() + "\n" + b.String() + "\n" + "queue lab on Tesla T4: 6.2 s\n"
	if got != want {
		t.Errorf("ReportText:\n%s\nwant\n%s", got, want)
	}
	if got, want := ReportMarkdown([]*charts.Table{a}, "Day 26", "H200", 1), a.Markdown()+"\nDay 26 lab on H200: 1.0 s\n"; got != want {
		t.Errorf("ReportMarkdown:\n%s\nwant\n%s", got, want)
	}
}

func TestLowbias32(t *testing.T) {
	for x, want := range map[uint32]uint32{0: 0, 1: 0x688990c0, 0x12345678: 0xf5e71c96} {
		if got := Lowbias32(x); got != want {
			t.Errorf("Lowbias32(%#x) = %#x, want %#x", x, got, want)
		}
	}
	seen := map[uint32]bool{}
	for x := uint32(0); x < 1<<12; x++ {
		seen[Lowbias32(x)] = true
	}
	if len(seen) != 1<<12 {
		t.Errorf("Lowbias32 maps 4096 inputs to %d values; a bijection maps them to 4096", len(seen))
	}
}

func TestJSONFloat32(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	in := []float32{-2.5, negZero, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.MaxFloat32, 1e-45}
	b, err := json.Marshal(JSONFloat32s(in))
	if err != nil {
		t.Fatal(err)
	}
	if want := `[-2.5,-0,"+Inf","-Inf","NaN",340282350000000000000000000000000000000,0.000000000000000000000000000000000000000000001]`; string(b) != want {
		t.Errorf("encoded %s, want %s", b, want)
	}
	var out []JSONFloat32
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	for i, x := range out {
		if got := math.Float32bits(float32(x)); got != math.Float32bits(in[i]) && !(x != x && in[i] != in[i]) {
			t.Errorf("value %d: %v came back as %v", i, in[i], x)
		}
	}
	for _, bad := range []string{`"inf"`, `"1"`, `true`, `"NaN `} {
		var f JSONFloat32
		if err := json.Unmarshal([]byte(bad), &f); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
