package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs/atomics"
)

func init() {
	register(&command{name: "lab", summary: "run a lab's experiments without Jupyter and print its tables", run: labCmd})
}

// lab is one lab the lab command runs.
type lab struct {
	summary string
	run     func(dev *gpu.Device, o *labOpts) (labReport, error)
}

// labReport is what a lab returns: its tables, its charts and a JSON
// document.
type labReport interface {
	Tables() []*charts.Table
	figures() []namedFigure
}

type namedFigure struct {
	name string
	fig  charts.Figure
}

var labs = map[string]lab{
	"day26": {summary: "one sum three ways: atomics, contention, determinism, block sizes", run: runDay26},
}

const labUsage = `usage: warplab lab NAME [--device SPEC] [--json | --markdown] [--plot DIR] [flags]

Runs every experiment of a lab, as its notebook does, and prints the
tables: aligned text by default, Markdown with --markdown, or one JSON
document with --json. --plot DIR also saves each chart as DIR/NAME.png.
Progress goes to stderr when it is a terminal.

labs:
%s
flags:`

type labOpts struct {
	device, plot   string
	json, markdown bool
	sizes, blocks  []int
	detN, detRuns  int
}

func labCmd(args []string, stdout, stderr io.Writer) error {
	var names []string
	for n := range labs {
		names = append(names, n)
	}
	sort.Strings(names)
	var list strings.Builder
	for _, n := range names {
		fmt.Fprintf(&list, "  %-8s %s\n", n, labs[n].summary)
	}
	fs := newFlags("lab", fmt.Sprintf(labUsage, list.String()), stderr)
	o := &labOpts{}
	var sizes, blocks string
	fs.StringVar(&o.device, "device", "", "device spec: sim:t4, sim:h200, cuda, ... (default: $WARPLAB_DEVICE, else a GPU, else sim:t4)")
	fs.BoolVar(&o.json, "json", false, "print one JSON document instead of tables")
	fs.BoolVar(&o.markdown, "markdown", false, "print the tables as Markdown")
	fs.StringVar(&o.plot, "plot", "", "save each chart as a PNG in this directory")
	fs.StringVar(&sizes, "sizes", "", "comma-separated sizes for the sweeps (default: the lab's)")
	fs.StringVar(&blocks, "block-sizes", "", "comma-separated block sizes for the block-size exercise (default: the lab's)")
	fs.IntVar(&o.detN, "determinism-n", 0, "elements in the determinism experiment (default: the lab's)")
	fs.IntVar(&o.detRuns, "determinism-runs", 0, "runs per kernel in the determinism experiment (default: the lab's)")

	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return fmt.Errorf("want one lab name, got %d arguments", len(pos))
	}
	l, ok := labs[pos[0]]
	if !ok {
		fs.Usage()
		return fmt.Errorf("no lab %q", pos[0])
	}
	if o.json && o.markdown {
		return errors.New("--json and --markdown: choose one")
	}
	if o.sizes, err = parseInts(sizes, "--sizes"); err != nil {
		return err
	}
	if o.blocks, err = parseInts(blocks, "--block-sizes"); err != nil {
		return err
	}

	dev, err := gpu.Open(o.device)
	if err != nil {
		return err
	}
	defer dev.Close()
	r, err := l.run(dev, o)
	if err != nil {
		return err
	}
	if o.plot != "" {
		if err := os.MkdirAll(o.plot, 0o755); err != nil {
			return err
		}
		for _, f := range r.figures() {
			if err := charts.SaveImage(filepath.Join(o.plot, f.name+".png"), f.fig); err != nil {
				return err
			}
		}
	}
	switch {
	case o.json:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case o.markdown:
		for _, t := range r.Tables() {
			fmt.Fprintln(stdout, t.Markdown())
		}
	default:
		for _, t := range r.Tables() {
			fmt.Fprintln(stdout, t.String())
		}
	}
	if s, ok := r.(fmt.Stringer); ok && !o.json {
		fmt.Fprint(stdout, summaryLine(s.String()))
	}
	return nil
}

// summaryLine returns the last line of a report's text: how long it took.
func summaryLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:] + "\n"
}

func parseInts(s, flagName string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s %s: %q is not a positive integer", flagName, s, f)
		}
		out = append(out, n)
	}
	return out, nil
}

// day26 is the Day 26 report as the lab command shows it.
type day26 struct{ *atomics.Day26Report }

func (d day26) figures() []namedFigure {
	var fs []namedFigure
	for _, f := range d.Figures() {
		fs = append(fs, namedFigure{f.Name, f.Figure})
	}
	return fs
}

func (d day26) MarshalJSON() ([]byte, error) { return json.Marshal(d.Day26Report) }

func runDay26(dev *gpu.Device, o *labOpts) (labReport, error) {
	opts := atomics.Day26Options{
		Sweep:       atomics.SweepOptions{Sizes: o.sizes},
		Determinism: atomics.DeterminismOptions{N: o.detN, Runs: o.detRuns},
		BlockSizes:  atomics.BlockSizeOptions{Sizes: o.sizes, BlockSizes: o.blocks},
	}
	r, err := atomics.Day26(dev, opts)
	if err != nil {
		return nil, err
	}
	return day26{r}, nil
}
