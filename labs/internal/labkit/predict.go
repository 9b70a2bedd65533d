package labkit

import (
	"strings"

	"github.com/warplab/warplab/gpu"
)

// PredictionSpec returns the spec of the simulated device that predicts
// the device described by info: the simulator profile of the same GPU
// when there is one, else one of the same architecture, else
// gpu.DefaultSim. It returns "" when no simulator is registered.
func PredictionSpec(info gpu.Info) string {
	var sameArch, any string
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
		if any == "" {
			any = a.Spec
		}
		// A profile is named after its device: "NVIDIA H200 (gpusim profile h200)".
		if info.Name != "" && strings.HasPrefix(si.Name, info.Name+" (") {
			return a.Spec
		}
		if sameArch == "" && info.Arch != "" && si.Arch == info.Arch {
			sameArch = a.Spec
		}
	}
	switch {
	case sameArch != "":
		return sameArch
	case any == "":
		return ""
	}
	for _, a := range gpu.Devices() {
		if a.Spec == gpu.DefaultSim {
			return a.Spec
		}
	}
	return any
}
