// Package playground runs any CUDA C kernel a student writes in a
// notebook cell, in one call, on the simulator or a GPU: the `%%cuda`
// habit without needing a GPU.
//
//	src := `__global__ void scale(float* x, float a, int n) {
//	    int i = blockIdx.x * blockDim.x + threadIdx.x;
//	    if (i < n) x[i] *= a;
//	}`
//	l, err := playground.Run(dev, src, "scale", 4, 256, []float32{1, 2, 3}, float32(2), 3)
//	charts.Show(l, l.BreakdownChart(), l.MixChart())
//
// # Arguments
//
// Each argument binds to the kernel's next parameter, as gpu.Kernel.Launch
// binds them, with two additions that save the buffer code:
//
//   - a Go slice ([]float32, []int32, []uint32, ... any gpu.Scalar) is
//     copied to a device buffer before the launch and read back after it,
//     so the launch's outputs are there to see (Launch.Outputs, Values);
//   - Zeros[T](n) is a zeroed buffer of n elements, for an output.
//
// Go numbers bind to scalar parameters; *gpu.Buffer values pass through.
//
// # What comes back
//
// A Launch holds the gpu.Result (the time with its breakdown by resource,
// where it came from, the simulator's counters, races and other
// diagnostics, printf output) and every buffer's contents after the last
// launch. It prints as text and shows as HTML in a notebook: the launch,
// its outputs (the first values of each buffer, with the sum, minimum and
// maximum), the time and its breakdown, diagnostics, and the counters;
// BreakdownChart, MixChart and Profile (package labs/profile) show the
// simulator's view as charts. On a GPU the time is measured with CUDA
// events, the mean of Options.Runs launches after Options.WarmUps, every
// buffer reset before each launch, and there are no counters.
//
// A source error is a cudac.ErrorList at the cell's line and column
// ("cell.cu:3:9: ..."); a fault (an illegal address, barrier divergence,
// the instruction budget against endless loops) is a *gpu.LaunchError
// naming the block, thread and source line. Neither panics, and
// charts.Show shows either as a red message.
package playground
