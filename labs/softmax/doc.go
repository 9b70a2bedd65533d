// Package softmax is warplab's softmax lab: the denominator of a softmax,
// Z = sum of exp(x_i), summed three ways, one per level of the GPU's
// memory hierarchy, to show why a warp-shuffle tree (the "register
// cache") beats one global atomic per element by a factor that grows
// with the card.
//
// # The three kernels
//
// The kernels live in kernels/*.cu and are embedded; Source returns them.
// Each reads element i in thread i and adds expf(x[i]) into one float in
// global memory; what changes is where the additions are combined first:
//
//   - denomAtomic (Atomic): nowhere. n global atomics on one address; the
//     L2 applies them one after another, whatever the number of SMs.
//   - denomShared (Shared): in shared memory. Each block adds its values
//     into a float of its own with shared atomics (a compare-and-swap
//     loop for floats), then sends one global atomic: n / 256 of them.
//   - denomShuffle (Shuffle): in registers. Five __shfl_down_sync steps
//     add a warp's 32 values with no memory traffic at all; the warps'
//     totals meet in shared memory after one barrier, and the first warp
//     adds them with shuffles again; one global atomic per block.
//
// # The experiments
//
// Sweep runs the three at sizes from one warp to a million elements (the
// notes' 16,777,216 is a setting away) and reports time, the global
// atomics the simulator counted, the atomic/shuffle ratio, and the
// crossover: the size from which one kernel is clearly (more than 10%)
// faster than another. At a few hundred elements the per-element atomic
// and the shuffle kernel both take about the launch overhead; above that
// the per-element atomic grows with n at the L2's same-address rate
// while the shuffle kernel streams its input. The shared-atomic kernel is
// the slowest at small sizes (a block's float atomics to one shared
// address are a compare-and-swap queue on its SM) and passes the
// per-element atomic only once enough blocks run side by side. On the
// H200 up to four blocks an SM run their queues side by side; eight share
// the SM's shared-memory pipeline and take about 12.5 cycles a lane, which
// the h200 profile prices. One block's queue runs in one of two modes, by
// when its warps reach it (calibration/evidence/2026-11-30-h200-microbench-blockq):
// together, a convoy; tens of cycles apart, twice as fast. The warps here
// arrive when their loads of x return, which depends on where x lies in
// physical memory (calibration/evidence/2026-11-30-h200-l2line: 41 of 128
// placements fast), so Placements runs the three kernels at one block on
// several placements of x, the same offsets on the simulator and a GPU,
// and reports each kernel's least, median and largest time and which
// placements ran fast. The h200 profile draws each line's L2 latency from
// the H200's measured spread by a hash of its address, so its placements
// are a lottery too, not the GPU's: compare the medians and the spread.
//
// Cards puts the atomic/shuffle pair on several cards: the notes' 37x on
// a 14-SM Turing GeForce (the atomics-vs-warp-shuffle course notes,
// quoted, at 16,777,216 elements), the project's H200 measurement of the same pair at the comparison's size
// (quoted from calibration/evidence/2026-11-29-h200-microbenchmarks: 134x at 1,048,576,
// 243x at 16,777,216), the simulator's predictions for the GTX 1650
// profile (a 14-SM Turing card) and the H200 profile at 1,048,576
// elements (a setting), and on a GPU the pair measured on it. The per-element atomic costs about the
// same per element everywhere (2.08 ns on the Turing card, 1.76 ns on
// the H200: one address, one L2 line), while the shuffle kernel streams
// at a bandwidth that grows with the SMs and memory channels: so the
// ratio grows with the card.
//
// ProfileOf builds a profile view (package labs/profile) of the three
// kernels at the sweep's largest size: memory throughput, atomics and
// the busiest L2 line, the instruction mix (the shuffle kernel runs
// several times more instructions and is still far faster), occupancy and
// barrier waits, each figure labelled counted, modelled or measured.
//
// Where times come from, every table says: "modelled, t4 profile" on the
// simulator (one launch per cell: the model is deterministic), "measured,
// <GPU>" on a GPU (the mean of 10 launches after 3 warm-ups, CUDA
// events), where PredictedTable puts the simulator's prediction for that
// GPU beside every measured cell.
//
// # The exercise
//
// The student writes denomWarp, the warp-shuffle reduction, as CUDA C in
// a Go raw string (Answer), and Check runs it through the student-kernel
// checker (labs/kernelcheck): it must compile, run on sizes that are not
// multiples of 32 or 256 under several scheduler seeds, match a double
// reference within 1e-4, have no race or barrier divergence, send at most
// one global atomic per launched warp (ceil(n / 32), rounded up to whole
// blocks of 256: a warp past the end may add its zero), and take at most ten times the
// reference kernel's modelled time. Hints says what each hint says.
//
// # Running the lab
//
// notebooks/softmax.ipynb walks through it; "warplab lab softmax" runs it
// headless. From Go:
//
//	dev, _ := gpu.Open("")
//	r, err := softmax.Run(dev, softmax.Options{})
//	fmt.Print(r)
package softmax
