// Package cudarun is warplab's real-GPU backend: it compiles the CUDA C that
// cudac checked with NVRTC, for the device's own architecture, and runs it
// through the CUDA driver API, timing each launch with CUDA events.
//
// Import it for its side effect of registering the "cuda" backend:
//
//	import _ "github.com/warplab/warplab/cudarun"
//
//	dev, err := gpu.Open("cuda")       // the first GPU
//	dev, err := gpu.Open("")           // a GPU if one is usable, else the simulator
//
// # What it needs
//
// Nothing from CUDA at build time: the package declares the few driver and
// NVRTC prototypes it calls and loads both libraries with dlopen when a
// device is first probed. At run time it needs the NVIDIA driver's
// libcuda.so.1 on the loader path and NVRTC (libnvrtc.so, or a versioned
// libnvrtc.so.13, .12, .11.2, looked for on the loader path and under
// $CUDA_HOME/lib64, $CUDA_PATH/lib64 and /usr/local/cuda/lib64). The
// environment variable WARPLAB_NVRTC names NVRTC's path explicitly.
//
// It is the only warplab package with import "C". Built without cgo
// (CGO_ENABLED=0) or for another system than Linux it is a stub: "cuda"
// is still registered, and Open and Probe say why no GPU can be used.
// Probe (and `warplab devices`) says, per device, whether it can be used
// and why not: libcuda.so.1 not found, no CUDA device, NVRTC not found, a
// driver older than NVRTC.
//
// # Device specs
//
// "cuda[:ORDINAL][?OPTIONS]", e.g. "cuda", "cuda:1", "cuda:0?fmad=false".
// OPTIONS are
//
//	fmad=false   compile with --fmad=false: never contract a*b+c into a
//	             fused multiply-add (as gpusim's fmad=false)
//	timeout=30s  the wall-clock limit of one launch (default 10s,
//	             gpu.DefaultTimeout); timeout=0 for none
//	timing=ungated
//	             record the timing events as the launch is submitted,
//	             not behind the gate (default timing=gated)
//
// # Compiling
//
// A module is compiled once per device with
// --gpu-architecture=sm_XY for the device (compute_XY, PTX for the driver
// to finish, when NVRTC does not know the device), -default-device and
// --std=c++17; the image is cached in the process by a hash of the source,
// the options and the kernels asked for. NVRTC has no standard headers, so
// #include lines become empty lines and a prelude, placed before a #line 1
// directive so that line numbers stay the source's own, supplies the
// <cstdint> names and the <climits>, <cfloat> and <cmath> macros that cudac
// predefines. Every kernel is looked up by its lowered (mangled) name,
// templates by their instantiated name ("sumTree<256>"). An NVRTC error is
// returned as a cudac.ErrorList, "file.cu:line:col: message".
//
// # Launching
//
// Arguments are marshalled by the kernel's cudac signature. CUDA events
// recorded just before and just after cuLaunchKernel time the launch:
// Result.Timing is "measured, <GPU name>". By default (timing=gated) the
// start event, the launch and the stop event are queued behind a gate: a
// one-thread kernel, compiled once per context with NVRTC, that spins on
// a flag in mapped host memory until the host sets it, right after the
// stop event is queued. The GPU then meets the three back to back, and
// the time is the GPU's alone. Without the gate an idle GPU stamps the
// start event at once and waits for the launch to arrive, so the time
// also holds the host's submission: on the H200 about 2.3 us more for an
// empty kernel, and up to 20 us for the queue lab's launches from the
// helper process (calibration/evidence/2026-11-30-h200-queue-timing-gated).
// A kernel's first launch in a context is never gated, since the driver
// may load the kernel then and wait for the queued work, the gate
// included; nor is a kernel whose gate once gave up (after 200 ms of the
// GPU's clock, which only a launch that waits for the gate reaches). Such
// a launch's Timing.Source says so. Device printf output, which the
// driver writes to file descriptor 1 when the launch is synchronised, is
// captured into Result.Printf by pointing descriptor 1 at a temporary file
// for the synchronisation only: a kernel that calls printf must not run
// while another goroutine writes to os.Stdout.
//
// # Faults
//
// A fault is a *gpu.LaunchError: CUDA_ERROR_ILLEGAL_ADDRESS is
// gpu.ErrIllegalAddress, MISALIGNED_ADDRESS gpu.ErrMisaligned,
// LAUNCH_OUT_OF_RESOURCES gpu.ErrOutOfResources, INVALID_VALUE at launch
// gpu.ErrInvalidConfig, ASSERT (and a launch failure in a kernel that calls
// __trap) gpu.ErrTrap, and any other launch failure gpu.ErrLaunchFailed.
//
// Such a fault leaves CUDA unusable for the rest of the process: on the
// H200 with driver 580, once a kernel has touched an illegal address, even
// a reset primary context or a new context fails with the same error. So
// cudarun carries on in a helper process: the program's own executable,
// started again with WARPLAB_CUDARUN_WORKER set, which makes cudarun's init
// serve driver calls over two pipes and exit instead of running the
// program (the only time cudarun ends a process; without that variable
// its init only registers the backend). It is init rather than a call in
// main because the executable may be any program that imports cudarun: a
// test binary or a notebook's program as much as warplab. The
// next launch works; modules are reloaded from the cached image
// transparently; every buffer allocated before the fault is gone, and using
// one is an error that says which fault lost it ("buffer lost when the
// context was reset after an illegal address in kernel poke"). A fault in a
// helper ends it and the next call starts another. The buffers of every
// gpu.Device open on that GPU in this process are lost together, since they
// share one context. NVRTC keeps running in the program itself. The
// helper records the same events around the same launch, but it waits on a
// pipe between launches, which on the H200 added about 0.6 us to an empty
// kernel's median event time (5.8 us against 5.2 us in-process).
//
// # The time limit of a launch
//
// A kernel with an endless loop would hang the program (and a notebook
// cell) for good: the simulator stops one by its instruction budget, and
// on a GPU only ending the process that owns the CUDA context stops it.
// So a device with a time limit (every device, unless its spec says
// timeout=0) runs its GPU work in a helper process from the start, and a
// launch that has not finished when the limit passes is ended by killing
// that helper: the launch fails with a *gpu.LaunchError of Kind
// gpu.ErrTimeout that names the kernel and the limit, buffers allocated
// before it are lost as after a fault ("buffer lost when the context was
// reset after kernel spin ran past its 10s time limit"), and the next call
// starts a fresh helper. The limit counts from the launch request to its
// answer: the kernel, and the synchronisation and printf capture after
// it. With timeout=0 the GPU work stays in this process until a fault,
// and no launch is ever stopped; a GPU whose work runs in this process
// cannot take a device with a limit afterwards (Open says so), since
// this process cannot kill itself to stop a kernel.
package cudarun
