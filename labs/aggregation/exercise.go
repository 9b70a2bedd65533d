package aggregation

import (
	"errors"
	"sync"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
)

// exerciseTitle names the exercise in feedback.
const exerciseTitle = "Aggregation exercise"

// ExerciseKernel is the kernel the exercise launches: bucketAppend(const
// int* key, int n, const unsigned* start, unsigned* count, int* out).
const ExerciseKernel = "bucketAppend"

// ExerciseBuckets is the number of buckets of the exercise's inputs.
const ExerciseBuckets = 16

// Answer is a student's answer to the aggregation exercise, written in
// the notebook cell tagged "answer":
//
//	var answer = aggregation.Answer{Source: `
//	__device__ unsigned atomicAggInc(unsigned* ptr) { ... }
//	__global__ void bucketAppend(...) { ... }
//	`}
//
// Source is CUDA C that defines the kernel bucketAppend; AnswerTemplate
// is where it starts.
type Answer struct {
	Source string
}

// AnswerTemplate is the exercise's starting point: bucketAppend, written,
// and an atomicAggInc that does not aggregate yet. It is right but sends
// one atomic per lane, so the check counts it as not answered.
const AnswerTemplate = `// Return the value atomicAdd(ptr, 1u) would return to this lane, but send
// one atomicAdd per distinct ptr among the warp's active lanes.
__device__ unsigned atomicAggInc(unsigned* ptr) {
    return atomicAdd(ptr, 1u); // TODO: aggregate with __match_any_sync
}

// Element i goes to bucket key[i]: one slot of out[start[b]...] per element.
__global__ void bucketAppend(const int* key, int n, const unsigned* start, unsigned* count, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int b = key[i];
        out[start[b] + atomicAggInc(&count[b])] = i;
    }
}
`

// ExerciseMinSpeedup is how many times faster than the template (one
// atomic per lane) the check wants bucketAppend at its largest size, in
// modelled time.
const ExerciseMinSpeedup = 4

// exerciseConfig is the check's default settings: sizes that are not
// multiples of 32 nor of the block, three scheduler seeds, and the
// contention budget of the harness (one atomic per distinct key in each
// warp) instead of a per-element one.
func exerciseConfig() kernelcheck.Config {
	c := kernelcheck.DefaultConfig()
	c.Sizes = []int{1000, 4133, 100003}
	c.ElementsPerAtomic = 0
	// The lab's atomicAggInc is 7.85x faster than the template's one
	// atomic per lane at the largest size (t4 profile).
	c.MinSpeedup = ExerciseMinSpeedup
	return c
}

// theExercise is the exercise as the registry, the grader and the
// notebook's check cell run it.
var theExercise = kernelcheck.Exercise[Answer]{
	Title:            exerciseTitle,
	Config:           exerciseConfig,
	Harness:          harness,
	Source:           func(a Answer) string { return a.Source },
	Template:         AnswerTemplate,
	Unanswered:       "not answered yet: the template's atomicAggInc still sends one atomicAdd per lane. Aggregate it with __activemask and __match_any_sync.",
	Exact:            true, // the outputs are indices
	ContentionAdvice: "Group the lanes of each warp by their address (__match_any_sync over __activemask()) and let one lane of each group send the group's atomicAdd.",
}

func exercise() *labs.Exercise { return theExercise.Lab() }

// Check checks an answer to the exercise on dev with the default
// settings: the notebook's check cell.
func Check(dev *gpu.Device, a Answer) labs.Feedback { return theExercise.Check(dev, a) }

// harness tells the checker how to run bucketAppend.
func harness() kernelcheck.Harness {
	ref := Buckets()
	return kernelcheck.Harness{
		Exercise: exerciseTitle,
		File:     "answer.cu",
		Kernel:   ExerciseKernel,
		Prepare:  prepareCase,
		AtomicBudget: func(n int, _ gpu.LaunchConfig) int64 {
			return exerciseKeys(n).groups
		},
		AtomicRule:      "one per distinct key in each warp",
		Checked:         "every bucket's count is its number of elements, and its slots hold exactly its elements, each once (the tickets form a permutation)",
		Reference:       []byte(ref.Text),
		ReferenceFile:   ref.File,
		ReferenceKernel: string(BucketAggInc),
		Baseline:        []byte(AnswerTemplate),
		BaselineFile:    "template.cu",
		BaselineKernel:  ExerciseKernel,
		BaselineName:    "the template's one atomic per lane",
		Hints:           map[string]int{kernelcheck.PartCorrect: 3, kernelcheck.PartRaces: 3, kernelcheck.PartContention: 2},
	}
}

// prepareCase builds one case of n elements on dev: the keys, the
// buckets' starts, zeroed counters and an output filled with -1.
func prepareCase(dev *gpu.Device, n int, _ uint64) (*kernelcheck.Case, error) {
	in := exerciseKeys(n)
	key, err := gpu.Upload(dev, in.keys)
	if err != nil {
		return nil, err
	}
	start, err := gpu.Upload(dev, in.start)
	if err != nil {
		return nil, err
	}
	count, err := gpu.NewBuffer[uint32](dev, in.buckets)
	if err != nil {
		return nil, err
	}
	fill := make([]int32, n)
	for i := range fill {
		fill[i] = -1
	}
	out, err := gpu.Upload(dev, fill)
	if err != nil {
		return nil, err
	}
	return &kernelcheck.Case{
		Launch: gpu.LaunchConfig{Grid: gpu.D1((n + 255) / 256), Block: gpu.D1(256)},
		Args:   []any{key, n, start, count, out},
		Judge: func(*gpu.Result, float64) error {
			counts, err := count.Download()
			if err != nil {
				return err
			}
			got, err := out.Download()
			if err != nil {
				return err
			}
			if p := checkBuckets(in, counts, got); p != "" {
				return errors.New(p)
			}
			return nil
		},
	}, nil
}

var exerciseInputs = struct {
	sync.Mutex
	m map[int]*bucketInput
}{m: map[int]*bucketInput{}}

// exerciseKeys returns the exercise's keys for n elements: warps take
// turns at four patterns, so every check meets each of them: one key for
// the whole warp, four runs of eight lanes, two keys on alternate lanes,
// and a key drawn per lane from a hash (up to 16 distinct).
func exerciseKeys(n int) *bucketInput {
	exerciseInputs.Lock()
	defer exerciseInputs.Unlock()
	if in, ok := exerciseInputs.m[n]; ok {
		return in
	}
	keys := make([]int32, n)
	for i := range keys {
		w, l := i/32, i%32
		var k int
		switch w % 4 {
		case 0:
			k = w
		case 1:
			k = w + l/8
		case 2:
			k = w + l%2
		default:
			k = int(mix(uint64(i)))
		}
		keys[i] = int32(uint(k) % ExerciseBuckets)
	}
	in := layout(keys, ExerciseBuckets)
	exerciseInputs.m[n] = in
	return in
}
