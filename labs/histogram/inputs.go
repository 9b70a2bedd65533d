package histogram

import (
	"fmt"
	"strings"
	"sync"

	"github.com/warplab/warplab/labs/internal/labkit"
)

// Input names one of the lab's input distributions.
type Input string

// The lab's inputs, as in the H200 microbenchmark histshape.cu.
const (
	// Uniform: each element's bin is drawn from a hash, uniform over the
	// bins.
	Uniform Input = "uniform"
	// Runs: runs of 64 neighbouring elements share a bin, drawn from a
	// hash per run.
	Runs Input = "runs"
	// Hot: 90% of the elements fall in bin 0, the rest uniform.
	Hot Input = "hot"
)

// Inputs lists the lab's inputs in table order.
func Inputs() []Input { return []Input{Uniform, Runs, Hot} }

// ParseInput returns the input named s.
func ParseInput(s string) (Input, error) {
	for _, in := range Inputs() {
		if strings.EqualFold(strings.TrimSpace(s), string(in)) {
			return in, nil
		}
	}
	return "", fmt.Errorf("histogram: unknown input %q (want uniform, runs or hot)", s)
}

// RunLength is the length of the runs of the Runs input.
const RunLength = 64

// BinOf returns element i's bin for an input, a bin count and a seed.
func BinOf(in Input, i, bins int, seed uint64) int {
	s := uint32(seed) ^ uint32(seed>>32)*0x9e3779b9
	switch in {
	case Runs:
		return int(labkit.Lowbias32(uint32(i/RunLength)^s^0x51ed270b) % uint32(bins))
	case Hot:
		h := labkit.Lowbias32(uint32(i) ^ s ^ 0x2545f491)
		if h%10 != 0 {
			return 0
		}
		return int(labkit.Lowbias32(h) % uint32(bins))
	}
	return int(labkit.Lowbias32(uint32(i)^s^0x9e3779b9) % uint32(bins))
}

// data is one input's bins and the histogram they make.
type data struct {
	bin  []int32
	want []uint32
}

type dataKey struct {
	in      Input
	n, bins int
	seed    uint64
}

var dataCache = struct {
	sync.Mutex
	m map[dataKey]*data
}{m: map[dataKey]*data{}}

// makeData returns the bins of n elements and their histogram, computed
// once per (input, n, bins, seed).
func makeData(in Input, n, bins int, seed uint64) *data {
	dataCache.Lock()
	defer dataCache.Unlock()
	k := dataKey{in, n, bins, seed}
	if d, ok := dataCache.m[k]; ok {
		return d
	}
	d := &data{bin: make([]int32, n), want: make([]uint32, bins)}
	for i := range d.bin {
		b := BinOf(in, i, bins, seed)
		d.bin[i] = int32(b)
		d.want[b]++
	}
	dataCache.m[k] = d
	return d
}

// compare returns how many bins of got differ from want and how many
// counts are missing in all (negative when there are too many).
func compare(got, want []uint32) (wrongBins int, lost int64) {
	for b := range want {
		if got[b] != want[b] {
			wrongBins++
		}
		lost += int64(want[b]) - int64(got[b])
	}
	return wrongBins, lost
}
