// Package ncu reads Nsight Compute's raw CSV output (ncu --csv --page raw):
// the L2 counters the project measured on the H200 and keeps under
// calibration/evidence, which the simulator's tests and the labs compare with.
package ncu
