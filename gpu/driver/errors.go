package driver

import (
	"errors"
	"fmt"
	"strings"

	"github.com/warplab/warplab/cudac"
)

// The kinds of launch failure; a *LaunchError's Kind is one of them.
// Package gpu re-exports them under the same names.
var (
	ErrIllegalAddress    = errors.New("illegal address")
	ErrMisaligned        = errors.New("misaligned address")
	ErrBarrierDivergence = errors.New("barrier divergence")
	ErrBudget            = errors.New("instruction budget exceeded")
	ErrInvalidConfig     = errors.New("invalid launch configuration")
	ErrOutOfResources    = errors.New("too many resources requested for launch")
	ErrTrap              = errors.New("trap")
	ErrLaunchFailed      = errors.New("launch failed")
	ErrTimeout           = errors.New("time limit exceeded")
)

// ErrNotImplemented is returned (wrapped) by a backend for a feature it
// does not support.
var ErrNotImplemented = errors.New("not implemented by this backend")

// LaunchError is a launch that failed or faulted, as a backend reports it;
// gpu turns it into a *gpu.LaunchError, which documents the fields.
type LaunchError struct {
	Kind          error
	Kernel        string
	Msg           string
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

// Is reports whether target is e's Kind.
func (e *LaunchError) Is(target error) bool { return e.Kind == target }
