package cas

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// DefaultRandomPairs is the random pairs Correctness adds to the special
// ones by default.
const DefaultRandomPairs = 4096

// specials are the values whose pairs Correctness always tries: signs,
// zeros of both signs, infinities, the extremes and a subnormal.
func specials() []float32 {
	return []float32{-2.5, -1, float32(math.Copysign(0, -1)), 0, 1, 3.5,
		float32(math.Inf(-1)), float32(math.Inf(1)), math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32}
}

// Counterexample is a group on which a kernel's maximum is wrong.
type Counterexample struct {
	Inputs []float32 `json:"inputs"`
	Got    float32   `json:"got"`
	Want   float32   `json:"want"`
}

// String spells the counterexample: "max(-1, -2.5) = -Inf, want -1".
func (c Counterexample) String() string {
	s := "max("
	for i, x := range c.Inputs {
		if i > 0 {
			s += ", "
		}
		s += labkit.FormatFloat32(x)
	}
	return s + ") = " + labkit.FormatFloat32(c.Got) + ", want " + labkit.FormatFloat32(c.Want)
}

// MarshalJSON writes the values as labkit.JSONFloat32 does: counterexamples
// hold -Inf, +Inf and -0, which JSON numbers cannot.
func (c Counterexample) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Inputs []labkit.JSONFloat32 `json:"inputs"`
		Got    labkit.JSONFloat32   `json:"got"`
		Want   labkit.JSONFloat32   `json:"want"`
	}{labkit.JSONFloat32s(c.Inputs), labkit.JSONFloat32(c.Got), labkit.JSONFloat32(c.Want)})
}

// CorrectnessRow is one kernel on every pair.
type CorrectnessRow struct {
	Kernel Kernel `json:"kernel"`
	// Wrong is the groups whose maximum is wrong, of Groups.
	Wrong  int `json:"wrong"`
	Groups int `json:"groups"`
	// WrongNegative is the wrong groups that hold only negatives (-0.0
	// included).
	WrongNegative int `json:"wrong_negative"`
	// First is the first wrong group, nil when none is.
	First *Counterexample `json:"first,omitempty"`
}

// CorrectnessTable is the correctness experiment's result.
type CorrectnessTable struct {
	Device string           `json:"device"`
	Rows   []CorrectnessRow `json:"rows"`
}

// Row returns kernel k's row.
func (t *CorrectnessTable) Row(k Kernel) (CorrectnessRow, bool) {
	for _, r := range t.Rows {
		if r.Kernel == k {
			return r, true
		}
	}
	return CorrectnessRow{}, false
}

// Correctness runs every kernel on groups of two threads: every ordered
// pair of the special values (signs, both zeros, infinities, extremes, a
// subnormal) and random pairs drawn from seed, and compares each group's
// maximum with the host's.
func Correctness(dev *gpu.Device, randomPairs int, seed uint64) (*CorrectnessTable, error) {
	if randomPairs < 0 || randomPairs > maxPairs {
		return nil, fmt.Errorf("cas: random pairs %d: want 0 to %d", randomPairs, maxPairs)
	}
	var v []float32
	sp := specials()
	for _, a := range sp {
		for _, b := range sp {
			v = append(v, a, b)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0xca5))
	for range randomPairs {
		for range 2 {
			x := float32(rng.NormFloat64() * 100)
			v = append(v, x)
		}
	}
	want := Maxima(v, 2)
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	t := &CorrectnessTable{Device: dev.Info().Name}
	got := make([][]float32, len(Kernels()))
	var jobs []labkit.Job
	for i, k := range Kernels() {
		jobs = append(jobs, labkit.Job{Launches: 1, Detail: string(k), Do: func(s *labkit.Session) error {
			m, _, err := launchMax(s, k, v, 2, 1)
			got[i] = m
			return err
		}})
	}
	if err := r.Run(jobs, labkit.OrDefault(nil, "cas correctness")); err != nil {
		return nil, err
	}
	for i, k := range Kernels() {
		row := CorrectnessRow{Kernel: k, Groups: len(want)}
		for g := range want {
			if same(got[i][g], want[g]) {
				continue
			}
			row.Wrong++
			a, b := v[2*g], v[2*g+1]
			if math.Signbit(float64(a)) && math.Signbit(float64(b)) {
				row.WrongNegative++
			}
			if row.First == nil {
				row.First = &Counterexample{Inputs: []float32{a, b}, Got: got[i][g], Want: want[g]}
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// launchMax folds v into groups of C on s's device with kernel k, runs
// times (the maxima reset to -infinity before each), and returns the
// last launch's maxima and result.
func launchMax(s *labkit.Session, k Kernel, v []float32, C, runs int) ([]float32, []*gpu.Result, error) {
	src := KernelSource()
	kern, err := s.Kernel(src.File, []byte(src.Text), string(k))
	if err != nil {
		return nil, nil, fmt.Errorf("cas: %v", err)
	}
	in, err := labkit.Cached(s, fmt.Sprintf("values %p %d", &v[0], len(v)), func() (*gpu.Buffer[float32], error) { return gpu.Upload(s.Device, v) },
		(*gpu.Buffer[float32]).Free)
	if err != nil {
		return nil, nil, fmt.Errorf("cas: uploading %d values: %v", len(v), err)
	}
	groups := (len(v) + C - 1) / C
	start := make([]float32, groups)
	for g := range start {
		start[g] = negInf
	}
	m, err := gpu.NewBuffer[float32](s.Device, groups)
	if err != nil {
		return nil, nil, fmt.Errorf("cas: allocating %d maxima: %v", groups, err)
	}
	defer m.Free()
	cfg := gpu.LaunchConfig{Grid: gpu.D1((len(v) + 255) / 256), Block: gpu.D1(256)}
	var res []*gpu.Result
	for range runs {
		if err := m.Write(start); err != nil {
			return nil, nil, fmt.Errorf("cas: resetting the maxima: %v", err)
		}
		r, err := kern.Launch(cfg, in, len(v), C, m)
		if err != nil {
			return nil, nil, fmt.Errorf("cas: %s, %d contenders: %w", k, C, err)
		}
		s.Launched()
		res = append(res, r)
	}
	got, err := m.Download()
	if err != nil {
		return nil, nil, fmt.Errorf("cas: reading the maxima: %v", err)
	}
	return got, res, nil
}

// Table renders the correctness experiment.
func (t *CorrectnessTable) Table() *charts.Table {
	tb := charts.NewTable("Float maximum by atomics: which kernels are right?",
		charts.Column{Header: "kernel"}, charts.Column{Header: "wrong groups"}, charts.Column{Header: "of which all negative"},
		charts.Column{Header: "first counterexample"})
	tb.Caption = t.Device + "; groups of two threads: every pair of special values, then random pairs"
	for _, r := range t.Rows {
		first := charts.Text("none")
		wrong := charts.Text(fmt.Sprintf("%d of %d", r.Wrong, r.Groups))
		if r.First != nil {
			first = charts.Text(r.First.String()).Highlighted()
			wrong = wrong.Highlighted()
		}
		tb.AddRow(charts.Text(r.Kernel.Title()), wrong, charts.Int(int64(r.WrongNegative)), first)
	}
	tb.AddNote("Every maximum starts at -Inf. -0.0 and +0.0 count as equal; NaN never occurs in these inputs (the exercise states a NaN policy).")
	return tb
}
