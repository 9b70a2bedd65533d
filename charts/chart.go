package charts

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
)

// XYer is the data of a line or scatter series: Len points, the i-th at
// XY(i). It has the method set of gonum's plotter.XYer, so a lab's result
// type can implement it once and serve both.
type XYer interface {
	Len() int
	XY(i int) (x, y float64)
}

// XY is one point of a series.
type XY struct{ X, Y float64 }

// XYs is a slice of points that implements XYer.
type XYs []XY

// Len returns the number of points.
func (p XYs) Len() int { return len(p) }

// XY returns point i.
func (p XYs) XY(i int) (x, y float64) { return p[i].X, p[i].Y }

// Valuer is the data of a bar series: one value per category. It has the
// method set of gonum's plotter.Valuer.
type Valuer interface {
	Len() int
	Value(i int) float64
}

// Values is a slice of values that implements Valuer.
type Values []float64

// Len returns the number of values.
func (v Values) Len() int { return len(v) }

// Value returns value i.
func (v Values) Value(i int) float64 { return v[i] }

// Axis describes a chart axis.
type Axis struct {
	Title string
	// Unit, if not empty, is shown after the title: "time (ms)".
	Unit string
	// Log selects a base-10 logarithmic scale; every value on the axis
	// must then be positive.
	Log bool
}

// Label returns the axis title with its unit, as the charts show it.
func (a Axis) Label() string {
	return Column{Header: a.Title, Unit: a.Unit}.label()
}

// SeriesKind says how a series is drawn.
type SeriesKind int

const (
	// LineSeries joins the points in order with a line and marks each.
	LineSeries SeriesKind = iota
	// ScatterSeries marks the points without joining them.
	ScatterSeries
)

// Series is one named set of points on a Chart.
type Series struct {
	// Name labels the series in the legend.
	Name string
	Kind SeriesKind
	Data XYer
}

// RefLine is a horizontal reference line across a chart, such as an exact
// result or a hardware limit, labelled Name.
type RefLine struct {
	Name string
	Y    float64
}

// Default size of a chart, in CSS pixels.
const (
	DefaultWidth  = 800
	DefaultHeight = 440
)

// Chart describes an x-y chart of line and scatter series, independent of
// how it is drawn: InteractiveHTML draws it with echarts, Plot, WriteImage
// and SaveImage with gonum/plot, and Show picks for the notebook.
type Chart struct {
	Title    string
	Subtitle string
	X, Y     Axis
	Series   []Series
	RefLines []RefLine
	// Width and Height are the chart's size in CSS pixels; zero means
	// DefaultWidth and DefaultHeight.
	Width, Height int
}

// AddLine appends a line series and returns c, so calls can be chained.
func (c *Chart) AddLine(name string, data XYer) *Chart {
	c.Series = append(c.Series, Series{Name: name, Kind: LineSeries, Data: data})
	return c
}

// AddScatter appends a scatter series and returns c.
func (c *Chart) AddScatter(name string, data XYer) *Chart {
	c.Series = append(c.Series, Series{Name: name, Kind: ScatterSeries, Data: data})
	return c
}

// AddRefLine appends a horizontal reference line at y and returns c.
func (c *Chart) AddRefLine(name string, y float64) *Chart {
	c.RefLines = append(c.RefLines, RefLine{Name: name, Y: y})
	return c
}

// Validate reports whether the chart can be drawn: every value finite,
// and positive on a logarithmic axis.
func (c *Chart) Validate() error {
	for i, s := range c.Series {
		if s.Data == nil {
			return fmt.Errorf("charts: chart %q: series %d (%q) has no data", c.Title, i, s.Name)
		}
		for j := range s.Data.Len() {
			x, y := s.Data.XY(j)
			if err := checkValue(x, c.X.Log); err != nil {
				return fmt.Errorf("charts: chart %q: series %q: point %d: x %w", c.Title, s.Name, j, err)
			}
			if err := checkValue(y, c.Y.Log); err != nil {
				return fmt.Errorf("charts: chart %q: series %q: point %d: y %w", c.Title, s.Name, j, err)
			}
		}
	}
	return checkRefLines(c.Title, c.RefLines, c.Y.Log)
}

