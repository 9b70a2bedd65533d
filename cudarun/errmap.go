package cudarun

import gpudriver "github.com/warplab/warplab/gpu/driver"

// The CUresult codes cudarun tells apart (cuda.h).
const (
	cudaSuccess                  = 0
	cudaErrorInvalidValue        = 1
	cudaErrorOutOfMemory         = 2
	cudaErrorNotInitialized      = 3
	cudaErrorNoDevice            = 100
	cudaErrorInvalidImage        = 200
	cudaErrorInvalidContext      = 201
	cudaErrorNoBinaryForGPU      = 209
	cudaErrorInvalidPTX          = 218
	cudaErrorUnsupportedPTX      = 222
	cudaErrorIllegalAddress      = 700
	cudaErrorOutOfResources      = 701
	cudaErrorLaunchTimeout       = 702
	cudaErrorContextDestroyed    = 709
	cudaErrorAssert              = 710
	cudaErrorHardwareStack       = 714
	cudaErrorIllegalInstruction  = 715
	cudaErrorMisalignedAddress   = 716
	cudaErrorInvalidAddressSpace = 717
	cudaErrorInvalidPC           = 718
	cudaErrorLaunchFailed        = 719
	cudaErrorCooperativeTooLarge = 720
	cudaErrorUnknown             = 999
)

// launchKind maps the CUresult of a failed launch to a gpu error kind.
// usesTrap says the program calls __trap, which the hardware reports as a
// plain launch failure.
func launchKind(code int, usesTrap bool) error {
	switch code {
	case cudaErrorIllegalAddress, cudaErrorInvalidAddressSpace:
		return gpudriver.ErrIllegalAddress
	case cudaErrorMisalignedAddress:
		return gpudriver.ErrMisaligned
	case cudaErrorOutOfResources:
		return gpudriver.ErrOutOfResources
	case cudaErrorInvalidValue, cudaErrorCooperativeTooLarge:
		return gpudriver.ErrInvalidConfig
	case cudaErrorAssert:
		return gpudriver.ErrTrap
	case cudaErrorLaunchFailed, cudaErrorIllegalInstruction:
		if usesTrap {
			return gpudriver.ErrTrap
		}
	}
	return gpudriver.ErrLaunchFailed
}

// sticky reports whether a CUresult leaves the context unusable, so that it
// must be reset before the next call.
func sticky(code int) bool {
	switch code {
	case cudaErrorIllegalAddress, cudaErrorLaunchTimeout, cudaErrorAssert,
		cudaErrorHardwareStack, cudaErrorIllegalInstruction, cudaErrorMisalignedAddress,
		cudaErrorInvalidAddressSpace, cudaErrorInvalidPC, cudaErrorLaunchFailed,
		cudaErrorContextDestroyed, cudaErrorUnknown:
		return true
	}
	return false
}
