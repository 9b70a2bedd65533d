package ncu

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Raw reads ncu --csv --page raw output from r: ncu's own log lines, a
// header row that starts with "ID", a row of units, and a row per profiled
// launch. It returns, by launch ID, the launch's value of each of metrics
// in order. Numbers may carry thousands separators ("1,980,000"). A
// metric the header lacks, or a value that is not a number, is an error
// that names it and the launch.
func Raw(r io.Reader, metrics ...string) (map[int][]float64, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("ncu: %w", err)
	}
	out := map[int][]float64{}
	var cols []int
	header := false
	for _, rec := range recs {
		if len(rec) > 0 && rec[0] == "ID" {
			header, cols = true, cols[:0]
			for _, m := range metrics {
				i := slices.Index(rec, m)
				if i < 0 {
					return nil, fmt.Errorf("ncu: no column %s", m)
				}
				cols = append(cols, i)
			}
			continue
		}
		if !header || len(rec) == 0 {
			continue
		}
		id, err := strconv.Atoi(rec[0])
		if err != nil {
			continue // ncu's log lines and the units row
		}
		vs := make([]float64, len(metrics))
		for j, i := range cols {
			if i >= len(rec) {
				return nil, fmt.Errorf("ncu: launch %d has no %s", id, metrics[j])
			}
			if vs[j], err = strconv.ParseFloat(strings.ReplaceAll(rec[i], ",", ""), 64); err != nil {
				return nil, fmt.Errorf("ncu: launch %d, %s: %w", id, metrics[j], err)
			}
		}
		out[id] = vs
	}
	return out, nil
}
