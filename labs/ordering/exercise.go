package ordering

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
)

// exerciseTitle names the exercise in feedback.
const exerciseTitle = "Ordering exercise"

// ExerciseKernel is the kernel the exercise launches: publish(int* base,
// int trials, int* counts), with the layout and counts of the lab's
// kernels (see kernels/mp.cu).
const ExerciseKernel = "publish"

// ExerciseTrials is the number of publications per pair in each checked
// launch.
const ExerciseTrials = 8

// PartScope is the exercise's own part: the order is no wider than the
// publication needs.
const PartScope = "narrowest scope"

// Answer is a student's answer to the ordering exercise, written in the
// notebook cell tagged "answer":
//
//	var answer = ordering.Answer{Source: `
//	__global__ void publish(int* base, int trials, int* counts) { ... }
//	`}
type Answer struct {
	Source string
}

// AnswerTemplate is the exercise's starting point: the publication with
// no order at all. It compiles and runs, and the relaxed model finds its
// stale reads.
const AnswerTemplate = `// Pair p is blocks 2p (producer) and 2p+1 (consumer); thread 0 of each works.
// Make every read of the payload after the flag return the payload published
// with it, with the narrowest order and scope that does.
__global__ void publish(int* base, int trials, int* counts) {
    if (threadIdx.x != 0) return;
    int pair = blockIdx.x >> 1;
    int* payload = base + pair * 128;
    int* flag = payload + 32;
    int* ack = flag + 32;
    for (int t = 1; t <= trials; ++t) {
        if ((blockIdx.x & 1) == 0) {
            *(volatile int*)payload = t;
            *(volatile int*)flag = t;            // publish
            int spins = 0;
            while (*(volatile int*)ack != t && ++spins < 100000) {}
        } else {
            int spins = 0;
            while (*(volatile int*)flag != t && ++spins < 100000) {}
            int got = *(volatile int*)payload;   // read what was published
            if (spins >= 100000) counts[2 * pair + 1] += 1;
            else if (got != t) counts[2 * pair] += 1;
            *(volatile int*)ack = t;
        }
    }
}
`

// exerciseConfig is the check's default settings: one size (eight pairs
// of blocks), many seeds of the relaxed memory model, and no contention or
// time part.
func exerciseConfig() kernelcheck.Config {
	c := kernelcheck.DefaultConfig()
	c.Sizes = []int{8}
	c.Seeds = nil
	for s := uint64(1); s <= 24; s++ {
		c.Seeds = append(c.Seeds, s)
	}
	c.ElementsPerAtomic = 0
	c.Memory = gpu.MemoryRelaxed
	return c
}

// harness is the exercise's kernel as the checker runs it: n pairs of
// blocks, ExerciseTrials publications each; the outputs are the stale
// reads and timeouts the consumers counted.
func harness() kernelcheck.Harness {
	return kernelcheck.Harness{
		Exercise: exerciseTitle,
		File:     "answer.cu",
		Kernel:   ExerciseKernel,
		Prepare: func(dev *gpu.Device, n int, seed uint64) (*kernelcheck.Case, error) {
			base, err := gpu.NewBuffer[int32](dev, n*4*stride)
			if err != nil {
				return nil, err
			}
			counts, err := gpu.NewBuffer[int32](dev, 2*n)
			if err != nil {
				return nil, err
			}
			spec := dev.Spec().String()
			return &kernelcheck.Case{
				Launch: gpu.LaunchConfig{Grid: gpu.D1(2 * n), Block: gpu.D1(32)},
				Args:   []any{base, int32(ExerciseTrials), counts},
				Judge: func(*gpu.Result, float64) error {
					c, err := counts.Download()
					if err != nil {
						return err
					}
					var stale, timeouts int
					first := -1
					for p := 0; p < n; p++ {
						stale += int(c[2*p])
						timeouts += int(c[2*p+1])
						if c[2*p] != 0 && first < 0 {
							first = p
						}
					}
					// An empty or partial kernel reads nothing stale: the
					// protocol must have run to its last trial, every
					// pair's payload, flag and acknowledgement holding it.
					b, err := base.Download()
					if err != nil {
						return err
					}
					for p := 0; p < n; p++ {
						payload, flag, ack := b[p*4*stride], b[p*4*stride+stride], b[p*4*stride+2*stride]
						if payload != ExerciseTrials || flag != ExerciseTrials || ack != ExerciseTrials {
							return fmt.Errorf("pair %d did not publish all %d trials: after the launch its payload, flag and acknowledgement hold %d, %d and %d; keep the template's protocol (payload, flag, acknowledgement at base + pair * 128, + 32, + 64)",
								p, ExerciseTrials, payload, flag, ack)
						}
					}
					switch {
					case stale > 0:
						return fmt.Errorf("%d of %d reads of the payload were stale (pair %d first); reproduce with %s",
							stale, n*ExerciseTrials, first, spec)
					case timeouts > 0:
						return fmt.Errorf("%d spins gave up waiting (a flag or acknowledgement never arrived); reproduce with %s", timeouts, spec)
					}
					return nil
				},
			}, nil
		},
		Hints:   map[string]int{kernelcheck.PartCorrect: 1, PartScope: 2},
		Checked: fmt.Sprintf("no consumer read a stale payload and no spin gave up in %d publications per pair", ExerciseTrials),
	}
}

