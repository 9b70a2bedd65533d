package charts_test

import (
	"fmt"

	"github.com/warplab/warplab/charts"
)

func sumTable() *charts.Table {
	t := charts.NewTable("One sum, three ways",
		charts.Column{Header: "kernel"},
		charts.Column{Header: "n", Unit: "elements"},
		charts.Column{Header: "time", Unit: "ms"})
	t.Caption = "T4 profile, simulated"
	t.AddRow(charts.Text("global atomic"), charts.Int(4194304), charts.Float(4.913, 3))
	t.AddRow(charts.Text("shared atomic"), charts.Int(4194304), charts.Float(0.482, 3))
	t.AddRow(charts.Text("tree + one atomic"), charts.Int(4194304), charts.Float(0.108, 3).Highlighted())
	t.AddNote("* fastest")
	return t
}

func ExampleTable_String() {
	fmt.Print(sumTable())
	// Output:
	// One sum, three ways
	// T4 profile, simulated
	// kernel             n (elements)  time (ms)
	// -----------------  ------------  ---------
	// global atomic           4194304      4.913
	// shared atomic           4194304      0.482
	// tree + one atomic       4194304     *0.108
	// * fastest
}

func ExampleTable_Markdown() {
	fmt.Print(sumTable().Markdown())
	// Output:
	// **One sum, three ways**
	//
	// T4 profile, simulated
	//
	// | kernel | n (elements) | time (ms) |
	// | --- | ---: | ---: |
	// | global atomic | 4194304 | 4.913 |
	// | shared atomic | 4194304 | 0.482 |
	// | tree + one atomic | 4194304 | **0.108** |
	//
	// \* fastest
}

// A lab's result type implements Tabler to be shown as a table.
type sweep struct {
	sizes []int
	ms    []float64
}

func (s sweep) Table() *charts.Table {
	t := charts.NewTable("Global atomic sum", charts.Column{Header: "n"}, charts.Column{Header: "time", Unit: "ms"})
	for i, n := range s.sizes {
		t.AddRow(charts.Int(int64(n)), charts.Float(s.ms[i], 2))
	}
	return t
}

func ExampleTabler() {
	var r charts.Tabler = sweep{sizes: []int{1024, 1048576}, ms: []float64{0.01, 1.23}}
	fmt.Print(r.Table())
	// Output:
	// Global atomic sum
	//       n  time (ms)
	// -------  ---------
	//    1024       0.01
	// 1048576       1.23
}

func ExampleChart() {
	c := &charts.Chart{
		Title: "Float sum error",
		X:     charts.Axis{Title: "n", Unit: "elements", Log: true},
		Y:     charts.Axis{Title: "relative error", Log: true},
	}
	c.AddLine("atomicAdd order", charts.XYs{{1024, 1e-7}, {1048576, 3e-6}})
	c.AddRefLine("Kahan reference", 1e-8)
	fmt.Println(c.Validate())

	c.AddScatter("bad run", charts.XYs{{4096, 0}})
	fmt.Println(c.Validate())
	// Output:
	// <nil>
	// charts: chart "Float sum error": series "bad run": point 0: y = 0 is not positive, on a log axis
}

// Outside a GoNB notebook Show does nothing: it prints nothing at all.
func ExampleShow() {
	c := &charts.BarChart{Title: "Speed-up over global atomics", Categories: []string{"64", "256", "1024"}}
	c.AddBars("tree", charts.Values{8.1, 9.6, 9.0}).AddRefLine("parity", 1)
	charts.Show(sumTable(), c)
	charts.ShowPNG(c)
	fmt.Println("in notebook:", charts.InNotebook())
	// Output:
	// in notebook: false
}
