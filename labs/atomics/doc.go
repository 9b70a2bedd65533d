// Package atomics is warplab's Day 26 lab: what an atomicAdd costs when
// every thread of a grid aims it at one address, and what it does not
// promise. It is the reference lab: the others copy its shape.
//
// # The question
//
// A student's histogram kernel privatises its bins in shared memory and
// still needs a __syncthreads() between zeroing the bins and adding into
// them; without it, a race. Why, if an atomic already makes the threads
// "take turns"? Two beliefs hide in that question: that an atomic orders
// threads like a barrier, and that 32 atomics to one address cost 32
// plain additions one after another. The lab tests both by summing one
// array three ways.
//
// # What an atomic guarantees, and what it does not
//
// An atomicAdd is one read-modify-write of one address that no other
// atomic on that address can interleave with. That is the whole promise.
// The CUDA atomics are relaxed: they publish no other store, order no
// other access and make no thread wait for another, so zeroing shared
// bins and adding into them still needs a barrier between the two. Nor
// do they fix the order in which the additions land: integer sums do not
// care, but float addition is not associative, and a float sum built
// from atomics can change in its last bits from one run to the next.
//
// # Three sums
//
// The kernels live in kernels/*.cu and are embedded; Source returns them
// for display. All three read element i in thread i, so every launch
// pulls the same coalesced bytes from memory, and the only thing that
// changes is where the additions land:
//
//   - sumGlobal (Global): each thread adds its element straight into the
//     global total. n elements, n atomics on one address.
//   - sumShared (Shared): each block adds into a float of its own in
//     shared memory, then sends its partial sum to the global total: n
//     shared atomics, spread over the blocks, and n / blockSize global
//     ones.
//   - sumTree<BLOCK> (Tree): each block adds its elements in a
//     shared-memory tree, log2(BLOCK) halving steps with a barrier each,
//     and sends one atomic per block, as sumShared does, with no atomic
//     inside the block.
//
// # How the experiments measure
//
// Sweep runs the three sums at the page's five sizes, 4,096 to 4,194,304
// elements, on the input 0, 1, 2, 3 repeating. Every partial sum of that
// input is an integer below 2^24, exact in float32 in any order, so each
// launch's total is checked bit for bit against a Kahan double reference:
// the table measures contention, not rounding. Each launch adds into an
// accumulator slot of its own, zeroed before it runs and picked on the
// host, so no launch adds onto another's total. GB/s counts the input
// stream only (4 bytes per element), leaving out the atomic traffic that
// the three kernels differ in.
//
// Where the time comes from depends on the device, and every table and
// chart says which:
//
//   - On the simulator (gpu.Open("sim:t4"), the default with no GPU) the
//     time is "modelled, t4 profile": a deterministic function of the
//     launch's counters, so warm-ups and repeats would change nothing and
//     each cell is one launch. Launches run concurrently on simulated
//     devices with the seeds a sequential run would use, so an experiment
//     is a pure function of the device spec: a rerun replays it exactly.
//   - On a GPU the time is "measured, <GPU name>": the mean of 10 timed
//     launches after 3 warm-ups, as the page times them, launches one
//     after another on the device. The same sweep is also run on the
//     simulator profile closest to the GPU, and PredictedTable and
//     PredictedChart put the prediction beside the measurement.
//
// Determinism runs each sum 20 times at n = 4,194,304 over an input that
// float32 cannot hold exactly, 1 + (i mod 1000) / 1000, and counts the
// different totals. On the page's Tesla T4 (the Day 26 course page, CUDA 12.6) the
// global atomic gave 20 different sums spread over 167.5, the shared
// atomic 6 over 2.5 and the tree 3 over 1, around a Kahan reference of
// 6289253.15. On the simulator the order of atomics to one address is
// drawn from each launch's seed, so the spread appears there too; the
// spec option order=deterministic removes it.
//
// # The exercise
//
// BlockSizes repeats the sweep at 64, 256 and 1024 threads per block and
// reports, at the largest size, each kernel's time over its time at 256
// threads, and the fastest kernel of each run. The student submits the
// nine ratios, the fastest column of each run and one sentence on why one
// column barely moves, as a Day26Answer literal in the notebook cell
// tagged "answer"; Check re-runs the sweep on the same device and checks
// each part: the ratios against the re-run (exact replay on the
// simulator, measured noise on a GPU), the fastest column, and the
// sentence against a rubric (Rubric). Like the page's harness it never
// puts a limit on a ratio, because that would decide for the student the
// question the sweep is there to answer.
//
// For reference, the page's Tesla T4 took 13.1734 ms for the global
// atomic at 4,194,304 elements, 1.5241 ms for the shared atomic and
// 0.1666 ms for the tree, 79 times faster than the global atomic (seed
// 002, CUDA 12.6). On the project's H200 (CUDA 13.0,
// calibration/evidence/2026-11-29-h200-microbenchmarks) the
// same three took 7.3646, 0.1717 and 0.0350 ms at 256 threads per block.
//
// # Running the lab
//
// The notebook notebooks/day26-atomics.ipynb walks through the lesson on
// the GoNB kernel. The package registers the lab with package labs as
// "day26" (alias "atomics"), so "warplab lab day26" runs it without
// Jupyter and prints the tables, with its options set by name
// ("--set sizes=4096,65536 --set block-size=128"; "warplab lab day26
// --help" lists them), and the grader finds its exercise there. Check
// returns the shared labs.Feedback. From Go:
//
//	dev, err := gpu.Open("") // WARPLAB_DEVICE, else a GPU, else sim:t4
//	sweep, err := atomics.Sweep(dev, atomics.SweepOptions{})
//	charts.Show(sweep, sweep.Chart(), sweep.GBpsChart())
//	fmt.Print(sweep.Table())
//
// Every result type renders as a table (HTML, Markdown, text) through
// charts.Tabler and has chart methods for charts.Show, charts.ShowPNG and
// charts.SaveImage.
package atomics
