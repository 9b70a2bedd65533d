package softmax_test

import (
	"testing"

	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labtest"
	"github.com/warplab/warplab/labs/softmax"
)

// TestConformance is the labs' conformance suite on the softmax lab.
func TestConformance(t *testing.T) {
	l, err := labs.Lookup(softmax.Name)
	if err != nil {
		t.Fatal(err)
	}
	labtest.RunAll(t, l, labtest.Suite{
		Small:     map[string]string{"sizes": "32,4096", "placements": "2", "card-n": "4096"},
		Reference: softmax.Answer{Kernel: solution},
	})
}
