package charts

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/warplab/warplab/internal/golden"
	"github.com/warplab/warplab/internal/nbtest"
)

// golden compares got with testdata/name, or rewrites the file under
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

// fixedIDs makes chart element ids reproducible for the test.
func fixedIDs(t *testing.T) {
	old := newChartID
	n := 0
	newChartID = func() string { n++; return fmt.Sprintf("warplab-chart-test%d", n) }
	t.Cleanup(func() { newChartID = old })
}

func testTable() *Table {
	t := NewTable("Atomics <and> contention",
		Column{Header: "kernel"},
		Column{Header: "block", Unit: "threads", Align: AlignCenter},
		Column{Header: "time", Unit: "µs"},
		Column{Header: "check"})
	t.Caption = "T4 profile | seed 7"
	t.AddRow(Text("global_atomic"), Int(256), Float(4913.5, 1), Text("ok"))
	t.AddRow(Text("tree*"), Int(1024), Float(108.25, 2).Highlighted(), Text("wrong sum").Highlighted())
	t.Rows = append(t.Rows, []Cell{Text("short row")})
	t.AddNote("highlighted: fastest, or failed")
	t.AddNote("times are modelled")
	return t
}

func testChart() *Chart {
	c := &Chart{
		Title: "Sum time", Subtitle: "T4 profile",
		X: Axis{Title: "n", Unit: "elements", Log: true},
		Y: Axis{Title: "time", Unit: "ms", Log: true},
	}
	c.AddLine("global atomic", XYs{{1024, 0.1}, {4096, 0.4}, {16384, 1.6}})
	c.AddScatter("tree", XYs{{1024, 0.05}, {4096, 0.1}, {16384, 0.3}})
	c.AddRefLine("Kahan reference", 3)
	return c
}

func testBars() *BarChart {
	b := &BarChart{
		Title: "Speed-up", Categories: []string{"64", "256", "1024"},
		X: Axis{Title: "block size"}, Y: Axis{Title: "ratio"}, Width: 600, Height: 300,
	}
	b.AddBars("shared/global", Values{2, 3.5, 3}).AddBars("tree/global", Values{5, 9, 8}).AddRefLine("parity", 1)
	return b
}

func TestTableGolden(t *testing.T) {
	tb := testTable()
	golden(t, "table.txt", []byte(tb.String()))
	golden(t, "table.md", []byte(tb.Markdown()))
	golden(t, "table.html", []byte(tb.HTML()))
}

func TestAddRowPanicsOnWrongWidth(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("AddRow with too few cells did not panic")
		}
	}()
	NewTable("t", Column{Header: "a"}, Column{Header: "b"}).AddRow(Text("x"))
}

func TestAutoAlign(t *testing.T) {
	tb := NewTable("", Column{Header: "a"}, Column{Header: "b"}, Column{Header: "c"})
	tb.AddRow(Int(1), Text("x"), Text(""))
	tb.AddRow(Int(22), Int(3), Int(4))
	for i, want := range []Align{AlignRight, AlignLeft, AlignRight} {
		if got := tb.align(i); got != want {
			t.Errorf("column %d: align = %v, want %v", i, got, want)
		}
	}
}

func TestInteractiveHTMLGolden(t *testing.T) {
	fixedIDs(t)
	for _, tc := range []struct {
		name string
		f    Figure
	}{{"chart.html", testChart()}, {"bars.html", testBars()}} {
		s, err := InteractiveHTML(tc.f)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		golden(t, tc.name, []byte(s))
	}
}

// A chart carries no copy of the library: it loads it from the notebook
// server once per page, and holds a static image of itself for viewers
// without JavaScript or without the library.
func TestInteractiveHTMLLoadsLibrary(t *testing.T) {
	fixedIDs(t)
	lib := filepath.Join(t.TempDir(), "echarts.js")
	if err := os.WriteFile(lib, []byte(`window.echarts = {"library": "inlined?"};`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EChartsPathEnv, lib)
	s, err := InteractiveHTML(testBars())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s, "inlined?") {
		t.Error("the chart's HTML holds the library")
	}
	for _, want := range []string{
		`"nbextensions/warplab/echarts-` + EChartsVersion + `.min.js"`,
		`getAttribute("data-base-url")`,
		"w.require([url]",
		`src="data:image/svg+xml;base64,`,
		`alt="chart: Speed-up"`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if n := strings.Count(s, "</script>"); n != 1 {
		t.Errorf("HTML has %d </script> tags, want 1 (the chart's)", n)
	}
	// The static image is the figure's SVG rendering.
	i := strings.Index(s, "base64,") + len("base64,")
	j := strings.Index(s[i:], `"`)
	img, err := base64.StdEncoding.DecodeString(s[i : i+j])
	if err != nil {
		t.Fatal(err)
	}
	var svg bytes.Buffer
	if err := WriteImage(&svg, testBars(), "svg"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(img, svg.Bytes()) {
		t.Error("the static image is not the figure's SVG rendering")
	}
	if len(s) > 40<<10 {
		t.Errorf("a chart's HTML is %d bytes, want under 40 KiB", len(s))
	}
}

func TestSVGGolden(t *testing.T) {
	for name, f := range map[string]Figure{"chart.svg": testChart(), "bars.svg": testBars()} {
		var a, b bytes.Buffer
		if err := WriteImage(&a, f, "svg"); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := WriteImage(&b, f, "svg"); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: two renderings differ", name)
		}
		golden(t, name, a.Bytes())
	}
}

func TestPNG(t *testing.T) {
	for _, f := range []Figure{testChart(), testBars(), &Chart{Title: "only a reference", RefLines: []RefLine{{"r", 1}}}} {
		var buf bytes.Buffer
		if err := WriteImage(&buf, f, "png"); err != nil {
			t.Fatalf("%s: %v", f.title(), err)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%s: decoding the PNG: %v", f.title(), err)
		}
		w, h := f.size()
		if got, want := img.Bounds().Size(), image.Pt(w*PNGScale, h*PNGScale); got != want {
			t.Errorf("%s: PNG size = %v, want %v", f.title(), got, want)
		}
		if ink := nbtest.InkFraction(img); ink < 0.005 {
			t.Errorf("%s: PNG is blank: %.4f of its pixels are not white", f.title(), ink)
		}
	}
	// The series are drawn in their colours, not only the axes.
	var buf bytes.Buffer
	if err := WriteImage(&buf, testBars(), "png"); err != nil {
		t.Fatal(err)
	}
	img, _ := png.Decode(&buf)
	if n := countColor(img, hexColor(palette[0])); n < 1000 {
		t.Errorf("bar chart PNG has %d pixels of the first series' colour, want many", n)
	}
}

func countColor(img image.Image, c color.Color) int {
	wr, wg, wb, _ := c.RGBA()
	r := img.Bounds()
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if cr, cg, cb, _ := img.At(x, y).RGBA(); cr == wr && cg == wg && cb == wb {
				n++
			}
		}
	}
	return n
}

