package reproducible

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
	"github.com/warplab/warplab/labs/kernelcheck"
)

// exerciseTitle names the exercise in feedback.
const exerciseTitle = "Reproducible sum exercise"

// ExerciseKernel is the kernel the exercise launches:
// sum(const float* in, int n, float* out, float* partials, unsigned* done).
const ExerciseKernel = "sum"

// ExerciseMaxGrid is the most blocks the check launches: a grid of
// min(ceil(n / 256), ExerciseMaxGrid) blocks of 256 threads, so the
// kernel must cover n elements with any grid.
const ExerciseMaxGrid = 64

// ExerciseMaxSlowdown is the default time budget: the answer's modelled
// time at the largest size may be at most this many times the atomic
// version's (AnswerTemplate).
const ExerciseMaxSlowdown = 1.5

// Answer is a student's answer to the exercise, written in the notebook
// cell tagged "answer":
//
//	var answer = reproducible.Answer{Source: `
//	__global__ void sum(const float* in, int n, float* out, float* partials, unsigned* done) { ... }
//	`}
type Answer struct {
	Source string
}

// AnswerTemplate is the exercise's starting point and the time part's
// reference: a right sum whose blocks each send one float atomicAdd, so
// its bits change with the order in which blocks finish.
const AnswerTemplate = `// Sum in[0..n) into *out, which starts at zero. The launch is a grid of at
// most 64 blocks of 256 threads, so each thread walks a grid-stride loop.
// partials holds one float per block and *done starts at zero: yours to use.
__global__ void sum(const float* in, int n, float* out, float* partials, unsigned* done) {
    __shared__ float s[256];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0]);  // TODO: the order of these adds changes run to run
}
`

// exerciseConfig is the check's default settings: three sizes, eight
// scheduler seeds (each another order in which blocks finish), no
// contention budget, and a time budget of ExerciseMaxSlowdown times the
// atomic version.
func exerciseConfig() kernelcheck.Config {
	c := kernelcheck.DefaultConfig()
	c.Sizes = []int{1000, 30011, 200003}
	c.Seeds = []uint64{1, 2, 3, 4, 5, 6, 7, 8}
	c.ElementsPerAtomic = 0
	c.MaxSlowdown = ExerciseMaxSlowdown
	return c
}

// ExerciseInput returns the check's input of n elements: values in
// [1, 2) drawn from n alone, so that every seed sums the same numbers and
// only the schedule changes.
func ExerciseInput(n int) []float32 {
	r := rand.New(rand.NewPCG(uint64(n), 68))
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = 1 + r.Float32()
	}
	return xs
}

// theExercise is the exercise as the registry, the grader and the
// notebook's check cell run it.
var theExercise = kernelcheck.Exercise[Answer]{
	Title:      exerciseTitle,
	Config:     exerciseConfig,
	Harness:    harness,
	Source:     func(a Answer) string { return a.Source },
	Template:   AnswerTemplate,
	Unanswered: "not answered yet: the template's float atomicAdd per block lands in a different order each run. Fix the order of the adds.",
}

func exercise() *labs.Exercise { return theExercise.Lab() }

// Check checks an answer on dev with the default settings: the
// notebook's check cell. On a GPU the reproducibility part also runs the
// kernel there.
func Check(dev *gpu.Device, a Answer) labs.Feedback { return theExercise.Check(dev, a) }

func harness() kernelcheck.Harness {
	return kernelcheck.Harness{
		Exercise:        exerciseTitle,
		File:            "answer.cu",
		Kernel:          ExerciseKernel,
		Prepare:         prepareCase,
		Reference:       []byte(AnswerTemplate),
		ReferenceFile:   "atomic.cu",
		ReferenceKernel: ExerciseKernel,
		Reproducible:    true,
		Hints:           map[string]int{kernelcheck.PartReproducible: 2, kernelcheck.PartTime: 3, kernelcheck.PartRaces: 3},
	}
}

// prepareCase builds the case of n elements; the seed only changes the
// schedule.
func prepareCase(dev *gpu.Device, n int, _ uint64) (*kernelcheck.Case, error) {
	host := ExerciseInput(n)
	want := labkit.KahanSum(host)
	in, err := gpu.Upload(dev, host)
	if err != nil {
		return nil, err
	}
	grid := min((n+Block-1)/Block, ExerciseMaxGrid)
	out, err := gpu.NewBuffer[float32](dev, 1)
	if err != nil {
		return nil, err
	}
	partials, err := gpu.NewBuffer[float32](dev, grid)
	if err != nil {
		return nil, err
	}
	done, err := gpu.NewBuffer[uint32](dev, 1)
	if err != nil {
		return nil, err
	}
	read := func() (float32, error) {
		got, err := out.Download()
		if err != nil {
			return 0, err
		}
		return got[0], nil
	}
	return &kernelcheck.Case{
		Launch: gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(Block)},
		Args:   []any{in, n, out, partials, done},
		Judge: func(_ *gpu.Result, tol float64) error {
			got, err := read()
			if err != nil {
				return err
			}
			if rel := math.Abs(float64(got)-want) / want; !(rel <= tol) {
				return fmt.Errorf("*out = %.9g, reference %.4f (relative error %.2g)", got, want, rel)
			}
			return nil
		},
		Fingerprint: func() (string, error) {
			got, err := read()
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%.9g (bits %08x)", got, math.Float32bits(got)), nil
		},
	}, nil
}
