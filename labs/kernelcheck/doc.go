// Package kernelcheck is warplab's student-kernel checker: it judges a
// CUDA C kernel that a student wrote in a notebook's answer cell, and
// reports part by part in the shared feedback type, labs.Feedback. The
// softmax lab uses it first; the aggregation, histogram, CAS and
// reproducible labs and the class grader use it the same way.
//
// # What a lab provides
//
// A Harness says how to run the exercise's kernel: its name, how to build
// one case (inputs for a size and a seed, the launch's grid, block, shared
// memory and arguments, and how to judge the outputs against a reference
// computed in double precision), the lab's own reference kernel, and
// optionally a contention budget of its own:
//
//	h := kernelcheck.Harness{
//		Exercise: "Softmax exercise",
//		File:     "answer.cu",
//		Kernel:   "warpDenom",
//		Prepare: func(dev *gpu.Device, n int, seed uint64) (*kernelcheck.Case, error) {
//			x := inputs(n, seed)
//			in, err := gpu.Upload(dev, x)
//			...
//			return &kernelcheck.Case{
//				Launch: gpu.LaunchConfig{Grid: gpu.D1((n + 255) / 256), Block: gpu.D1(256)},
//				Args:   []any{in, out, n},
//				Judge:  func(res *gpu.Result, tol float64) error { ... },
//			}, nil
//		},
//		Reference: refSource, ReferenceKernel: "denomShuffle",
//		// Optional: a contention budget of the lab's own, said in words,
//		// and the notebook's hint for each part.
//		AtomicBudget: func(n int, l gpu.LaunchConfig) int64 { return int64(l.Grid.Count()) * 8 },
//		AtomicRule:   "one per launched warp",
//		Hints:        map[string]int{kernelcheck.PartContention: 2},
//	}
//	fb := kernelcheck.Check(dev, h, answer.Kernel, settings) // settings resolved against Options()
//	fb = kernelcheck.CheckConfig(dev, h, src, kernelcheck.DefaultConfig())
//
// An exercise lists the checker's settings as its own options with
// Config.Options (DefaultConfig, or a copy with other defaults), so that
// labs.Check and the grader resolve an instructor's hidden values against
// them; the lab's Check function passes the resolved settings to Check.
// The part names are constants (PartCompiles ... PartTime; Parts lists
// them in order) for tests and graders that look a part up.
//
// A lab whose exercise is a student kernel declares it once as an
// Exercise: its title, its Config and Harness, where the answer holds the
// source, the template the notebook starts from (an answer that is still
// the template, but for white space, is unanswered), whether its outputs
// are exact, its own advice for a failed contention part, and a Finish
// that adapts the feedback further (a part of its own). Exercise.Lab is
// what the lab's
// Info lists for labs.Check and the grader; Exercise.Check is the
// notebook's check cell.
// # What the checker does
//
// Check compiles the student's source with cudac, the front end both
// backends use, then runs the kernel on the simulator (gpusim) at every
// size of the settings and under every scheduler seed: the seed changes
// the order in which warps interleave and atomics land, so a kernel that
// is right only by luck of one order fails on another. The default sizes
// are neither multiples of 32 nor of any block size, so the tail of the
// last warp and of the last block is exercised. Every launch runs on a
// fresh simulated device, under an instruction budget (an endless loop
// stops with gpu.ErrBudget) and a wall-clock limit. On a GPU the check
// still runs on the simulator, on the profile that predicts that GPU:
// races, budgets and counters are what the simulator can report.
//
// The feedback has these parts, in order:
//
//   - "compiles": the source compiles and defines the kernel with the
//     parameters the harness launches it with; a compile error is
//     reported at the student's line:col with the line and a caret.
//   - "runs": no launch faulted (illegal or misaligned address, trap, too
//     many resources), ran past the instruction budget, or past the wall
//     clock; a fault names the block, the thread and the source line.
//   - "correct": every output within the stated relative tolerance of the
//     harness's double reference, at every size and seed.
//   - "reproducible", only when the harness sets Reproducible: every
//     seed at one size gave the same bits (the Case's Fingerprint), so the
//     result does not depend on the order in which warps interleave and
//     atomics land; the failure lists each distinct result with its
//     seeds. On a real GPU the part also launches the kernel
//     Harness.GPURuns times (DefaultGPURuns) at the largest size there and
//     requires one distinct result: the simulator's seeds model the
//     hardware's orders, the GPU is the hardware. Parts does not list it.
//   - "no race or barrier divergence": the simulator's race check found
//     no shared-memory data race (both lines reported) and no warp
//     reached a __syncthreads that others of its block skipped; warp-sync
//     diagnostics (a shuffle naming an inactive lane) are reported here
//     too.
//   - "contention": the global atomics that reach the L2 per launch
//     (gpu.Counters.GlobalAtomicIssued, after the compiler's warp
//     aggregation) are at most the budget: ceil(n / elements-per-atomic)
//     unless the harness sets its own.
//   - "time": the kernel's modelled time at the largest size over the
//     reference kernel's, on the same device and seed; it fails only when
//     max-slowdown is set and exceeded, and is a note otherwise.
//
// A part that cannot be judged because an earlier one failed says so and
// fails. A source of nothing but comments and white space (a
// placeholder) is unanswered in every part. Nothing the student
// writes makes the checker panic: compile, prepare, launch and judge run
// behind a recover, and a panic is reported as an internal error of the
// checker, with its message, in the part it interrupted.
//
// # Settings
//
// Options returns the checker's settings as labs.Options, so that an
// exercise lists them and an instructor's key can change them for a hidden
// check: sizes, seeds, budget (warp instructions per launch), time-limit-ms
// (per launch), tolerance (relative), elements-per-atomic (the contention
// budget's divisor) and max-slowdown. ConfigFrom reads them back from
// resolved settings; CheckConfig takes a Config directly.
package kernelcheck