func checkRefLines(title string, lines []RefLine, log bool) error {
	for _, r := range lines {
		if err := checkValue(r.Y, log); err != nil {
			return fmt.Errorf("charts: chart %q: reference line %q: y %w", title, r.Name, err)
		}
	}
	return nil
}

// checkValue returns why v cannot be drawn, or nil.
func checkValue(v float64, log bool) error {
	switch {
	case math.IsNaN(v):
		return fmt.Errorf("is NaN")
	case math.IsInf(v, 0):
		return fmt.Errorf("is %v", v)
	case log && v <= 0:
		return fmt.Errorf("= %v is not positive, on a log axis", v)
	}
	return nil
}

// BarSeries is one named set of bars on a BarChart, one bar per category.
type BarSeries struct {
	Name string
	Data Valuer
}

// BarChart describes a grouped bar chart: for each category, one bar per
// series side by side, such as a speed-up ratio per kernel and block size.
type BarChart struct {
	Title    string
	Subtitle string
	// Categories name the groups along the x axis.
	Categories []string
	// X titles the category axis; its Unit and Log are not used.
	X Axis
	// Y is the value axis; bars need a linear scale, so Log must be false.
	Y        Axis
	Series   []BarSeries
	RefLines []RefLine
	// Width and Height are the chart's size in CSS pixels; zero means
	// DefaultWidth and DefaultHeight.
	Width, Height int
}

// AddBars appends a bar series and returns b, so calls can be chained.
func (b *BarChart) AddBars(name string, data Valuer) *BarChart {
	b.Series = append(b.Series, BarSeries{Name: name, Data: data})
	return b
}

// AddRefLine appends a horizontal reference line at y and returns b.
func (b *BarChart) AddRefLine(name string, y float64) *BarChart {
	b.RefLines = append(b.RefLines, RefLine{Name: name, Y: y})
	return b
}

// Validate reports whether the chart can be drawn: one finite value per
// category in every series, and a linear value axis.
func (b *BarChart) Validate() error {
	if b.Y.Log {
		return fmt.Errorf("charts: bar chart %q: a logarithmic value axis is not supported for bars", b.Title)
	}
	for i, s := range b.Series {
		if s.Data == nil {
			return fmt.Errorf("charts: bar chart %q: series %d (%q) has no data", b.Title, i, s.Name)
		}
		if n := s.Data.Len(); n != len(b.Categories) {
			return fmt.Errorf("charts: bar chart %q: series %q has %d values for %d categories", b.Title, s.Name, n, len(b.Categories))
		}
		for j := range s.Data.Len() {
			if err := checkValue(s.Data.Value(j), false); err != nil {
				return fmt.Errorf("charts: bar chart %q: series %q: category %q: value %w", b.Title, s.Name, b.Categories[j], err)
			}
		}
	}
	return checkRefLines(b.Title, b.RefLines, false)
}

// Figure is a chart description that the renderers accept: a *Chart or
// a *BarChart.
type Figure interface {
	// Validate reports whether the figure can be drawn.
	Validate() error
	// size returns the figure's size in CSS pixels, defaults applied.
	size() (width, height int)
	// title returns the figure's title, for text renderings.
	title() string
	// echartsOption returns the figure as an echarts option object.
	echartsOption() map[string]any
	// gonumPlot returns the figure as a gonum plot and its legend.
	gonumPlot() (*plot.Plot, *plotLegend, error)
}

func (c *Chart) size() (int, int)    { return sizeOr(c.Width, c.Height) }
func (b *BarChart) size() (int, int) { return sizeOr(b.Width, b.Height) }
func (c *Chart) title() string       { return c.Title }
func (b *BarChart) title() string    { return b.Title }

func sizeOr(w, h int) (int, int) {
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	return w, h
}

// palette is the series colours, shared by both renderers so that a
// chart looks the same drawn by echarts and by gonum/plot (echarts' own
// default palette).
var palette = []string{
	"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de",
	"#3ba272", "#fc8452", "#9a60b4", "#ea7ccc",
}

// refColor is the colour of reference lines.
const refColor = "#555555"
