package gputest

import (
	"fmt"
	"math"

	"github.com/warplab/warplab/internal/coursekernels"
)

// testExactSums runs the three Day 26 sums on input 0,1,2,3 repeating, at
// sizes that are and are not multiples of the block: every partial sum is
// an integer below 2^24, so the float result is exact whatever the order
// of the atomics, and must equal the integer sum bit for bit.
func testExactSums(e *env) {
	m, err := e.d.Compile("day26_sums.cu", coursekernels.Source("day26_sums.cu"))
	if err != nil {
		e.Fatalf("compile: %v", err)
	}
	const maxN = 1 << 20
	in := make([]float32, maxN)
	for i := range in {
		in[i] = float32(i % 4)
	}
	dIn := upload(e, in)
	for _, kc := range []struct {
		kernel string
		blocks []int
	}{
		{"sumGlobalAtomic", []int{64, 256, 1024}},
		{"sumSharedAtomic", []int{32, 256, 1024}},
		{"sumTreeAtomic", []int{256}}, // its tile is kThreadsPerBlock = 256 wide
	} {
		k := kernelOf(e, m, kc.kernel)
		for _, block := range kc.blocks {
			for _, n := range []int{1, 1000, 4096, 65536 + 3, maxN} {
				var want int64
				for i := 0; i < n; i++ {
					want += int64(i % 4)
				}
				total := zeros[float32](e, 1)
				e.launch(k, (n+block-1)/block, block, dIn, total, uint64(n))
				got := download(e, total)[0]
				if math.Float32bits(got) != math.Float32bits(float32(want)) {
					e.Errorf("%s n=%d block=%d: sum %v, want %d exactly", kc.kernel, n, block, got, want)
				}
				total.Free()
			}
		}
	}
	// The same sum over in[1000:6000] through a pointer into the buffer.
	k := kernelOf(e, m, "sumTreeAtomic")
	total := zeros[float32](e, 1)
	n := 5000
	e.launch(k, (n+255)/256, 256, dIn.At(1000), total, uint64(n))
	var want int64
	for i := 1000; i < 1000+n; i++ {
		want += int64(i % 4)
	}
	eq(e, fmt.Sprintf("sum of in[1000:%d]", 1000+n), download(e, total)[0], float32(want))
}
