package grade

import (
	"strings"
	"testing"

	"github.com/warplab/warplab/labs/histogram"
)

const histPrivatised = `
__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) {
    extern __shared__ unsigned local[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[bin[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (local[b] != 0) atomicAdd(&hist[b], local[b]);
}
`

// histogramKinds returns one submission of each kind for the histogram
// key (visible 11 points, hidden 5), with its expected score.
func histogramKinds() []classMember {
	nb := func(cell string) []byte {
		return notebookWith([]string{"import \"github.com/warplab/warplab/labs/histogram\"\n", cell, "histogram.Check(dev, answer)\n"}, 1)
	}
	ans := func(src string) []byte { return nb(kernelAnswer("histogram.Answer", "Source", src)) }
	noBarrier := strings.Replace(histPrivatised, "    __syncthreads();\n    for (int b = threadIdx.x; b < bins; b += blockDim.x)\n        if", "    for (int b = threadIdx.x; b < bins; b += blockDim.x)\n        if", 1)
	global := `
__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[bin[i]], 1u);
}
`
	firstBlockOnly := strings.Replace(histPrivatised, "i += gridDim.x * blockDim.x", "i += blockDim.x * 1000000", 1)
	return []classMember{
		{name: "correct", data: ans(histPrivatised), expected: 16, flagged: true},
		{name: "unicode", data: ans("// Zählung je Block — 直方图 ✓\n" + histPrivatised), expected: 16, flagged: true},
		{name: "global-atomics", data: ans(global), expected: 11},
		{name: "no-barrier", data: ans(noBarrier), expected: 1, flagged: true},
		{name: "no-grid-stride", data: ans(firstBlockOnly), expected: 1},
		{name: "template", data: ans(histogram.AnswerTemplate), expected: 0},
		{name: "syntax-error", data: ans("__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) {\n  hist[0] = \n}\n"), expected: 0},
		{name: "fault", data: ans("__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) {\n  hist[1 << 28] = 1u;\n}\n"), expected: 0.5},
		{name: "endless", data: ans("__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) {\n  while (true) { if (bins < 0) break; }\n}\n"), expected: 0.5},
		{name: "huge-shared", data: ans("__global__ void histogram(const int* bin, int n, unsigned* hist, int bins) {\n  __shared__ unsigned big[1 << 28];\n  big[threadIdx.x] = 1;\n}\n"), expected: 0.5},
		{name: "malformed-json", data: []byte(`{"cells": [`), refused: "not valid JSON"},
		{name: "binary", data: []byte("\x89PNG\r\n\x1a\n\x00\x00"), refused: "binary"},
		{name: "huge", data: nb("var answer = histogram.Answer{Source: `" + strings.Repeat("x", MaxAnswerBytes) + "`}\n"), refused: "the most the grader reads"},
		{name: "no-answer", data: notebookWith([]string{"var answer = 1\n"}), refused: "no cell is tagged"},
		{name: "two-answers", data: notebookWith([]string{kernelAnswer("histogram.Answer", "Source", histPrivatised), kernelAnswer("histogram.Answer", "Source", histPrivatised)}, 0, 1), refused: "2 cells are tagged"},
		{name: "exec", data: nb("var answer = histogram.Answer{Source: string(exec.Command(\"sh\", \"-c\", \"cat /etc/passwd\").Output())}\n"), refused: "line 1: string calls a function"},
		{name: "import", data: nb("import \"os\"\nvar answer = histogram.Answer{Source: os.Getenv(\"X\")}\n"), refused: "line 1: the answer cell imports \"os\""},
		{name: "init-func", data: nb("func init() { panic(1) }\nvar answer = histogram.Answer{}\n"), refused: "line 1: the answer cell declares something other"},
		{name: "closure", data: nb("var answer = histogram.Answer{Source: func() string { return \"\" }()}\n"), refused: "calls a function"},
		{name: "wrong-type", data: nb("var answer = atomics.Day26Answer{}\n"), refused: "a atomics.Day26Answer where a histogram.Answer belongs"},
		{name: "not-go", data: nb("var answer = histogram.Answer{Source: `x`\n"), refused: "not Go: line 1:"},
		{name: "concat", data: nb("var answer = histogram.Answer{Source: \"a\" + \"b\"}\n"), refused: "line 1: \"a\" + \"b\" is an expression"},
	}
}

func TestHistogramKinds(t *testing.T) {
	k, err := LoadKey("keys/histogram.toml")
	if err != nil {
		t.Fatal(err)
	}
	if k.MaxScore() != 16 {
		t.Fatalf("max score %g, want 16", k.MaxScore())
	}
	members := histogramKinds()
	subs := writeClass(t, t.TempDir(), members)
	checkClass(t, Batch(k, subs, 2), members)
}
