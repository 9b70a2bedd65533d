package all

import (
	_ "github.com/warplab/warplab/labs/aggregation"
	_ "github.com/warplab/warplab/labs/atomics" // day26
	_ "github.com/warplab/warplab/labs/cas"
	_ "github.com/warplab/warplab/labs/counters"
	_ "github.com/warplab/warplab/labs/histogram"
	_ "github.com/warplab/warplab/labs/ordering"
	_ "github.com/warplab/warplab/labs/queue"
	_ "github.com/warplab/warplab/labs/reproducible" // day68
	_ "github.com/warplab/warplab/labs/softmax"
)
