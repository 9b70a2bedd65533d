package ordering_test

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/ordering"
)

// Publish on the simulator runs under its relaxed memory model: only the
// device-scope fence and the release/acquire atomic_ref flag never read a
// stale payload.
func ExamplePublish() {
	dev, err := gpu.Open("sim:h200?seed=3")
	if err != nil {
		panic(err)
	}
	defer dev.Close()
	t, err := ordering.Publish(dev, ordering.PublishOptions{Pairs: 8, Trials: 8, Launches: 4, Progress: labs.NoProgress()})
	if err != nil {
		panic(err)
	}
	fmt.Println(t.Spec)
	for _, r := range t.Rows {
		fmt.Printf("%-15s stale reads: %v\n", r.Variant.Short(), r.Stale > 0)
	}
	// Output:
	// sim:h200?seed=3&memory=relaxed
	// plain           stale reads: true
	// volatile        stale reads: true
	// block-fence     stale reads: true
	// fence           stale reads: false
	// relaxed-ref     stale reads: true
	// release-acquire stale reads: false
}

// Check judges a student's publish kernel on the relaxed model.
func ExampleCheck() {
	dev, err := gpu.Open("sim:h200")
	if err != nil {
		panic(err)
	}
	defer dev.Close()
	src := `__global__ void publish(int* base, int trials, int* counts) {
    if (threadIdx.x != 0) return;
    int pair = blockIdx.x >> 1;
    int* payload = base + pair * 128;
    int* flag = payload + 32;
    int* ack = flag + 32;
    for (int t = 1; t <= trials; ++t) {
        if ((blockIdx.x & 1) == 0) {
            *(volatile int*)payload = t;
            __threadfence();
            *(volatile int*)flag = t;
            while (*(volatile int*)ack != t) {}
        } else {
            while (*(volatile int*)flag != t) {}
            __threadfence();
            if (*(volatile int*)payload != t) counts[2 * pair] += 1;
            *(volatile int*)ack = t;
        }
    }
}`
	f := ordering.Check(dev, ordering.Answer{Source: src})
	for _, p := range f.Parts {
		fmt.Println(p.Name+":", p.Verdict)
	}
	// Output:
	// compiles: pass
	// runs: pass
	// correct: pass
	// no race or barrier divergence: pass
	// narrowest scope: pass
}
