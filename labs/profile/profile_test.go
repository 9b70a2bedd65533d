package profile_test

import (
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs/profile"
)

const src = `
__global__ void perThread(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, x[i]);
}
__global__ void perBlock(const float* x, float* out, int n) {
    __shared__ float part[8];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? x[i] : 0.0f;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffff, v, d);
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = (threadIdx.x < 8) ? part[threadIdx.x] : 0.0f;
        for (int d = 4; d > 0; d /= 2) v += __shfl_down_sync(0xffffffff, v, d);
        if (threadIdx.x == 0) atomicAdd(out, v);
    }
}`

func launches(t *testing.T) (*gpu.Device, []profile.Launch) {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	m, err := dev.Compile("p.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	n := 1 << 16
	x := make([]float32, n)
	for i := range x {
		x[i] = 1
	}
	in, _ := gpu.Upload(dev, x)
	var ls []profile.Launch
	for _, name := range []string{"perThread", "perBlock"} {
		k, _ := m.Kernel(name)
		out, _ := gpu.NewBuffer[float32](dev, 1)
		res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(n / 256), Block: gpu.D1(256)}, in, out, n)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, profile.FromResult(name, res))
	}
	return dev, ls
}

func TestView(t *testing.T) {
	dev, ls := launches(t)
	v := profile.New(dev.Info(), ls...)
	tab := v.Table()
	s := tab.String()
	t.Log(s)
	row := func(figure string) []string {
		for _, r := range tab.Rows {
			if strings.HasPrefix(r[1].Text, figure) {
				var out []string
				for _, c := range r[2:] {
					out = append(out, c.Text)
				}
				return out
			}
		}
		t.Fatalf("no row %q", figure)
		return nil
	}
	if got := row("global atomics issued"); got[1] != "65536" || got[2] != "256" {
		t.Errorf("atomics row %v", got)
	}
	if got := row("busiest line's share"); got[1] != "100.0" {
		t.Errorf("busiest line %v", got)
	}
	if got := row("theoretical occupancy"); got[0] != "modelled, t4" || got[1] != "100.0" {
		t.Errorf("occupancy %v", got)
	}
	// The per-block kernel runs more instructions and is faster.
	wi := ls[1].Counters.WarpInstructions > ls[0].Counters.WarpInstructions
	faster := ls[1].Timing.Ms < ls[0].Timing.Ms
	if !wi || !faster {
		t.Errorf("per-block: more instructions %v, faster %v", wi, faster)
	}
	if got := row("bound by"); !strings.HasPrefix(got[1], "l2") {
		t.Errorf("per-thread bound by %q, want an l2 term", got[1])
	}
	// 65,536 loads' 8,192 sectors miss (a cold L2), and the per-thread
	// kernel's 65,536 atomics on one line hit but the first: 89% and,
	// with its atomics all on one line, a busiest slice far over the mean.
	if got := row("L2 hit rate"); got[0] != "modelled, t4" || got[1] != "88.9" {
		t.Errorf("L2 hit rate %v, want 88.9%% modelled for the per-thread kernel", got)
	}
	if got := row("busiest slice's share"); got[1] != "89.6 (14.3x the mean of 16 slices)" || got[2] != "9.2 (1.5x the mean of 16 slices)" {
		t.Errorf("busiest slice %v, want the hot line's slice at 89.6%% (the atomics and its share of the loads) and 9.2%% (256 atomics, 8,192 load sectors)", got)
	}
	if strings.Contains(s, "Not modelled, so not shown: L2 hit rate") {
		t.Error("the table still says the hit rate is not modelled")
	}
	for _, r := range tab.Rows {
		if r[1].Text == "time (ms)" && r[2].Text != "modelled, t4" {
			t.Errorf("a time row from %q without a measurement", r[2].Text)
		}
	}
	if err := v.MixChart().Validate(); err != nil {
		t.Error(err)
	}
	if err := v.BreakdownChart().Validate(); err != nil {
		t.Error(err)
	}
}

func TestMeasuredBeside(t *testing.T) {
	dev, ls := launches(t)
	ls[0].Measured = &gpu.Timing{Ms: 0.12, Source: "measured, NVIDIA H200", Measured: true}
	ls[0].MeasuredHow = "10 runs after 3 warm-ups"
	s := profile.New(dev.Info(), ls...).String()
	if !strings.Contains(s, "measured, NVIDIA H200 (10 runs after 3 warm-ups)") {
		t.Errorf("no measured row:\n%s", s)
	}
}
