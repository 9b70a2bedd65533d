// Package driver is the contract between package gpu and the backends that
// run kernels for it, the way database/sql/driver sits under database/sql:
// gpusim (the simulator) and cudarun (a real GPU) implement these
// interfaces, register themselves with gpu.Register from init, and gpu
// does everything that is the same for every backend (parsing device
// specs, checking arguments against a kernel's signature and launch shapes
// against the device's limits, typed buffers, the Result a user reads).
//
// Notebook authors and labs never use this package: they call gpu.Open and
// the types of package gpu. A backend is written against it:
//
//	type backend struct{}
//
//	func (backend) Open(cfg driver.Config) (driver.Device, error) { ... }
//	func (backend) Probe() []driver.Availability                  { ... }
//
//	func init() { gpu.Register("mybackend", backend{}) }
//
// # What gpu guarantees a backend
//
// Backend.Open gets a Config that gpu parsed and checked from a spec
// ("sim:t4?seed=7"): only options the grammar allows for the backend, with
// values in range and defaults filled in. Module.Launch gets a kernel of
// the module's program, a LaunchConfig whose Grid and Block have no zero
// dimension and fit the device's Info limits, and one ArgValue per
// parameter, already converted to the parameter's type; a pointer argument
// names a Memory of the same backend (the backend checks it is of the same
// device).
//
// # What a backend returns
//
// A fault during a launch is returned as a *LaunchError, not wrapped, whose
// Kind is one of the Err values of this package (gpu re-exports them), so
// errors.Is(err, gpu.ErrIllegalAddress) works whichever backend ran the
// launch. Other failures are errors prefixed with the backend's package
// name ("gpusim: ...", "cudarun: ..."). Result.Counters is nil when the
// backend does not count; Result.Diagnostics is never nil.
//
// The conformance suite gpu/gputest checks a backend against this contract
// through package gpu.
package driver
