package atomics

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Small sizes keep the simulated tests fast.
var smallSizes = []int{4096, 65536}

func TestKernelSources(t *testing.T) {
	for _, k := range Kernels() {
		src := Source(k)
		fn := k.Function(256)
		name, _, _ := strings.Cut(fn, "<")
		if !strings.Contains(src.Text, name+"(") {
			t.Errorf("%s: the source does not define %s", src.File, name)
		}
		if !strings.Contains(src.HTML(), "atomicAdd") || !strings.HasPrefix(src.String(), "// kernels/") {
			t.Errorf("%s: listing renders badly", src.File)
		}
		for _, s := range []string{string(k), k.Title(), name} {
			if got, err := ParseKernel(strings.ToUpper(s)); err != nil || got != k {
				t.Errorf("ParseKernel(%q) = %v, %v; want %v", s, got, err, k)
			}
		}
	}
	if _, err := ParseKernel("warp"); err == nil {
		t.Error("ParseKernel(warp) succeeded")
	}
}

// TestSweepMechanics checks the sweep's bookkeeping on the simulator:
// every launch's sum exact, GB/s from the time, the fastest the least.
func TestSweepMechanics(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	s, err := Sweep(dev, SweepOptions{Sizes: smallSizes, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if s.Measured || s.Timing != "modelled, t4 profile" || s.WarmUps != 0 || s.Runs != 1 || s.BlockSize != 256 {
		t.Errorf("sweep: timing %q measured %v, %d warm-ups, %d runs, block %d; want the simulator's one modelled launch at 256",
			s.Timing, s.Measured, s.WarmUps, s.Runs, s.BlockSize)
	}
	if !s.OK() {
		t.Errorf("sums not exact:\n%s", s.Table())
	}
	for i, r := range s.Rows {
		if want := 1.5 * float64(r.N); r.Reference != want || !r.Exact {
			t.Errorf("n=%d: reference %v exact %v, want %v exact", r.N, r.Reference, r.Exact, want)
		}
		best := math.Inf(1)
		for _, c := range r.Cells {
			best = math.Min(best, c.Ms)
			if len(c.Sums) != 1 || c.Sums[0] != float32(r.Reference) {
				t.Errorf("n=%d %s: sums %v", r.N, c.Kernel, c.Sums)
			}
			if want := 4 * float64(r.N) / (c.Ms * 1e6); math.Abs(c.GBps-want) > 1e-9*want {
				t.Errorf("n=%d %s: %v GB/s, want %v", r.N, c.Kernel, c.GBps, want)
			}
			if c.Ms <= 0 || len(c.Breakdown) == 0 {
				t.Errorf("n=%d %s: time %v, breakdown %v", r.N, c.Kernel, c.Ms, c.Breakdown)
			}
		}
		for _, k := range s.Fastest(i) {
			if c, _ := s.Cell(r.N, k); c.Ms != best {
				t.Errorf("n=%d: fastest %s takes %v, the least is %v", r.N, k, c.Ms, best)
			}
		}
	}
	// The global sum sends one atomic per element.
	if c, _ := s.Cell(65536, Global); c.GlobalAtomics != 65536 {
		t.Errorf("global atomics at n=65536: %d", c.GlobalAtomics)
	}
	tab := s.Table()
	text, md, html := tab.String(), tab.Markdown(), tab.HTML()
	for _, want := range []string{"modelled, t4 profile", "the model is deterministic, so one launch suffices", "65536", "*0.", "tree (GB/s)"} {
		if !strings.Contains(text, want) || !strings.Contains(md, strings.ReplaceAll(want, "*", "**")) {
			t.Errorf("a rendering of the table lacks %q:\n%s\n%s", want, text, md)
		}
	}
	for _, want := range []string{"modelled, t4 profile", "the model is deterministic, so one launch suffices", "65536", "GB/s"} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML table lacks %q:\n%s", want, html)
		}
	}
	for _, f := range []charts.Figure{s.Chart(), s.GBpsChart()} {
		if err := f.Validate(); err != nil {
			t.Error(err)
		}
	}
	if !strings.Contains(s.Chart().Subtitle, "modelled, t4 profile") {
		t.Errorf("chart subtitle %q does not say where the times come from", s.Chart().Subtitle)
	}
	if s.PredictedTable() != nil || s.PredictedChart() != nil {
		t.Error("a simulated sweep has a prediction")
	}
}

