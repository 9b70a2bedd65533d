// Package sassorder reads a kernel's recorded machine code (SASS) for the
// one property of it that the simulator's IR cannot show: whether ptxas
// loads a kernel parameter on the uniform path (ULDC) before the address of
// the kernel's first global atomic (LDC). On the H200 that order delays the
// SMs' first atomics and gathers the first pops of a work queue on fewer
// SMs (calibration/evidence/2026-12-01-h200-prolog and -prolog-warps); the copies
// of a kernel that load the atomic's address first and the ULDC just
// before the atomic do not. gpusim reads the answer into
// engine.Config.ConstFirst.
//
// # The order
//
// Analyze reads one kernel's SASS as cuobjdump --dump-sass or nvdisasm -c
// prints it (instruction lines that start with an address comment such as
// /*00a0*/). It finds the kernel's first global atomic (ATOMG, ATOM, RED,
// REDG; not the shared ATOMS, nor the warp reduction REDUX), the last LDC
// before it, and says the order is constant-first when a ULDC of any width
// comes before that LDC. A kernel without a global atomic, or with no LDC
// before its first one, is not constant-first. Functions cuts a listing of
// several kernels into one listing each.
//
// # The registry
//
// The SASS that ptxas made of a kernel is recorded on a machine with the
// CUDA toolkit by
//
//	warplab sass FILE.cu --kernel NAME --arch sm_90 --record gpusim/sassorder/sm_90
//
// run from the repository root, which writes FileName(NAME, source) there:
// NAME-<the first 12 hex digits of the source's SHA-256>.sass, headed by
// comment lines that Format writes and Parse reads (the file, kernel,
// symbol, source SHA-256, arch, defines, tool versions and date; see
// Header). Only files the recorder wrote belong in the registry; the
// package embeds every <arch>/*.sass file beside it.
//
// Lookup finds a kernel's file by its architecture, its name and the
// SHA-256 of its source bytes. A recording whose source has changed since
// stays as the evidence of the version it was recorded from (its header
// names the SHA-256); TestRegistryMatchesSources reports it.
package sassorder
