package queue

import (
	"fmt"
	"math"

	"github.com/warplab/warplab/labs/internal/labkit"
)

// Costs is the distribution of the items' costs: every item costs Light
// fused multiply-adds, except one in Period (picked by a hash of its
// index, so the heavy ones are scattered) which costs Heavy. Light ==
// Heavy is even.
type Costs struct {
	Light  int `json:"light"`
	Heavy  int `json:"heavy"`
	Period int `json:"period"`
}

// Even returns the H200 run's even costs: 32 for every item.
func Even() Costs { return Costs{Light: 32, Heavy: 32, Period: 64} }

// Uneven returns the H200 run's uneven costs: 16, and 2048 for one item
// in 64.
func Uneven() Costs { return Costs{Light: 16, Heavy: 2048, Period: 64} }

// IsEven reports whether every item costs the same.
func (c Costs) IsEven() bool { return c.Light == c.Heavy }

// Mean is the mean cost of an item.
func (c Costs) Mean() float64 {
	if c.IsEven() {
		return float64(c.Light)
	}
	return (float64(c.Heavy) + float64(c.Period-1)*float64(c.Light)) / float64(c.Period)
}

func (c Costs) String() string {
	if c.IsEven() {
		return fmt.Sprintf("even (%d)", c.Light)
	}
	return fmt.Sprintf("uneven (%d, 1 in %d costs %d)", c.Light, c.Period, c.Heavy)
}

func (c Costs) check() error {
	switch {
	case c.Light < 1 || c.Heavy < 1 || c.Light > 1<<16 || c.Heavy > 1<<16:
		return fmt.Errorf("queue: costs %d and %d: want 1 to %d", c.Light, c.Heavy, 1<<16)
	case c.Period < 1 || c.Period&(c.Period-1) != 0 || c.Period > 1<<16:
		return fmt.Errorf("queue: period %d: want a power of two, at most %d", c.Period, 1<<16)
	}
	return nil
}

// cost returns item i's cost, as the kernel computes it.
func (c Costs) cost(i uint32) int {
	if c.IsEven() {
		return c.Light
	}
	if labkit.Lowbias32(i^0x7f4a7c15)&uint32(c.Period-1) == 0 {
		return c.Heavy
	}
	return c.Light
}

// want returns item i's output, as the kernel computes it in float32:
// fmaf(x, 0.999f, 0.5f) cost times from x = i & 255.
func (c Costs) want(i uint32) float32 {
	x := float32(i & 255)
	for range c.cost(i) {
		x = float32(math.FMA(float64(x), float64(float32(0.999)), 0.5))
	}
	return x
}
