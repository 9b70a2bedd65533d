package nbtest_test

// This file runs every notebook of notebooks/ through Jupyter on the GoNB
// kernel and checks what a browser shows of it. It lives here, not beside
// the notebooks, so that the folder students see holds only notebooks.
// The notebooks themselves are committed without outputs.

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/internal/nbtest"
)

// notebookDir is the folder of the lab notebooks, from this package's.
const notebookDir = "../../notebooks"

// startPage is the notebook that a student opens first: the course order,
// what each lab teaches and how long it takes. It has no code.
const startPage = "00-start-here.ipynb"

// maxNotebookBytes is the most a notebook may weigh with its outputs, run
// from the top on the simulator: small enough to open quickly, to grade,
// and to commit a student's work without bloat.
const maxNotebookBytes = 1_000_000

// runAllGoal is how long a notebook's Run All should take on a 2-core
// machine on the simulator (the course issue's goal); each notebook's time
// is reported against it.
const runAllGoal = 20 * time.Second

// expect is what a notebook's executed outputs must hold.
type expect struct {
	// lab is the lab's package below labs/, which the notebook's first
	// code cell imports.
	lab string
	// html are strings that must each appear in some text/html output.
	html []string
	// text are strings that must each appear in some stream output
	// (what a cell prints, or a shell command's output).
	text []string
	// charts is the number of interactive charts, pngs the number of
	// gonum/plot images.
	charts, pngs int
	// chartCheck, when set, checks the drawn charts, in page order,
	// against what the lesson says they show.
	chartCheck func(t *testing.T, cs []nbtest.ChartCanvas, nb *nbtest.Notebook)
}

