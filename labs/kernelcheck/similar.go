package kernelcheck

import (
	"fmt"
	"strings"
	"unicode"
)

// A copy of the lab's own kernel is a right kernel: it earns the parts a
// right kernel earns, because the checker judges what a kernel does, not
// who wrote it. It is flagged for the instructor instead (Feedback.Flags,
// which the grader reports to the instructor only): Similarity measures
// how much of the answer is the lab's shipped source once comments,
// white space and every name the student may choose are normalised away,
// so renaming a kernel and its variables does not hide a copy.

// SimilarityFlag is the Similarity from which an answer is flagged.
const SimilarityFlag = 0.9

// minOwn is the fewest runs of tokens of its own (not in the template or
// the baseline every answer starts from) an answer needs to be compared:
// an empty or barely changed template is no copy of anything.
const minOwn = 16

// shingle is the length of the token runs Similarity compares.
const shingle = 6

// Similarity returns the fraction of the answer's runs of six normalised
// tokens that also occur in the shipped source, from 0 (nothing in
// common) to 1 (every run of the answer is in the shipped source). Names
// the student chooses become one token; keywords, CUDA's names
// (atomicAdd, __syncthreads, threadIdx), numbers and punctuation stay.
// Runs that also occur in one of common (the template and the baseline
// every student sees, so the kernel's signature and grid-stride loop) are
// left out first; an answer with fewer than 16 runs left is 0.
func Similarity(answer, shipped string, common ...string) float64 {
	a, s := shingles(answer), shingles(shipped)
	for _, c := range common {
		for g := range shingles(c) {
			delete(a, g)
		}
	}
	if len(a) < minOwn {
		return 0
	}
	in := 0
	for g := range a {
		if s[g] {
			in++
		}
	}
	return float64(in) / float64(len(a))
}

func shingles(src string) map[string]bool {
	toks := normTokens(src)
	out := map[string]bool{}
	for i := 0; i+shingle <= len(toks); i++ {
		out[strings.Join(toks[i:i+shingle], " ")] = true
	}
	return out
}

// fixedNames are names a student does not choose: C and CUDA keywords and
// built-ins keep their identity in the normalised tokens.
var fixedNames = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`if else for while do return break continue switch case default
		int unsigned float double char long short void const volatile bool signed auto struct sizeof
		true false __global__ __device__ __shared__ extern __restrict__ threadIdx blockIdx blockDim gridDim
		x y z warpSize __syncthreads __syncwarp __threadfence __threadfence_block
		atomicAdd atomicSub atomicMax atomicMin atomicCAS atomicExch atomicInc atomicAnd atomicOr atomicXor
		atomicAdd_block __shfl_sync __shfl_down_sync __shfl_up_sync __shfl_xor_sync __ballot_sync
		__activemask __match_any_sync __popc __ffs __float_as_int __int_as_float expf fmaxf`) {
		fixedNames[w] = true
	}
}

// normTokens splits CUDA C into tokens without comments, every
// student-chosen name as "ID".
func normTokens(src string) []string {
	var toks []string
	r := []rune(src)
	for i := 0; i < len(r); {
		c := r[i]
		switch {
		case unicode.IsSpace(c):
			i++
		case c == '/' && i+1 < len(r) && r[i+1] == '/':
			for i < len(r) && r[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(r) && r[i+1] == '*':
			i += 2
			for i+1 < len(r) && !(r[i] == '*' && r[i+1] == '/') {
				i++
			}
			i += 2
		case c == '_' || unicode.IsLetter(c):
			j := i
			for j < len(r) && (r[j] == '_' || unicode.IsLetter(r[j]) || unicode.IsDigit(r[j])) {
				j++
			}
			w := string(r[i:j])
			if !fixedNames[w] {
				w = "ID"
			}
			toks = append(toks, w)
			i = j
		case unicode.IsDigit(c):
			j := i
			for j < len(r) && (unicode.IsDigit(r[j]) || unicode.IsLetter(r[j]) || r[j] == '.') {
				j++
			}
			toks = append(toks, string(r[i:j]))
			i = j
		default:
			toks = append(toks, string(c))
			i++
		}
	}
	return toks
}

// similarityFlags returns the instructor's flags for src against the
// harness's shipped kernels, leaving out the template every answer starts
// from.
func similarityFlags(h Harness, src, template string) []string {
	var flags []string
	common := []string{template, string(h.Baseline)}
	for _, sh := range h.Shipped() {
		if template != "" && SameSource(sh.Text, template) {
			continue
		}
		if x := Similarity(src, sh.Text, common...); x >= SimilarityFlag {
			flags = append(flags, fmt.Sprintf("%.0f%% of the answer's normalised tokens (names, comments and spacing aside) are the lab's own %s: check that it is the student's work",
				100*x, sh.File))
		}
	}
	return flags
}

// ShippedSource is a kernel source the lab ships to students.
type ShippedSource struct {
	File, Text string
}

// Shipped returns the lab's kernel sources an answer is compared with:
// the reference's and the baseline's.
func (h Harness) Shipped() []ShippedSource {
	var out []ShippedSource
	if h.Reference != nil {
		out = append(out, ShippedSource{File: orDefault(h.ReferenceFile, "reference.cu"), Text: string(h.Reference)})
	}
	return out
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
