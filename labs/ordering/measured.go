package ordering

// H200 is what the project's H200 measured with the same message-passing
// test (calibration/evidence/2026-11-30-h200-microbenchmarks-round2/csv/ordering.csv,
// kernel calibration/microbench/ordering.cu, nvcc 13.0, 528
// pairs, 50 launches of 64 trials each). The microbenchmark has no
// block-fence variant; its fourth variant published with a
// cuda::atomic_ref store(release) and load(acquire). The block-fence row
// is the lab's own mpBlockFence on the same H200 through NVRTC (warplab
// lab ordering --device cuda, 528 pairs, 10 launches of 64 trials:
// calibration/evidence/2026-11-30-h200-ordering-scope.txt).
type H200 struct {
	Variant string
	Trials  int64
	Stale   int64
}

// Measured lists the H200's results by the lab's variant names
// (release-acquire is the microbenchmark's atomic_ref variant, which
// publishes like the lab's mpRelAcq; relaxed-ref was not measured).
func Measured() []H200 {
	return []H200{
		{"plain", 1_689_600, 1_689_600},
		{"volatile", 1_689_600, 0},
		{"block-fence", 337_920, 0},
		{"fence", 1_689_600, 0},
		{"release-acquire", 1_689_600, 0},
	}
}

// measuredFor returns the H200's result for a variant, if it was measured.
func measuredFor(v Variant) (H200, bool) {
	for _, m := range Measured() {
		if m.Variant == v.Short() {
			return m, true
		}
	}
	return H200{}, false
}
