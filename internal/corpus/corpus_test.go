package corpus

import (
	"embed"
	"fmt"
	"slices"
	"testing"

	_ "github.com/warplab/warplab/cudarun"
	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
)

//go:embed testdata/*.cu
var sources embed.FS

// kernel compiles a corpus file on d and returns the named kernel.
func kernel(t *testing.T, d *gpu.Device, file, name string) *gpu.Kernel {
	t.Helper()
	src, err := sources.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	m, err := d.Compile(file, src)
	if err != nil {
		t.Fatalf("compile %s: %v", file, err)
	}
	k, err := m.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func launch(t *testing.T, k *gpu.Kernel, cfg gpu.LaunchConfig, args ...any) {
	t.Helper()
	if _, err := k.Launch(cfg, args...); err != nil {
		t.Fatalf("launch %s: %v", k.Name(), err)
	}
}

func upload[T gpu.Scalar](t *testing.T, d *gpu.Device, data []T) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.Upload(d, data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func zeros[T gpu.Scalar](t *testing.T, d *gpu.Device, n int) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.NewBuffer[T](d, n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func download[T gpu.Scalar](t *testing.T, b *gpu.Buffer[T]) []T {
	t.Helper()
	v, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// xorshift is the corpus's seeded generator.
type xorshift uint32

func (x *xorshift) next() uint32 {
	*x ^= *x << 13
	*x ^= *x >> 17
	*x ^= *x << 5
	return uint32(*x)
}

// cases are the corpus's kernels, each run and checked on a device.
var cases = []struct {
	name string
	run  func(t *testing.T, d *gpu.Device)
}{
	{"ReduceFamily", testReduce},
	{"HistogramCG", testHistogram},
	{"ScanCG", testScan},
	{"BitonicSort", testBitonic},
	{"Transpose", testTranspose},
	{"GridReduce", testGridReduce},
	{"VectorTranspose", testVectorTranspose},
	{"Compact", testCompact},
}

func runCorpus(t *testing.T, spec string) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := gpu.Open(spec)
			if err != nil {
				t.Skipf("%s: %v", spec, err)
			}
			defer d.Close()
			c.run(t, d)
		})
	}
}

// TestCorpus runs the corpus on two simulated profiles, and on the relaxed
// memory model, which must not change what these correctly synchronised
// kernels compute.
func TestCorpus(t *testing.T) {
	for _, spec := range []string{"sim:t4", "sim:h200", "sim:h200?memory=relaxed"} {
		t.Run(spec, func(t *testing.T) { runCorpus(t, spec) })
	}
}

// TestCorpusGPU runs the corpus on a GPU through cudarun; it skips where
// none can be opened.
func TestCorpusGPU(t *testing.T) {
	runCorpus(t, "cuda")
}

func testReduce(t *testing.T, d *gpu.Device) {
	const n, grid = 100003, 40
	in := make([]float64, n)
	rng := xorshift(7)
	for i := range in {
		in[i] = float64(int(rng.next()%21) - 10) // small integers: every order sums exactly
	}
	var want float64
	for _, v := range in {
		want += v
	}
	for _, c := range []struct {
		typ      string
		block    int
		twoLoads bool
	}{{"float", 256, true}, {"float", 128, false}, {"double", 512, true}, {"int", 64, true}, {"unsigned int", 256, false}} {
		name := fmt.Sprintf("reduceBlocks<%s, %d, %v>", c.typ, c.block, c.twoLoads)
		k := kernel(t, d, "reduce.cu", name)
		cfg := gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(c.block), SharedBytes: c.block * 8}
		var got float64
		switch c.typ {
		case "float":
			x := make([]float32, n)
			for i, v := range in {
				x[i] = float32(v)
			}
			out := zeros[float32](t, d, grid)
			launch(t, k, cfg, upload(t, d, x), out, uint32(n))
			for _, v := range download(t, out) {
				got += float64(v)
			}
		case "double":
			out := zeros[float64](t, d, grid)
			launch(t, k, cfg, upload(t, d, in), out, uint32(n))
			for _, v := range download(t, out) {
				got += v
			}
		case "int":
			x := make([]int32, n)
			for i, v := range in {
				x[i] = int32(v)
			}
			out := zeros[int32](t, d, grid)
			launch(t, k, cfg, upload(t, d, x), out, uint32(n))
			for _, v := range download(t, out) {
				got += float64(v)
			}
		case "unsigned int":
			x := make([]uint32, n)
			var uwant uint32
			for i, v := range in {
				x[i] = uint32(int32(v))
				uwant += x[i]
			}
			out := zeros[uint32](t, d, grid)
			launch(t, k, cfg, upload(t, d, x), out, uint32(n))
			var s uint32
			for _, v := range download(t, out) {
				s += v
			}
			if s != uwant {
				t.Errorf("%s: sum %d, want %d", name, s, uwant)
			}
			continue
		}
		if got != want {
			t.Errorf("%s: sum %v, want %v", name, got, want)
		}
	}
}

