package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	_ "github.com/warplab/warplab/labs/all"
)

func init() {
	register(&command{name: "lab", summary: "list the labs, or run one's experiments without Jupyter and print its tables", run: labCmd})
}

const labUsage = `usage: warplab lab list [--json]
       warplab lab NAME [--device SPEC] [--json | --markdown] [--plot DIR] [--timeout D] [--set KEY=VALUE ...]
       warplab lab NAME --help

"lab list" prints every lab: its name, title, what it teaches and the
wall time of its headless run on the simulator.

"lab NAME" runs every experiment of a lab, as its notebook does, and
prints the tables: aligned text by default, Markdown with --markdown, or
one JSON document (the lab, its settings, the device and the report) with
--json. --set changes one of the lab's options and may be repeated
(--set sizes=4096,65536 --set block-size=128); "warplab lab NAME --help"
lists them. --plot DIR also saves each chart as DIR/NAME.png.

Progress goes to stderr: on a terminal a line updated in place; elsewhere,
once a run has taken 10 s, a line every 10 s (launches done, the last one,
how long the current one has run). A run still going after --timeout
(default 5m, which no lab's default run comes near; 0 for no limit) is
stopped: the launch in progress stops within milliseconds and the run
fails, saying how far it got.

Errors in the arguments (an unknown lab or option, a bad value) exit with
status 2, before anything runs; a run that fails exits with status 1.`

// setFlags collects repeated --set KEY=VALUE flags.
type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, " ") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

type labOpts struct {
	device, plot         string
	json, markdown, help bool
	timeout              time.Duration
	set                  setFlags
}

// labTimeout is the default --timeout of warplab lab: far above any lab's
// default run (the longest, Day 26, takes about 20 s on an idle 2-core
// machine, and under a minute with the machine's cores busy with other
// work), and short enough that a run made too large is stopped with an
// explanation rather than left running for hours.
const labTimeout = 5 * time.Minute

func labCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("lab", labUsage+"\n\nlabs:\n"+labNames()+"\nflags:", stderr)
	o := &labOpts{}
	fs.StringVar(&o.device, "device", "", "device spec: sim:t4, sim:h200, cuda, ... (default: $WARPLAB_DEVICE, else a GPU, else sim:t4)")
	fs.BoolVar(&o.json, "json", false, "print one JSON document instead of tables")
	fs.BoolVar(&o.markdown, "markdown", false, "print the tables as Markdown")
	fs.StringVar(&o.plot, "plot", "", "save each chart as a PNG in this directory")
	fs.Var(&o.set, "set", "set one of the lab's options, `KEY=VALUE`; repeatable (see warplab lab NAME --help)")
	fs.DurationVar(&o.timeout, "timeout", labTimeout, "stop the run if it takes longer than this, such as 10m; 0 for no limit")
	fs.BoolVar(&o.help, "help", false, "print this help, or with NAME the lab's options")
	fs.BoolVar(&o.help, "h", false, "the same as --help")

	if err := labOptionAsFlag(fs, args); err != nil {
		return err
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	switch {
	case o.help && len(pos) == 0:
		fs.Usage()
		return nil
	case len(pos) != 1:
		fs.Usage()
		return usagef("want one lab name, or list, got %d arguments", len(pos))
	case pos[0] == "list":
		if o.help {
			return labCmd([]string{"--help"}, stdout, stderr)
		}
		if o.markdown || o.plot != "" || o.device != "" || len(o.set) > 0 {
			return usagef("lab list takes only --json")
		}
		return labList(stdout, o.json)
	}
	l, err := labs.Lookup(pos[0])
	if err != nil {
		return usagef("%v", err)
	}
	if o.help {
		labHelp(stderr, l)
		return nil
	}
	if o.json && o.markdown {
		return usagef("--json and --markdown: choose one")
	}
	if o.timeout < 0 {
		return usagef("--timeout %v: want a positive duration, or 0 for no limit", o.timeout)
	}
	set, err := labs.ParseSet(o.set)
	if err != nil {
		return usagef("--set: %v", err)
	}
	info := l.Info()
	s, err := labs.Resolve(info.Name, l.Options(), set)
	if err != nil {
		return usagef("%v; warplab lab %s --help describes them", err, info.Name)
	}
	if o.plot != "" {
		if err := checkWritable(o.plot); err != nil {
			return err
		}
	}

	ctx := context.Background()
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	spec, err := gpu.ParseSpec(o.device)
	if err != nil {
		return err
	}
	progress := newLabProgress(stderr, info.Name, isTerminalWriter(stderr))
	defer progress.Close()
	dev, err := gpu.OpenContext(gpu.WithLaunchProgress(ctx, progress.Launches()), spec)
	if err != nil {
		return err
	}
	defer dev.Close()
	r, err := runLab(ctx, l, dev, s, progress)
	progress.Close()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("lab %s: stopped after --timeout %v: %w (make the run smaller with --set, or raise --timeout; 0 for no limit)", info.Name, o.timeout, err)
		}
		return err
	}
	if o.plot != "" {
		for _, f := range r.Figures() {
			if err := charts.SaveImage(filepath.Join(o.plot, f.Name+".png"), f.Figure); err != nil {
				return err
			}
		}
	}
	switch {
	case o.json:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(labDocument{
			Lab:            info,
			Options:        l.Options(),
			Settings:       s.Values(),
			Device:         dev.Info(),
			ElapsedSeconds: r.Elapsed().Seconds(),
			Report:         r,
		})
	case o.markdown:
		for _, t := range r.Tables() {
			fmt.Fprintln(stdout, t.Markdown())
		}
	default:
		for _, t := range r.Tables() {
			fmt.Fprintln(stdout, t.String())
		}
	}
	fmt.Fprintf(stdout, "%s on %s: %.1f s\n", info.Title, dev.Info().Name, r.Elapsed().Seconds())
	return nil
}

