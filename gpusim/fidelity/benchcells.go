package fidelity

import (
	"fmt"
	"math"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpusim"
)

// benchEnv runs the round-2 kernels on one simulated device.
type benchEnv struct {
	dev   *gpu.Device
	mod   *gpu.Module
	bufs  []interface{ Free() error }
	cache map[string]*gpu.Kernel
}

func newBenchEnv(spec string) (*benchEnv, error) {
	dev, err := gpu.Open(spec)
	if err != nil {
		return nil, err
	}
	src, err := kernelFS.ReadFile("kernels/microbench.cu")
	if err != nil {
		dev.Close()
		return nil, err
	}
	mod, err := dev.Compile("microbench.cu", src)
	if err != nil {
		dev.Close()
		return nil, err
	}
	return &benchEnv{dev: dev, mod: mod, cache: map[string]*gpu.Kernel{}}, nil
}

func (e *benchEnv) close() { e.freeAll(); e.dev.Close() }

func (e *benchEnv) freeAll() {
	for _, b := range e.bufs {
		b.Free()
	}
	e.bufs = nil
}

func track[T gpu.Scalar](e *benchEnv, b *gpu.Buffer[T], err error) (*gpu.Buffer[T], error) {
	if err == nil {
		e.bufs = append(e.bufs, b)
	}
	return b, err
}

func zeros[T gpu.Scalar](e *benchEnv, n int) (*gpu.Buffer[T], error) {
	b, err := gpu.NewBuffer[T](e.dev, n)
	return track(e, b, err)
}

func upload[T gpu.Scalar](e *benchEnv, data []T) (*gpu.Buffer[T], error) {
	b, err := gpu.Upload(e.dev, data)
	return track(e, b, err)
}

// launch runs kernel name and returns its modelled timing.
func (e *benchEnv) launch(name string, cfg gpu.LaunchConfig, args ...any) (gpu.Timing, error) {
	k := e.cache[name]
	if k == nil {
		var err error
		if k, err = e.mod.Kernel(name); err != nil {
			return gpu.Timing{}, err
		}
		e.cache[name] = k
	}
	res, err := k.Launch(cfg, args...)
	if err != nil {
		return gpu.Timing{}, err
	}
	return res.Timing, nil
}

func d1(grid, block int) gpu.LaunchConfig {
	return gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(block)}
}

// hash32 is the microbenchmarks' integer mixer (common.cuh).
func hash32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

