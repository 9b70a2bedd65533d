package labkit

import (
	"fmt"
	"strings"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
)

// PredictionSpec returns the spec of the simulated device that predicts
// the device described by info: the simulator profile of the same GPU
// when there is one, else one of the same architecture, else
// gpu.DefaultSim. It returns the zero Spec when no simulator is
// registered.
func PredictionSpec(info gpu.Info) gpu.Spec {
	var sameArch, any gpu.Spec
	def, _ := gpu.ParseSpec(gpu.DefaultSim)
	hasDefault := false
	for _, a := range gpu.Devices() {
		spec, err := gpu.ParseSpec(a.Spec)
		if err != nil || spec.Backend() != "sim" || !a.Usable {
			continue
		}
		d, err := gpu.OpenSpec(spec)
		if err != nil {
			continue
		}
		si := d.Info()
		d.Close()
		if any.IsAuto() {
			any = spec
		}
		hasDefault = hasDefault || spec == def
		// A profile is named after its device: "NVIDIA H200 (gpusim profile h200)".
		if info.Name != "" && strings.HasPrefix(si.Name, info.Name+" (") {
			return spec
		}
		if sameArch.IsAuto() && info.Arch != "" && si.Arch == info.Arch {
			sameArch = spec
		}
	}
	switch {
	case !sameArch.IsAuto():
		return sameArch
	case hasDefault:
		return def
	}
	return any
}

// SimProfile returns the simulator profile that stands for dev: its own
// on the simulator, else the one that predicts it (PredictionSpec), else
// gpu.DefaultSim's; gpu.DefaultSim's too for a nil dev.
func SimProfile(dev *gpu.Device) string {
	if dev != nil {
		if s := dev.Spec(); s.Backend() == "sim" {
			return s.Profile()
		}
		if s := PredictionSpec(dev.Info()); !s.IsAuto() {
			return s.Profile()
		}
	}
	def, _ := gpu.ParseSpec(gpu.DefaultSim)
	return def.Profile()
}

// PredictUsage is the usage of the "predict" option of a lab whose sweep,
// on a GPU, runs again on the simulator for OpenPrediction. what names
// what the prediction shows: "modelled times", "modelled times and
// counters".
func PredictUsage(what string) string {
	return `on a GPU, the simulated device whose ` + what + ` go beside the measured ones: a sim: spec, "none", or empty for the profile closest to the GPU`
}

// OpenPrediction opens the simulated device that predicts dev, for a
// lab's predict setting spec: the device spec names, or when spec is
// empty the profile closest to dev (PredictionSpec). It returns nil and no
// error when spec is "none" or no simulator is registered. The caller
// closes the device. lab and what name the lab and the prediction in
// errors: "softmax: opening sim:x to predict the sweep: ...".
func OpenPrediction(dev *gpu.Device, spec, lab, what string) (*gpu.Device, error) {
	if spec == "" {
		spec = PredictionSpec(dev.Info()).String()
	}
	if spec == "" || spec == "none" {
		return nil, nil
	}
	if what != "" {
		what = " " + what
	}
	sim, err := gpu.Open(spec)
	if err != nil {
		return nil, fmt.Errorf("%s: opening %s to predict%s: %w", lab, spec, what, err)
	}
	if sim.Capabilities().MeasuredTiming {
		sim.Close()
		return nil, fmt.Errorf("%s: predicting with %s: not a simulator", lab, spec)
	}
	return sim, nil
}

// Predict runs run on the simulated device that OpenPrediction opens for
// dev and spec, and closes it; when there is none (spec "none", or no
// simulator) it returns the zero T and no error.
func Predict[T any](dev *gpu.Device, spec, lab, what string, run func(sim *gpu.Device) (T, error)) (T, error) {
	sim, err := OpenPrediction(dev, spec, lab, what)
	if sim == nil || err != nil {
		var zero T
		return zero, err
	}
	defer sim.Close()
	return run(sim)
}

// TimingSource says where the times of launches made on dev come from:
// the Source of the first of outs whose timing has one, and whether it
// was measured; when none has, the device's capabilities ("measured,
// NVIDIA H200" or "modelled, t4 profile"). timing returns an outcome's
// timing.
func TimingSource[T any](dev *gpu.Device, outs []T, timing func(T) gpu.Timing) (string, bool) {
	for _, o := range outs {
		if t := timing(o); t.Source != "" {
			return t.Source, t.Measured
		}
	}
	if dev.Capabilities().MeasuredTiming {
		return "measured, " + dev.Info().Name, true
	}
	return "modelled, " + dev.Info().Profile + " profile", false
}

// Within30 reports whether a prediction over its measurement, q, is
// within ±30%: from 1/1.3 to 1.3, the bar the labs hold the simulator's
// predictions to.
func Within30(q float64) bool { return q >= 1/1.3 && q <= 1.3 }

// RatioCell is a table cell of q, a prediction over its measurement, to
// two decimals, highlighted when it is not Within30.
func RatioCell(q float64) charts.Cell {
	c := charts.Float(q, 2)
	if !Within30(q) {
		c = c.Highlighted()
	}
	return c
}
