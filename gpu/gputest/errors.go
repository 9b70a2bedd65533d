package gputest

import (
	"errors"
	"fmt"

	"github.com/warplab/warplab/gpu"
)

const errorsSrc = `
__global__ void fill(int* out, int v) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void dyn(int* out) {
    extern __shared__ int buf[];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

__global__ void poke(int* p, long long i, int v) {
    if (threadIdx.x == 0) p[i] = v;
}

__global__ void misaligned(int* p) {
    int* q = (int*)((char*)p + 2);
    if (threadIdx.x == 0) *q = 1;
}

__global__ void trapper(int* p) {
    if (threadIdx.x == 5) __trap();
    p[threadIdx.x] = 1;
}`

// checkWorks launches fill on a fresh buffer and checks the result: the
// device must work after any failed launch.
func checkWorks(e *env, m *gpu.Module, after string) {
	e.Helper()
	out := zeros[int32](e, 64)
	if _, err := kernelOf(e, m, "fill").Launch(gpu.LaunchConfig{Grid: gpu.D1(2), Block: gpu.D1(32)}, out, 42); err != nil {
		e.Fatalf("launch after %s: %v", after, err)
	}
	got := download(e, out)
	for i, v := range got {
		if v != 42 {
			e.Fatalf("after %s: out[%d] = %d, want 42", after, i, v)
		}
	}
}

// testLaunchErrors covers launches refused for their configuration.
func testLaunchErrors(e *env) {
	m := e.module(errorsSrc)
	fill, dyn := kernelOf(e, m, "fill"), kernelOf(e, m, "dyn")
	out := zeros[int32](e, 4096)
	info := e.d.Info()
	invalid := []error{gpu.ErrInvalidConfig}

	e.launchErr(fill, gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(info.MaxThreadsPerBlock * 2)}, invalid, out, 1)
	checkWorks(e, m, "a block too big")
	e.launchErr(fill, gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.Dim3{X: 32, Y: 1, Z: 65}}, invalid, out, 1)
	e.launchErr(fill, gpu.LaunchConfig{Grid: gpu.D1(0), Block: gpu.D1(32)}, invalid, out, 1)
	e.launchErr(fill, gpu.LaunchConfig{Grid: gpu.Dim3{X: 1, Y: 65536, Z: 1}, Block: gpu.D1(32)}, invalid, out, 1)
	e.launchErr(dyn, gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32)}, invalid, out)
	e.launchErr(dyn, gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32), SharedBytes: info.MaxSharedPerBlock + 4},
		[]error{gpu.ErrOutOfResources, gpu.ErrInvalidConfig}, out)
	checkWorks(e, m, "too much shared memory")
	res := e.launchCfg(dyn, gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32), SharedBytes: 128}, out)
	if res.Kernel != "dyn" || res.Block.X != 32 || res.SharedBytes != 128 {
		e.Errorf("Result says kernel %q block %v shared %d, want dyn, 32, 128", res.Kernel, res.Block, res.SharedBytes)
	}
	got := download(e, out)
	for t := 0; t < 32; t++ {
		eq(e, fmt.Sprintf("dyn out[%d]", t), got[t], int32(31-t))
	}
}

// farIndex is an element index whose address is terabytes past any
// allocation: a real GPU's memory protection catches it, where a write a
// few bytes past the end of a buffer may land in memory the process owns.
const farIndex = int64(1) << 40

// testFaults covers kernels that fault while they run, and the launches
// after them.
func testFaults(e *env) {
	m := e.module(errorsSrc)
	poke := kernelOf(e, m, "poke")
	cfg := gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32)}

	le := e.launchErr(poke, cfg, []error{gpu.ErrIllegalAddress}, zeros[int32](e, 4), farIndex, 9)
	e.Logf("illegal address: %v", le)
	checkWorks(e, m, "an illegal address")
	// The faulting kernel itself works again, on a new buffer.
	p := zeros[int32](e, 4)
	e.launchCfg(poke, cfg, p, int64(3), 9)
	eq(e, "poke after its own fault", download(e, p)[3], 9)
	// So does a module compiled after the fault.
	checkWorks(e, e.module(errorsSrc), "an illegal address (new module)")

	le = e.launchErr(kernelOf(e, m, "misaligned"), cfg, []error{gpu.ErrMisaligned}, zeros[int32](e, 4))
	e.Logf("misaligned address: %v", le)
	checkWorks(e, m, "a misaligned address")

	le = e.launchErr(kernelOf(e, m, "trapper"), cfg, []error{gpu.ErrTrap}, zeros[int32](e, 32))
	e.Logf("trap: %v", le)
	checkWorks(e, m, "__trap")
}

const badArgsSrc = `
__global__ void takes(int* out, unsigned char small, unsigned u, int i, float f) {
    out[0] = 1;
}`

// testBadArguments checks that arguments that do not fit the kernel's
// parameters are refused before anything runs.
func testBadArguments(e *env) {
	k := e.kernel(badArgsSrc, "takes")
	out := zeros[int32](e, 1)
	fl := zeros[float32](e, 1)
	freed := zeros[int32](e, 1)
	freed.Free()
	cfg := gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(1)}
	for _, tc := range []struct {
		what string
		args []any
	}{
		{"too few arguments", []any{out, 1, 2, 3}},
		{"too many arguments", []any{out, 1, 2, 3, float32(4), 5}},
		{"a float buffer for int*", []any{fl, 1, 2, 3, float32(4)}},
		{"a freed buffer", []any{freed, 1, 2, 3, float32(4)}},
		{"a number for int*", []any{5, 1, 2, 3, float32(4)}},
		{"a buffer for unsigned char", []any{out, out, 2, 3, float32(4)}},
		{"nil for unsigned", []any{out, 1, nil, 3, float32(4)}},
		{"300 for unsigned char", []any{out, 300, 2, 3, float32(4)}},
		{"-1 for unsigned", []any{out, 1, -1, 3, float32(4)}},
		{"2^40 for int", []any{out, 1, 2, int64(1) << 40, float32(4)}},
		{"1.5 for int", []any{out, 1, 2, 1.5, float32(4)}},
		{"a string for float", []any{out, 1, 2, 3, "4"}},
		{"2^25+1 for float", []any{out, 1, 2, 3, 1<<25 + 1}},
	} {
		_, err := k.Launch(cfg, tc.args...)
		if err == nil {
			e.Errorf("%s: launch succeeded, want an error", tc.what)
			continue
		}
		var le *gpu.LaunchError
		if errors.As(err, &le) {
			e.Errorf("%s: got launch error %v, want an argument error before launch", tc.what, err)
		}
	}
	eq(e, "out[0] after refused launches (nothing ran)", download(e, out)[0], 0)
	e.launchCfg(k, cfg, out, 255, uint32(1)<<31, -7, 0.5)
	eq(e, "out[0] after a good launch", download(e, out)[0], 1)
}
