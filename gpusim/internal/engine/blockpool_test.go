package engine

import (
	"bytes"
	"testing"

	"github.com/warplab/warplab/gpu/driver"
)

// staleShared reads each thread's shared word before it writes it: a
// block that reuses a slot sees its predecessor's values, a fresh one
// zeros.
const staleShared = `
__global__ void stale(int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    out[blockIdx.x * 64 + t] = s[t];
    s[t] = blockIdx.x + 1;
}`

// TestBlockPoolFresh launches a kernel that reads shared memory it has
// not written, over several waves, twice: the second launch takes the
// first's blocks from the pool, and must see what the first saw, zeros in
// its first wave and a predecessor's values after.
func TestBlockPoolFresh(t *testing.T) {
	k := lower(t, "stale.cu", staleShared, "stale")
	const blocks = 600
	launch := func() ([]byte, driver.Counters) {
		mem := NewMemory(1<<30, 0)
		out, _ := mem.Alloc(blocks * 64 * 4)
		o, err := Run(testMachine(), &Config{Kernel: k, Grid: driver.Dim3{X: blocks, Y: 1, Z: 1}, Block: driver.Dim3{X: 64, Y: 1, Z: 1},
			Params: []uint64{out.Base}, Memory: mem, Seed: 1, RaceCheck: true})
		if err != nil {
			t.Fatal(err)
		}
		return out.Data, o.Counters
	}
	first, c1 := launch()
	if !bytes.Equal(first[:64*4], make([]byte, 64*4)) {
		t.Fatalf("block 0 saw shared memory it had not written: % x", first[:16])
	}
	if bytes.Equal(first, make([]byte, len(first))) {
		t.Fatal("no block saw a predecessor's shared memory: the grid fits in one wave, so the test tests nothing")
	}
	second, c2 := launch()
	if !bytes.Equal(first, second) {
		t.Error("the second launch, on pooled blocks, read other shared memory than the first")
	}
	if c1 != c2 {
		t.Errorf("counters: first launch %+v, second %+v", c1, c2)
	}
}
