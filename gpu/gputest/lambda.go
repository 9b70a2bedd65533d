package gputest

const lambdaSrc = `
__global__ void lambdas(const float* in, float* out, int* counts, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float scale = 2.0f;
    int hits = 0;
    auto add = [](float a, float b) { return a + b; };
    auto scaled = [=](float x) { return x * scale; };
    auto bump = [&](int k) { hits += k; };
    auto both = [scale, &hits](float x) -> float { hits++; return x + scale; };
    auto twice = [](int& v) { v *= 2; };
    auto count = [&hits]() mutable { return hits; };
    scale = 100.0f;  // the by-value copies keep 2
    if (i < n) {
        float v = in[i];
        bump(2);
        if (v > 0) bump(1);
        int w = 5;
        twice(w);
        for (int k = 0; k < 3; k++) w = (int)add((float)w, 1.0f);
        out[i] = add(scaled(v), both(v)) + w + scale;
        counts[i] = count();
    }
}
`

// testLambdas calls lambdas stored in auto locals: no captures, [=], [&],
// named captures by value and by reference, a reference parameter, a
// deduced and an explicit result type, in divergent code.
func testLambdas(e *env) {
	const n = 100
	in := make([]float32, n)
	for i := range in {
		in[i] = float32(i%5) - 2
	}
	out, counts := zeros[float32](e, n), zeros[int32](e, n)
	e.launch(e.kernel(lambdaSrc, "lambdas"), 2, 64, upload(e, in), out, counts, int32(n))
	gotOut, gotCounts := download(e, out), download(e, counts)
	for i, v := range in {
		want := 2*v + (v + 2) + 13 + 100
		hits := int32(3)
		if v > 0 {
			hits = 4
		}
		if gotOut[i] != want || gotCounts[i] != hits {
			e.Fatalf("thread %d: out %v, hits %d; want %v, %d", i, gotOut[i], gotCounts[i], want, hits)
		}
	}
}
