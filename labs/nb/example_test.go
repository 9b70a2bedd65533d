package nb_test

import (
	"fmt"

	"github.com/warplab/warplab/labs/nb"
)

func ExampleOpen() {
	dev := nb.Open("sim:t4")
	fmt.Println(dev.Info().Profile, dev.Capabilities().MeasuredTiming)
	// Output: t4 false
}

func ExampleShowDevice() {
	nb.ShowDevice("sim:h200?seed=7")
	// Output:
	// device: NVIDIA H200 (gpusim profile h200) (sim:h200?seed=7)
	// times: modelled by the simulator's cost model (profile h200); no GPU needed
}