func TestSweepRejectsBadOptions(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	for _, o := range []SweepOptions{
		{BlockSize: 96}, {BlockSize: 2048}, {Sizes: []int{0}}, {Runs: -1},
	} {
		o.Progress = labs.NoProgress()
		if _, err := Sweep(dev, o); err == nil || !strings.HasPrefix(err.Error(), "atomics: ") {
			t.Errorf("Sweep(%+v): err = %v", o, err)
		}
	}
}

// TestReplay checks that an experiment on the simulator is a pure
// function of the device's spec: concurrency does not change it, a rerun
// replays it, and it equals launching the same jobs one after another on
// one device opened with that spec.
func TestReplay(t *testing.T) {
	const spec = "sim:t4?seed=5"
	opts := DeterminismOptions{N: 65536, Runs: 4, Progress: labs.NoProgress()}
	a, err := Determinism(testenv.Open(t, spec), opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Determinism(testenv.Open(t, spec), opts)
	if err != nil {
		t.Fatal(err)
	}
	// One worker: the jobs run one after another.
	dev := testenv.Open(t, spec)
	r, err := labkit.NewRunner(dev)
	if err != nil {
		t.Fatal(err)
	}
	r.Workers = 1
	var ss []series
	for _, k := range Kernels() {
		ss = append(ss, series{kernel: k, n: opts.N, block: 256, input: inexactInput, runs: opts.Runs})
	}
	seq, err := measure(r, ss, nil)
	if err != nil {
		t.Fatal(err)
	}
	// By hand, on one device: the launches in the same order.
	byHand := testenv.Open(t, spec)
	in, err := gpu.Upload(byHand, input(inexactInput, opts.N).data)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range Kernels() {
		src := Source(k)
		mod, err := byHand.Compile(src.File, []byte(src.Text))
		if err != nil {
			t.Fatal(err)
		}
		kern, err := mod.Kernel(k.Function(256))
		if err != nil {
			t.Fatal(err)
		}
		for run := range opts.Runs {
			total, _ := gpu.NewBuffer[float32](byHand, 1)
			if _, err := kern.Launch(gpu.LaunchConfig{Grid: gpu.D1(opts.N / 256), Block: gpu.D1(256)}, in, total, uint64(opts.N)); err != nil {
				t.Fatal(err)
			}
			got, _ := total.Download()
			if got[0] != a.Rows[i].Sums[run] || got[0] != b.Rows[i].Sums[run] || got[0] != seq[i].sums[run] {
				t.Errorf("%s run %d: by hand %v, concurrent %v, rerun %v, sequential %v",
					k, run, got[0], a.Rows[i].Sums[run], b.Rows[i].Sums[run], seq[i].sums[run])
			}
		}
	}
	// The global atomic's order varies with the seed: its four sums are not all one.
	if a.Rows[0].Distinct < 2 {
		t.Errorf("global atomic: %d distinct sums over %d seeded runs", a.Rows[0].Distinct, opts.Runs)
	}
}

// With order=deterministic the simulator fixes the order of atomics, so
// every run gives the same sum.
func TestDeterministicOrder(t *testing.T) {
	d, err := Determinism(testenv.Open(t, "sim:t4?order=deterministic"), DeterminismOptions{N: 65536, Runs: 3, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range d.Rows {
		if r.Distinct != 1 || r.Spread != 0 {
			t.Errorf("%s: %d distinct sums, spread %v", r.Kernel, r.Distinct, r.Spread)
		}
	}
}

func TestDeterminismRow(t *testing.T) {
	r := determinismRow(Global, []float32{10, 12.5, 10, 9.5}, 10.25)
	if r.Distinct != 3 || r.Min != 9.5 || r.Max != 12.5 || r.Spread != 3 || r.WorstError != 2.25 {
		t.Errorf("row = %+v", r)
	}
	tab := (&DeterminismTable{N: 4, Runs: 4, Reference: 10.25, Rows: []DeterminismRow{r}}).Table()
	if got := tab.String(); !strings.Contains(got, "global atomic        *3  9.5  12.5          3                     2.25") {
		t.Errorf("table:\n%s", got)
	}
}

func TestDeterminismTableAndChart(t *testing.T) {
	d, err := Determinism(testenv.Open(t, "sim:t4"), DeterminismOptions{N: 4096, Runs: 3, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if want := labkit.KahanSum(input(inexactInput, 4096).data); d.Reference != want {
		t.Errorf("reference %v, want %v", d.Reference, want)
	}
	c := d.Chart()
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
	if len(c.Series) != 3 || c.Series[0].Data.Len() != 3 || len(c.RefLines) != 1 || c.RefLines[0].Y != 0 {
		t.Errorf("chart: %d series, %d ref lines", len(c.Series), len(c.RefLines))
	}
	// The third of three kernels is dodged a quarter of a run right.
	x, y := c.Series[2].Data.XY(1)
	if x != 2.25 || y != float64(d.Rows[2].Sums[1])-d.Reference {
		t.Errorf("tree run 2 plotted at (%v, %v)", x, y)
	}
}

// The Day 26 page's input for the determinism table has its Kahan
// reference: 6289253.15 at n = 4,194,304.
func TestInexactReference(t *testing.T) {
	if got := input(inexactInput, 4194304).reference; math.Abs(got-6289253.15) > 0.005 {
		t.Errorf("reference %.4f, want 6289253.15", got)
	}
}

// synthetic returns a block-size table built from given times at one
// size, without running anything.
func synthetic(measured bool, ms map[int][3]float64) *BlockSizeTable {
	var sweeps []*SweepTable
	for _, b := range []int{64, 256, 1024} {
		s := &SweepTable{Device: "test device", Timing: "modelled, test profile", Measured: measured, BlockSize: b, Kernels: Kernels(), Runs: 1}
		row := SweepRow{N: 1 << 22, Exact: true}
		for j, k := range Kernels() {
			row.Cells = append(row.Cells, SweepCell{Kernel: k, Ms: ms[b][j], OK: true})
		}
		s.Rows = []SweepRow{row}
		sweeps = append(sweeps, s)
	}
	return blockSizeTable(sweeps, 256)
}

var syntheticMs = map[int][3]float64{
	64:   {13.8, 0.70, 0.22},
	256:  {13.8, 1.75, 0.16},
	1024: {13.9, 5.25, 0.32},
}

func TestBlockSizeRatios(t *testing.T) {
	bt := synthetic(false, syntheticMs)
	for b, ms := range syntheticMs {
		for j, k := range Kernels() {
			got, ok := bt.Ratio(b, k)
			if want := ms[j] / syntheticMs[256][j]; !ok || got != want {
				t.Errorf("ratio %d %s = %v, want %v", b, k, got, want)
			}
		}
	}
	for _, r := range bt.Rows {
		if want := []Kernel{Tree}; !slices.Equal(r.Fastest, want) {
			t.Errorf("%d: fastest %v, want %v", r.BlockSize, r.Fastest, want)
		}
	}
	text := bt.Table().String()
	if !strings.Contains(text, "               64      13.8000       0.7000    *0.2200          1.00          0.40        1.38  tree     yes") {
		t.Errorf("table:\n%s", text)
	}
	c := bt.Chart()
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
	if !slices.Equal(c.Categories, []string{"64", "256", "1024"}) || c.Series[1].Data.Value(2) != 3 {
		t.Errorf("bar chart: categories %v, shared at 1024 %v", c.Categories, c.Series[1].Data.Value(2))
	}
}

// rightAnswer is the answer that matches bt exactly.
func rightAnswer(bt *BlockSizeTable) Day26Answer {
	a := Day26Answer{Ratios: map[int]KernelRatios{}, Fastest: map[int]Kernel{},
		Sentence: "The global column barely moves: it sends one atomicAdd per element, n in all, whatever the block size, while the other two send one per block."}
	for _, r := range bt.Rows {
		a.Ratios[r.BlockSize] = KernelRatios{Global: r.Ratios[0], Shared: r.Ratios[1], Tree: r.Ratios[2]}
		a.Fastest[r.BlockSize] = r.Fastest[0]
	}
	return a
}

func item(f labs.Feedback, name string) labs.Part {
	if p, ok := f.Part(name); ok {
		return p
	}
	return labs.Part{Name: name, Verdict: labs.Fail, Message: "no such part"}
}

func TestCheckTable(t *testing.T) {
	bt := synthetic(false, syntheticMs)
	right := rightAnswer(bt)
	if f := CheckTable(bt, right); !f.OK() {
		t.Errorf("the right answer fails:\n%s", f)
	}

	// Rounded to two decimals, as the table shows them: still right.
	rounded := rightAnswer(bt)
	for b, r := range rounded.Ratios {
		rounded.Ratios[b] = KernelRatios{math.Round(r.Global*100) / 100, math.Round(r.Shared*100) / 100, math.Round(r.Tree*100) / 100}
	}
	if f := CheckTable(bt, rounded); !f.OK() {
		t.Errorf("the rounded answer fails:\n%s", f)
	}

	// A wrong ratio, a missing one and a wrong fastest column.
	wrong := rightAnswer(bt)
	wrong.Ratios[1024] = KernelRatios{Global: 1, Shared: 2, Tree: 0}
	wrong.Fastest[64] = Shared
	f := CheckTable(bt, wrong)
	if f.OK() {
		t.Fatalf("a wrong answer passes:\n%s", f)
	}
	it := item(f, "ratios at 1024 threads")
	if it.OK() || !strings.Contains(it.Message, "shared: 2 is not the re-run's") || !strings.Contains(it.Message, "missing: tree") {
		t.Errorf("1024 ratios: %+v", it)
	}
	if it := item(f, "ratios at 64 threads"); !it.OK() {
		t.Errorf("64 ratios: %+v", it)
	}
	if it := item(f, "fastest column"); it.OK() || !strings.Contains(it.Message, "64 threads: shared is not the re-run's fastest") {
		t.Errorf("fastest: %+v", it)
	}

	// Nothing answered: every part says so, and the sentence points to Hint 1.
	f = CheckTable(bt, Day26Answer{})
	for _, part := range []string{"ratios at 64 threads", "ratios at 256 threads", "ratios at 1024 threads", "fastest column"} {
		if it := item(f, part); it.Verdict != labs.Unanswered || !strings.HasPrefix(it.Message, "not answered yet") {
			t.Errorf("%s: %+v", part, it)
		}
	}
	if it := item(f, "sentence"); it.Verdict != labs.Unanswered || it.Hint != 1 {
		t.Errorf("sentence: %+v", it)
	}

	// A kernel spelled as a string is accepted.
	str := rightAnswer(bt)
	str.Fastest[256] = "Tree"
	if f := CheckTable(bt, str); !f.OK() {
		t.Errorf("\"Tree\" is not accepted:\n%s", f)
	}
}

// Check never limits a ratio: an odd device, where the global atomic
// gets twice as slow at 64 threads, is judged by its own re-run.
func TestCheckHasNoLimits(t *testing.T) {
	odd := map[int][3]float64{64: {20, 0.1, 9}, 256: {10, 1, 1}, 1024: {10, 1, 1}}
	bt := synthetic(false, odd)
	a := rightAnswer(bt)
	a.Fastest = map[int]Kernel{64: Shared, 256: Shared, 1024: Shared}
	if f := CheckTable(bt, a); !f.OK() {
		t.Errorf("the odd device's own numbers fail:\n%s", f)
	}
}

func TestCheckMeasuredTolerance(t *testing.T) {
	bt := synthetic(true, syntheticMs)
	a := rightAnswer(bt)
	// 8% off: within measured noise.
	r := a.Ratios[1024]
	r.Shared *= 1.08
	a.Ratios[1024] = r
	// Shared is 3% slower than tree at 64 threads: within noise, accepted.
	odd := map[int][3]float64{64: {13.8, 0.2266, 0.22}, 256: syntheticMs[256], 1024: syntheticMs[1024]}
	bt2 := synthetic(true, odd)
	a2 := rightAnswer(bt2)
	a2.Fastest[64] = Shared
	for _, tc := range []struct {
		bt *BlockSizeTable
		a  Day26Answer
	}{{bt, a}, {bt2, a2}} {
		if f := CheckTable(tc.bt, tc.a); !f.OK() {
			t.Errorf("within measured noise, fails:\n%s", f)
		}
	}
	r.Shared *= 1.2
	a.Ratios[1024] = r
	if f := CheckTable(bt, a); f.OK() {
		t.Errorf("30%% off passes:\n%s", f)
	}
}

func TestCheckReportsBadSums(t *testing.T) {
	bt := synthetic(false, syntheticMs)
	c := &bt.Sweeps[0].Rows[0].Cells[1]
	c.OK, c.Mismatch = false, "launch 1 of 1: sum 6291200, want 6291456"
	f := CheckTable(bt, rightAnswer(bt))
	if it := item(f, "bitwise check"); it.OK() || !strings.Contains(it.Message, "shared at n = 4194304, 64 threads per block: launch 1 of 1: sum 6291200") {
		t.Errorf("bitwise check: %+v", it)
	}
}

func TestFeedbackRenders(t *testing.T) {
	bt := synthetic(false, syntheticMs)
	f := CheckTable(bt, Day26Answer{Sentence: "Shared <stays> the same."})
	text, html := f.String(), f.HTML()
	for _, want := range []string{"Day 26 exercise: not yet", "[todo] sentence:", "(Hint 1)", "replays yours exactly"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	for _, want := range []string{`class="warplab-feedback"`, "read Hint 1", "&lt;stays&gt;", "✗"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q:\n%s", want, html)
		}
	}
	f = CheckTable(bt, rightAnswer(bt))
	if !strings.Contains(f.HTML(), "all right") || !strings.Contains(f.String(), "all right") {
		t.Errorf("a passing answer does not say so:\n%s", f)
	}
}

// TestCheckReplays runs Check for real on the simulator: the student's
// table and the re-run agree exactly.
func TestCheckReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the block-size sweep twice")
	}
	const spec = "sim:t4?seed=3"
	opts := BlockSizeOptions{Sizes: smallSizes, Progress: labs.NoProgress()}
	bt, err := BlockSizes(testenv.Open(t, spec), opts)
	if err != nil {
		t.Fatal(err)
	}
	again, err := BlockSizes(testenv.Open(t, spec), opts)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range bt.Rows {
		if !slices.Equal(r.Ratios, again.Rows[i].Ratios) {
			t.Errorf("%d threads: ratios %v, then %v", r.BlockSize, r.Ratios, again.Rows[i].Ratios)
		}
	}
	if f := CheckTable(again, rightAnswer(bt)); !f.OK() {
		t.Errorf("%s", f)
	}
}

// TestMeasuredPath runs the lab on a fake GPU: warm-ups and timed runs,
// a fresh accumulator per launch, and the simulator's prediction beside
// the measurement.
func TestMeasuredPath(t *testing.T) {
	dev, err := openFake()
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	s, err := Sweep(dev, SweepOptions{Sizes: smallSizes, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Measured || s.Timing != "measured, NVIDIA H200" || s.WarmUps != 3 || s.Runs != 10 {
		t.Errorf("timing %q, %d warm-ups, %d runs; want measured, 3 and 10", s.Timing, s.WarmUps, s.Runs)
	}
	if !s.OK() {
		t.Errorf("sums:\n%s", s.Table())
	}
	c, _ := s.Cell(65536, Global)
	if len(c.Sums) != 13 || c.StdevMs == 0 || c.MinMs > c.Ms || c.MaxMs < c.Ms {
		t.Errorf("global at 65536: %d sums, stdev %v, min %v mean %v max %v", len(c.Sums), c.StdevMs, c.MinMs, c.Ms, c.MaxMs)
	}
	if !strings.Contains(s.Table().Caption, "mean of 10 launches after 3 warm-ups, CUDA events around each launch") {
		t.Errorf("caption %q", s.Table().Caption)
	}
	p := s.Predicted
	if p == nil {
		t.Fatal("no prediction")
	}
	if p.Measured || p.Timing != "modelled, h200 profile" || !strings.HasPrefix(p.Spec, "sim:h200") {
		t.Errorf("prediction from %q (%s)", p.Timing, p.Spec)
	}
	pt := s.PredictedTable()
	if pt == nil || len(pt.Rows) != 6 || !strings.Contains(pt.Caption, "modelled, h200 profile") {
		t.Fatalf("predicted table:\n%v", pt)
	}
	if err := s.PredictedChart().Validate(); err != nil {
		t.Error(err)
	}

	// The check's tolerance comes from the measured noise. The answer is
	// what the fake GPU does, not what the table says: its times do not
	// depend on the block size (fakeNs), so every ratio is 1 but for the
	// noise, and the tree sum is the fastest at every block size.
	bt, err := BlockSizes(dev, BlockSizeOptions{Sizes: smallSizes, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	fake := Day26Answer{Ratios: map[int]KernelRatios{}, Fastest: map[int]Kernel{},
		Sentence: rightAnswer(bt).Sentence}
	for _, b := range []int{64, 256, 1024} {
		fake.Ratios[b] = KernelRatios{Global: 1, Shared: 1, Tree: 1}
		fake.Fastest[b] = Tree
	}
	f := CheckTable(bt, fake)
	if !f.OK() || !strings.Contains(f.Tolerance, "measured noise") {
		t.Errorf("the fake GPU's own behaviour fails the check:\n%s", f)
	}
	// An answer that describes a real GPU (the global column flat, the
	// shared one slower at 64 threads) is not this device's.
	wrong := fake
	wrong.Ratios = map[int]KernelRatios{64: {Global: 1, Shared: 2.5, Tree: 1.2}, 256: {1, 1, 1}, 1024: {1, 0.6, 1}}
	if f := CheckTable(bt, wrong); f.OK() {
		t.Errorf("ratios the fake GPU does not produce pass:\n%s", f)
	}

	d, err := Determinism(dev, DeterminismOptions{N: 4096, Runs: 5, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Measured || len(d.Rows[0].Sums) != 5 || !strings.Contains(d.Table().String(), "whatever the hardware did") {
		t.Errorf("determinism on the fake GPU:\n%s", d.Table())
	}
}

func TestReportJSON(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	r := &Day26Report{Device: dev.Info(), Capabilities: dev.Capabilities()}
	var err error
	if r.Sweep, err = Sweep(dev, SweepOptions{Sizes: []int{4096}, Progress: labs.NoProgress()}); err != nil {
		t.Fatal(err)
	}
	if r.Determinism, err = Determinism(dev, DeterminismOptions{N: 4096, Runs: 2, Progress: labs.NoProgress()}); err != nil {
		t.Fatal(err)
	}
	if r.BlockSizes, err = BlockSizes(dev, BlockSizeOptions{Sizes: []int{4096}, Progress: labs.NoProgress()}); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Day26Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.BlockSizes.Rows[2].BlockSize != 1024 || back.Sweep.Rows[0].Cells[2].Kernel != Tree {
		t.Errorf("round trip lost data: %s", b)
	}
	if len(r.Tables()) != 3 || len(r.Figures()) != 5 {
		t.Errorf("%d tables, %d figures", len(r.Tables()), len(r.Figures()))
	}
	for _, f := range r.Figures() {
		if err := f.Figure.Validate(); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
}
