package gpusim

import (
	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpusim/sassorder"
)

// lookupSASS is sassorder.Lookup; the tests put a registry of their own
// in its place.
var lookupSASS = sassorder.Lookup

// constFirst says whether fn's machine code, as ptxas ordered it for the
// device's architecture, loads a kernel parameter on the uniform path
// before the address of its first global atomic: read from the kernel's
// recorded SASS (package sassorder), once per module and kernel. Without
// a recording of this very source (an edited or a student's kernel), for
// a program compiled with macro definitions or included files, and with
// fmad=false, it is false: the copies' order, which loads the atomic's
// address first (calibration/evidence/2026-12-01-h200-prolog).
func (m *module) constFirst(fn *cudac.Func) bool {
	if v, ok := m.constFirsts[fn]; ok {
		return v
	}
	v := false
	if m.dev.cfg.FMAD && len(m.prog.Defines()) == 0 && len(m.prog.Includes()) == 0 {
		if e, ok := lookupSASS(m.dev.prof.Arch, fn.Name, m.prog.Source); ok {
			v = e.Order.ConstFirst
		}
	}
	m.constFirsts[fn] = v
	return v
}
