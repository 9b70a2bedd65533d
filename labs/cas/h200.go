package cas

// H200Row is one row of the H200 microbenchmark cas.cu (4,194,304
// threads, 256 per block, median of 7 timed launches after 2 warm-ups,
// timed gated): calibration/evidence/2026-11-30-h200-microbenchmarks-gated2/csv/cas.csv
// (the round-2 run timed them ungated). The
// casCount rows are MaxCAS counting its failed compare-and-swaps.
type H200Row struct {
	Kernel     Kernel  `json:"kernel"`
	Contenders int     `json:"contenders"`
	Groups     int     `json:"groups"`
	Ms         float64 `json:"ms"`
	Retries    int64   `json:"retries"`
	WrongGroup int64   `json:"wrong_groups"`
}

// H200Threads is the threads of every H200 row.
const H200Threads = 1 << 22

// H200Source says where the H200 rows come from.
const H200Source = "measured on an NVIDIA H200, 4,194,304 threads (cas.cu, 2026-11-30)"

// casCount is the H200 microbenchmark's MaxCAS that counts its retries.
const casCount Kernel = "casCount"

// H200Rows returns the H200 measurements.
func H200Rows() []H200Row { return append([]H200Row(nil), h200Rows...) }

// H200 returns the H200 row of a kernel at a number of contenders per
// address.
func H200(k Kernel, contenders int) (H200Row, bool) {
	for _, r := range h200Rows {
		if r.Kernel == k && r.Contenders == contenders {
			return r, true
		}
	}
	return H200Row{}, false
}

var h200Rows = []H200Row{
	{MaxCAS, 1, 4194304, 0.01901, 0, 0},
	{MaxIntTrick, 1, 4194304, 0.01312, 0, 2097259},
	{MaxSignAware, 1, 4194304, 0.01325, 0, 0},
	{casCount, 1, 4194304, 0.02035, 0, 0},
	{MaxCAS, 32, 131072, 0.18656, 0, 0},
	{MaxIntTrick, 32, 131072, 0.07901, 0, 0},
	{MaxSignAware, 32, 131072, 0.07789, 0, 0},
	{casCount, 32, 131072, 0.20541, 7316155, 0},
	{MaxCAS, 256, 16384, 0.74768, 0, 0},
	{MaxIntTrick, 256, 16384, 0.26992, 0, 0},
	{MaxSignAware, 256, 16384, 0.27760, 0, 0},
	{casCount, 256, 16384, 0.80627, 8174850, 0},
	{MaxCAS, 4096, 1024, 1.31466, 0, 0},
	{MaxIntTrick, 4096, 1024, 1.59373, 0, 0},
	{MaxSignAware, 4096, 1024, 1.76714, 0, 0},
	{casCount, 4096, 1024, 1.44630, 3572797, 0},
	{MaxCAS, 65536, 64, 1.14314, 0, 0},
	{MaxIntTrick, 65536, 64, 3.04870, 0, 0},
	{MaxSignAware, 65536, 64, 3.04630, 0, 0},
	{casCount, 65536, 64, 1.13776, 1593511, 0},
	{MaxCAS, 4194304, 1, 0.19277, 0, 0},
	{MaxIntTrick, 4194304, 1, 3.06896, 0, 0},
	{MaxSignAware, 4194304, 1, 3.06902, 0, 0},
	{casCount, 4194304, 1, 0.21965, 274731, 0},
}
