package nbtest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Page is what a browser showed of an HTML page: its charts, its images
// and a screenshot.
type Page struct {
	// Screenshot is the path of a PNG of the whole page.
	Screenshot string
	// AMD reports whether require.js was on the page (define and
	// require defined), as in the classic notebook and nbconvert's HTML
	// export: the case where echarts must be loaded with define hidden.
	AMD bool
	// ECharts reports whether the echarts library is loaded on the page.
	ECharts bool
	Charts  []ChartCanvas
	Images  []PageImage
}

// ChartCanvas is what one charts.Show chart element holds.
type ChartCanvas struct {
	ID string
	// State is "drawn" when the interactive chart drew, "static" when
	// the chart library did not load and the element kept its static
	// image, "" when neither happened before the deadline.
	State string
	// Canvases is the number of canvas elements in the chart's element.
	Canvases int
	// Width and Height are the size of the chart's first canvas.
	Width, Height int
	// Ink counts the canvas pixels that are drawn and not near-white;
	// Colored those of them that are saturated colours (the series,
	// as opposed to grey axes and text).
	Ink, Colored int
	// StaticWidth, StaticHeight and StaticInk describe the static image
	// the element holds until the interactive chart replaces it.
	StaticWidth, StaticHeight, StaticInk int
	// Title is the drawn chart's title; Series its series, in order.
	Title  string
	Series []ChartSeries
	// Clipped lists the texts of the drawn chart that do not fit inside
	// its canvas (an axis title cut at the edge).
	Clipped []string
	// X, Y are the element's position on the page, in CSS pixels.
	X, Y float64
	// Screenshot is the path of a PNG of the chart element alone.
	Screenshot string
	// Text is the element's text when it has no canvas, such as a
	// message that the chart library is missing.
	Text string
}

// ChartSeries is one series of a drawn chart.
type ChartSeries struct {
	Name string
	// Type is echarts' series type: "line", "scatter" or "bar".
	Type string
	// Color is the colour the series is drawn in.
	Color string
	// Points are the series' points in canvas pixels (for bars, the top
	// of each bar), in data order; a point off the plot is NaN-free but
	// may lie outside the canvas.
	Points [][2]float64
	// Heights are a bar series' bar heights in pixels, in data order.
	Heights []float64
}

// Drawn reports whether the chart drew its axes and its series: at least
// 0.5% of its area is ink and 100 pixels are coloured.
func (c ChartCanvas) Drawn() bool {
	return c.Canvases > 0 && c.Ink*200 >= c.Width*c.Height && c.Colored >= 100
}

// StaticShown reports whether the chart element shows its static image,
// not blank: at least 1% of its pixels are ink.
func (c ChartCanvas) StaticShown() bool {
	return c.Canvases == 0 && c.StaticWidth > 0 && c.StaticInk*100 >= c.StaticWidth*c.StaticHeight
}

// PageImage is one img element on the page.
type PageImage struct {
	// Src is the start of the image's source (a data: URL is cut).
	Src string
	// Width and Height are the image's natural size in pixels.
	Width, Height int
	// Ink counts the image's pixels that are not near-white.
	Ink int
}

