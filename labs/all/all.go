package all

import (
	_ "github.com/warplab/warplab/labs/atomics" // day26
)