var expectations = map[string]expect{
	"day26-atomics.ipynb": {
		lab: "atomics",
		html: []string{
			"kernels/global.cu", "kernels/shared.cu", "kernels/tree.cu",
			"One sum, three ways: 256 threads per block",
			"Same input, 20 runs each: how many different sums?",
			"Block sizes at n = ",
			"Day 26 sweep: 15/15 done in",
			"Day 26 determinism: 60/60 done in",
			"Day 26 block sizes: 45/45 done in",
			`class="warplab-feedback"`,
			"not answered yet",
			"read Hint 1",
			"Day 26 block sizes: 24/24 done in",
		},
		// The student's own parameters (labs.Variant).
		text:   []string{"Your exercise, for"},
		charts: 4, pngs: 1,
	},
	"softmax.ipynb": {
		lab: "softmax",
		html: []string{
			"kernels/atomic.cu", "kernels/shared.cu", "kernels/shuffle.cu",
			"Softmax denominator, three ways: 256 threads per block",
			"Crossover: shuffle is more than 10% faster than atomic from n = ",
			"modelled, t4 profile",
			"Per-element atomics vs the register cache, card by card",
			"quoted: the atomics-vs-warp-shuffle course notes",
			"modelled, gtx1650 profile", "modelled, h200 profile",
			"Profile: atomic (n = 262144) vs shared (n = 262144) vs shuffle (n = 262144)",
			"L2 hit rate (%)", "L2 (modelled): the L2 starts the launch empty", "profiled: Nsight Compute on the H200, cold L2",
			"softmax sweep: 24/24 done in",
			"One block of 256 threads, its input placed 16 ways", "modelled, h200 profile (sim:h200",
			"softmax placements: 48/48 done in",
			`class="warplab-feedback"`,
			"not answered yet",
		},
		charts: 4, pngs: 1,
	},
	"aggregation.ipynb": {
		lab: "aggregation",
		html: []string{
			"kernels/counter.cu", "kernels/buckets.cu",
			"The aggregation ladder: 2097152 elements, 256 threads per block",
			"64 buckets, 1 keys per warp",
			"aggregation ladder: 16/16 done in",
			"Same input, same kernel, 10 launches: which order?",
			"aggregation order: 10/10 done in",
			`class="warplab-feedback"`,
			"not answered yet",
			"read Hint 1",
		},
		text:   []string{"times: modelled", "ATOMG.E.ADD", "VOTEU.ANY"},
		charts: 1, pngs: 1,
	},
	"ordering.ipynb": {
		lab: "ordering",
		html: []string{
			"kernels/mp.cu",
			"Message passing between blocks on",
			"stale read forbidden",
			"1689600 of 1689600",
			"ordering: message passing: 48/48 done in",
			"release-acquire",
			"store release, load acquire",
			"kernels/litmus.cu",
			"Store and load buffering between blocks on",
			"lbBlockFence", "lbOneFence", "lbAtomicFence", "lbDependent",
			"kernels/scope.cu",
			"the scope of an atomic",
			"not atomic between blocks: updates may be lost",
			"replays that launch",
			`class="warplab-feedback"`,
			"not answered yet",
			"read Hint 1",
		},
		text:   []string{"memory model for this lab: sim:t4?seed=1&memory=relaxed"},
		charts: 1,
	},
	"histogram.ipynb": {
		lab: "histogram",
		html: []string{
			"kernels/histogram.cu",
			"Histogram: launch shape, partitioning and skew (524288 elements, 256 threads per block)",
			"What the shapes show, here and on the H200",
			"measured on an NVIDIA H200, 16,777,216 elements",
			"The missing barrier: histNoBarrier, 65536 elements, 4096 bins",
			"First race reported: kernels/histogram.cu:",
			"the spec sim:t4?seed=1&amp;interleave=fine replays that launch exactly",
			"A GPU may or may not show it",
			`class="warplab-feedback"`,
			"not answered yet",
			"read Hint 1",
		},
		text:   []string{"times: modelled", "seed 1 lost ", "replayed with sim:t4?seed=1&interleave=fine: lost "},
		charts: 1,
		// Its bar chart is about how the bars compare.
		chartCheck: barsComparable,
	},
	"cas.ipynb": {
		lab: "cas",
		html: []string{
			"kernels/cas.cu",
			"Float maximum by atomics: which kernels are right?",
			"max(-2.5, -2.5) = -Inf, want -2.5",
			"Float maximum under contention: 262144 threads",
			"measured on an NVIDIA H200, 4,194,304 threads",
			`class="warplab-feedback"`,
			"not answered yet",
			"read Hint 1",
		},
		text:   []string{"times: modelled"},
		charts: 1,
		// The chart's lines are the table's kernels, by the table's names.
		chartCheck: func(t *testing.T, cs []nbtest.ChartCanvas, nb *nbtest.Notebook) {
			for _, s := range cs[0].Series {
				name := strings.TrimSuffix(s.Name, " (H200)")
				if len(nb.Find("text/html", "<td>"+name+"</td>")) == 0 && len(nb.Find("text/html", ">"+name+"<")) == 0 {
					t.Errorf("the contention chart's line %q names no kernel of the contention table", s.Name)
				}
			}
		},
	},
	"reproducible.ipynb": {
		lab: "reproducible",
		html: []string{
			"kernels/reproducible.cu",
			"One input, 8 runs per sum: bits, error and time",
			"reproducible sums: 56/56 done in",
			"order=deterministic: reproducible on the simulator only",
			"order=deterministic: 32/32 done in",
			"prediction beside the H200, n = 4194304",
			"h200 prediction: 7/7 done in",
			`class="warplab-feedback"`,
			"not answered yet",
			"read Hint 1",
		},
		charts: 1,
		// Its bar chart is about how the bars compare.
		chartCheck: barsComparable,
	},
	"counters.ipynb": {
		lab: "counters",
		html: []string{
			"kernels/counters.cu",
			"Sliced counters: 524288 threads add 1 (unsigned), 256 per block",
			"busiest line",
			"counters sweep: 41/41 done in",
			"The H200&#39;s measurements beside the simulator&#39;s prediction",
			"modelled, t4 profile",
			`class="warplab-feedback"`,
			"not answered yet",
			"read Hint 1",
		},
		// The student's own parameters (labs.Variant).
		text:   []string{"Your exercise, for"},
		charts: 1,
	},
	"queue.ipynb": {
		lab: "queue",
		html: []string{
			"kernels/queue.cu",
			"A work queue: 262144 items, 80 blocks of 256 threads",
			"batches per popper",
			"queue sweep: 12/12 done in",
			"The H200&#39;s measurements beside the simulator&#39;s prediction",
			"modelled, t4 profile",
			`class="warplab-feedback"`,
			"not answered yet",
			"read Hint 1",
		},
		// The student's own parameters (labs.Variant).
		text:   []string{"Your exercise, for"},
		charts: 1,
	},
	"playground.ipynb": {
		lab: "playground",
		html: []string{
			`class="warplab-playground"`, "Buffers after the launch", "100000",
			`class="warplab-counters"`, "issued to the L2", "race",
			"illegal address in kernel fill", "cell.cu:1:",
		},
		text:   []string{"modelled, t4 profile", "out: [0]"},
		charts: 2,
	},
}

