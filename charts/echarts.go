package charts

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"

	gecharts "github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// EChartsVersion is the version of the echarts library that
// scripts/setup.sh fetches and the interactive charts are written for.
const EChartsVersion = "5.6.0"

// EChartsPathEnv names the environment variable that, when set, gives the
// path of the echarts library file instead of the default in EChartsPath.
const EChartsPathEnv = "WARPLAB_ECHARTS_JS"

// EChartsPath returns where the interactive charts read the echarts
// library (echarts.min.js) from: $WARPLAB_ECHARTS_JS when set, else
// warplab/echarts-5.6.0.min.js in the user's cache directory
// (${XDG_CACHE_HOME:-$HOME/.cache} on Linux), where scripts/setup.sh
// puts it.
func EChartsPath() string {
	if p := os.Getenv(EChartsPathEnv); p != "" {
		return p
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = filepath.Join(os.TempDir(), "cache")
	}
	return filepath.Join(dir, "warplab", "echarts-"+EChartsVersion+".min.js")
}

// LibraryPath is where a Jupyter notebook server serves the echarts
// library, below the page's base URL: scripts/setup.sh and warplab's image
// install the library as a notebook extension file
// (JUPYTER_DATA_DIR/nbextensions/warplab/), which the classic notebook and
// jupyterhub-singleuser serve, offline, at this path.
const LibraryPath = "nbextensions/warplab/echarts-" + EChartsVersion + ".min.js"

