package cas

import (
	"fmt"
	"math"
	"strings"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
	"github.com/warplab/warplab/labs/kernelcheck"
)

// exerciseTitle names the exercise in feedback.
const exerciseTitle = "CAS exercise"

// ExerciseKernel is the kernel the exercise launches:
// foldMax(const float* v, int n, int C, float* m).
const ExerciseKernel = "foldMax"

// NaNPolicy is the exercise's rule for NaN inputs.
const NaNPolicy = "a NaN input is ignored, as fmaxf ignores a NaN argument: each m[g] is the largest non-NaN value of its group, or -infinity when the group holds only NaNs"

// Answer is a student's answer to the CAS exercise, written in the
// notebook cell tagged "answer": CUDA C that defines atomicMaxFloat and
// the kernel foldMax, which AnswerTemplate gives.
type Answer struct {
	Source string
}

// AnswerTemplate is the exercise's starting point: foldMax, written, and
// an atomicMaxFloat that compares the bits as ints, wrong for negatives.
const AnswerTemplate = `// Make *addr the larger of *addr and value, atomically, and return the old
// value. Right for every float: negatives, -0.0 and +0.0, +-infinity; a
// NaN value must leave *addr as it is.
__device__ float atomicMaxFloat(float* addr, float value) {
    // TODO: wrong for negative floats. Write a compare-and-swap loop.
    return __int_as_float(atomicMax((int*)addr, __float_as_int(value)));
}

// Thread i folds v[i] into m[i / C]; every m[g] starts at -infinity.
__global__ void foldMax(const float* v, int n, int C, float* m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicMaxFloat(&m[i / C], v[i]);
}
`

// ExerciseContenders returns the group size of the check's case of n
// threads: 1, 2, 7, 32 or 256, picked from n, so hidden sizes hide the
// contention too.
func ExerciseContenders(n int) int {
	return []int{2, 7, 32, 256, 1}[labkit.Lowbias32(uint32(n)^0xc0ffee)%5]
}

// exerciseValues returns the check's values: Value's draws with, every
// 97th, one of the special values (both zeros, both infinities, NaN, the
// extremes), and some groups of negatives only.
func exerciseValues(n int, seed uint64) []float32 {
	sp := []float32{float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		-math.MaxFloat32, math.MaxFloat32, -math.SmallestNonzeroFloat32}
	v := Values(n, seed)
	C := ExerciseContenders(n)
	for i := range v {
		switch {
		case i%97 == 3:
			v[i] = sp[(i/97)%len(sp)]
		case (i/C)%5 == 1 && v[i] > 0:
			v[i] = -v[i] - 0.5 // a group of negatives only
		}
	}
	return v
}

func exerciseConfig() kernelcheck.Config {
	c := kernelcheck.DefaultConfig()
	c.Sizes = []int{1000, 30011, 100003}
	c.ElementsPerAtomic = 0
	// A CAS loop runs as fast as the lab's (1.00x); a serial fold by one
	// thread takes 11000x as long (t4 profile).
	c.MaxSlowdown = 4
	return c
}

// theExercise is the exercise as the registry, the grader and the
// notebook's check cell run it.
var theExercise = kernelcheck.Exercise[Answer]{
	Title:      exerciseTitle,
	Config:     exerciseConfig,
	Harness:    harness,
	Source:     func(a Answer) string { return a.Source },
	Template:   AnswerTemplate,
	Unanswered: "not answered yet: the template's atomicMaxFloat compares the bits as ints, which is wrong for negative floats. Write a compare-and-swap loop that compares as floats.",
	Exact:      true,
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
		// A CAS loop sends one atomicCAS per try; a thread that reads a
		// larger value sends none.
		AtomicBudget:    func(n int, _ gpu.LaunchConfig) int64 { return 4 * int64(n) },
		AtomicRule:      "four per thread, retries included",
		Checked:         "every group's maximum equals the largest of its values, compared with == (so -0 and +0 count as equal), over inputs with negatives, -0, +/-infinity and NaN; " + NaNPolicy,
		Reference:       []byte(ref.Text),
		ReferenceFile:   ref.File,
		ReferenceKernel: string(MaxCAS),
		Hints:           map[string]int{kernelcheck.PartCorrect: 2, kernelcheck.PartRuns: 3},
	}
}

func prepareCase(dev *gpu.Device, n int, seed uint64) (*kernelcheck.Case, error) {
	C := ExerciseContenders(n)
	v := exerciseValues(n, seed)
	want := Maxima(v, C)
	in, err := gpu.Upload(dev, v)
	if err != nil {
		return nil, err
	}
	start := make([]float32, len(want))
	for g := range start {
		start[g] = negInf
	}
	m, err := gpu.Upload(dev, start)
	if err != nil {
		return nil, err
	}
	return &kernelcheck.Case{
		Launch: gpu.LaunchConfig{Grid: gpu.D1((n + 255) / 256), Block: gpu.D1(256)},
		Args:   []any{in, n, C, m},
		Judge: func(*gpu.Result, float64) error {
			got, err := m.Download()
			if err != nil {
				return err
			}
			wrong := 0
			first := -1
			for g := range want {
				if !same(got[g], want[g]) {
					wrong++
					if first < 0 {
						first = g
					}
				}
			}
			if wrong == 0 {
				return nil
			}
			lo, hi := first*C, min(n, (first+1)*C)
			var show []string
			for _, x := range v[lo:min(hi, lo+8)] {
				show = append(show, labkit.FormatFloat32(x))
			}
			if hi-lo > 8 {
				show = append(show, "...")
			}
			return fmt.Errorf("%d threads in groups of %d: %d of %d maxima wrong; group %d holds %s: got %s, want %s (NaN policy: %s)",
				n, C, wrong, len(want), first, strings.Join(show, ", "), labkit.FormatFloat32(got[first]), labkit.FormatFloat32(want[first]), NaNPolicy)
		},
	}, nil
}
