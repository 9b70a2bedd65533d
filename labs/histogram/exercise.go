package histogram

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
	"github.com/warplab/warplab/labs/kernelcheck"
)

// exerciseTitle names the exercise in feedback.
const exerciseTitle = "Histogram exercise"

// ExerciseKernel is the kernel the exercise launches:
// histogram(const int* bin, int n, unsigned* hist, int bins).
const ExerciseKernel = "histogram"

// ExerciseMaxGrid is the most blocks the check launches: a grid of
// min(ceil(n / 256), ExerciseMaxGrid) blocks of 256 threads, so the
// kernel must cover n elements with any grid.
const ExerciseMaxGrid = 40

// Answer is a student's answer to the histogram exercise, written in the
// notebook cell tagged "answer":
//
//	var answer = histogram.Answer{Source: `
//	__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) { ... }
//	`}
type Answer struct {
	Source string
}

// AnswerTemplate is the exercise's starting point: a right histogram that
// sends one global atomic per element, which the contention part fails.
const AnswerTemplate = `// Count bin[0..n) into hist[0..bins): hist starts zeroed. The launch gives
// each block bins * 4 bytes of dynamic shared memory and a grid that may be
// smaller than n / blockDim.x: cover every element with a grid-stride loop.
__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) {
    extern __shared__ unsigned local[];  // bins counters per block, for you
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[bin[i]], 1u);  // TODO: count in local, then merge
}
`

// ExerciseMinSpeedup is how many times faster than the template (one
// global atomic per element) the check wants the kernel at its largest
// size, in modelled time.
const ExerciseMinSpeedup = 3

// exerciseConfig is the check's default settings: sizes that are neither
// multiples of 32 nor of the block, three scheduler seeds, and the
// harness's contention budget (blocks times bins) instead of a
// per-element one.
func exerciseConfig() kernelcheck.Config {
	c := kernelcheck.DefaultConfig()
	c.Sizes = []int{1000, 30011, 100003}
	c.ElementsPerAtomic = 0
	// The lesson's margin over the template's one global atomic per
	// element, at the largest size, mean over the three inputs: the lab's
	// privatised kernel is 4.97x faster (t4 profile), a serial kernel
	// 0.001x.
	c.MinSpeedup = ExerciseMinSpeedup
	return c
}

// ExerciseBins returns the bins of the check's case of n elements: the
// bin counts the check meets vary with the sizes (7, 256, 1000 or 4096
// bins), so an instructor's hidden sizes hide the bin counts too.
func ExerciseBins(n int) int { return []int{7, 256, 1000, 4096}[labkit.Lowbias32(uint32(n))%4] }

// exerciseInput returns the input of the check's case for a seed: the
// three inputs in turn.
func exerciseInput(seed uint64) Input { return Inputs()[seed%3] }

// theExercise is the exercise as the registry, the grader and the
// notebook's check cell run it.
var theExercise = kernelcheck.Exercise[Answer]{
	Title:            exerciseTitle,
	Config:           exerciseConfig,
	Harness:          harness,
	Source:           func(a Answer) string { return a.Source },
	Template:         AnswerTemplate,
	Unanswered:       "not answered yet: the template still sends one global atomic per element. Count into the shared bins, then merge them.",
	Exact:            true,
	ContentionAdvice: "Add into the block's shared bins, and after a __syncthreads() send one global atomicAdd per non-empty bin.",
}

func exercise() *labs.Exercise { return theExercise.Lab() }

// Check checks an answer on dev with the default settings: the
// notebook's check cell.
func Check(dev *gpu.Device, a Answer) labs.Feedback { return theExercise.Check(dev, a) }

func harness() kernelcheck.Harness {
	ref := KernelSource()
	return kernelcheck.Harness{
		Exercise: exerciseTitle,
		File:     "answer.cu",
		Kernel:   ExerciseKernel,
		Prepare:  prepareCase,
		AtomicBudget: func(n int, l gpu.LaunchConfig) int64 {
			return int64(l.Grid.Count()) * int64(ExerciseBins(n))
		},
		AtomicRule:      "one per bin per block",
		Checked:         "every bin's count is exact",
		Reference:       []byte(ref.Text),
		ReferenceFile:   ref.File,
		ReferenceKernel: string(Resident),
		Baseline:        []byte(AnswerTemplate),
		BaselineFile:    "template.cu",
		BaselineKernel:  ExerciseKernel,
		BaselineName:    "the template's one global atomic per element",
		Hints:           map[string]int{kernelcheck.PartCorrect: 3, kernelcheck.PartRaces: 3, kernelcheck.PartContention: 2},
	}
}

// prepareCase builds the case of n elements for a seed.
func prepareCase(dev *gpu.Device, n int, seed uint64) (*kernelcheck.Case, error) {
	bins := ExerciseBins(n)
	d := makeData(exerciseInput(seed), n, bins, seed+1)
	in, err := gpu.Upload(dev, d.bin)
	if err != nil {
		return nil, err
	}
	hist, err := gpu.NewBuffer[uint32](dev, bins)
	if err != nil {
		return nil, err
	}
	grid := min((n+255)/256, ExerciseMaxGrid)
	return &kernelcheck.Case{
		Launch: gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(256), SharedBytes: 4 * bins},
		Args:   []any{in, n, hist, bins},
		Judge: func(*gpu.Result, float64) error {
			got, err := hist.Download()
			if err != nil {
				return err
			}
			for b := range d.want {
				if got[b] != d.want[b] {
					wrong, lost := compare(got, d.want)
					return fmt.Errorf("%d elements, %d bins (%s input): bin %d holds %d, want %d; %d bins wrong, %d counts missing",
						n, bins, exerciseInput(seed), b, got[b], d.want[b], wrong, lost)
				}
			}
			return nil
		},
	}, nil
}
