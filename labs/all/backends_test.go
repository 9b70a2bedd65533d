package all_test

// The tests open simulated devices; whoever uses the package registers
// the backends, as the warplab command does.
import _ "github.com/warplab/warplab/gpusim"