// theExercise is the exercise as the registry, the grader and the
// notebook's check cell run it.
var theExercise = kernelcheck.Exercise[Answer]{
	Title:       exerciseTitle,
	Config:      exerciseConfig,
	Harness:     harness,
	Source:      func(a Answer) string { return a.Source },
	Template:    AnswerTemplate,
	Unanswered:  "not answered yet: the template publishes with no order. Order the payload before the flag in the producer, and the flag before the payload in the consumer.",
	Finish:      finish,
	FinishParts: []string{PartScope},
}

func exercise() *labs.Exercise { return theExercise.Lab() }

// Check checks an answer to the exercise on dev with the default
// settings: the notebook's check cell.
func Check(dev *gpu.Device, a Answer) labs.Feedback { return theExercise.Check(dev, a) }

// wide matches the orders wider than device scope.
var wide = regexp.MustCompile(`__threadfence_system\s*\(|\batomic[A-Za-z]+_system\s*\(|thread_scope_system`)

// narrow matches the atomics of block scope: between two blocks they are
// not morally strong (PTX), so a consumer's read of a flag written by one
// does not synchronise with the producer's fence, whether or not the
// simulator shows a stale read.
var narrow = regexp.MustCompile(`\batomic[A-Za-z]+_block\s*\(|thread_scope_block`)

// finish adapts the checker's feedback on an answer: the tolerance line
// does not apply, and a correct answer must use device scope: not
// block-scope atomics between blocks, nor system scope where device scope
// is enough.
func finish(f labs.Feedback, src string) labs.Feedback {
	f.Tolerance = "exact: no stale read in any trial of any seed"
	correct := false
	for _, p := range f.Parts {
		if p.Name == kernelcheck.PartCorrect && p.Verdict == labs.Pass {
			correct = true
		}
	}
	if !correct {
		return f
	}
	if loc := narrow.FindStringIndex(src); loc != nil {
		line := strings.Count(src[:loc[0]], "\n") + 1
		p := f.Add(PartScope, labs.Fail, fmt.Sprintf(
			"answer.cu:%d: %q is atomic and ordered only among the threads of one block; the producer and consumer are different blocks, so PTX does not let the consumer's read of the flag synchronise with the producer, fences or not (the simulator's runs above may not show the stale read that allows). Use device scope.",
			line, strings.TrimSpace(src[loc[0]:loc[1]])))
		p.Hint = 2
	} else if loc := wide.FindStringIndex(src); loc != nil {
		line := strings.Count(src[:loc[0]], "\n") + 1
		p := f.Add(PartScope, labs.Fail, fmt.Sprintf(
			"answer.cu:%d: %q orders memory for the whole system (the host and other GPUs too); the producer and consumer are blocks of one kernel on one GPU, so device scope is enough and cheaper.",
			line, strings.TrimSpace(src[loc[0]:loc[1]])))
		p.Hint = 2
	} else {
		f.Add(PartScope, labs.Pass, "device scope: as wide as the publication needs (two blocks of one GPU), no wider.")
	}
	return f
}
