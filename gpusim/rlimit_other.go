//go:build !unix

package gpusim

// addressLimit returns 0: no address-space limit is known off Unix.
func addressLimit() int64 { return 0 }
