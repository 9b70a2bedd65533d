package cudarun

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Options are an opened GPU's settings, parsed from its spec.
type Options struct {
	Ordinal int  // which GPU: cuda:1 is the second
	NoFMA   bool // --fmad=false
}

// ParseSpec parses the config part of a "cuda..." spec: "", "1",
// "0?fmad=false", "?fmad=false".
func ParseSpec(config string) (Options, error) {
	var o Options
	ord, query, _ := strings.Cut(config, "?")
	if ord != "" {
		n, err := strconv.Atoi(ord)
		if err != nil || n < 0 {
			return o, fmt.Errorf("cudarun: bad device ordinal %q: want a number like cuda:0", ord)
		}
		o.Ordinal = n
	}
	vals, err := url.ParseQuery(query)
	if err != nil {
		return o, fmt.Errorf("cudarun: bad options %q: %v", query, err)
	}
	for key, vs := range vals {
		v := vs[len(vs)-1]
		switch key {
		case "fmad":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return o, fmt.Errorf("cudarun: option fmad=%s: want true or false", v)
			}
			o.NoFMA = !b
		default:
			return o, fmt.Errorf("cudarun: unknown option %s (options: fmad)", key)
		}
	}
	return o, nil
}

// Spec spells the options as a spec, normalised.
func (o Options) Spec() string {
	s := fmt.Sprintf("cuda:%d", o.Ordinal)
	if o.NoFMA {
		s += "?fmad=false"
	}
	return s
}
