// Package profiles holds the simulator's device profiles: the launch limits,
// machine sizes and cost-model parameters of real GPUs, each parameter with
// the source it comes from (a datasheet, a measurement made for this
// project, or a calibration against measured kernels).
//
// # Provenance
//
// A profile's Provenance says what its cost parameters rest on. The h200
// profile's were measured on the project's H200 (calibration/evidence); the t4's
// were fitted to the Day 26 course page's T4 sums, and many mechanisms are
// not modelled on it; gtx1650 has one measured rate. The a100 and l4
// profiles have no measurement of their own GPU: their cost parameters are
// the H200's copied, with their own datasheet sizes and limits. Their
// provenance, "unmeasured: H200 parameters", is shown beside the profile's
// name wherever a user picks or reads it (warplab devices, a device's name
// in a lab's output, a launch's timing source).
package profiles
