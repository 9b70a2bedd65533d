package labs

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
)

// Run runs the lab registered under name on dev with the given settings
// ("sizes": "4096,65536"); settings not given take their defaults.
func Run(dev *gpu.Device, name string, set map[string]string, p Progress) (Report, error) {
	l, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	s, err := Resolve(l.Info().Name, l.Options(), set)
	if err != nil {
		return nil, err
	}
	return l.Run(dev, s, p)
}

// Check checks an answer to the exercise of the lab registered under name
// on dev; settings not given take their defaults.
func Check(dev *gpu.Device, name string, answer any, set map[string]string) (Feedback, error) {
	l, err := Lookup(name)
	if err != nil {
		return Feedback{}, err
	}
	e := l.Info().Exercise
	if e == nil {
		return Feedback{}, fmt.Errorf("labs: %s has no exercise", name)
	}
	s, err := Resolve(e.Title, e.Options, set)
	if err != nil {
		return Feedback{}, err
	}
	return e.Check(dev, answer, s), nil
}
