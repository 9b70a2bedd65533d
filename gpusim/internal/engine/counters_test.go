package engine

import (
	"reflect"
	"testing"

	"github.com/warplab/warplab/gpu/driver"
)

// TestAddCountersCoversEveryField fails when driver.Counters gains a field
// that addCounters does not add.
func TestAddCountersCoversEveryField(t *testing.T) {
	var s driver.Counters
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			switch f.Kind() {
			case reflect.Struct:
				fill(f)
			case reflect.Int64, reflect.Int:
				f.SetInt(int64(i + 1))
			}
		}
	}
	fill(reflect.ValueOf(&s).Elem())
	var d driver.Counters
	addCounters(&d, &s)
	d.ResidentBlocksPerSM, s.ResidentBlocksPerSM = 0, 0
	d.Waves, s.Waves = 0, 0
	if !reflect.DeepEqual(d, s) {
		t.Errorf("addCounters misses fields:\n got %+v\nwant %+v", d, s)
	}
}