// inspectJS waits, up to a deadline, for every chart element to have a
// canvas with something drawn, then reports the page's charts and images.
// Canvas pixels are read with getImageData: echarts draws with vectors,
// so nothing taints the canvas, and data: images are same-origin.
const inspectJS = `(async () => {
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  const count = (ctx, w, h) => {
    const d = ctx.getImageData(0, 0, w, h).data;
    let ink = 0, colored = 0;
    for (let i = 0; i < d.length; i += 4) {
      const r = d[i], g = d[i+1], b = d[i+2], a = d[i+3];
      if (a < 128 || (r > 235 && g > 235 && b > 235)) continue;
      ink++;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) colored++;
    }
    return [ink, colored];
  };
  const imageInk = img => {
    if (!img.complete || img.naturalWidth === 0) return 0;
    const cv = document.createElement("canvas");
    cv.width = img.naturalWidth; cv.height = img.naturalHeight;
    const ctx = cv.getContext("2d");
    ctx.drawImage(img, 0, 0);
    return count(ctx, cv.width, cv.height)[0];
  };
  // What an echarts instance drew: title, series in pixels, and the
  // texts that do not fit inside the canvas.
  const describe = (el, c) => {
    const inst = window.echarts && window.echarts.getInstanceByDom && window.echarts.getInstanceByDom(el);
    if (!inst) return;
    const o = inst.getOption();
    c.Title = (o.title && o.title[0] && o.title[0].text) || "";
    const colors = o.color || [];
    c.Series = (o.series || []).map((s, i) => {
      const pts = [], heights = [];
      for (const d of (s.data || [])) {
        let v = d && d.value !== undefined ? d.value : d;
        let p = null;
        try {
          if (s.type === "bar") {
            const di = pts.length;
            p = inst.convertToPixel({seriesIndex: i}, [di, v]);
            const layout = inst.getModel().getSeriesByIndex(i).getData().getItemLayout(di);
            if (layout) { p = [layout.x + layout.width / 2, layout.y + Math.min(0, layout.height)]; heights.push(Math.abs(layout.height)); }
          } else {
            p = inst.convertToPixel({seriesIndex: i}, v);
          }
        } catch (e) { p = null; }
        if (p && isFinite(p[0]) && isFinite(p[1])) pts.push([p[0], p[1]]); else pts.push([-1, -1]);
      }
      const color = (s.itemStyle && s.itemStyle.color) || (s.lineStyle && s.lineStyle.color) || s.color || colors[i % Math.max(colors.length, 1)] || "";
      return {Name: s.name || "", Type: s.type || "", Color: String(color), Points: pts, Heights: heights};
    });
    const w = inst.getWidth(), h = inst.getHeight();
    c.Clipped = [];
    for (const d of inst.getZr().storage.getDisplayList(true)) {
      const text = d.style && d.style.text;
      if (!text || d.invisible || !d.getBoundingRect) continue;
      const r = d.getBoundingRect().clone();
      const m = d.getComputedTransform && d.getComputedTransform();
      if (m) r.applyTransform(m);
      if (r.x < -0.5 || r.y < -0.5 || r.x + r.width > w + 0.5 || r.y + r.height > h + 0.5) {
        c.Clipped.push(String(text) + " at " + [r.x, r.y, r.width, r.height].map(Math.round).join(","));
      }
    }
  };
  const inspect = () => {
    const charts = [...document.querySelectorAll(".warplab-chart, .warplab-chart-missing")].map(el => {
      const cs = [...el.querySelectorAll("canvas")];
      const box = el.getBoundingClientRect();
      const c = {ID: el.id, State: el.getAttribute("data-warplab-state") || "", Canvases: cs.length, Width: 0, Height: 0, Ink: 0, Colored: 0,
        StaticWidth: 0, StaticHeight: 0, StaticInk: 0, Title: "", Series: [], Clipped: [],
        X: box.left + window.scrollX, Y: box.top + window.scrollY, Text: ""};
      if (cs.length === 0) {
        const img = el.querySelector("img");
        if (img) { c.StaticWidth = img.naturalWidth; c.StaticHeight = img.naturalHeight; c.StaticInk = imageInk(img); }
        c.Text = el.innerText.slice(0, 300);
        return c;
      }
      c.Width = cs[0].width; c.Height = cs[0].height;
      for (const cv of cs) {
        const [ink, colored] = count(cv.getContext("2d"), cv.width, cv.height);
        c.Ink += ink; c.Colored += colored;
      }
      describe(el, c);
      return c;
    });
    const images = [...document.images].filter(img => !img.closest(".warplab-chart")).map(img => {
      return {Src: img.src.slice(0, 40), Width: img.naturalWidth, Height: img.naturalHeight, Ink: imageInk(img)};
    });
    return {
      AMD: typeof window.define === "function" && typeof window.require === "function",
      ECharts: typeof window.echarts === "object" && typeof window.echarts.init === "function",
      Charts: charts, Images: images,
    };
  };
  // Let MathJax (the exports load it) finish, so that its "Loading"
  // box is gone from the screenshot.
  if (window.MathJax && MathJax.Hub && MathJax.Hub.Queue) {
    await Promise.race([new Promise(r => MathJax.Hub.Queue(r)), sleep(5000)]);
    await sleep(600);
  }
  const deadline = Date.now() + 15000;
  for (;;) {
    const r = inspect();
    const settled = r.Charts.every(c => (c.Canvases > 0 && c.Colored > 0) || c.State === "static");
    if (settled || Date.now() > deadline) return r;
    await sleep(100);
  }
})()`

// chromiumPath returns the path of the Chromium browser: $WARPLAB_CHROMIUM,
// else chromium or chromium-browser on PATH.
func chromiumPath() (string, error) {
	if p := os.Getenv("WARPLAB_CHROMIUM"); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", fmt.Errorf("WARPLAB_CHROMIUM: %w", err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("chromium is not installed")
}