// Benches returns the round-2 cells: kernels of the microbenchmarks in
// GatedRun (access patterns, counters, histogram shapes and walks, CAS
// loops) and Gated3Run (queue, reproducible sums), all timed gated, each
// with the measured median of its CSV row. Validation cells are those of
// the frozen held-out set (HeldOutSet), which fitted nothing; calibration
// cells name the parameter they fixed, or restate.
func Benches() []Bench {
	var bs []Bench
	add := func(b Bench) { bs = append(bs, b) }

	// Access patterns (access.csv: experiment,kernel,n,param,bytes,median_ms).
	for _, c := range []struct {
		kernel, row string
		ms          float64
	}{
		{"copy2d", "copy", 0.03522}, {"transpose_naive", "naive", 0.25549},
		{"transpose_tiled_nopad", "tiled_nopad", 0.08765}, {"transpose_tiled_pad", "tiled_pad", 0.03869},
	} {
		c := c
		add(Bench{Group: "transpose n=4096", Name: c.row, Run: GatedRun, CSV: "access.csv", Row: "transpose," + c.row + ",4096", Col: 5, Ms: c.ms,
			run: func(e *benchEnv) (gpu.Timing, error) {
				const n = 4096
				in, err := zeros[float32](e, n*n)
				if err != nil {
					return gpu.Timing{}, err
				}
				out, err := zeros[float32](e, n*n)
				if err != nil {
					return gpu.Timing{}, err
				}
				return e.launch(c.kernel, gpu.LaunchConfig{Grid: gpu.Dim3{X: n / 32, Y: n / 32, Z: 1}, Block: gpu.Dim3{X: 32, Y: 8, Z: 1}}, in, out, n)
			}})
	}
	for _, c := range []struct {
		stride int
		ms     float64
	}{{1, 0.01362}, {2, 0.01853}, {4, 0.02406}, {8, 0.03702}, {16, 0.06853}, {32, 0.07746}} {
		c := c
		b := Bench{Group: "strided reads", Name: fmt.Sprintf("stride %d", c.stride), Run: GatedRun, CSV: "access.csv",
			Row: fmt.Sprintf("stride,read_stride,4194304,%d", c.stride), Col: 5, Ms: c.ms,
			run: func(e *benchEnv) (gpu.Timing, error) {
				const threads = 1 << 22
				in, err := zeros[float32](e, threads*32)
				if err != nil {
					return gpu.Timing{}, err
				}
				out, err := zeros[float32](e, threads)
				if err != nil {
					return gpu.Timing{}, err
				}
				return e.launch("read_stride", d1(threads/256, 256), in, out, threads, c.stride, uint32(threads*32))
			}}
		switch c.stride {
		case 16:
			b.Fits = "the 64-byte DRAM granule (engine granuleShift)"
		case 32:
			// Its launch's ncu counters against stride 16's gave the
			// factor (calibration/evidence/2026-11-30-h200-ncu-sums-stride).
			b.Fits = "Cost.DRAMLoneGranuleFactor"
		}
		add(b)
	}
	for _, c := range []struct {
		stride int
		ms     float64
	}{{4, 0.53478}, {32, 4.24771}} { // each runs 200M warp instructions: two of the five strides
		c := c
		b := Bench{Group: "shared bank conflicts", Name: fmt.Sprintf("stride %d", c.stride), Run: GatedRun, CSV: "access.csv",
			Row: fmt.Sprintf("banks,shared_banks,270336,%d", c.stride), Col: 5, Ms: c.ms,
			run: func(e *benchEnv) (gpu.Timing, error) {
				out, err := zeros[float32](e, 1056*256)
				if err != nil {
					return gpu.Timing{}, err
				}
				cfg := d1(1056, 256)
				cfg.MaxInstructions = 1 << 30
				return e.launch("shared_banks", cfg, out, c.stride, 4096)
			}}
		if c.stride == 32 {
			b.Fits = "Cost.SharedWavefrontsPerCycle"
		} else {
			b.Fits = restates + "Cost.SharedWavefrontsPerCycle (access.csv's bank-conflict rows gave it: a k-way conflict takes k wavefronts)"
		}
		add(b)
	}

	// Sliced counters (counters.csv: type,mode,layout,k,lines,threads,atomics,median_ms).
	for _, c := range []struct {
		typ, mode, layout string
		k                 int
		ms                float64
	}{
		{"u32", "thread_warp", "packed", 32, 11.64067}, {"u32", "thread_warp", "padded", 32, 1.59152},
		{"u32", "thread_lane", "packed", 32, 1.23219}, {"u32", "thread_lane", "padded", 32, 1.60026},
		{"u32", "warp", "packed", 32, 0.36656}, {"u32", "warp", "padded", 32, 0.05264},
		{"u32", "thread_lane", "packed", 4096, 0.05248}, {"u32", "thread_lane", "padded", 4096, 0.17782},
		{"f32", "thread_warp", "packed", 32, 16.16768}, {"f32", "thread_warp", "padded", 32, 2.04256},
		{"f32", "thread_lane", "packed", 32, 1.23219}, {"f32", "thread_lane", "padded", 32, 2.11514},
		{"f32", "warp", "packed", 32, 0.50810}, {"f32", "warp", "padded", 32, 0.06640},
	} {
		c := c
		fits := ""
		if c.mode == "thread_lane" && c.layout == "packed" && c.k == 32 {
			fits = restates + "Cost.L2AddrNs and Cost.L2SectorNs (a warp's one transaction of 32 addresses in a line, as atomics_global.csv measured it)"
		}
		add(Bench{Group: fmt.Sprintf("counters %s k=%d", c.typ, c.k), Name: c.mode + " " + c.layout, Run: GatedRun, CSV: "counters.csv",
			Row: fmt.Sprintf("%s,%s,%s,%d", c.typ, c.mode, c.layout, c.k), Col: 7, Ms: c.ms, Fits: fits,
			run: func(e *benchEnv) (gpu.Timing, error) {
				const threads = 1 << 24
				stride := uint32(1)
				if c.layout == "padded" {
					stride = 32
				}
				name := "ctr_" + c.mode + "_" + c.typ
				cfg := d1(threads/256, 256)
				if c.typ == "u32" {
					buf, err := zeros[uint32](e, c.k*int(stride))
					if err != nil {
						return gpu.Timing{}, err
					}
					return e.launch(name, cfg, buf, uint32(c.k), stride)
				}
				buf, err := zeros[float32](e, c.k*int(stride))
				if err != nil {
					return gpu.Timing{}, err
				}
				return e.launch(name, cfg, buf, uint32(c.k), stride)
			}})
	}

	// Work queue (queue.csv: costs,pop,k,items,grid,block,pops,median_ms).
	for _, c := range []struct {
		costs string
		k     int
		ms    float64
	}{
		{"even", 1, 0.10685}, {"even", 8, 0.03590}, {"even", 64, 0.08893}, {"even", 1024, 0.40451},
		{"uneven", 1, 0.14454}, {"uneven", 64, 0.37994}, {"uneven", 1024, 3.53754},
	} {
		c := c
		add(Bench{Group: "queue " + c.costs, Name: fmt.Sprintf("k=%d", c.k), Run: Gated3Run, CSV: "queue.csv",
			Row: fmt.Sprintf("%s,thread,%d", c.costs, c.k), Col: 7, Ms: c.ms,
			run: func(e *benchEnv) (gpu.Timing, error) {
				const n = 1 << 22
				head, err := zeros[uint32](e, 1)
				if err != nil {
					return gpu.Timing{}, err
				}
				out, err := zeros[float32](e, n)
				if err != nil {
					return gpu.Timing{}, err
				}
				uneven := int32(0)
				if c.costs == "uneven" {
					uneven = 1
				}
				cfg := d1(132*8, 256)
				cfg.MaxInstructions = 1 << 31 // 4M items of up to 2048 FMAs each
				return e.launch("pop_thread", cfg, head, uint32(n), uint32(c.k), uneven, out)
			}})
	}

	// Histogram launch shapes (histshape.csv: input,bins,kernel,grid,block,median_ms).
	for _, c := range []struct {
		input  string
		bins   int
		kernel string
		ms     float64
	}{
		{"uniform", 256, "global", 4.31512}, {"uniform", 256, "priv_small", 0.73123},
		{"uniform", 256, "priv_resident", 0.03725}, {"uniform", 256, "priv_contig", 0.04080},
		{"uniform", 4096, "global", 0.48077}, {"uniform", 4096, "priv_small", 0.34949},
		{"uniform", 4096, "priv_resident", 0.04323}, {"uniform", 4096, "priv_contig", 0.05496},
		{"runs", 256, "global", 6.22998}, {"runs", 256, "priv_small", 0.10418},
		{"hot", 256, "global", 11.68898}, {"hot", 256, "priv_small", 0.45082}, {"hot", 256, "priv_resident", 0.03728},
	} {
		c := c
		add(Bench{Group: fmt.Sprintf("histogram %s %d bins", c.input, c.bins), Name: c.kernel, Run: GatedRun, CSV: "histshape.csv",
			Row: fmt.Sprintf("%s,%d,%s", c.input, c.bins, c.kernel), Col: 5, Ms: c.ms,
			run: func(e *benchEnv) (gpu.Timing, error) {
				const n = 1 << 24
				bins := make([]uint32, n)
				for i := range bins {
					bins[i] = binOf(uint32(i), uint32(c.bins), c.input)
				}
				in, err := upload(e, bins)
				if err != nil {
					return gpu.Timing{}, err
				}
				hist, err := zeros[uint32](e, c.bins)
				if err != nil {
					return gpu.Timing{}, err
				}
				if c.kernel == "global" {
					return e.launch("hist_global", d1(n/256, 256), in, uint32(n), hist)
				}
				grid := n / 256
				if c.kernel != "priv_small" {
					// Resident blocks: 132 SMs x 8 blocks of 256 threads (the
					// occupancy API's answer on the H200 for both bin counts).
					grid = 132 * 8
				}
				cfg := d1(grid, 256)
				cfg.SharedBytes = c.bins * 4
				return e.launch(c.kernel, cfg, in, uint32(n), hist, uint32(c.bins))
			}})
	}

	// The 256-bin histogram's per-thread walk with each block's shared
	// memory padded, which takes the L1's share of the SM away (l1reuse.csv:
	// part,kernel,blocks_per_sm,grid,block,smem_bytes,n,param,median_ms).
	// Padding up to 20 KB (an L1 of 248 to 60 KB) covers every L1 share the
	// labs' kernels leave; at 24 KB (28 KB of L1, 0.123 ms measured) the
	// walk thrashes the lines of its own loads in flight, which the model
	// does not price.
	for _, c := range []struct {
		pad int
		ms  float64
	}{{0, 0.04077}, {2048, 0.04275}, {4096, 0.04630}, {8192, 0.05064}, {12288, 0.05050}, {16384, 0.05325}, {20480, 0.05966}} {
		c := c
		smem := 1024 + c.pad
		add(Bench{Group: "histogram walk, L1 share", Name: fmt.Sprintf("pad %d KB", c.pad>>10), Run: GatedRun, CSV: "l1reuse.csv",
			Row: fmt.Sprintf("pad,hist_contig,8,1056,256,%d", smem), Col: 8, Ms: c.ms,
			run: func(e *benchEnv) (gpu.Timing, error) {
				const n, bins = 1 << 24, 256
				data := make([]uint32, n)
				for i := range data {
					data[i] = binOf(uint32(i), bins, "uniform")
				}
				in, err := upload(e, data)
				if err != nil {
					return gpu.Timing{}, err
				}
				hist, err := zeros[uint32](e, bins)
				if err != nil {
					return gpu.Timing{}, err
				}
				cfg := d1(132*8, 256)
				cfg.SharedBytes = smem
				return e.launch("priv_contig", cfg, in, uint32(n), hist, uint32(bins))
			}})
	}

	// CAS loops (cas.csv: kernel,contenders,groups,threads,median_ms).
	for _, c := range []struct {
		kernel     string
		contenders int
		ms         float64
	}{
		{"cas_loop", 1, 0.01901}, {"signaware", 1, 0.01325},
		{"cas_loop", 32, 0.18656}, {"signaware", 32, 0.07789},
		{"cas_loop", 65536, 1.14314}, {"signaware", 65536, 3.04630},
	} {
		c := c
		add(Bench{Group: fmt.Sprintf("float max, %d contenders", c.contenders), Name: c.kernel, Run: GatedRun, CSV: "cas.csv",
			Row: fmt.Sprintf("%s,%d", c.kernel, c.contenders), Col: 4, Ms: c.ms,
			run: func(e *benchEnv) (gpu.Timing, error) {
				const n = 1 << 22
				init := make([]float32, n/c.contenders)
				for i := range init {
					init[i] = float32(math.Inf(-1))
				}
				m, err := upload(e, init)
				if err != nil {
					return gpu.Timing{}, err
				}
				return e.launch(c.kernel, d1(n/256, 256), m, uint32(n), uint32(c.contenders))
			}})
	}

	// Reproducible sums at 4M (reproducible.csv: kernel,n,runs,distinct,min,max,range,ref,err,median_ms).
	for _, c := range []struct {
		kernel string
		ms     float64
	}{{"atomic_global", 7.37005}, {"tree_atomic", 0.03290}, {"two_pass", 0.02605}, {"fixed_point", 0.02022}} {
		c := c
		fits := ""
		if c.kernel == "atomic_global" {
			fits = restates + "Cost.L2OpF32Ns (n float atomicAdds to one address, as atomics_global.csv measured them)"
		}
		add(Bench{Group: "sum of 4M floats", Name: c.kernel, Run: Gated3Run, CSV: "reproducible.csv", Row: c.kernel + ",4194304", Col: 9, Ms: c.ms, Fits: fits,
			run: func(e *benchEnv) (gpu.Timing, error) {
				const n, blocks = 1 << 22, 1 << 14
				data := make([]float32, n)
				for i := range data {
					data[i] = 1 + float32(i%1000)/1000
				}
				in, err := upload(e, data)
				if err != nil {
					return gpu.Timing{}, err
				}
				switch c.kernel {
				case "fixed_point":
					out, err := zeros[uint64](e, 1)
					if err != nil {
						return gpu.Timing{}, err
					}
					return e.launch(c.kernel, d1(blocks, 256), in, uint32(n), out)
				case "two_pass":
					part, err := zeros[float32](e, blocks)
					if err != nil {
						return gpu.Timing{}, err
					}
					out, err := zeros[float32](e, 1)
					if err != nil {
						return gpu.Timing{}, err
					}
					t1, err := e.launch("tree_partials", d1(blocks, 256), in, uint32(n), part)
					if err != nil {
						return gpu.Timing{}, err
					}
					t2, err := e.launch("reduce_partials", d1(1, 256), part, uint32(blocks), out)
					if err != nil {
						return gpu.Timing{}, err
					}
					return sequence(t1, t2)
				}
				out, err := zeros[float32](e, 1)
				if err != nil {
					return gpu.Timing{}, err
				}
				return e.launch(c.kernel, d1(blocks, 256), in, uint32(n), out)
			}})
	}
	// The held-out set decides which cells are validation: those it
	// lists, which fitted nothing (TestHeldOutMatchesCells).
	held := heldOutIDs("bench")
	for i := range bs {
		bs[i].Role = Calibration
		if held[bs[i].Group+"/"+bs[i].Name] {
			bs[i].Role = Validation
		}
	}
	return bs
}

// restates begins the Fits of a cell that fitted nothing but restates a
// parameter measured by another run of the same experiment: the model
// matching it shows only that the parameter was read right, so it is
// not a validation cell.
const restates = "restates "

// sequence returns the time of two launches of one stream between one
// pair of events, as reproducible.cu times its two-pass sum
// (gpusim.Queued, which the reproducible lab's prediction shares).
func sequence(first, second gpu.Timing) (gpu.Timing, error) {
	return gpusim.Queued("h200", first, second)
}

// binOf is histshape.cu's input: uniform bins, runs of 64 equal bins,
// or a hot bin holding 90% of the elements.
func binOf(i, bins uint32, input string) uint32 {
	switch input {
	case "runs":
		return hash32((i/64)^0x51ed270b) % bins
	case "hot":
		h := hash32(i ^ 0x2545f491)
		if h%10 != 0 {
			return 0
		}
		return hash32(h) % bins
	}
	return hash32(i^0x9e3779b9) % bins
}
