package labkit

import (
	"strings"

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