func TestSaveImage(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"c.png", "c.svg", "c.pdf"} {
		path := filepath.Join(dir, name)
		if err := SaveImage(path, testChart()); err != nil {
			t.Fatalf("SaveImage(%s): %v", name, err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() < 1000 {
			t.Errorf("SaveImage(%s) wrote %v bytes, err %v", name, fi.Size(), err)
		}
	}
	if err := SaveImage(filepath.Join(dir, "noext"), testChart()); err == nil {
		t.Error("SaveImage without an extension: no error")
	}
	if err := SaveImage(filepath.Join(dir, "c.bmp"), testChart()); err == nil {
		t.Error("SaveImage to .bmp: no error")
	}
}

func TestValidate(t *testing.T) {
	nan := func() float64 { var z float64; return z / z }()
	for _, tc := range []struct {
		f    Figure
		want string // a part of the error; empty for none
	}{
		{testChart(), ""},
		{testBars(), ""},
		{(&Chart{Title: "c"}).AddLine("s", XYs{{1, nan}}), `series "s": point 0: y is NaN`},
		{(&Chart{Title: "c", X: Axis{Log: true}}).AddLine("s", XYs{{-1, 1}}), `point 0: x = -1 is not positive`},
		{(&Chart{Title: "c", Y: Axis{Log: true}}).AddRefLine("zero", 0), `reference line "zero": y = 0 is not positive`},
		{&Chart{Title: "c", Series: []Series{{Name: "empty"}}}, `series 0 ("empty") has no data`},
		{(&BarChart{Title: "b", Categories: []string{"a", "b"}}).AddBars("s", Values{1}), `series "s" has 1 values for 2 categories`},
		{(&BarChart{Title: "b", Y: Axis{Log: true}}), `logarithmic value axis is not supported`},
	} {
		err := tc.f.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: Validate() = %v, want nil", tc.f.title(), err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: Validate() = %v, want an error containing %q", tc.f.title(), err, tc.want)
		}
		if tc.want == "" {
			continue
		}
		// Every renderer refuses what Validate refuses.
		if _, err := InteractiveHTML(tc.f); err == nil {
			t.Errorf("%s: InteractiveHTML: no error", tc.f.title())
		}
		if err := WriteImage(&bytes.Buffer{}, tc.f, "png"); err == nil {
			t.Errorf("%s: WriteImage: no error", tc.f.title())
		}
	}
}

// The HTML renderings must parse with only the attributes they mean to
// set: a stray quote in an inline style would end the attribute early.
func TestHTMLAttributes(t *testing.T) {
	fixedIDs(t)
	chart, err := InteractiveHTML(testChart())
	if err != nil {
		t.Fatal(err)
	}
	bars, err := InteractiveHTML(testBars())
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]string{"table": testTable().HTML(), "chart": chart, "bars": bars} {
		d := xml.NewDecoder(strings.NewReader("<root>" + s + "</root>"))
		d.Strict = false
		d.AutoClose = xml.HTMLAutoClose
		d.Entity = xml.HTMLEntity
		styled := 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: parsing the HTML: %v", name, err)
			}
			if el, ok := tok.(xml.StartElement); ok {
				for _, a := range el.Attr {
					switch a.Name.Local {
					case "style":
						styled++
						if !strings.HasSuffix(a.Value, ";") {
							t.Errorf("%s: <%s> style %q does not end with ';': cut short?", name, el.Name.Local, a.Value)
						}
					case "class", "id":
					case "src", "alt", "title":
						if el.Name.Local != "img" {
							t.Errorf("%s: <%s> has an unexpected attribute %q=%q", name, el.Name.Local, a.Name.Local, a.Value)
						}
					default:
						t.Errorf("%s: <%s> has an unexpected attribute %q=%q", name, el.Name.Local, a.Name.Local, a.Value)
					}
				}
			}
		}
		if styled == 0 {
			t.Errorf("%s: no styled element", name)
		}
	}
}
