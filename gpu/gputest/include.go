package gputest

import (
	"io/fs"
	"path"

	"github.com/warplab/warplab/cudac"
)

// includeFiles are the files beside includeSrc: a header with #pragma
// once that includes another by a relative path, a guarded one, one found
// through an include directory, and one that also holds host code.
var includeFiles = map[string]string{
	"kernels/ops.cuh": `#pragma once
#include "detail/scale.cuh"
#include <cstdio>
#define OPS_BLOCK 64
__device__ inline float affine(float x) { return scale(x) + 1.0f; }
`,
	"kernels/detail/scale.cuh": `#ifndef SCALE_CUH
#define SCALE_CUH
constexpr float kScale = 3.0f;
__device__ inline float scale(float x) { return x * kScale; }
#endif
`,
	"inc/limits.cuh": `#ifndef LIMITS_CUH
#define LIMITS_CUH
#include <vector>
static std::vector<int> hostOnly;
void hostHelper(int n) { hostOnly.resize(n); }
constexpr int kCap = 100;
#endif
`,
}

const includeSrc = `#include "ops.cuh"
#include "ops.cuh"
#include "detail/scale.cuh"
#include "limits.cuh"
#include "cuda_runtime.h"

__global__ void affineAll(const float* in, float* out, int n) {
    int i = blockIdx.x * OPS_BLOCK + threadIdx.x;
    if (i < n) out[i] = fminf(affine(in[i]), (float)kCap);
}
`

// readInclude reads includeFiles.
func readInclude(name string) ([]byte, error) {
	if s, ok := includeFiles[path.Clean(name)]; ok {
		return []byte(s), nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// testLocalInclude compiles a source that includes files beside it and in
// an include directory: the simulator reads them through cudac, NVRTC
// through the headers cudarun hands it.
func testLocalInclude(e *env) {
	const n = 200
	m, err := e.d.Compile("kernels/main.cu", []byte(includeSrc), cudac.ReadFile(readInclude), cudac.IncludeDir("inc"))
	if err != nil {
		e.Fatalf("compile: %v", err)
	}
	in := make([]float32, n)
	for i := range in {
		in[i] = float32(i%70) - 10
	}
	out := zeros[float32](e, n)
	e.launch(kernelOf(e, m, "affineAll"), (n+63)/64, 64, upload(e, in), out, int32(n))
	got := download(e, out)
	for i, v := range in {
		want := min(v*3+1, 100)
		if got[i] != want {
			e.Fatalf("out[%d] = %v, want %v", i, got[i], want)
		}
	}
}
