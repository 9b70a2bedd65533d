package softmax

import (
	"fmt"
	"math"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
)

// ExerciseKernel is the name of the kernel the student writes.
const ExerciseKernel = "denomWarp"

// ExerciseBlockSize is the block size the exercise launches the
// student's kernel with.
const ExerciseBlockSize = 256

// Answer is a student's answer to the softmax exercise, written in the
// notebook cell tagged "answer":
//
//	var answer = softmax.Answer{Kernel: `
//	__global__ void denomWarp(const float* x, float* denom, int n) {
//	    ...
//	}`}
//
// Kernel is CUDA C: a kernel denomWarp(const float* x, float* denom, int
// n) that adds exp(x[i]) for every i < n into *denom, launched with
// ceil(n / 256) blocks of 256 threads, using warp shuffles so that it
// sends at most one global atomic per warp (the reference sends one per
// block).
type Answer struct {
	Kernel string
}

// Hints returns the notebook's hints, by number.
func Hints() map[int]string {
	return map[int]string{
		1: "Start from the shuffle kernel's first half: every thread computes its expf (or 0 past the end), then five __shfl_down_sync steps (16, 8, 4, 2, 1) leave the warp's total in lane 0. Every lane of the warp must take part in every shuffle, so do not put them inside if (i < n).",
		2: "Send one atomicAdd per warp (lane 0 only), or better one per block: lane 0 of each warp writes its total to a __shared__ array, then the first warp adds those totals.",
		3: "Threads that read what other threads wrote to shared memory need a __syncthreads() between the writes and the reads, reached by every thread of the block (not inside a branch that only some take).",
	}
}

// ExerciseMinSpeedup is how many times faster than the lab's atomic
// kernel (one global atomic per element) the check wants denomWarp at its
// largest size, in modelled time.
const ExerciseMinSpeedup = 10

// ExerciseConfig returns the check's default settings: kernelcheck's
// defaults, with the time part failing only past ten times the reference.
func ExerciseConfig() kernelcheck.Config {
	c := kernelcheck.DefaultConfig()
	c.MaxSlowdown = 10
	// The lab's shuffle kernel is 72x faster than one global atomic per
	// element at the largest size (t4 profile); one atomic per warp is
	// well past 10x too, a serial kernel far below 1x.
	c.MinSpeedup = ExerciseMinSpeedup
	return c
}

// Harness returns the kernel checker's harness for the exercise: inputs
// x uniform in [-1, 1) drawn from the seed, ceil(n / 256) blocks of 256
// threads, the denominator judged against a double sum, and the lab's
// shuffle kernel as the reference.
func Harness() kernelcheck.Harness {
	ref, base := Source(Shuffle), Source(Atomic)
	return kernelcheck.Harness{
		Exercise: "Softmax exercise",
		File:     "answer.cu",
		Kernel:   ExerciseKernel,
		Prepare: func(dev *gpu.Device, n int, seed uint64) (*kernelcheck.Case, error) {
			x, want := Input(n, seed)
			in, err := gpu.Upload(dev, x)
			if err != nil {
				return nil, err
			}
			denom, err := gpu.NewBuffer[float32](dev, 1)
			if err != nil {
				return nil, err
			}
			return &kernelcheck.Case{
				Launch: gpu.LaunchConfig{Grid: gpu.D1((n + ExerciseBlockSize - 1) / ExerciseBlockSize), Block: gpu.D1(ExerciseBlockSize)},
				Args:   []any{in, denom, n},
				Judge: func(res *gpu.Result, tol float64) error {
					got, err := denom.Download()
					if err != nil {
						return err
					}
					rel := math.Abs(float64(got[0])-want) / want
					if !(rel <= tol) {
						return fmt.Errorf("denominator %g, reference %.6f (relative error %.2g)", got[0], want, rel)
					}
					return nil
				},
			}, nil
		},
		// One atomic per launched warp: ceil(n / 32) rounded up to whole
		// blocks, so that a warp past the end that adds its zero is not
		// held against a per-warp design.
		AtomicBudget: func(n int, launch gpu.LaunchConfig) int64 {
			return int64(launch.Grid.Count()) * int64((launch.Block.Count()+31)/32)
		},
		AtomicRule:      "one per launched warp, ceil(n / 256) x 8",
		Reference:       []byte(ref.Text),
		ReferenceFile:   ref.File,
		ReferenceKernel: Shuffle.Function(),
		Baseline:        []byte(base.Text),
		BaselineFile:    base.File,
		BaselineKernel:  Atomic.Function(),
		BaselineName:    "the lab's one global atomic per element",
		Hints: map[string]int{
			kernelcheck.PartCorrect:    1,
			kernelcheck.PartContention: 2,
			kernelcheck.PartRaces:      3,
		},
	}
}

// theExercise is the exercise as the registry, the grader and the
// notebook's check cell run it.
var theExercise = kernelcheck.Exercise[Answer]{
	Title:   "Softmax exercise",
	Config:  ExerciseConfig,
	Harness: Harness,
	Source:  func(a Answer) string { return a.Kernel },
}

// Check checks an answer on dev's simulator profile with the default
// settings; see kernelcheck for the parts.
func Check(dev *gpu.Device, a Answer) labs.Feedback { return theExercise.Check(dev, a) }

func exercise() *labs.Exercise { return theExercise.Lab() }