// InteractiveHTML returns f as an interactive echarts chart: an HTML
// fragment holding the chart's element, a static SVG image of f drawn by
// gonum/plot inside it, and a small script that loads the echarts library
// from the notebook server (LibraryPath below the page's data-base-url),
// once per page, and draws the chart in the image's place.
//
// The fragment carries no copy of the library (about 1 MB), so a notebook
// with many charts stays small. A viewer that runs no JavaScript, or a
// page that cannot reach the library (an HTML export opened from disk, a
// notebook rendered on a web site), shows the static image. Where
// require.js is on the page (the classic notebook, nbconvert's HTML
// export) the library is loaded as an AMD module, else with a script
// element. An error is returned only when f cannot be drawn (see Figure's
// Validate).
func InteractiveHTML(f Figure) (string, error) {
	if err := f.Validate(); err != nil {
		return "", err
	}
	option, err := json.Marshal(leftAlignYName(f.echartsOption()))
	if err != nil {
		return "", fmt.Errorf("charts: encoding echarts option: %w", err)
	}
	var svg bytes.Buffer
	if err := WriteImage(&svg, f, "svg"); err != nil {
		return "", err
	}
	w, h := f.size()
	id := newChartID()
	title := html.EscapeString(f.title())
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="warplab-chart" id="%s" style="width:%dpx;height:%dpx;margin:6px 0;">`, id, w, h)
	fmt.Fprintf(&b, `<img class="warplab-chart-static" alt="chart: %s" title="a static image of the chart: it becomes interactive where the notebook server serves the chart library" style="width:%dpx;height:%dpx;" src="data:image/svg+xml;base64,%s"></div>`+"\n",
		title, w, h, base64.StdEncoding.EncodeToString(svg.Bytes()))
	fmt.Fprintf(&b, `<script>
(function () {
  var el = document.getElementById(%q);
  if (!el) { return; }
  var w = window;
  var draw = function (ec) {
    el.innerHTML = "";
    var chart = ec.init(el, null, {renderer: "canvas", width: %d, height: %d});
    chart.setOption(%s);
    el.setAttribute("data-warplab-state", "drawn");
  };
  if (w.echarts && w.echarts.init) { draw(w.echarts); return; }
  if (!w.warplabECharts) {
    var base = (document.body && document.body.getAttribute("data-base-url")) || "/";
    var url = base.replace(/\/?$/, "/") + %q;
    w.warplabECharts = new Promise(function (resolve, reject) {
      if (typeof w.require === "function" && typeof w.define === "function" && w.define.amd) {
        w.require([url], function (ec) { w.echarts = ec; resolve(ec); }, reject);
        return;
      }
      var s = document.createElement("script");
      s.src = url;
      s.onload = function () { if (w.echarts) { resolve(w.echarts); } else { reject(new Error("no echarts in " + url)); } };
      s.onerror = function () { reject(new Error("cannot load " + url)); };
      document.head.appendChild(s);
    });
  }
  w.warplabECharts.then(draw, function (err) {
    el.setAttribute("data-warplab-state", "static");
    var img = el.querySelector("img");
    if (img) { img.title = "a static image of the chart: the chart library did not load (" + err + "); scripts/setup.sh installs it for the notebook server"; }
  });
})();
</script>
`, id, w, h, option, LibraryPath)
	return b.String(), nil
}

// leftAlignYName makes the value axis's title start at the axis and run
// to the right, over the plot's top margin, instead of being centred on
// the axis, where a long title ("time per element (ns)") is cut at the
// chart's left edge. go-echarts has no field for it, so the option map is
// patched.
func leftAlignYName(option map[string]any) map[string]any {
	style := map[string]any{"align": "left"}
	switch y := option["yAxis"].(type) {
	case []opts.YAxis:
		axes := make([]any, len(y))
		for i, a := range y {
			b, err := json.Marshal(a)
			var m map[string]any
			if err == nil && json.Unmarshal(b, &m) == nil {
				m["nameTextStyle"] = style
				axes[i] = m
			} else {
				axes[i] = a
			}
		}
		option["yAxis"] = axes
	case []any:
		for _, a := range y {
			if m, ok := a.(map[string]any); ok {
				m["nameTextStyle"] = style
			}
		}
	}
	return option
}

// newChartID returns a page-unique element id; tests replace it to get
// reproducible output.
var newChartID = func() string {
	var b [8]byte
	rand.Read(b[:])
	return "warplab-chart-" + hex.EncodeToString(b[:])
}

// Layout shared by both chart kinds: title and subtitle centred at the
// top, legend at the bottom, y-axis title above the axis.
func baseOptions(title, subtitle string, nLegend int) []gecharts.GlobalOpts {
	top := 50
	if subtitle != "" {
		top = 70
	}
	bottom := 40
	if nLegend > 0 {
		bottom = 70
	}
	return []gecharts.GlobalOpts{
		gecharts.WithTitleOpts(opts.Title{Title: title, Subtitle: subtitle, Left: "center"}),
		gecharts.WithAnimation(false),
		gecharts.WithLegendOpts(opts.Legend{Show: opts.Bool(nLegend > 0), Bottom: "0"}),
		gecharts.WithGridOpts(opts.Grid{
			Left: "20", Right: "40", Top: fmt.Sprint(top), Bottom: fmt.Sprint(bottom),
			ContainLabel: opts.Bool(true),
		}),
	}
}

func axisType(a Axis) string {
	if a.Log {
		return "log"
	}
	return "value"
}

var splitLine = &opts.SplitLine{Show: opts.Bool(true), LineStyle: &opts.LineStyle{Color: "#e6e6e6"}}

func yAxisOpts(a Axis) opts.YAxis {
	return opts.YAxis{
		Type: axisType(a), Name: a.Label(), NameLocation: "end", NameGap: 12,
		SplitLine: splitLine,
	}
}

// refLineSeries adds each reference line as a series of its own, so that it
// has a legend entry, drawn as a dashed mark line across the plot. A mark
// line does not widen the axis to reach it, so add gives the series one
// point, drawn without a symbol, at the line's height.
func refLineSeries(lines []RefLine, add func(r RefLine, opt ...gecharts.SeriesOpts)) {
	for _, r := range lines {
		add(r,
			gecharts.WithSeriesOpts(func(s *gecharts.SingleSeries) {
				s.Type = "line"
				s.Color = refColor
				s.ShowSymbol = opts.Bool(false)
			}),
			gecharts.WithLineStyleOpts(opts.LineStyle{Color: refColor, Type: "dashed", Width: 1.5}),
			gecharts.WithMarkLineNameYAxisItemOpts(opts.MarkLineNameYAxisItem{Name: r.Name, YAxis: r.Y}),
			gecharts.WithMarkLineStyleOpts(opts.MarkLineStyle{
				Symbol:    []string{"none", "none"},
				Label:     &opts.Label{Show: opts.Bool(true), Formatter: "{b}", Position: "insideEndTop", Color: refColor},
				LineStyle: &opts.LineStyle{Color: refColor, Type: "dashed", Width: 1.5},
			}),
		)
	}
}

// echartsOption returns the chart's echarts option object.
func (c *Chart) echartsOption() map[string]any {
	w, h := c.size()
	l := gecharts.NewLine()
	l.SetGlobalOptions(baseOptions(c.Title, c.Subtitle, len(c.Series)+len(c.RefLines))...)
	l.SetGlobalOptions(
		gecharts.WithInitializationOpts(opts.Initialization{Width: fmt.Sprintf("%dpx", w), Height: fmt.Sprintf("%dpx", h)}),
		gecharts.WithColorsOpts(opts.Colors(palette)),
		gecharts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		gecharts.WithXAxisOpts(opts.XAxis{
			Type: axisType(c.X), Name: c.X.Label(), NameLocation: "middle", NameGap: 28,
			Scale: opts.Bool(true), SplitLine: splitLine,
		}),
		gecharts.WithYAxisOpts(yAxisOpts(c.Y)),
	)
	for _, s := range c.Series {
		data := make([]opts.LineData, s.Data.Len())
		for i := range data {
			x, y := s.Data.XY(i)
			data[i] = opts.LineData{Value: []float64{x, y}}
		}
		kind := "line"
		size := 6
		if s.Kind == ScatterSeries {
			kind, size = "scatter", 8
		}
		l.AddSeries(s.Name, data, gecharts.WithSeriesOpts(func(ss *gecharts.SingleSeries) {
			ss.Type = kind
			ss.SymbolSize = size
		}))
	}
	x0 := 0.0
	if c.X.Log {
		x0 = 1
	}
	if len(c.Series) > 0 && c.Series[0].Data.Len() > 0 {
		x0, _ = c.Series[0].Data.XY(0)
	}
	refLineSeries(c.RefLines, func(r RefLine, o ...gecharts.SeriesOpts) {
		l.AddSeries(r.Name, []opts.LineData{{Value: []float64{x0, r.Y}}}, o...)
	})
	l.Validate()
	return l.JSON()
}

// echartsOption returns the bar chart's echarts option object.
func (b *BarChart) echartsOption() map[string]any {
	w, h := b.size()
	bar := gecharts.NewBar()
	bar.SetGlobalOptions(baseOptions(b.Title, b.Subtitle, len(b.Series)+len(b.RefLines))...)
	bar.SetGlobalOptions(
		gecharts.WithInitializationOpts(opts.Initialization{Width: fmt.Sprintf("%dpx", w), Height: fmt.Sprintf("%dpx", h)}),
		gecharts.WithColorsOpts(opts.Colors(palette)),
		gecharts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		gecharts.WithXAxisOpts(opts.XAxis{Type: "category", Name: b.X.Label(), NameLocation: "middle", NameGap: 28}),
		gecharts.WithYAxisOpts(yAxisOpts(b.Y)),
	)
	bar.SetXAxis(b.Categories)
	for _, s := range b.Series {
		data := make([]opts.BarData, s.Data.Len())
		for i := range data {
			data[i] = opts.BarData{Value: s.Data.Value(i)}
		}
		bar.AddSeries(s.Name, data)
	}
	refLineSeries(b.RefLines, func(r RefLine, o ...gecharts.SeriesOpts) {
		bar.AddSeries(r.Name, []opts.BarData{{Value: r.Y}}, o...)
	})
	bar.Validate()
	return bar.JSON()
}
