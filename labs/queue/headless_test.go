package queue

import (
	"testing"

	"github.com/warplab/warplab/labs/internal/labtest"
)

// BenchmarkHeadless runs the lab with its default settings on sim:t4, as
// `warplab lab queue` does.
func BenchmarkHeadless(b *testing.B) {
	labtest.Headless(b, "queue")
}
