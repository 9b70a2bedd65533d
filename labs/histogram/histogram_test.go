package histogram

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
)

func TestShapesExactAndAtomics(t *testing.T) {
	// Enough elements that the resident grid (160 blocks on the T4) is
	// smaller than one block per 256 elements (1024 blocks).
	dev := testenv.Open(t, "sim:t4")
	tab, err := Shapes(dev, ShapeOptions{N: 1 << 18, Bins: []int{256}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(tab.Rows), len(Inputs())*len(Kernels()); got != want {
		t.Fatalf("got %d rows, want %d", got, want)
	}
	for _, r := range tab.Rows {
		if r.Problem != "" {
			t.Errorf("%s on %s: %s", r.Kernel, r.Input, r.Problem)
		}
		if r.Ms <= 0 {
			t.Errorf("%s on %s: time %v", r.Kernel, r.Input, r.Ms)
		}
		if r.H200Ms <= 0 {
			t.Errorf("%s on %s: no H200 row", r.Kernel, r.Input)
		}
		switch {
		case r.Kernel.private() && r.GlobalAtomics > int64(r.Grid*r.Bins):
			t.Errorf("%s on %s: %d global atomics, want at most %d blocks x %d bins", r.Kernel, r.Input, r.GlobalAtomics, r.Grid, r.Bins)
		case !r.Kernel.private() && r.SharedAtomics != 0:
			t.Errorf("%s: %d shared atomics, want none", r.Kernel, r.SharedAtomics)
		}
	}
	// The launch shape: one block per 256 elements is slower than the
	// resident grid on every input, as on the H200.
	for _, f := range tab.Findings() {
		if f.Question == "launch shape" && (f.Ratio <= 1 || f.H200Ratio <= 1) {
			t.Errorf("launch shape on %s: ratio %.2f here, %.2f on the H200; want both above 1", f.Input, f.Ratio, f.H200Ratio)
		}
	}
	t.Log(tab.Table().String() + tab.FindingsTable().String())
	s := tab.Table().String() + tab.FindingsTable().String()
	for _, want := range []string{"histResident", "H200", "launch shape"} {
		if !strings.Contains(s, want) && !strings.Contains(s, Resident.Title()) {
			t.Errorf("tables lack %q:\n%s", want, s)
		}
	}
	if err := tab.Chart().Validate(); err != nil {
		t.Error(err)
	}
}

func TestMissingBarrierReportsRace(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	tab, err := MissingBarrier(dev, BarrierOptions{N: 1 << 14, Seeds: 4})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Race == "" || !strings.Contains(tab.Race, "race") {
		t.Fatalf("no race reported: %+v", tab)
	}
	// Both lines: the zeroing store and the atomic add.
	src := KernelSource().Text
	lines := strings.Split(src, "\n")
	var zero, add int
	inKernel := false
	for i, l := range lines {
		if strings.Contains(l, "void histNoBarrier") {
			inKernel = true
		}
		if inKernel && zero == 0 && strings.Contains(l, "local[b] = 0") {
			zero = i + 1
		}
		if inKernel && add == 0 && strings.Contains(l, "atomicAdd(&local") {
			add = i + 1
		}
	}
	for _, ln := range []int{zero, add} {
		if !strings.Contains(tab.Race, ":"+itoa(ln)+":") && !strings.Contains(tab.Race, "line "+itoa(ln)) {
			t.Errorf("race %q does not name line %d", tab.Race, ln)
		}
	}
	for _, r := range tab.Rows {
		if r.Races == 0 {
			t.Errorf("seed %d: no race reported", r.Seed)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestMissingBarrierWrongCounts: under the fine interleaving the
// experiment runs with, some seed loses counts, the table names it, and
// its replay spec reproduces the same counts; the privatised kernel with
// its barrier stays exact under the same schedules.
func TestMissingBarrierWrongCounts(t *testing.T) {
	dev := testenv.Open(t, "sim:t4?seed=11")
	tab, err := MissingBarrier(dev, BarrierOptions{N: 1 << 13, Bins: 2048, Seeds: 4, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if !tab.Simulated || !strings.Contains(tab.Spec, "interleave=fine") {
		t.Fatalf("ran under %q (simulated %v), want interleave=fine", tab.Spec, tab.Simulated)
	}
	for i, r := range tab.Rows {
		if r.Seed != 11+uint64(i) {
			t.Errorf("row %d: seed %d, want %d", i, r.Seed, 11+i)
		}
	}
	r, ok := tab.FirstWrong()
	if !ok {
		t.Fatalf("no seed of %d counted wrong under fine interleaving:\n%s", len(tab.Rows), tab.Table())
	}
	replay := tab.ReplaySpec(r)
	s := tab.Table().String()
	for _, want := range []string{fmt.Sprintf("Seed %d lost %d counts", r.Seed, r.Lost), replay, "may or may not show it"} {
		if !strings.Contains(s, want) {
			t.Errorf("table lacks %q:\n%s", want, s)
		}
	}
	again, err := MissingBarrier(testenv.Open(t, replay), BarrierOptions{N: 1 << 13, Bins: 2048, Seeds: 1, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Rows[0]; got != r {
		t.Errorf("replaying %s: %+v, want %+v", replay, got, r)
	}
	fine := testenv.Open(t, FineSpec(dev.Spec()).String())
	shapes, err := Shapes(fine, ShapeOptions{N: 1 << 13, Bins: []int{2048}, Kernels: []Kernel{Private, Resident}, Inputs: []Input{Uniform}, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range shapes.Rows {
		if row.Problem != "" {
			t.Errorf("%s under %s: %s", row.Kernel, fine.Spec(), row.Problem)
		}
	}
}

func TestOptionsRefused(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	for _, o := range []ShapeOptions{{N: -1}, {Bins: []int{5000}}, {Block: 100}, {Inputs: []Input{"zipf"}}, {Kernels: []Kernel{NoBarrier}}} {
		if _, err := Shapes(dev, o); err == nil || !strings.HasPrefix(err.Error(), "histogram: ") {
			t.Errorf("%+v: got %v, want a histogram: error", o, err)
		}
	}
	if _, err := MissingBarrier(dev, BarrierOptions{Seeds: 1000}); err == nil {
		t.Error("1000 seeds accepted")
	}
}

const privatised = `
__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) {
    extern __shared__ unsigned local[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[bin[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (local[b] != 0) atomicAdd(&hist[b], local[b]);
}
`

func TestExercise(t *testing.T) {
	dev := testenv.Open(t, "sim:t4")
	f := Check(dev, Answer{Source: privatised})
	if !f.OK() {
		t.Fatalf("the privatised kernel fails:\n%s", f)
	}
	if p, _ := f.Part(kernelcheck.PartCorrect); !strings.Contains(p.Message, "count is exact") {
		t.Errorf("the correct part does not say counts were compared exactly: %q", p.Message)
	}
	if f := Check(dev, Answer{Source: AnswerTemplate}); f.OK() {
		t.Fatalf("the template passes:\n%s", f)
	} else if p, ok := f.Part("answer"); !ok || p.Verdict != labs.Unanswered {
		t.Errorf("the template is not unanswered:\n%s", f)
	}
	global := strings.Replace(AnswerTemplate, "// TODO", "// mine", 1)
	f = Check(dev, Answer{Source: global})
	if p, _ := f.Part(kernelcheck.PartContention); p.Verdict != labs.Fail {
		t.Errorf("one global atomic per element passes contention:\n%s", f)
	}
	if p, _ := f.Part(kernelcheck.PartCorrect); p.Verdict != labs.Pass {
		t.Errorf("one global atomic per element is not correct:\n%s", f)
	}
	noBarrier := strings.Replace(privatised, "local[b] = 0;\n    __syncthreads();", "local[b] = 0;", 1)
	f = Check(dev, Answer{Source: noBarrier})
	if p, _ := f.Part(kernelcheck.PartRaces); p.Verdict != labs.Fail {
		t.Errorf("the missing barrier passes the race part:\n%s", f)
	}
	everyBin := strings.Replace(privatised, "if (local[b] != 0) ", "", 1)
	if f := Check(dev, Answer{Source: everyBin}); !f.OK() {
		t.Errorf("merging every bin (blocks x bins atomics) fails:\n%s", f)
	}
	// Too few elements counted: wrong.
	wrong := strings.Replace(privatised, "i < n;", "i < n - 1;", 1)
	if f := Check(dev, Answer{Source: wrong}); f.OK() {
		t.Errorf("a kernel that skips the last element passes:\n%s", f)
	}
}

func TestRegistered(t *testing.T) {
	l, err := labs.Lookup("histogram")
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Info().Exercise.AnswerType(); got != "histogram.Answer" {
		t.Errorf("answer type %q", got)
	}
	for _, o := range l.Options() {
		if o.Usage == "" || (o.Kind == labs.Int && o.Max == 0) {
			t.Errorf("option %s: usage %q, max %d", o.Name, o.Usage, o.Max)
		}
	}
}

// TestH200RowsAreEvidence holds every H200 row to its row of the
// committed CSV it quotes (H200Evidence, copied to testdata/histshape.csv),
// and the CSV's rows to the lab's.
func TestH200RowsAreEvidence(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "histshape.csv"))
	if err != nil {
		t.Fatal(err)
	}
	measured := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Split(l, ",")
		if strings.HasPrefix(l, "#") || len(f) < 6 || f[0] == "input" {
			continue
		}
		measured[strings.Join(f[:4], ",")] = f[5]
	}
	for _, r := range H200Rows() {
		key := fmt.Sprintf("%s,%d,%s,%d", r.Input, r.Bins, r.Kernel.microbench(), r.Grid)
		got, ok := measured[key]
		if !ok {
			t.Errorf("%s: no row %s in %s", r.Kernel, key, H200Evidence)
			continue
		}
		if ms, err := strconv.ParseFloat(got, 64); err != nil || ms != r.Ms {
			t.Errorf("%s: the lab says %g ms, %s says %s", key, r.Ms, H200Evidence, got)
		}
		delete(measured, key)
	}
	for key := range measured {
		t.Errorf("%s: row %s is not among the lab's H200 rows", H200Evidence, key)
	}
}