// labGrace is how long a lab run may take to return after its context
// is done: a launch stops within milliseconds, but work on the host
// (making a large input, a reference sum) does not look at the context.
const labGrace = time.Second

// runLab runs l and returns its report, or an error at most labGrace
// after ctx is done, leaving the run to end on its own (the command exits
// right after).
func runLab(ctx context.Context, l labs.Lab, dev *gpu.Device, s labs.Settings, p labs.Progress) (labs.Report, error) {
	type result struct {
		r   labs.Report
		err error
	}
	ch := make(chan result, 1)
	go func() {
		r, err := l.Run(dev, s, p)
		ch <- result{r, err}
	}()
	select {
	case res := <-ch:
		return res.r, res.err
	case <-ctx.Done():
	}
	select {
	case res := <-ch:
		return res.r, res.err
	case <-time.After(labGrace):
		return nil, ctx.Err()
	}
}

// labDocument is what `warplab lab NAME --json` prints.
type labDocument struct {
	Lab     labs.Info     `json:"lab"`
	Options []labs.Option `json:"options"`
	// Settings are every option's value in this run, given or default.
	Settings       map[string]string `json:"settings"`
	Device         gpu.Info          `json:"device"`
	ElapsedSeconds float64           `json:"elapsed_seconds"`
	// Report is the lab's own result type.
	Report labs.Report `json:"report"`
}

// labNames lists the registered labs for the usage text.
func labNames() string {
	var b strings.Builder
	for _, l := range labs.All() {
		info := l.Info()
		name := info.Name
		if len(info.Aliases) > 0 {
			name += " (" + strings.Join(info.Aliases, ", ") + ")"
		}
		fmt.Fprintf(&b, "  %-18s %s\n", name, info.Title)
	}
	return b.String()
}

// labList prints every lab, as a table or as a JSON array of their Info.
func labList(w io.Writer, asJSON bool) error {
	all := labs.All()
	if asJSON {
		infos := make([]labs.Info, len(all))
		for i, l := range all {
			infos[i] = l.Info()
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(infos)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTITLE\tSIM TIME\tTEACHES")
	for _, l := range all {
		info := l.Info()
		name := info.Name
		if len(info.Aliases) > 0 {
			name += " (" + strings.Join(info.Aliases, ", ") + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, info.Title, simTime(info.SimWallTime), info.Teaches)
	}
	return tw.Flush()
}

// simTime formats a lab's headless wall time to the second: it is a
// rough measure of one machine.
func simTime(d time.Duration) string {
	if d <= 0 {
		return "unmeasured"
	}
	return "~" + d.Round(time.Second).String()
}

// labHelp prints a lab's description and its options with their
// defaults and usage.
func labHelp(w io.Writer, l labs.Lab) {
	info := l.Info()
	fmt.Fprintf(w, "usage: warplab lab %s [--device SPEC] [--json | --markdown] [--plot DIR] [--timeout D] [--set KEY=VALUE ...]\n\n", info.Name)
	fmt.Fprintf(w, "%s\nTeaches: %s.\n", info.Title, info.Teaches)
	if len(info.Aliases) > 0 {
		fmt.Fprintf(w, "Also called: %s.\n", strings.Join(info.Aliases, ", "))
	}
	if len(info.Sources) > 0 {
		fmt.Fprintf(w, "From: %s.\n", strings.Join(info.Sources, "; "))
	}
	if info.Notebook != "" {
		fmt.Fprintf(w, "Notebook: %s.\n", info.Notebook)
	}
	if info.SimWallTime > 0 {
		fmt.Fprintf(w, "Headless run on the simulator: %s.\n", simTime(info.SimWallTime))
	}
	fmt.Fprintln(w, "\noptions (--set KEY=VALUE):")
	for _, o := range l.Options() {
		def := o.Default
		if def == "" {
			def = "empty"
		}
		fmt.Fprintf(w, "  %s (%s, default %s", o.Name, o.Kind, def)
		if o.Max > 0 {
			fmt.Fprintf(w, ", at most %d", o.Max)
		}
		if len(o.Choices) > 0 {
			fmt.Fprintf(w, ", one of %s", strings.Join(o.Choices, ", "))
		}
		fmt.Fprintf(w, ")\n      %s\n", o.Usage)
	}
}

// checkWritable makes dir if needed and checks that a file can be
// written in it, so that a run is not wasted on a directory that cannot
// take its charts.
func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--plot %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".warplab-write-test-*")
	if err != nil {
		return fmt.Errorf("--plot %s: cannot write charts there: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// labOptionAsFlag reports a flag that warplab lab does not have but that
// names a lab's option (--sizes 4096), pointing to --set, the only way
// options are given; other unknown flags are left to the flag package.
func labOptionAsFlag(fs *flag.FlagSet, args []string) error {
	for i, a := range args {
		if a == "--" {
			return nil
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if fs.Lookup(name) != nil {
			continue
		}
		for _, l := range labs.All() {
			for _, opt := range l.Options() {
				if opt.Name != name {
					continue
				}
				if !hasValue {
					value = "VALUE"
					if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
						value = args[i+1]
					}
				}
				return usagef("%s is not a flag of warplab lab; the lab option %s is set with --set %s=%s (warplab lab %s --help lists a lab's options)",
					a, name, name, value, l.Info().Name)
			}
		}
	}
	return nil
}
