package nbtest_test

import (
	"os"
	"strings"
	"testing"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/internal/nbtest"
)

// TestSmokeNotebook runs testdata/smoke.ipynb through Jupyter on the GoNB
// kernel, exports it to HTML and checks in Chromium that the table, the
// echarts chart and the gonum/plot PNG are all there and drawn, and that
// a progress line ended as its summary.
func TestSmokeNotebook(t *testing.T) {
	env := nbtest.Setup(t)
	if _, err := os.Stat(charts.EChartsPath()); err != nil {
		// Without the library the chart shows a message instead: the
		// notebook still runs, but there is no chart to check.
		if os.Getenv(nbtest.RequireEnv) == "1" {
			t.Fatalf("echarts library missing: %v: run scripts/setup.sh", err)
		}
		t.Skipf("echarts library missing: %v: run scripts/setup.sh", err)
	}

	nb := env.Execute(t, "testdata/smoke.ipynb")

	if got := nb.Find("text/html", "nbtest smoke table"); len(got) != 1 {
		t.Errorf("%d text/html outputs hold the table's title, want 1", len(got))
	}
	if got := nb.Find("text/plain", "tree + one atomic      *0.11"); len(got) != 1 {
		t.Errorf("%d text/plain outputs hold the table's text rendering, want 1", len(got))
	}
	if got := nb.Find("text/html", `class="warplab-chart"`); len(got) != 1 {
		t.Errorf("%d text/html outputs hold an echarts chart, want 1", len(got))
	}
	pngs, err := nb.DecodePNGs()
	if err != nil {
		t.Fatal(err)
	}
	if len(pngs) != 1 {
		t.Fatalf("%d image/png outputs, want 1", len(pngs))
	}
	if size := pngs[0].Bounds().Size(); size.X != charts.DefaultWidth*charts.PNGScale || size.Y != charts.DefaultHeight*charts.PNGScale {
		t.Errorf("PNG output is %v pixels, want %dx%d", size, charts.DefaultWidth*charts.PNGScale, charts.DefaultHeight*charts.PNGScale)
	}
	if ink := nbtest.InkFraction(pngs[0]); ink < 0.01 {
		t.Errorf("PNG output is blank: %.4f of its pixels are not white", ink)
	}

	// The progress line was updated in place, ending as its summary.
	if got := nb.Find("text/html", "smoke progress: 5/5 done in"); len(got) != 1 {
		t.Errorf("%d outputs hold the progress summary, want 1", len(got))
	}

	export := env.ExportHTML(t, nb)
	// Opened from disk, with no notebook server to serve the chart
	// library: the chart shows its static image.
	page := env.InspectPage(t, export)
	if len(page.Charts) != 1 {
		t.Fatalf("the page has %d chart elements, want 1: %+v", len(page.Charts), page.Charts)
	}
	if c := page.Charts[0]; c.State != "static" || !c.StaticShown() {
		t.Errorf("without the chart library, the chart does not show its static image: %+v", c)
	}
	// As the notebook server serves it: the chart draws.
	page = env.InspectPage(t, env.Served(t, export, map[string]string{charts.LibraryPath: charts.EChartsPath()}))
	if !page.AMD {
		t.Error("require.js is not on the exported page: the test does not cover loading echarts beside AMD")
	}
	if !page.ECharts {
		t.Error("echarts is not loaded on the served page")
	}
	if len(page.Charts) != 1 {
		t.Fatalf("page has %d chart elements, want 1: %+v", len(page.Charts), page.Charts)
	}
	c := page.Charts[0]
	if !c.Drawn() || c.State != "drawn" {
		t.Errorf("the chart did not draw: %+v", c)
	}
	if c.Title != "nbtest smoke chart" || len(c.Series) != 3 || c.Series[0].Name != "global atomic" || len(c.Series[0].Points) != 3 {
		t.Errorf("the drawn chart is not the smoke chart: %+v", c)
	}
	if len(c.Clipped) > 0 {
		t.Errorf("texts cut at the chart's edge: %q", c.Clipped)
	}
	var drawn []nbtest.PageImage
	for _, img := range page.Images {
		if strings.HasPrefix(img.Src, "data:image/png") && img.Ink*100 >= img.Width*img.Height {
			drawn = append(drawn, img)
		}
	}
	if len(drawn) != 1 {
		t.Errorf("page has %d non-blank PNG images, want 1: %+v", len(drawn), page.Images)
	}
	t.Logf("page: %+v", page)
}
