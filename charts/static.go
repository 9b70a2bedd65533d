package charts

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PNGScale is how many image pixels a PNG has per CSS pixel of the
// figure's size: 2, so that the image stays sharp on high-density screens
// and when zoomed. Show displays a PNG at the figure's CSS size.
const PNGScale = 2

// WriteImage draws f with gonum/plot, without JavaScript, and writes it in
// the given format: "png" (PNGScale times the figure's size in pixels),
// "svg", or any other format gonum/plot knows ("pdf", "eps", "jpg",
// "tif", "tex").
func WriteImage(w io.Writer, f Figure, format string) error {
	if err := f.Validate(); err != nil {
		return err
	}
	wpx, hpx := f.size()
	width, height := vg.Length(wpx)*vg.Inch/96, vg.Length(hpx)*vg.Inch/96
	var c vg.CanvasWriterTo
	switch format = strings.ToLower(format); format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(96*PNGScale))}
	case "svg":
		c = vgsvg.New(width, height)
	default:
		var err error
		if c, err = draw.NewFormattedCanvas(width, height, format); err != nil {
			return fmt.Errorf("charts: writing %q as %s: %w", f.title(), format, err)
		}
	}
	if err := drawFigure(draw.New(c), f); err != nil {
		return err
	}
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("charts: writing %q as %s: %w", f.title(), format, err)
	}
	return nil
}

// SaveImage writes f to the file path in the format its extension names
// (see WriteImage): "out.png", "out.svg", "out.pdf".
func SaveImage(path string, f Figure) (err error) {
	format := strings.TrimPrefix(filepath.Ext(path), ".")
	if format == "" {
		return fmt.Errorf("charts: saving %s: no extension to choose the image format", path)
	}
	file, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("charts: saving image: %w", err)
	}
	defer func() {
		if cerr := file.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("charts: saving image: %w", cerr)
		}
	}()
	return WriteImage(file, f, format)
}

// drawFigure draws f on c: the plot on the left, the legend in a column
// on the right, where it cannot hide any data.
func drawFigure(c draw.Canvas, f Figure) (err error) {
	// gonum/plot panics on data it cannot draw; Validate should have
	// caught it all, but a panic must not take a notebook cell down.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("charts: drawing %q: %v", f.title(), r)
		}
	}()
	p, legend, err := f.gonumPlot()
	if err != nil {
		return err
	}
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	pad := vg.Points(6)
	if legend.entries() > 0 {
		lw := legend.Rectangle(c).Size().X + 4*pad
		p.Draw(draw.Crop(c, 0, -lw, 0, -pad))
		// Start the legend level with the top of the data area.
		top := pad
		if p.Title.Text != "" {
			top += p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
		}
		legend.Draw(draw.Crop(c, c.Size().X-lw+2*pad, -2*pad, 0, -top))
	} else {
		p.Draw(draw.Crop(c, 0, -pad, 0, -pad))
	}
	return nil
}

// plotLegend is a gonum legend that knows how many entries it has.
type plotLegend struct {
	plot.Legend
	n int
}

func (l *plotLegend) add(name string, thumbs ...plot.Thumbnailer) {
	l.Add(name, thumbs...)
	l.n++
}

func (l *plotLegend) entries() int { return l.n }

// newPlot returns a plot with the project's look (sans-serif text, a light
// grid) and an empty legend to draw beside it.
func newPlot(title, subtitle string, x, y Axis) (*plot.Plot, *plotLegend) {
	p := plot.New()
	p.Title.Text = title
	if subtitle != "" {
		p.Title.Text += "\n" + subtitle
	}
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = x.Label()
	p.Y.Label.Text = y.Label()
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Variant = "Sans"
		a.Label.TextStyle.Font.Size = vg.Points(10)
		a.Tick.Label.Font.Variant = "Sans"
		a.Tick.Label.Font.Size = vg.Points(9)
		a.Color = color.Gray{Y: 0x66}
		a.Tick.Color = color.Gray{Y: 0x66}
	}
	p.Title.TextStyle.Font.Variant = "Sans"
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 0xe6}
	grid.Horizontal.Color = color.Gray{Y: 0xe6}
	p.Add(grid)
	l := &plotLegend{Legend: plot.NewLegend()}
	l.TextStyle.Font.Variant = "Sans"
	l.TextStyle.Font.Size = vg.Points(10)
	l.Left = true
	l.Top = true
	l.Padding = vg.Points(4)
	return p, l
}

// logAxis gives a the log scale, with the range widened to whole decades
// so that it has labelled ticks at both ends, as echarts draws it.
func logAxis(a *plot.Axis) {
	if math.IsInf(a.Min, 0) || math.IsInf(a.Max, 0) {
		a.Min, a.Max = 1, 10 // nothing on the axis
	}
	a.Scale = plot.LogScale{}
	a.Tick.Marker = plainLogTicks{}
	a.Min = math.Pow(10, math.Floor(math.Log10(a.Min)))
	a.Max = math.Pow(10, math.Ceil(math.Log10(a.Max)))
	if a.Min == a.Max {
		a.Max *= 10
	}
}

