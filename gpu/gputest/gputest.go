package gputest

import (
	"errors"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
)

// RunAll runs the whole suite as subtests of t. open is called once per
// subtest and must return a freshly opened device, or end the test (t.Skip,
// t.Fatal); RunAll closes the device when the subtest ends.
func RunAll(t *testing.T, open func(t *testing.T) *gpu.Device) {
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := open(t)
			t.Cleanup(func() { d.Close() })
			tc.run(&env{T: t, d: d})
		})
	}
}

// Names lists the suite's subtests, in the order RunAll runs them.
func Names() []string {
	out := make([]string, len(tests))
	for i, tc := range tests {
		out[i] = tc.name
	}
	return out
}

var tests = []struct {
	name string
	run  func(e *env)
}{
	{"ExactSums", testExactSums},
	{"AtomicsInt", testAtomicsInt},
	{"AtomicsUnsigned", testAtomicsUnsigned},
	{"Atomics64", testAtomics64},
	{"AtomicsFloat", testAtomicsFloat},
	{"AtomicsShared", testAtomicsShared},
	{"AtomicExchPermutation", testAtomicExch},
	{"Shuffles", testShuffles},
	{"Shuffles64", testShuffles64},
	{"Votes", testVotes},
	{"Barriers", testBarriers},
	{"DynamicShared", testDynamicShared},
	{"Templates", testTemplates},
	{"DeviceFunctions", testDeviceFunctions},
	{"ModuleVariables", testModuleVariables},
	{"ModuleVariablesFloat", testFloatVariables},
	{"ScalarArguments", testScalarArguments},
	{"PointerArguments", testPointerArguments},
	{"GridShapes", testGridShapes},
	{"IntegerSemantics", testIntegerSemantics},
	{"MinMax", testMinMax},
	{"Conversions", testConversions},
	{"FloatContraction", testFloatContraction},
	{"Printf", testPrintf},
	{"LaunchErrors", testLaunchErrors},
	{"Faults", testFaults},
	{"BadArguments", testBadArguments},
	{"CooperativeGroups", testCooperativeGroups},
	{"CooperativeAggregation", testCooperativeAggregation},
	{"GridSync", testGridSync},
	{"TypeTemplates", testTypeTemplates},
	{"References", testReferences},
	{"IntegerIntrinsics", testIntegerIntrinsics},
	{"CUDAArch", testCUDAArch},
	{"ScopedAtomics", testScopedAtomics},
	{"DeviceMemcpy", testDeviceMemcpy},
	{"VectorTypes", testVectorTypes},
	{"WholeFile", testWholeFile},
	{"KernelDefaultArguments", testKernelDefaultArguments},
	{"Classify", testClassify},
	{"Llrint", testLlrint},
	{"LocalInclude", testLocalInclude},
	{"Dim3Values", testDim3Values},
	{"WarpReduce", testWarpReduce},
	{"AtomicRef", testAtomicRef},
	{"AtomicObject", testAtomicObject},
	{"Lambdas", testLambdas},
}

// env is one subtest's device, with helpers that fail the test on error.
type env struct {
	*testing.T
	d *gpu.Device
}

func (e *env) module(src string) *gpu.Module {
	e.Helper()
	m, err := e.d.Compile("conformance.cu", []byte(src))
	if err != nil {
		e.Fatalf("compile: %v", err)
	}
	return m
}

func (e *env) kernel(src, name string) *gpu.Kernel {
	e.Helper()
	return kernelOf(e, e.module(src), name)
}

func kernelOf(e *env, m *gpu.Module, name string) *gpu.Kernel {
	e.Helper()
	k, err := m.Kernel(name)
	if err != nil {
		e.Fatal(err)
	}
	return k
}

func (e *env) launch(k *gpu.Kernel, grid, block int, args ...any) *gpu.Result {
	e.Helper()
	return e.launchCfg(k, gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(block)}, args...)
}

func (e *env) launchCfg(k *gpu.Kernel, cfg gpu.LaunchConfig, args ...any) *gpu.Result {
	e.Helper()
	res, err := k.Launch(cfg, args...)
	if err != nil {
		e.Fatalf("launch %s: %v", k.Name(), err)
	}
	return res
}

// launchErr launches and returns the *gpu.LaunchError, failing the test
// unless the launch fails with one of the kinds in want.
func (e *env) launchErr(k *gpu.Kernel, cfg gpu.LaunchConfig, want []error, args ...any) *gpu.LaunchError {
	e.Helper()
	_, err := k.Launch(cfg, args...)
	if err == nil {
		e.Fatalf("launch %s: no error, want %v", k.Name(), want)
	}
	var le *gpu.LaunchError
	if !errors.As(err, &le) {
		e.Fatalf("launch %s: error %q is a %T, want a *gpu.LaunchError", k.Name(), err, err)
	}
	for _, w := range want {
		if errors.Is(err, w) {
			if le.Kernel != k.Name() {
				e.Errorf("LaunchError.Kernel = %q, want %q", le.Kernel, k.Name())
			}
			return le
		}
	}
	e.Fatalf("launch %s: error %q, want %v", k.Name(), err, want)
	return nil
}

func upload[T gpu.Scalar](e *env, data []T) *gpu.Buffer[T] {
	e.Helper()
	b, err := gpu.Upload(e.d, data)
	if err != nil {
		e.Fatal(err)
	}
	return b
}

func zeros[T gpu.Scalar](e *env, n int) *gpu.Buffer[T] {
	e.Helper()
	b, err := gpu.NewBuffer[T](e.d, n)
	if err != nil {
		e.Fatal(err)
	}
	return b
}

func download[T gpu.Scalar](e *env, b *gpu.Buffer[T]) []T {
	e.Helper()
	v, err := b.Download()
	if err != nil {
		e.Fatal(err)
	}
	return v
}

// eq reports a mismatch of two values of a comparable type.
func eq[T comparable](e *env, what string, got, want T) {
	e.Helper()
	if got != want {
		e.Errorf("%s = %v, want %v", what, got, want)
	}
}

// sameSlice reports the first few mismatches of two slices.
func sameSlice[T comparable](e *env, what string, got, want []T) {
	e.Helper()
	if len(got) != len(want) {
		e.Errorf("%s: %d values, want %d", what, len(got), len(want))
		return
	}
	bad := 0
	for i := range got {
		if got[i] != want[i] {
			if bad < 8 {
				e.Errorf("%s[%d] = %v, want %v", what, i, got[i], want[i])
			}
			bad++
		}
	}
	if bad > 8 {
		e.Errorf("%s: %d mismatches in all", what, bad)
	}
}

// lines splits printf output into lines, without the final empty one.
func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
