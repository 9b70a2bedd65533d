package engine

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/warplab/warplab/gpu/driver"
)

// scoreboardSrc has a kernel whose two global loads are independent (both
// issue before the add that reads them) and one whose second load's
// address is the first load's value.
const scoreboardSrc = `
__global__ void independent(const float* in, float* out) {
    float a = in[threadIdx.x];
    float b = in[threadIdx.x + 32];
    out[threadIdx.x] = a + b;
}
__global__ void dependent(const int* idx, const float* in, float* out) {
    int j = idx[threadIdx.x];
    float b = in[j];
    out[threadIdx.x] = b;
}
__global__ void tree(const float* in, float* out) {
    __shared__ float s[64];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (int h = 32; h > 0; h >>= 1) {
        if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = s[0];
}`

// runScoreboard runs kernel name of scoreboardSrc, one block of threads
// threads, with the scoreboard on or off, and returns its cycles and out[0].
func runScoreboard(t *testing.T, name string, threads int, on bool) (int64, float32) {
	t.Helper()
	k := lower(t, "sb.cu", scoreboardSrc, name)
	mem := NewMemory(1<<30, 0)
	in, _ := mem.Alloc(64 * 4)
	idx, _ := mem.Alloc(64 * 4)
	out, _ := mem.Alloc(64 * 4)
	for i := 0; i < 64; i++ {
		binary.LittleEndian.PutUint32(in.Data[4*i:], math.Float32bits(float32(i)))
		binary.LittleEndian.PutUint32(idx.Data[4*i:], uint32(63-i))
	}
	params := []uint64{in.Base, out.Base}
	if name == "dependent" {
		params = []uint64{idx.Base, in.Base, out.Base}
	}
	m := testMachine()
	m.Costs.Scoreboard = on
	o, err := Run(m, &Config{Kernel: k, Grid: driver.Dim3{X: 1, Y: 1, Z: 1}, Block: driver.Dim3{X: threads, Y: 1, Z: 1},
		Params: params, Memory: mem, Seed: 1, Order: Deterministic})
	if err != nil {
		t.Fatal(err)
	}
	return o.BlocksEnd, math.Float32frombits(binary.LittleEndian.Uint32(out.Data))
}

// TestScoreboard: with the scoreboard, two independent loads cost one
// latency and a bit, where they cost two without it; a load whose address
// is the previous load's value still waits for it; a block tree's levels
// cost less; and no result changes.
func TestScoreboard(t *testing.T) {
	global := testMachine().Costs.Global
	offI, _ := runScoreboard(t, "independent", 32, false)
	onI, sum := runScoreboard(t, "independent", 32, true)
	if sum != 32 {
		t.Errorf("independent: out[0] = %v, want 32", sum)
	}
	if offI-onI < global-2*testMachine().Costs.ALU {
		t.Errorf("independent loads: %d cycles with the scoreboard, %d without: want about one load's latency (%d) less", onI, offI, global)
	}
	offD, _ := runScoreboard(t, "dependent", 32, false)
	onD, v := runScoreboard(t, "dependent", 32, true)
	if v != 63 {
		t.Errorf("dependent: out[0] = %v, want 63", v)
	}
	if onD < 2*global {
		t.Errorf("dependent loads: %d cycles with the scoreboard (%d without): want at least two latencies (%d)", onD, offD, 2*global)
	}
	offT, s0 := runScoreboard(t, "tree", 64, false)
	onT, s1 := runScoreboard(t, "tree", 64, true)
	if s0 != s1 || s1 != 63*64/2 {
		t.Errorf("tree: %v without the scoreboard, %v with it, want %v", s0, s1, 63*64/2)
	}
	if onT >= offT || onT < global {
		t.Errorf("tree: %d cycles with the scoreboard, %d without: want fewer, and at least the global load's %d", onT, offT, global)
	}
	t.Logf("cycles without/with the scoreboard: independent %d/%d, dependent %d/%d, tree %d/%d", offI, onI, offD, onD, offT, onT)
}