func testHistogram(t *testing.T, d *gpu.Device) {
	const n, bins = 50000, 64
	data := make([]uint32, n)
	want := make([]uint32, bins)
	rng := xorshift(11)
	for i := range data {
		v := rng.next()
		if i%3 == 0 {
			v = 5 // a hot bin, as real data has
		}
		data[i] = v
		want[v&(bins-1)]++
	}
	out := zeros[uint32](t, d, bins)
	launch(t, kernel(t, d, "cg_histogram.cu", "histogramCG"), gpu.LaunchConfig{Grid: gpu.D1(24), Block: gpu.D1(256)},
		upload(t, d, data), out, int32(n))
	if got := download(t, out); !slices.Equal(got, want) {
		t.Errorf("histogram\n%v\nwant\n%v", got, want)
	}
}

func testScan(t *testing.T, d *gpu.Device) {
	const n, block = 3000, 256
	grid := (n + block - 1) / block
	in := make([]int32, n)
	rng := xorshift(3)
	for i := range in {
		in[i] = int32(rng.next()%100) - 50
	}
	out, totals := zeros[int32](t, d, n), zeros[int32](t, d, grid)
	launch(t, kernel(t, d, "cg_scan.cu", "blockScan"), gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(block)},
		upload(t, d, in), out, totals, int32(n))
	got, gotTotals := download(t, out), download(t, totals)
	for b := 0; b < grid; b++ {
		var s int32
		for i := b * block; i < min((b+1)*block, n); i++ {
			s += in[i]
			if got[i] != s {
				t.Fatalf("scan[%d] = %d, want %d", i, got[i], s)
			}
		}
		if gotTotals[b] != s {
			t.Errorf("block %d total %d, want %d", b, gotTotals[b], s)
		}
	}
}

func testBitonic(t *testing.T, d *gpu.Device) {
	const keys, blocks = 256, 5
	in := make([]uint32, keys*blocks)
	rng := xorshift(5)
	for i := range in {
		in[i] = rng.next() % 1000
	}
	buf := upload(t, d, in)
	launch(t, kernel(t, d, "bitonic.cu", "bitonicSortBlock"), gpu.LaunchConfig{Grid: gpu.D1(blocks), Block: gpu.D1(64)}, buf)
	got := download(t, buf)
	for b := 0; b < blocks; b++ {
		want := slices.Clone(in[b*keys : (b+1)*keys])
		slices.Sort(want)
		if !slices.Equal(got[b*keys:(b+1)*keys], want) {
			t.Errorf("block %d not sorted: %v", b, got[b*keys:b*keys+16])
		}
	}
}

func testTranspose(t *testing.T, d *gpu.Device) {
	const rows, cols = 70, 100
	in := make([]float32, rows*cols)
	for i := range in {
		in[i] = float32(i)
	}
	out := zeros[float32](t, d, rows*cols)
	cfg := gpu.LaunchConfig{Grid: gpu.Dim3{X: (cols + 31) / 32, Y: (rows + 31) / 32, Z: 1}, Block: gpu.Dim3{X: 32, Y: 8, Z: 1}}
	launch(t, kernel(t, d, "transpose.cu", "transposeTiled<float>"), cfg, upload(t, d, in), out, int32(rows), int32(cols))
	got := download(t, out)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if g, w := got[c*rows+r], in[r*cols+c]; g != w {
				t.Fatalf("out[%d][%d] = %v, want %v", c, r, g, w)
			}
		}
	}
}

