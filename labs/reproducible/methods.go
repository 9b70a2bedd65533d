package reproducible

import (
	"embed"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

//go:embed kernels/*.cu
var kernelFS embed.FS

// kernelFile is the file that holds every kernel of the lab.
const kernelFile = "kernels/reproducible.cu"

// Block is the threads per block of every kernel of the lab (B in the
// source).
const Block = 256

// Method is one way to sum n floats on the device.
type Method string

// The lab's sums, in table order.
const (
	// AtomicGlobal sends one float atomicAdd per element.
	AtomicGlobal Method = "atomic_global"
	// TreeAtomic sums each block with a shared tree, then one float
	// atomicAdd per block.
	TreeAtomic Method = "tree_atomic"
	// TwoPass writes each block's tree sum to a buffer; a second kernel of
	// one block reduces the partials in a fixed order.
	TwoPass Method = "two_pass"
	// TwoPassKahan is TwoPass with Kahan compensation in the second pass.
	TwoPassKahan Method = "two_pass_kahan"
	// FixedPoint adds each block's tree sum, as a 64-bit integer count of
	// 2^-20, with one integer atomicAdd per block.
	FixedPoint Method = "fixed_point"
)

// Methods returns the lab's sums in table order. Their names are the
// H200 microbenchmark's (reproducible.cu).
func Methods() []Method { return []Method{AtomicGlobal, TreeAtomic, TwoPass, TwoPassKahan, FixedPoint} }

// ParseMethod returns the method named s.
func ParseMethod(s string) (Method, error) {
	for _, m := range Methods() {
		if strings.EqualFold(strings.TrimSpace(s), string(m)) {
			return m, nil
		}
	}
	return "", fmt.Errorf("reproducible: unknown sum %q (sums: %s)", s, joinMethods(Methods()))
}

func joinMethods(ms []Method) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = string(m)
	}
	return strings.Join(s, ", ")
}

// Title returns the method in prose.
func (m Method) Title() string {
	switch m {
	case AtomicGlobal:
		return "float atomicAdd per element"
	case TreeAtomic:
		return "block tree + float atomicAdd per block"
	case TwoPass:
		return "two passes, fixed order"
	case TwoPassKahan:
		return "two passes, Kahan in the second"
	case FixedPoint:
		return "block tree + 64-bit fixed-point atomic"
	}
	return string(m)
}

// FixedOrder reports whether the method's result cannot depend on the
// order in which blocks finish.
func (m Method) FixedOrder() bool { return m != AtomicGlobal && m != TreeAtomic }

// Launches returns the kernel launches of one sum.
func (m Method) Launches() int {
	if m == TwoPass || m == TwoPassKahan {
		return 2
	}
	return 1
}

// FixedScale is the fixed-point accumulator's scale: 2^20, 20 fraction
// bits.
const FixedScale = 1 << 20

// Input returns the lab's input of n elements, 1 + (i mod 1000) / 1000 in
// float32, as the H200 microbenchmark builds it: most of its values are
// not exact in binary, so the order of the additions shows in the bits.
func Input(n int) []float32 {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = 1 + float32(i%1000)/1000
	}
	return xs
}

// Reference returns the sum of Input(n) in double precision with Kahan's
// compensation.
func Reference(n int) float64 { return labkit.KahanSum(Input(n)) }

// sum is one sum's result.
type sum struct {
	value float64
	ms    float64
	// launches are the times of the sum's launches, each timed alone.
	launches []gpu.Timing
	// source says where the time came from.
	source   string
	measured bool
}