// rawNotebook is the part of nbformat 4 that the static checks read.
type rawNotebook struct {
	NBFormat int `json:"nbformat"`
	Metadata struct {
		Kernelspec struct{ Name string } `json:"kernelspec"`
	} `json:"metadata"`
	Cells []struct {
		CellType       string          `json:"cell_type"`
		Source         json.RawMessage `json:"source"`
		Outputs        []any           `json:"outputs"`
		ExecutionCount *int            `json:"execution_count"`
		Metadata       struct {
			Tags []string `json:"tags"`
		} `json:"metadata"`
	} `json:"cells"`
}

func source(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	json.Unmarshal(raw, &lines)
	return strings.Join(lines, "")
}

// notebooks returns the names of the notebooks in notebookDir.
func notebooks(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(notebookDir, "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks in %s: %v", notebookDir, err)
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	return names
}

func readRaw(t *testing.T, name string) *rawNotebook {
	t.Helper()
	path := name
	if !strings.Contains(name, "/") {
		path = filepath.Join(notebookDir, name)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb rawNotebook
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &nb
}

// labImport matches the import of a lab's package.
var labImport = regexp.MustCompile(`"github.com/warplab/warplab/labs/([a-z0-9]+)"`)

// TestCommittedClean checks every notebook as committed: nbformat 4 on
// the GoNB kernel, no outputs, no module plumbing in any cell (the kernel
// links warplab's module), and a first code cell that imports the lab
// the notebook is about.
func TestCommittedClean(t *testing.T) {
	for _, name := range notebooks(t) {
		nb := readRaw(t, name)
		if nb.NBFormat != 4 || nb.Metadata.Kernelspec.Name != "gonb" {
			t.Errorf("%s: nbformat %d, kernel %q; want 4 and gonb", name, nb.NBFormat, nb.Metadata.Kernelspec.Name)
		}
		want, known := expectations[name]
		first := true
		for i, c := range nb.Cells {
			if len(c.Outputs) > 0 || c.ExecutionCount != nil {
				t.Errorf("%s: cell %d is committed with outputs: clear them", name, i)
			}
			if c.CellType != "code" {
				continue
			}
			src := source(c.Source)
			for _, plumbing := range []string{"go mod edit", "GONB_DIR", "func must[", "func open("} {
				if strings.Contains(src, plumbing) {
					t.Errorf("%s: cell %d holds %q: a notebook's cells are the lesson, the kernel and the lab package do the plumbing", name, i, plumbing)
				}
			}
			if first {
				first = false
				m := labImport.FindStringSubmatch(src)
				if !strings.HasPrefix(src, "import ") || m == nil || known && m[1] != want.lab {
					t.Errorf("%s: the first code cell is not the import of its lab (labs/%s):\n%s", name, want.lab, src)
				}
			}
		}
		if first && name != startPage {
			t.Errorf("%s: no code cell", name)
		}
	}
}

// TestStartPage checks the start page: it names every lab notebook, with
// a link, in the course order, and says how long each takes.
func TestStartPage(t *testing.T) {
	nb := readRaw(t, startPage)
	var text strings.Builder
	for _, c := range nb.Cells {
		if c.CellType != "markdown" {
			t.Errorf("%s: a %s cell: the start page is prose only", startPage, c.CellType)
		}
		text.WriteString(source(c.Source))
	}
	page := text.String()
	last := -1
	for _, name := range courseOrder {
		i := strings.Index(page, "("+name+")")
		if i < 0 {
			t.Errorf("%s: no link to %s", startPage, name)
			continue
		}
		if i < last {
			t.Errorf("%s: %s is out of the course order %v", startPage, name, courseOrder)
		}
		last = i
	}
	for _, name := range notebooks(t) {
		if _, ok := expectations[name]; !ok && name != startPage {
			t.Errorf("%s has no expectations in this test", name)
		}
	}
	if n := strings.Count(page, " min"); n < len(courseOrder) {
		t.Errorf("%s: %d mentions of minutes, want one per notebook (%d)", startPage, n, len(courseOrder))
	}
}

// courseOrder is the order of the lab notebooks on the start page.
var courseOrder = []string{
	"day26-atomics.ipynb", "softmax.ipynb", "aggregation.ipynb", "counters.ipynb",
	"ordering.ipynb", "queue.ipynb", "histogram.ipynb", "cas.ipynb",
	"reproducible.ipynb", "playground.ipynb",
}

// TestAnswerCells checks that every cell tagged "answer" is what the
// grader can read: Go declarations, each a plain composite literal.
func TestAnswerCells(t *testing.T) {
	for _, path := range notebooks(t) {
		nb := readRaw(t, path)
		answers := 0
		for i, c := range nb.Cells {
			if !contains(c.Metadata.Tags, "answer") {
				continue
			}
			answers++
			f, err := parser.ParseFile(token.NewFileSet(), "answer.go", "package answer\n"+source(c.Source), 0)
			if err != nil {
				t.Errorf("%s: answer cell %d does not parse: %v", path, i, err)
				continue
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					t.Errorf("%s: answer cell %d: want var declarations only", path, i)
					continue
				}
				for _, s := range g.Specs {
					for _, v := range s.(*ast.ValueSpec).Values {
						if _, ok := v.(*ast.CompositeLit); !ok {
							t.Errorf("%s: answer cell %d: a value is not a composite literal", path, i)
						}
					}
				}
			}
		}
		if _, ok := expectations[path]; ok && answers == 0 && strings.HasPrefix(path, "day") {
			t.Errorf("%s: no cell tagged \"answer\"", path)
		}
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// TestNotebooks executes every lab notebook through Jupyter on the GoNB
// kernel with no GPU (the simulator), fails on any cell error, checks
// the executed notebook's size and reports its Run All time, exports it
// to HTML and checks in headless Chromium, with a screenshot of every
// chart: opened from disk, every chart shows its static image; served as
// the notebook server serves it, every chart draws, no text of it is cut
// at its edge, and the notebook's own chart checks (what its lesson says
// the chart shows) pass.
func TestNotebooks(t *testing.T) {
	env := nbtest.Setup(t)
	if _, err := os.Stat(charts.EChartsPath()); err != nil {
		if os.Getenv(nbtest.RequireEnv) == "1" {
			t.Fatalf("echarts library missing: %v: run scripts/setup.sh", err)
		}
		t.Skipf("echarts library missing: %v: run scripts/setup.sh", err)
	}
	// The notebooks run on the simulator, as on a machine with no GPU.
	t.Setenv("WARPLAB_DEVICE", "sim:t4")
	var report []string
	t.Cleanup(func() {
		if len(report) > 0 {
			t.Logf("Run All on the simulator (goal %v each), size with outputs (limit %d bytes):\n%s",
				runAllGoal, maxNotebookBytes, strings.Join(report, "\n"))
		}
	})
	for _, name := range notebooks(t) {
		if name == startPage {
			continue
		}
		t.Run(strings.TrimSuffix(name, ".ipynb"), func(t *testing.T) {
			want, ok := expectations[name]
			if !ok {
				t.Fatalf("no expectations for %s: add them to this test", name)
			}
			start := time.Now()
			nb := env.Execute(t, filepath.Join(notebookDir, name))
			took := time.Since(start)
			fi, err := os.Stat(nb.Path)
			if err != nil {
				t.Fatal(err)
			}
			over := ""
			if took > runAllGoal {
				over = " (over the goal)"
			}
			report = append(report, fmt.Sprintf("  %-20s %6.1f s%s  %8d bytes", name, took.Seconds(), over, fi.Size()))
			t.Logf("Run All: %.1f s (goal %v)%s; %d bytes with outputs", took.Seconds(), runAllGoal, over, fi.Size())
			if fi.Size() >= maxNotebookBytes {
				t.Errorf("%s weighs %d bytes with its outputs, want under %d", name, fi.Size(), maxNotebookBytes)
			}
			for _, s := range want.html {
				if len(nb.Find("text/html", s)) == 0 {
					t.Errorf("no output holds %q", s)
				}
			}
			for _, s := range want.text {
				found := false
				for _, o := range nb.Outputs() {
					found = found || o.Type == "stream" && strings.Contains(o.Text, s)
				}
				if !found {
					t.Errorf("no stream output holds %q", s)
				}
			}
			if got := len(nb.Find("text/html", `class="warplab-chart"`)); got != want.charts {
				t.Errorf("%d outputs hold an interactive chart, want %d", got, want.charts)
			}
			pngs, err := nb.DecodePNGs()
			if err != nil {
				t.Fatal(err)
			}
			if len(pngs) != want.pngs {
				t.Errorf("%d PNG outputs, want %d", len(pngs), want.pngs)
			}
			for i, img := range pngs {
				if ink := nbtest.InkFraction(img); ink < 0.01 {
					t.Errorf("PNG %d is blank: %.4f of its pixels are not white", i, ink)
				}
			}

			export := env.ExportHTML(t, nb)
			// Opened from disk: no server serves the chart library.
			page := env.InspectPage(t, export)
			if len(page.Charts) != want.charts {
				t.Errorf("the page has %d chart elements, want %d", len(page.Charts), want.charts)
			}
			for _, c := range page.Charts {
				if c.State != "static" || !c.StaticShown() {
					t.Errorf("chart %s: without the chart library it does not show its static image: %+v", c.ID, c)
				}
			}
			// As the notebook server serves it.
			page = env.InspectPage(t, env.Served(t, export, map[string]string{charts.LibraryPath: charts.EChartsPath()}))
			if !page.ECharts {
				t.Error("echarts is not loaded on the served page")
			}
			if len(page.Charts) != want.charts {
				t.Fatalf("the served page has %d chart elements, want %d", len(page.Charts), want.charts)
			}
			for i, c := range page.Charts {
				if !c.Drawn() {
					t.Errorf("chart %d (%s) did not draw: %+v", i+1, c.Title, c)
				}
				if len(c.Clipped) > 0 {
					t.Errorf("chart %d (%s): texts cut at its edge: %q (screenshot %s)", i+1, c.Title, c.Clipped, c.Screenshot)
				}
				if hidden := hiddenSeries(c); len(hidden) > 0 {
					t.Errorf("chart %d (%s): series %q drawn entirely under others (screenshot %s)", i+1, c.Title, hidden, c.Screenshot)
				}
				t.Logf("chart %d: %q, series %v: %s", i+1, c.Title, seriesNames(c), c.Screenshot)
			}
			if want.chartCheck != nil && len(page.Charts) == want.charts {
				want.chartCheck(t, page.Charts, nb)
			}
			drawn := 0
			for _, img := range page.Images {
				if strings.HasPrefix(img.Src, "data:image/png") && img.Ink*100 >= img.Width*img.Height {
					drawn++
				}
			}
			if drawn != want.pngs {
				t.Errorf("the page has %d non-blank PNG images, want %d: %+v", drawn, want.pngs, page.Images)
			}
			t.Logf("screenshot: %s", page.Screenshot)
		})
	}
}

// minBarPixels is the least height a bar may have in a chart whose
// lesson is the comparison of its bars: a shorter one cannot be compared
// with its neighbours by eye.
const minBarPixels = 4

// barsComparable checks that every bar of every chart is tall enough to
// compare: for the charts whose lesson is how the bars compare.
func barsComparable(t *testing.T, cs []nbtest.ChartCanvas, _ *nbtest.Notebook) {
	t.Helper()
	for i, c := range cs {
		for _, s := range c.Series {
			for j, h := range s.Heights {
				if h < minBarPixels {
					t.Errorf("chart %d (%s): bar %d of %q is %.1f px tall, too short to compare with the others (screenshot %s)", i+1, c.Title, j+1, s.Name, h, c.Screenshot)
				}
			}
		}
	}
}

// hiddenSeries returns the line and scatter series of a drawn chart of
// which every point lies within 3 pixels of a point of another series
// drawn after it (on top): a reader cannot see them.
func hiddenSeries(c nbtest.ChartCanvas) []string {
	var hidden []string
	for i, s := range c.Series {
		if s.Type == "bar" || len(s.Points) < 2 {
			continue
		}
		covered := 0
		for _, p := range s.Points {
			near := false
			for _, o := range c.Series[i+1:] {
				for _, q := range o.Points {
					if math.Hypot(p[0]-q[0], p[1]-q[1]) <= 3 {
						near = true
					}
				}
			}
			if near {
				covered++
			}
		}
		if covered == len(s.Points) {
			hidden = append(hidden, s.Name)
		}
	}
	return hidden
}

// seriesNames returns the names of a drawn chart's series.
func seriesNames(c nbtest.ChartCanvas) []string {
	names := make([]string, len(c.Series))
	for i, s := range c.Series {
		names[i] = s.Name
	}
	return names
}
