package nb

import (
	"fmt"
	"os"

	"github.com/warplab/warplab/charts"
	_ "github.com/warplab/warplab/cudarun" // a real GPU, when there is one
	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim" // the simulator
)

// exit ends the cell's program; tests replace it.
var exit = os.Exit

// Open opens the device named by spec, as gpu.Open does: "" chooses
// ($WARPLAB_DEVICE, else a GPU when there is one, else the simulator's
// Tesla T4 profile); "sim:h200", "sim:t4?seed=7" or "cuda" name one. When
// the device cannot be opened, Open shows why and stops the cell.
func Open(spec string) *gpu.Device {
	dev, err := gpu.Open(spec)
	if err != nil {
		stop(err)
		return nil
	}
	return dev
}

// Must returns v, or shows err and stops the cell when err is not nil:
//
//	sweep := nb.Must(atomics.Sweep(nb.Open(device), options))
func Must[T any](v T, err error) T {
	if err != nil {
		stop(err)
	}
	return v
}

// stop shows err in the notebook (and on stderr, where a command-line run
// sees it) and ends the program with status 1, which GoNB reports as the
// cell's failure.
func stop(err error) {
	charts.Show(err)
	fmt.Fprintln(os.Stderr, "warplab:", err)
	exit(1)
}

// Show displays results in the notebook: tables, charts, exercise
// feedback, errors and text (see charts.Show). Outside a notebook it does
// nothing.
func Show(items ...any) { charts.Show(items...) }

// ShowPNG displays charts as static images drawn by gonum/plot (see
// charts.ShowPNG).
func ShowPNG(figs ...charts.Figure) { charts.ShowPNG(figs...) }

// ShowDevice opens the device named by spec and says which it is and
// where its times come from: measured on a GPU, or modelled by the
// simulator's cost model.
func ShowDevice(spec string) {
	dev := Open(spec)
	if dev == nil {
		return
	}
	fmt.Println("device:", dev)
	if dev.Capabilities().MeasuredTiming {
		fmt.Println("times: measured on the GPU with CUDA events")
	} else {
		fmt.Println("times: modelled by the simulator's cost model (profile " + dev.Info().Profile + "); no GPU needed")
	}
}
