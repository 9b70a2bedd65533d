package gpu

import (
	"errors"
	"fmt"
	"strings"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
)

// The kinds of launch failure; a *LaunchError's Is matches its Kind. They
// are the values backends report (package gpu/driver's).
var (
	ErrIllegalAddress    = driver.ErrIllegalAddress    // an access outside every allocation
	ErrMisaligned        = driver.ErrMisaligned        // an access not aligned to its size
	ErrBarrierDivergence = driver.ErrBarrierDivergence // a barrier not reached by every thread of the block
	ErrBudget            = driver.ErrBudget            // the simulator's instruction budget ran out
	ErrInvalidConfig     = driver.ErrInvalidConfig     // a launch configuration the device or kernel refuses
	ErrOutOfResources    = driver.ErrOutOfResources    // registers or shared memory the block cannot have
	ErrTrap              = driver.ErrTrap              // __trap() or a failed assert
	ErrLaunchFailed      = driver.ErrLaunchFailed      // any other failure of a launch on a GPU
	ErrTimeout           = driver.ErrTimeout           // a GPU launch still running at the device's time limit (Spec.Timeout); its helper process was killed
)

// LaunchError is a launch that failed or faulted. Where the fault has a
// place, Block, Thread and Pos say where; Addr is the faulting address.
type LaunchError struct {
	Kind   error // one of the Err values above
	Kernel string
	Msg    string
	// HasThread says Block and Thread are set.
	HasThread     bool
	Block, Thread Dim3
	Pos           cudac.Pos
	Addr          uint64
}

func (e *LaunchError) Error() string {
	var b strings.Builder
	if e.Pos.IsValid() {
		b.WriteString(e.Pos.String())
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s in kernel %s", e.Kind, e.Kernel)
	if e.HasThread {
		fmt.Fprintf(&b, ", block (%d,%d,%d) thread (%d,%d,%d)",
			e.Block.X, e.Block.Y, e.Block.Z, e.Thread.X, e.Thread.Y, e.Thread.Z)
	}
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	return b.String()
}

// Is reports whether target is e's Kind, so errors.Is(err, gpu.ErrIllegalAddress) works.
func (e *LaunchError) Is(target error) bool { return e.Kind == target }

// launchErrorFrom turns a backend's *driver.LaunchError into a
// *LaunchError; other errors are returned as they are.
func launchErrorFrom(err error) error {
	var de *driver.LaunchError
	if !errors.As(err, &de) {
		return err
	}
	return &LaunchError{
		Kind: de.Kind, Kernel: de.Kernel, Msg: de.Msg, HasThread: de.HasThread,
		Block: Dim3(de.Block), Thread: Dim3(de.Thread), Pos: de.Pos, Addr: de.Addr,
	}
}