// runSum runs method m once over in (n elements) on the session's
// device, into fresh outputs, and returns its total as a float64 (the
// float32 result, or the fixed-point total divided by FixedScale) and the
// time of its launches, each timed alone (by its own pair of events on a
// GPU), added.
func runSum(s *labkit.Session, m Method, in *gpu.Buffer[float32], n int) (sum, error) {
	src := KernelSource()
	kernel := func(name string) (*gpu.Kernel, error) { return s.Kernel(src.File, []byte(src.Text), name) }
	blocks := (n + Block - 1) / Block
	grid := gpu.LaunchConfig{Grid: gpu.D1(blocks), Block: gpu.D1(Block)}
	var r sum
	add := func(res *gpu.Result) {
		r.ms += res.Timing.Ms
		r.launches = append(r.launches, res.Timing)
		r.source, r.measured = res.Timing.Source, res.Timing.Measured
		s.Launched()
	}
	switch m {
	case AtomicGlobal, TreeAtomic, TwoPass, TwoPassKahan:
		out, err := gpu.NewBuffer[float32](s.Device, 1)
		if err != nil {
			return r, err
		}
		defer out.Free()
		if m == AtomicGlobal || m == TreeAtomic {
			k, err := kernel(kernelName(m))
			if err != nil {
				return r, err
			}
			res, err := k.Launch(grid, in, n, out)
			if err != nil {
				return r, fmt.Errorf("reproducible: %s over %d elements: %w", m, n, err)
			}
			add(res)
		} else {
			partials, err := gpu.NewBuffer[float32](s.Device, blocks)
			if err != nil {
				return r, err
			}
			defer partials.Free()
			first, err := kernel("treePartials")
			if err != nil {
				return r, err
			}
			second, err := kernel(kernelName(m))
			if err != nil {
				return r, err
			}
			res, err := first.Launch(grid, in, n, partials)
			if err != nil {
				return r, fmt.Errorf("reproducible: %s over %d elements, first pass: %w", m, n, err)
			}
			add(res)
			res, err = second.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(Block)}, partials, blocks, out)
			if err != nil {
				return r, fmt.Errorf("reproducible: %s over %d elements, second pass: %w", m, n, err)
			}
			add(res)
		}
		got, err := out.Download()
		if err != nil {
			return r, err
		}
		r.value = float64(got[0])
	case FixedPoint:
		acc, err := gpu.NewBuffer[uint64](s.Device, 1)
		if err != nil {
			return r, err
		}
		defer acc.Free()
		k, err := kernel("fixedPoint")
		if err != nil {
			return r, err
		}
		res, err := k.Launch(grid, in, n, acc)
		if err != nil {
			return r, fmt.Errorf("reproducible: %s over %d elements: %w", m, n, err)
		}
		add(res)
		got, err := acc.Download()
		if err != nil {
			return r, err
		}
		r.value = float64(int64(got[0])) / FixedScale
	default:
		return r, fmt.Errorf("reproducible: unknown sum %q", m)
	}
	return r, nil
}

// kernelName returns the kernel that finishes method m.
func kernelName(m Method) string {
	switch m {
	case AtomicGlobal:
		return "atomicGlobal"
	case TreeAtomic:
		return "treeAtomic"
	case TwoPass:
		return "reducePartials"
	case TwoPassKahan:
		return "reducePartialsKahan"
	}
	return "fixedPoint"
}

// Spread summarises repeated sums: how many distinct results, their
// range and their worst error against a reference.
type Spread struct {
	Distinct   int     `json:"distinct"`
	Min        float64 `json:"min"`
	Max        float64 `json:"max"`
	WorstError float64 `json:"worst_error"`
}

// SpreadOf summarises sums against ref; distinct results are counted by
// their bits.
func SpreadOf(sums []float64, ref float64) Spread {
	if len(sums) == 0 {
		return Spread{}
	}
	seen := map[uint64]bool{}
	var sp Spread
	for _, x := range sums {
		seen[math.Float64bits(x)] = true
		sp.WorstError = math.Max(sp.WorstError, math.Abs(x-ref))
	}
	sp.Distinct = len(seen)
	sp.Min, sp.Max = slices.Min(sums), slices.Max(sums)
	return sp
}

// Source is the lab's CUDA C file as the package embeds it, shown by
// charts.Show with its syntax coloured.
type Source = labs.Source

// KernelSource returns the source of the lab's kernels.
func KernelSource() Source { return labs.ReadSource(kernelFS, kernelFile) }
