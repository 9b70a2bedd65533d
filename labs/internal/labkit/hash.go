package labkit

// Lowbias32 is the 32-bit integer hash lowbias32 (from Chris Wellons's
// hash prospector): the labs draw inputs with it from an index and a
// seed, on the host as their kernels do on the device, so that a kernel
// and its Go reference agree on every input without a buffer of them.
func Lowbias32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}
