package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpusim/fidelity"
)

func init() {
	register(&command{name: "fidelity", summary: "compare the simulator's modelled times with measured GPUs", run: fidelityCmd})
}

const fidelityUsage = `usage: warplab fidelity [--profile t4|h200 | --microbench] [--tolerance F] [--strict] [--json|--markdown]

Runs the reference kernels on the simulator and prints, per table cell,
the predicted and the measured time and their ratio, the fastest kernel
per size and the ratios the labs quote. Each table's cells are split into
validation cells, which no parameter was fitted to, printed first, and
calibration cells, each with the parameters it was used to fit. Exits with
status 1 when a validation target is missed (more than the tolerance off,
30% by default, or the wrong fastest kernel); a calibration target that
misses is reported, and fails only with --strict.

With no --profile it also runs the round-2 microbenchmarks measured on the
H200 (access patterns, counters, work queue, histogram launch shapes, CAS
loops, reproducible sums): each kernel's modelled time against its
measured median, which of each group's kernels is faster, and the
geometric-mean error, validation cells first. --microbench runs those
alone; --profile runs that profile's table alone. --json prints one
object: {"tables": [...], "microbenchmarks": {...}}.

flags:`

// fidelityJSON is what `warplab fidelity --json` prints.
type fidelityJSON struct {
	Tables     []*fidelity.Report      `json:"tables"`
	Microbench *fidelity.BenchReport   `json:"microbenchmarks,omitempty"`
	HeldOut    fidelity.HeldOutFigures `json:"held_out"`
}

func fidelityCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fidelity", fidelityUsage, stderr)
	profile := fs.String("profile", "", "the profile to check (default: all with reference tables: t4, h200)")
	asJSON := fs.Bool("json", false, "print the reports as JSON")
	asMarkdown := fs.Bool("markdown", false, "print Markdown tables (docs/fidelity.md's section)")
	strict := fs.Bool("strict", false, "exit 1 when a calibration target misses too")
	tolerance := fs.Float64("tolerance", fidelity.Tolerance, "the relative error a modelled time or ratio may have")
	onlyBench := fs.Bool("microbench", false, "run only the round-2 microbenchmarks (H200)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	if *asJSON && *asMarkdown {
		fmt.Fprintln(stderr, "warplab fidelity: --json and --markdown: choose one")
		return errUsage
	}
	if *tolerance <= 0 || *tolerance >= 1 {
		fmt.Fprintf(stderr, "warplab fidelity: --tolerance %g: want a fraction between 0 and 1\n", *tolerance)
		return errUsage
	}
	if *onlyBench && *profile != "" {
		fmt.Fprintln(stderr, "warplab fidelity: --microbench and --profile: choose one")
		return errUsage
	}
	profiles := fidelity.Profiles()
	if *onlyBench {
		profiles = nil
	}
	if *profile != "" {
		if !slices.Contains(profiles, *profile) {
			fmt.Fprintf(stderr, "warplab fidelity: no reference table for profile %q (have %s)\n", *profile, strings.Join(profiles, ", "))
			return errUsage
		}
		profiles = []string{*profile}
	}
	var reports []*fidelity.Report
	misses := 0
	for _, p := range profiles {
		var prog *charts.Progress
		if f, ok := stderr.(*os.File); ok && f == os.Stderr {
			prog = charts.NewProgress("fidelity " + p)
		}
		opts := fidelity.DefaultOptions(p)
		opts.Tolerance = *tolerance
		opts.Progress = func(done, total int, what string) {
			if prog != nil {
				prog.Update(done, total, what)
			}
		}
		r, err := fidelity.Run(p, opts)
		if prog != nil {
			prog.Done()
		}
		if err != nil {
			return err
		}
		reports = append(reports, r)
		misses += len(r.Failures(*strict))
	}
	// The round-2 microbenchmarks were measured on the H200.
	var bench *fidelity.BenchReport
	if *profile == "" {
		var prog *charts.Progress
		if f, ok := stderr.(*os.File); ok && f == os.Stderr {
			prog = charts.NewProgress("fidelity microbenchmarks")
		}
		var err error
		bench, err = fidelity.RunBenches(fidelity.BenchOptions{Tolerance: *tolerance, Progress: func(done, total int, what string) {
			if prog != nil {
				prog.Update(done, total, what)
			}
		}})
		if prog != nil {
			prog.Done()
		}
		if err != nil {
			return err
		}
		misses += len(bench.Failures(*strict))
	}
	switch {
	case *asJSON:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(fidelityJSON{reports, bench, fidelity.HeldOutSummary(reports, bench)}); err != nil {
			return err
		}
	case *asMarkdown:
		for _, r := range reports {
			r.WriteMarkdown(stdout)
		}
		if bench != nil {
			bench.WriteMarkdown(stdout)
		}
		fmt.Fprintf(stdout, "\n**Held out.** %s.\n", upperFirst(fidelity.HeldOutSummary(reports, bench).String()))
	default:
		for i, r := range reports {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			r.WriteText(stdout)
		}
		if bench != nil {
			fmt.Fprintln(stdout)
			bench.WriteText(stdout)
		}
		fmt.Fprintf(stdout, "\n%s\n", fidelity.HeldOutSummary(reports, bench))
	}
	if misses > 0 {
		return errors.New(fmt.Sprint(misses, " fidelity targets missed", map[bool]string{false: " (validation targets)", true: ""}[*strict]))
	}
	return nil
}

// upperFirst returns s with its first letter in upper case.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
