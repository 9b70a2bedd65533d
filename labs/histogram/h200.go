package histogram

// H200Row is one row of the H200 microbenchmark histshape.cu (16M
// elements, 256 threads per block, median of 10 timed launches after 3
// warm-ups): docs/evidence/2026-11-30-h200-microbenchmarks-round2/csv/histshape.csv.
type H200Row struct {
	Input  Input   `json:"input"`
	Bins   int     `json:"bins"`
	Kernel Kernel  `json:"kernel"`
	Grid   int     `json:"grid"`
	Ms     float64 `json:"ms"`
}

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
	{Uniform, 256, Global, 65536, 4.31933},
	{Uniform, 256, Private, 65536, 0.73323},
	{Uniform, 256, Resident, 1056, 0.03894},
	{Uniform, 256, Contig, 1056, 0.04214},
	{Uniform, 256, GlobalContig, 1056, 4.34280},
	{Runs, 256, Global, 65536, 6.23714},
	{Runs, 256, Private, 65536, 0.10608},
	{Runs, 256, Resident, 1056, 0.04003},
	{Runs, 256, Contig, 1056, 0.04357},
	{Runs, 256, GlobalContig, 1056, 4.38018},
	{Hot, 256, Global, 65536, 11.70947},
	{Hot, 256, Private, 65536, 0.45638},
	{Hot, 256, Resident, 1056, 0.03987},
	{Hot, 256, Contig, 1056, 0.04326},
	{Hot, 256, GlobalContig, 1056, 11.71891},
	{Uniform, 4096, Global, 65536, 0.48416},
	{Uniform, 4096, Private, 65536, 0.35267},
	{Uniform, 4096, Resident, 1056, 0.04555},
	{Uniform, 4096, Contig, 1056, 0.05810},
	{Uniform, 4096, GlobalContig, 1056, 0.50941},
	{Runs, 4096, Global, 65536, 0.55120},
	{Runs, 4096, Private, 65536, 0.14902},
	{Runs, 4096, Resident, 1056, 0.03843},
	{Runs, 4096, Contig, 1056, 0.05714},
	{Runs, 4096, GlobalContig, 1056, 0.51874},
	{Hot, 4096, Global, 65536, 11.11301},
	{Hot, 4096, Private, 65536, 0.15419},
	{Hot, 4096, Resident, 1056, 0.04528},
	{Hot, 4096, Contig, 1056, 0.05672},
	{Hot, 4096, GlobalContig, 1056, 11.11917},
}
