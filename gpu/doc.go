// Package gpu is the backend-neutral API that warplab's labs and notebooks
// use to run CUDA C kernels: on gpusim, the simulator, or on a real NVIDIA
// GPU through cudarun. The same source text runs on both, so a lab can put
// "predicted" beside "measured" for the same launch.
//
// # Devices
//
// Open takes a device spec: "sim:t4", "sim:h200?seed=7&order=deterministic",
// "cuda", "cuda:1?fmad=false", or "" for the automatic choice
// (WARPLAB_DEVICE, else the first usable GPU, else DefaultSim). ParseSpec
// parses one into a Spec, with typed options and a canonical String;
// OpenSpec opens a Spec, and Device.Spec().WithSeed(n) is the same device
// with another seed. Backends register themselves
// with Register from init, the way database/sql drivers do, so a program
// picks them with blank imports:
//
//	import (
//		"github.com/warplab/warplab/gpu"
//		_ "github.com/warplab/warplab/gpusim"
//		_ "github.com/warplab/warplab/cudarun"
//	)
//
// Capabilities says what a device can do: measured or modelled timing,
// counters, seeded replay of the order of atomics.
//
// # Kernels, buffers and launches
//
// Device.Compile checks a source (errors come back as a cudac.ErrorList,
// "file.cu:12:9: ..." with the source line and a caret), Module.Kernel
// finds a kernel (a template by its instantiation, "sumTree<256>"), and
// Kernel.Launch runs it with a grid, a block, dynamic shared memory and
// arguments: a *Buffer[T] or Ptr for a T* parameter, a Go number for a
// scalar one. Arguments are checked against the kernel's signature before
// anything runs. A fault is a *LaunchError matching ErrIllegalAddress,
// ErrBarrierDivergence, ErrBudget and the other kinds with errors.Is.
//
// A Result carries the kernel's time and where it came from ("modelled, t4
// profile" or "measured, NVIDIA H200"), the simulator's Counters, device
// printf output in thread order, and Diagnostics such as shared-memory
// races.
//
// # Timing a kernel
//
// One launch's time on a GPU includes whatever that launch is first to do
// (loading the module, cold caches and clocks), so a time is taken by a
// Method: untimed warm-ups, then timed repetitions, each timed by CUDA
// events around the launch, summarised by their median or mean (Stats has
// the spread). DefaultMethod is 3 warm-ups and the median of 10 on a GPU,
// one launch on the simulator, whose model is deterministic; Cold is one
// launch without warm-ups. Kernel.Measure launches by a Method, asking for
// each launch's arguments so that a kernel that accumulates into its output
// gets fresh or re-initialised buffers; Method.String says how a time was
// taken in the words that `warplab run` and the labs print.
//
// A launch has a wall-clock limit (Spec.Timeout: 10 s on a GPU, a minute
// on the simulator, unless the spec says timeout=DURATION, 0 for none); a
// launch still running at the limit fails with ErrTimeout. On a GPU the
// backend ends the process that owned the context to stop it; the
// simulator stops where it is. Kernel.LaunchContext stops one launch, and
// OpenContext every launch of a device, when a context is done; a
// LaunchConfig.Progress shows how far a long launch has got.
//
// # Backends
//
// A backend implements the interfaces of package gpu/driver and registers
// itself with Register, the way a database/sql driver does; gpu does the
// checking that is the same for every backend. The conformance suite
// gpu/gputest checks a backend through this package.
package gpu
