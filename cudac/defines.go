package cudac

import "maps"

// Defines returns the macros the program was compiled with by Define
// options (not the predefined ones such as __CUDACC__), so that another
// compiler of the same source (NVRTC) can be given the same -D flags. The
// map is a copy.
func (p *Program) Defines() map[string]string {
	if p == nil || p.impl == nil {
		return nil
	}
	return maps.Clone(p.impl.defines)
}