// linearAxis makes a linear value axis start at zero (or below, for
// negative data) and leaves some room above the largest value, as
// echarts does.
func linearAxis(a *plot.Axis) {
	if math.IsInf(a.Min, 0) || math.IsInf(a.Max, 0) {
		a.Min, a.Max = 0, 1 // nothing on the axis
	}
	a.Min = math.Min(a.Min, 0)
	a.Max += 0.05 * (a.Max - a.Min)
}

// plainLogTicks are gonum's logarithmic ticks, labelled 1000000 rather
// than 1e+06 where the number is not too long.
type plainLogTicks struct{}

// Ticks implements plot.Ticker.
func (plainLogTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.LogTicks{Prec: -1}.Ticks(min, max)
	for i, t := range ticks {
		if t.Label != "" && t.Value >= 1e-4 && t.Value < 1e8 {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'f', -1, 64)
		}
	}
	return ticks
}

// gonumPlot returns the chart as a gonum plot and its legend.
func (c *Chart) gonumPlot() (*plot.Plot, *plotLegend, error) {
	p, legend := newPlot(c.Title, c.Subtitle, c.X, c.Y)
	for i, s := range c.Series {
		col := paletteColor(i)
		switch s.Kind {
		case ScatterSeries:
			sc, err := plotter.NewScatter(s.Data)
			if err != nil {
				return nil, nil, fmt.Errorf("charts: chart %q: series %q: %w", c.Title, s.Name, err)
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
			p.Add(sc)
			legend.add(s.Name, sc)
		default:
			ln, pts, err := plotter.NewLinePoints(s.Data)
			if err != nil {
				return nil, nil, fmt.Errorf("charts: chart %q: series %q: %w", c.Title, s.Name, err)
			}
			ln.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.5)}
			pts.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: draw.RingGlyph{}}
			p.Add(ln, pts)
			legend.add(s.Name, ln, pts)
		}
	}
	addRefLines(p, legend, c.RefLines)
	if !c.Y.Log {
		linearAxis(&p.Y)
	}
	if c.X.Log {
		logAxis(&p.X)
	}
	if c.Y.Log {
		logAxis(&p.Y)
	}
	return p, legend, nil
}

// gonumPlot returns the bar chart as a gonum plot and its legend.
func (b *BarChart) gonumPlot() (*plot.Plot, *plotLegend, error) {
	p, legend := newPlot(b.Title, b.Subtitle, Axis{Title: b.X.Title}, b.Y)
	n := len(b.Series)
	if n > 0 && len(b.Categories) > 0 {
		// Bars of a category fill 60% of its slot; the data area is
		// about 85% of the figure's width.
		w, _ := b.size()
		slot := vg.Length(w) * vg.Inch / 96 * 0.85 / vg.Length(len(b.Categories))
		bw := slot * 0.6 / vg.Length(n)
		for i, s := range b.Series {
			bars, err := plotter.NewBarChart(s.Data, bw)
			if err != nil {
				return nil, nil, fmt.Errorf("charts: bar chart %q: series %q: %w", b.Title, s.Name, err)
			}
			bars.Color = paletteColor(i)
			bars.LineStyle.Width = 0
			bars.Offset = (vg.Length(i) - vg.Length(n-1)/2) * bw
			p.Add(bars)
			legend.add(s.Name, bars)
		}
	}
	addRefLines(p, legend, b.RefLines)
	if len(b.Categories) > 0 {
		p.NominalX(b.Categories...)
		p.X.Min, p.X.Max = -0.5, float64(len(b.Categories))-0.5
	}
	linearAxis(&p.Y)
	return p, legend, nil
}

func addRefLines(p *plot.Plot, legend *plotLegend, lines []RefLine) {
	for _, r := range lines {
		h := &hline{RefLine: r, style: draw.LineStyle{
			Color: hexColor(refColor), Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(4), vg.Points(3)},
		}}
		p.Add(h)
		legend.add(r.Name, h)
	}
}

// hline is a horizontal reference line across the whole data area,
// labelled at its right end. It widens the y range to include itself and
// leaves the x range alone.
type hline struct {
	RefLine
	style draw.LineStyle
}

// Plot implements plot.Plotter.
func (h *hline) Plot(c draw.Canvas, p *plot.Plot) {
	y := c.Y(p.Y.Norm(h.Y))
	c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
	if h.Name == "" {
		return
	}
	sty := draw.TextStyle{
		Color:   h.style.Color,
		Font:    p.X.Tick.Label.Font,
		Handler: p.X.Tick.Label.Handler,
		XAlign:  draw.XRight,
		YAlign:  draw.YBottom,
	}
	c.FillText(sty, vg.Point{X: c.Max.X - vg.Points(2), Y: y + vg.Points(2)}, h.Name)
}

// DataRange implements plot.DataRanger.
func (h *hline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), h.Y, h.Y
}

// Thumbnail implements plot.Thumbnailer.
func (h *hline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
}

func paletteColor(i int) color.Color { return hexColor(palette[i%len(palette)]) }

// hexColor parses a "#rrggbb" colour.
func hexColor(s string) color.Color {
	var r, g, b uint8
	fmt.Sscanf(s, "#%02x%02x%02x", &r, &g, &b)
	return color.RGBA{R: r, G: g, B: b, A: 0xff}
}
