// Package gputest is the conformance suite that every warplab backend runs,
// as testing/fstest.TestFS is for file systems: the same kernels, the same
// inputs, and expected values computed in Go, never copied from a run.
//
// A backend's test calls RunAll with a function that opens a fresh device:
//
//	func TestConformance(t *testing.T) {
//		gputest.RunAll(t, func(t *testing.T) *gpu.Device {
//			d, err := gpu.Open("sim:t4")
//			if err != nil {
//				t.Fatal(err)
//			}
//			return d
//		})
//	}
//
// The suite covers exact sums (the Day 26 kernels of internal/coursekernels,
// bitwise), atomics of each type and operation with their exact results,
// warp shuffles with widths, votes and matches, barriers and their
// counting forms, dynamic shared memory, template instantiation, device
// functions, module variables, argument marshalling, device printf (text,
// and order within a thread), launch errors (an oversized block, too much
// shared memory, an illegal and a misaligned address, __trap, and the next
// launch working afterwards) and bad arguments, refused before anything
// runs.
//
// The expectations are backend-neutral: what a real GPU does is the
// reference, so the suite asserts nothing that hardware leaves undefined
// (the order of printf lines from different threads, which thread wins a
// race) and provokes faults the hardware reliably catches (an address far
// outside every allocation rather than a few bytes past the end of one).
package gputest
