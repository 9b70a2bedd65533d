package all_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/warplab/warplab/labs"
	_ "github.com/warplab/warplab/labs/all"
)

// TestEveryNumberIsBounded checks the lab contract's bounds: every whole
// number option of every lab and exercise has a Max, so that no setting
// can ask for more memory or time than a lab may use, and Resolve refuses
// a value one past it (and a negative one) with an error that names the
// option as it is set, not a Go field.
func TestEveryNumberIsBounded(t *testing.T) {
	for _, l := range labs.All() {
		name := l.Info().Name
		opts := map[string][]labs.Option{name: l.Options()}
		if ex := l.Info().Exercise; ex != nil {
			opts[name+" exercise"] = ex.Options
		}
		for owner, os := range opts {
			for _, o := range os {
				if o.Kind != labs.Int && o.Kind != labs.Ints {
					continue
				}
				if o.Max <= 0 {
					t.Errorf("%s: option %s (%s) has no Max", owner, o.Name, o.Kind)
					continue
				}
				for _, v := range []string{strconv.Itoa(o.Max + 1), "-3"} {
					_, err := labs.Resolve(owner, os, map[string]string{o.Name: v})
					if err == nil || !strings.Contains(err.Error(), o.Name+"="+v) {
						t.Errorf("%s: %s=%s: error %v, want one naming %s=%s", owner, o.Name, v, err, o.Name, v)
					}
				}
			}
		}
	}
}