func testGridReduce(t *testing.T, d *gpu.Device) {
	const n, grid, block = 200000, 16, 256
	in := make([]float32, n)
	var want float32
	for i := range in {
		in[i] = float32(i%7 - 3) // small integers: every order sums exactly
		want += in[i]
	}
	partial, result := zeros[float32](t, d, grid), zeros[float32](t, d, 1)
	cfg := gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(block), Cooperative: true}
	launch(t, kernel(t, d, "grid_reduce.cu", "gridReduce"), cfg, upload(t, d, in), partial, result, int32(n))
	if got := download(t, result)[0]; got != want {
		t.Errorf("grid reduction %v, want %v", got, want)
	}
}

func testVectorTranspose(t *testing.T, d *gpu.Device) {
	const n = 1000
	in := make([]float32, 4*n)
	for i := range in {
		in[i] = float32(i)*0.25 - 7
	}
	planes := make([]*gpu.Buffer[float32], 4)
	for k := range planes {
		planes[k] = zeros[float32](t, d, n)
	}
	launch(t, kernel(t, d, "vec_transpose.cu", "aosToSoa"), gpu.LaunchConfig{Grid: gpu.D1(3), Block: gpu.D1(128)},
		upload(t, d, in), planes[0], planes[1], planes[2], planes[3], int32(n))
	for k, p := range planes {
		got := download(t, p)
		for i := 0; i < n; i++ {
			if got[i] != in[4*i+k] {
				t.Fatalf("plane %d [%d] = %v, want %v", k, i, got[i], in[4*i+k])
			}
		}
	}
	back := zeros[float32](t, d, 4*n)
	launch(t, kernel(t, d, "vec_transpose.cu", "soaToAos"), gpu.LaunchConfig{Grid: gpu.D1((n + 127) / 128), Block: gpu.D1(128)},
		planes[0], planes[1], planes[2], planes[3], back, int32(n))
	if got := download(t, back); !slices.Equal(got, in) {
		t.Errorf("soaToAos did not invert aosToSoa")
	}
	const width, height = 37, 20
	px := make([]uint8, 4*width*height)
	for i := range px {
		px[i] = uint8(i * 7)
	}
	out := zeros[uint8](t, d, len(px))
	cfg := gpu.LaunchConfig{Grid: gpu.Dim3{X: (width + 15) / 16, Y: (height + 15) / 16, Z: 1}, Block: gpu.Dim3{X: 16, Y: 16, Z: 1}}
	launch(t, kernel(t, d, "vec_transpose.cu", "transposePixels"), cfg, upload(t, d, px), out, int32(width), int32(height))
	got := download(t, out)
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			for c := 0; c < 4; c++ {
				if g, w := got[4*(x*height+y)+c], px[4*(y*width+x)+c]; g != w {
					t.Fatalf("pixel (%d,%d) channel %d = %d, want %d", x, y, c, g, w)
				}
			}
		}
	}
}

func testCompact(t *testing.T, d *gpu.Device) {
	const n, threshold = 40000, 10
	in := make([]int32, n)
	rng := xorshift(23)
	var want []int32
	for i := range in {
		in[i] = int32(rng.next()%64) - 16
		if in[i] >= threshold && in[i]&1 == 0 {
			want = append(want, in[i])
		}
	}
	k := kernel(t, d, "compact.cu", "compact")
	out, count := zeros[int32](t, d, n), zeros[uint32](t, d, 1)
	launch(t, k, gpu.LaunchConfig{Grid: gpu.D1(24), Block: gpu.D1(128)}, upload(t, d, in), int32(n), int32(threshold), out, count)
	c := download(t, count)[0]
	if int(c) != len(want) {
		t.Fatalf("kept %d elements, want %d", c, len(want))
	}
	got := download(t, out)[:c]
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the kept elements are not the input's (first %v, want %v)", got[:min(8, len(got))], want[:min(8, len(want))])
	}
}
