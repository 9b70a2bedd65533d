// Package labtest is what the lab packages' tests share: the benchmark of
// a lab's headless run, whose time each lab records as its
// Info.SimWallTime, and the check that a lab's embedded copy of committed
// GPU measurements is still the same as the evidence it was copied from.
// It imports testing; labs/internal/labkit, which the labs themselves
// import, does not.
package labtest
