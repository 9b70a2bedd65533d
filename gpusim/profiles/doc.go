// Package profiles holds the simulator's device profiles: the launch limits,
// machine sizes and cost-model parameters of real GPUs, each parameter with
// the source it comes from (a datasheet, a measurement made for this
// project, or a calibration against measured kernels).
package profiles
