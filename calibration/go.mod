// calibration/ holds the GPU runs the cost model was fitted to and checked
// against, and the programs and scripts that produced them. This go.mod
// makes it a module of its own (it has no Go code), so that the runs' raw
// logs stay out of github.com/warplab/warplab's module; .dockerignore keeps
// them out of every image. See README.md.
module github.com/warplab/warplab/calibration

go 1.26.8
