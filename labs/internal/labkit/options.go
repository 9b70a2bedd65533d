package labkit

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/warplab/warplab/labs"
)

// JoinInts writes xs as the Default of a labs.Ints option: "1,4,32", the
// form Settings.Ints reads back.
func JoinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// ReadInts stores the resolved value of every labs.Int setting named in
// dst where dst points, in the order of the names, and returns the first
// error.
func ReadInts(s labs.Settings, dst map[string]*int) error {
	for _, name := range sortedKeys(dst) {
		x, err := s.Int(name)
		if err != nil {
			return err
		}
		*dst[name] = x
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// WholeWarps is the Valid function of a block-size option: it accepts
// multiples of 32.
func WholeWarps(x int) error {
	if x%32 != 0 {
		return errors.New("want a multiple of 32 (whole warps)")
	}
	return nil
}
