package reproducible

import (
	"fmt"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Defaults of OrderOptions.
const (
	DefaultOrderN    = 1 << 16
	DefaultOrderRuns = 8
)

// OrderOptions configure Order; the zero value runs the atomic sums and
// the two-pass sum DefaultOrderRuns times over DefaultOrderN elements.
type OrderOptions struct {
	N    int
	Runs int
	// Progress reports launches; nil means none.
	Progress labs.Progress
}

// OrderTable is the result of Order: the same sums on the simulator with
// its atomics in seeded order and with order=deterministic, beside what
// the H200 gave.
type OrderTable struct {
	// Profile is the simulator profile the sums ran on.
	Profile string     `json:"profile"`
	N       int        `json:"n"`
	Runs    int        `json:"runs"`
	Rows    []OrderRow `json:"rows"`
}

// OrderRow is one sum under both orders.
type OrderRow struct {
	Method Method `json:"method"`
	// Seeded and Deterministic are the distinct totals in Runs runs with
	// order=seeded (the default) and order=deterministic.
	Seeded        int `json:"seeded"`
	Deterministic int `json:"deterministic"`
	// H200 is the distinct totals of the H200's 20 runs at 4,194,304
	// elements.
	H200 int `json:"h200"`
}

// Order runs the two atomic sums and the two-pass sum opts.Runs times on
// the simulator twice: with atomics to one address applied in an order
// drawn from each launch's seed, and with the spec option
// order=deterministic, which applies them by block and warp index. The
// option makes the atomic sums reproducible, but only on the simulator:
// the hardware has no such switch, as the H200 column shows. On a GPU the
// sums run on the simulator profile that predicts it.
func Order(dev *gpu.Device, opts OrderOptions) (*OrderTable, error) {
	if opts.N == 0 {
		opts.N = DefaultOrderN
	}
	if opts.Runs == 0 {
		opts.Runs = DefaultOrderRuns
	}
	if opts.N < 1 || opts.N > maxN || opts.Runs < 2 || opts.Runs > maxRuns {
		return nil, fmt.Errorf("reproducible: order over %d elements and %d runs: want 1 to %d elements and 2 to %d runs",
			opts.N, opts.Runs, maxN, maxRuns)
	}
	profile := labkit.SimProfile(dev)
	t := &OrderTable{Profile: profile, N: opts.N, Runs: opts.Runs}
	methods := []Method{AtomicGlobal, TreeAtomic, TwoPass}
	distinct := map[string][]int{}
	for _, order := range []string{"seeded", "deterministic"} {
		spec, err := gpu.ParseSpec(fmt.Sprintf("sim:%s?seed=1&order=%s", profile, order))
		if err != nil {
			return nil, err
		}
		sim, err := gpu.OpenSpec(spec)
		if err != nil {
			return nil, err
		}
		st, err := Sums(sim, SumOptions{N: opts.N, Runs: opts.Runs, Methods: methods,
			Progress: labkit.OrDefault(opts.Progress, "order="+order)})
		sim.Close()
		if err != nil {
			return nil, err
		}
		for _, r := range st.Rows {
			distinct[order] = append(distinct[order], r.Distinct)
		}
	}
	for i, m := range methods {
		row := OrderRow{Method: m, Seeded: distinct["seeded"][i], Deterministic: distinct["deterministic"][i]}
		if h, ok := H200(H200SmallN, m); ok {
			row.H200 = h.Distinct
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// Table returns the distinct totals under each order.
func (t *OrderTable) Table() *charts.Table {
	if t == nil {
		return nil
	}
	tab := charts.NewTable("order=deterministic: reproducible on the simulator only",
		charts.Column{Header: "sum"},
		charts.Column{Header: fmt.Sprintf("distinct, sim seeded order (%d runs)", t.Runs)},
		charts.Column{Header: fmt.Sprintf("distinct, sim order=deterministic (%d runs)", t.Runs)},
		charts.Column{Header: "distinct, H200 (20 runs, measured)"})
	tab.Caption = fmt.Sprintf("simulator profile %s, n = %d; H200 column: %s", t.Profile, t.N, H200Source)
	for _, r := range t.Rows {
		cell := func(d int) charts.Cell {
			c := charts.Int(int64(d))
			if d > 1 {
				c = c.Highlighted()
			}
			return c
		}
		h := charts.Text("")
		if r.H200 > 0 {
			h = cell(r.H200)
		}
		tab.AddRow(charts.Text(r.Method.Title()), cell(r.Seeded), cell(r.Deterministic), h)
	}
	tab.AddNote("order=deterministic applies atomics to one address by block and warp index: a switch of the simulator, which a GPU does not have.")
	tab.AddNote("The two-pass sum has no atomic to order: one distinct total under every order, on the simulator and on the H200.")
	return tab
}
