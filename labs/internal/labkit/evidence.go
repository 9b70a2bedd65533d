package labkit

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/warplab/warplab/gpu"
)

// ReadEvidence reads text, a committed CSV of GPU measurements named
// evidence (its path under calibration/evidence), calling row with the fields of
// each data line in turn. Blank lines, "#" comments and the header line
// (the one that starts with header) are skipped; a line with other than
// fields fields is an error. An error row returns is reported at its
// line, after the lab's name: "queue: EVIDENCE:12: k: ...".
func ReadEvidence(lab, evidence, text, header string, fields int, row func(f []string) error) error {
	sc := bufio.NewScanner(strings.NewReader(text))
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, header) {
			continue
		}
		f := strings.Split(t, ",")
		if len(f) != fields {
			return fmt.Errorf("%s: %s:%d: %d fields, want %d", lab, evidence, line, len(f), fields)
		}
		if err := row(f); err != nil {
			return fmt.Errorf("%s: %s:%d: %w", lab, evidence, line, err)
		}
	}
	return sc.Err()
}

// OpenModel opens spec, the simulator whose predictions a lab sets beside
// its committed GPU measurements; a device whose timing is measured, not
// modelled, is an error.
func OpenModel(lab, spec string) (*gpu.Device, error) {
	dev, err := gpu.Open(spec)
	if err != nil {
		return nil, fmt.Errorf("%s: opening %s: %w", lab, spec, err)
	}
	if dev.Capabilities().MeasuredTiming {
		dev.Close()
		return nil, fmt.Errorf("%s: %s is not a simulator: the H200 table compares the model with committed measurements", lab, spec)
	}
	return dev, nil
}
