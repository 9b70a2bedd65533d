package cudac_test

import (
	"slices"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/internal/coursekernels"
)

func TestCourseKernelsCompile(t *testing.T) {
	tests := []struct {
		file    string
		kernels []string // signatures, in source order
		devices []string // non-kernel functions
	}{
		{"day26_sums.cu", []string{
			"sumGlobalAtomic(const float* in, float* total, size_t n)",
			"sumSharedAtomic(const float* in, float* total, size_t n)",
			"sumTreeAtomic(const float* in, float* total, size_t n)",
		}, nil},
		{"softmax_denom.cu", []string{
			"onlineSoftmaxDenom_Atomic(const float* input, float* denom, int n)",
			"onlineSoftmaxDenom_WarpShuffle(const float* input, float* denom, int n)",
		}, nil},
		{"sliced_counter.cu", []string{
			"count_matches(const int* data, size_t n, int key, PaddedCount* slices, int nslices)",
		}, nil},
		{"atomic_agg_inc.cu", []string{
			"filterPositive(const int* in, int n, int* out, int* count)",
		}, []string{"lane_id()", "atomicAggInc(int* ptr)"}},
		{"atomic_max_float.cu", []string{
			"maxFloatCAS(const float* in, int n, float* result)",
			"maxFloatIntBits(const float* in, int n, float* result)",
		}, []string{"atomicMaxFloat(float* addr, float value)"}},
		{"hist_privatized.cu", []string{
			"histPrivatized(const int* data, int n, int* globalHist, int nBins)",
		}, nil},
		{"hist_missing_barrier.cu", []string{
			"histMissingBarrier(const int* data, int n, int* globalHist, int nBins)",
		}, nil},
	}
	var names []string
	for _, tt := range tests {
		names = append(names, tt.file)
		t.Run(tt.file, func(t *testing.T) {
			src := coursekernels.Source(tt.file)
			if src == nil {
				t.Fatalf("coursekernels.Source(%q) = nil", tt.file)
			}
			p, err := cudac.Compile(tt.file, src)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			var got []string
			for _, name := range p.KernelNames() {
				f, err := p.Kernel(name)
				if err != nil {
					t.Fatalf("Kernel(%q): %v", name, err)
				}
				if !f.Kernel || f.Result.Kind != cudac.Void {
					t.Errorf("Kernel(%q) = %+v, want a void kernel", name, f)
				}
				got = append(got, f.Signature())
			}
			if !slices.Equal(got, tt.kernels) {
				t.Errorf("kernels = %q, want %q", got, tt.kernels)
			}
			var dev []string
			for _, f := range p.Funcs {
				if !f.Kernel {
					dev = append(dev, f.Signature())
				}
			}
			if !slices.Equal(dev, tt.devices) {
				t.Errorf("device functions = %q, want %q", dev, tt.devices)
			}
		})
	}
	if got := coursekernels.Names(); !slices.Equal(got, sorted(names)) {
		t.Errorf("coursekernels.Names() = %q, want %q", got, sorted(names))
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestCourseKernelDetails checks properties of the course kernels that the backends
// rely on.
func TestCourseKernelDetails(t *testing.T) {
	compile := func(name string) *cudac.Program {
		t.Helper()
		p, err := cudac.Compile(name, coursekernels.Source(name))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := compile("day26_sums.cu")
	tree := p.Func("sumTreeAtomic")
	if got, want := len(tree.Shared), 1; got != want {
		t.Fatalf("sumTreeAtomic has %d shared variables, want %d", got, want)
	}
	if got, want := tree.Shared[0].T.String(), "float[256]"; got != want {
		t.Errorf("tile type = %s, want %s", got, want)
	}
	shared := p.Func("sumSharedAtomic")
	if got := shared.Shared[0]; got.Name != "blockSum" || got.T.Kind != cudac.Float32 || got.Space != cudac.SpaceShared {
		t.Errorf("sumSharedAtomic shared var = %+v", got)
	}

	p = compile("hist_privatized.cu")
	h := p.Func("histPrivatized")
	if len(h.DynShared) != 1 || !h.DynShared[0].Extern || h.DynShared[0].T.Len != -1 || len(h.Shared) != 0 {
		t.Errorf("histPrivatized: Shared %v, DynShared %v", h.Shared, h.DynShared)
	}

	p = compile("sliced_counter.cu")
	slices := p.Func("count_matches").Params[3]
	st := slices.T.Elem.Struct
	if st.Size != 128 || st.Align != 128 || st.Fields[0].Offset != 0 {
		t.Errorf("PaddedCount: size %d align %d, want 128 128", st.Size, st.Align)
	}
}
