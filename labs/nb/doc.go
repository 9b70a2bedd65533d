// Package nb is what a lab notebook's cells use besides their lab: Open
// opens the device the experiments run on, Must stops a cell on an error,
// and Show and ShowPNG display results. A notebook's first code cell
// imports its lab and this package, and nothing else:
//
//	import (
//		"github.com/warplab/warplab/labs/atomics"
//		"github.com/warplab/warplab/labs/nb"
//	)
//
//	// device is the device the experiments run on: "" chooses for you.
//	var device = ""
//
//	%%
//	nb.ShowDevice(device)
//
// and a later cell runs an experiment:
//
//	%%
//	sweep := nb.Must(atomics.Sweep(nb.Open(device), atomics.SweepOptions{}))
//	nb.Show(sweep, sweep.Chart())
//
// Importing nb registers both backends, so that gpu.Open("") (Open's
// automatic choice) finds a GPU when there is one and the simulator
// otherwise.
//
// Every GoNB cell runs as a program of its own, so each cell that runs an
// experiment opens the device again; Open and Must stop the cell with the
// error shown in red, not with a panic's stack trace.
//
// The notebooks find this module because the GoNB kernel that
// scripts/setup.sh registers, and the one in warplab's image, starts
// every notebook with a go.work that uses warplab's source tree (GoNB's
// -go_work flag): no cell has to set the module up.
package nb
