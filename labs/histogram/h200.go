package histogram

// H200Row is one row of the H200 microbenchmark histshape.cu (16M
// elements, 256 threads per block, median of 10 timed launches after 3
// warm-ups, timed gated): H200Evidence.
type H200Row struct {
	Input  Input   `json:"input"`
	Bins   int     `json:"bins"`
	Kernel Kernel  `json:"kernel"`
	Grid   int     `json:"grid"`
	Ms     float64 `json:"ms"`
}

// H200Evidence is the file the H200 rows quote (a test keeps them the
// same). The round-2 run (calibration/evidence/2026-11-30-h200-microbenchmarks-round2)
// timed the same kernels ungated, each cell up to 2.6 us slower.
const H200Evidence = "calibration/evidence/2026-11-30-h200-microbenchmarks-gated2/csv/histshape.csv"

// H200N is the elements of every H200 row.
const H200N = 1 << 24

// H200Source says where the H200 rows come from.
const H200Source = "measured on an NVIDIA H200, 16,777,216 elements (histshape.cu, 2026-11-30)"

// H200Rows returns the H200 measurements of the shape experiment's
// kernels.
func H200Rows() []H200Row { return append([]H200Row(nil), h200Rows...) }

// H200 returns the H200 row of a kernel on an input and bin count.
func H200(in Input, bins int, k Kernel) (H200Row, bool) {
	for _, r := range h200Rows {
		if r.Input == in && r.Bins == bins && r.Kernel == k {
			return r, true
		}
	}
	return H200Row{}, false
}

var h200Rows = []H200Row{
	{Uniform, 256, Global, 65536, 4.31512},
	{Uniform, 256, Private, 65536, 0.73123},
	{Uniform, 256, Resident, 1056, 0.03725},
	{Uniform, 256, Contig, 1056, 0.04080},
	{Uniform, 256, GlobalContig, 1056, 4.33416},
	{Runs, 256, Global, 65536, 6.22998},
	{Runs, 256, Private, 65536, 0.10418},
	{Runs, 256, Resident, 1056, 0.03835},
	{Runs, 256, Contig, 1056, 0.04227},
	{Runs, 256, GlobalContig, 1056, 4.38584},
	{Hot, 256, Global, 65536, 11.68898},
	{Hot, 256, Private, 65536, 0.45082},
	{Hot, 256, Resident, 1056, 0.03728},
	{Hot, 256, Contig, 1056, 0.03982},
	{Hot, 256, GlobalContig, 1056, 11.69578},
	{Uniform, 4096, Global, 65536, 0.48077},
	{Uniform, 4096, Private, 65536, 0.34949},
	{Uniform, 4096, Resident, 1056, 0.04323},
	{Uniform, 4096, Contig, 1056, 0.05496},
	{Uniform, 4096, GlobalContig, 1056, 0.50677},
	{Runs, 4096, Global, 65536, 0.54478},
	{Runs, 4096, Private, 65536, 0.14499},
	{Runs, 4096, Resident, 1056, 0.03512},
	{Runs, 4096, Contig, 1056, 0.05405},
	{Runs, 4096, GlobalContig, 1056, 0.50802},
	{Hot, 4096, Global, 65536, 11.09514},
	{Hot, 4096, Private, 65536, 0.15146},
	{Hot, 4096, Resident, 1056, 0.04302},
	{Hot, 4096, Contig, 1056, 0.05462},
	{Hot, 4096, GlobalContig, 1056, 11.10171},
}