// InspectPage opens the HTML file at path in headless Chromium (a window
// 1200 pixels wide, with every network request refused), waits for its
// charts to draw, takes a screenshot of the whole page into the test's
// artifacts directory and reports what the page showed. It skips the test
// when Chromium is missing (a failure with WARPLAB_REQUIRE_JUPYTER=1), and
// fails it when the browser cannot load the page.
func (e *Env) InspectPage(t testing.TB, path string) *Page {
	t.Helper()
	chromium, err := chromiumPath()
	if err != nil {
		missing(t, "%v", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := testContext(t)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()

	b, err := startBrowser(chromium, t.TempDir())
	if err != nil {
		t.Fatalf("nbtest: %v", err)
	}
	defer b.close()
	fail := func(what string, err error) {
		t.Helper()
		t.Fatalf("nbtest: %s %s in Chromium: %v\nChromium's stderr:\n%s", what, path, err, b.stderr.String())
	}
	if err := b.openPage(ctx, 1200, 900); err != nil {
		fail("opening a page for", err)
	}
	if err := b.navigate(ctx, "file://"+abs); err != nil {
		fail("loading", err)
	}
	p := &Page{}
	if err := b.eval(ctx, inspectJS, p); err != nil {
		fail("inspecting", err)
	}
	shot, err := b.screenshot(ctx, nil)
	if err != nil {
		fail("taking a screenshot of", err)
	}
	p.Screenshot = filepath.Join(e.artifacts, filepath.Base(abs)+".png")
	if err := os.WriteFile(p.Screenshot, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range p.Charts {
		c := &p.Charts[i]
		w, h := c.Width, c.Height
		if c.Canvases == 0 {
			w, h = c.StaticWidth, c.StaticHeight
		}
		if w == 0 || h == 0 {
			continue
		}
		// A margin around the element: the whole chart is in the shot
		// even if the page has moved by a few pixels since it was
		// measured.
		const m = 12
		shot, err := b.screenshot(ctx, &clip{max(0, c.X-m), max(0, c.Y-m), float64(w) + 2*m, float64(h) + 2*m})
		if err != nil {
			fail("taking a screenshot of a chart of", err)
		}
		c.Screenshot = filepath.Join(e.artifacts, fmt.Sprintf("%s.chart%d.png", filepath.Base(abs), i+1))
		if err := os.WriteFile(c.Screenshot, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("nbtest: screenshot of %s: %s", filepath.Base(abs), p.Screenshot)
	return p
}

// Served writes a copy of the HTML page at path whose scripts find files
// as under a Jupyter notebook server: the page's body gets the
// data-base-url attribute that the classic notebook sets, naming a folder
// beside the copy that holds each file of files (a path below the base
// URL, such as charts.LibraryPath) copied from its source (such as
// charts.EChartsPath()). It returns the copy's path. An nbconvert export
// opened from disk has no server, so its charts show their static images;
// its Served copy shows what the notebook server shows.
func (e *Env) Served(t testing.TB, path string, files map[string]string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(filepath.Dir(path), "served")
	for rel, src := range files {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatalf("nbtest: serving %s: %v", rel, err)
		}
		dst := filepath.Join(base, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	page := string(b)
	i := strings.Index(page, "<body")
	if i < 0 {
		t.Fatalf("nbtest: %s has no <body>", path)
	}
	page = page[:i] + `<body data-base-url="file://` + filepath.ToSlash(base) + `/"` + page[i+len("<body"):]
	out := strings.TrimSuffix(path, ".html") + ".served.html"
	if err := os.WriteFile(out, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// decodePNG decodes a PNG image.
func decodePNG(b []byte) (image.Image, error) {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("nbtest: decoding PNG: %w", err)
	}
	return img, nil
}

// InkFraction returns the fraction of img's pixels that are not near-white:
// zero for a blank image.
func InkFraction(img image.Image) float64 {
	r := img.Bounds()
	if r.Empty() {
		return 0
	}
	ink := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, ca := img.At(x, y).RGBA()
			if ca >= 0x8000 && (cr < 0xeb00 || cg < 0xeb00 || cb < 0xeb00) {
				ink++
			}
		}
	}
	return float64(ink) / float64(r.Dx()*r.Dy())
}

// DecodePNGs decodes the notebook's image/png outputs.
func (nb *Notebook) DecodePNGs() ([]image.Image, error) {
	raw, err := nb.PNGs()
	if err != nil {
		return nil, err
	}
	imgs := make([]image.Image, len(raw))
	for i, b := range raw {
		if imgs[i], err = decodePNG(b); err != nil {
			return nil, err
		}
	}
	return imgs, nil
}
