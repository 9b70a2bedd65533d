package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/warplab/warplab/gpu"
)

func init() {
	register(&command{name: "devices", summary: "list the devices of every backend, and why any is unusable", run: devicesCmd})
}

const devicesUsage = `usage: warplab devices [--json]

Lists every device each backend offers (the simulator's profiles, the GPUs
the CUDA driver sees) with the spec that opens it, whether it can be used
and, where not, why: libcuda.so.1 not found, no CUDA device, NVRTC not
found, a driver too old. It also says which device a command with no
--device would use.

flags:`

// deviceRow is one device as --json prints it.
type deviceRow struct {
	Backend string `json:"backend"`
	Spec    string `json:"spec"`
	Name    string `json:"name"`
	Usable  bool   `json:"usable"`
	Reason  string `json:"reason,omitempty"`
}

func devicesCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("devices", devicesUsage, stderr)
	asJSON := fs.Bool("json", false, "print a JSON object: the devices and the default")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	var rows []deviceRow
	for _, a := range gpu.Devices() {
		spec, err := gpu.ParseSpec(a.Spec)
		if err != nil {
			return fmt.Errorf("device %s: %v", a.Name, err)
		}
		rows = append(rows, deviceRow{Backend: spec.Backend(), Spec: a.Spec, Name: a.Name, Usable: a.Usable, Reason: a.Reason})
	}
	def, why := defaultDevice(rows)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Devices []deviceRow `json:"devices"`
			Default string      `json:"default"`
			Why     string      `json:"default_because"`
		}{rows, def, why})
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BACKEND\tSPEC\tUSABLE\tDEVICE")
	for _, r := range rows {
		usable := "yes"
		if !r.Usable {
			usable = "no"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Backend, r.Spec, usable, r.Name)
		if !r.Usable && r.Reason != "" {
			fmt.Fprintf(tw, "\t\t\t  why not: %s\n", r.Reason)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\ndefault device: %s (%s)\n", def, why)
	return nil
}

// defaultDevice says what gpu.Open("") would open, and why.
func defaultDevice(rows []deviceRow) (spec, why string) {
	if s := os.Getenv(gpu.EnvDevice); s != "" {
		if _, err := gpu.ParseSpec(s); err != nil {
			return s, gpu.EnvDevice + " is set but is not a device spec, so opening the default fails: " + err.Error()
		}
		return s, gpu.EnvDevice + " is set"
	}
	for _, r := range rows {
		if r.Backend == "cuda" && r.Usable {
			return r.Spec, "the first usable GPU"
		}
	}
	return gpu.DefaultSim, "no usable GPU; set " + gpu.EnvDevice + " to choose"
}
