package atomics

// The lab predicts a GPU's times with the simulator, so it registers the
// simulator whatever the program imports. A program that should use a
// real GPU when there is one imports the GPU backend too, as the notebook
// and the warplab command do:
//
//	import _ "github.com/warplab/warplab/cudarun"
import _ "github.com/warplab/warplab/gpusim"
