package labs

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
)

// Lab is one lab of the course: a day's experiments, the exercise that
// closes it and the report of tables and figures that the notebook and
// `warplab lab NAME` show. A lab package registers its Lab in init.
type Lab interface {
	// Info describes the lab.
	Info() Info
	// Options lists the settings Run accepts, with their defaults.
	Options() []Option
	// Run runs every experiment of the lab on dev, as its notebook does,
	// with settings resolved against Options (see Resolve). A nil
	// Progress means the default one (see Progress).
	Run(dev *gpu.Device, s Settings, p Progress) (Report, error)
}

// Info describes a lab.
type Info struct {
	// Name is the lab's short name, the argument of `warplab lab`:
	// "day26".
	Name string `json:"name"`
	// Aliases are other names the lab answers to: "atomics".
	Aliases []string `json:"aliases,omitempty"`
	// Title is the lab's title: "Day 26: one sum, three ways".
	Title string `json:"title"`
	// Teaches says in one line what the lab teaches.
	Teaches string `json:"teaches"`
	// Sources are the course documents the lab is built from, by title.
	Sources []string `json:"sources"`
	// Notebook is the lab's notebook under notebooks/.
	Notebook string `json:"notebook"`
	// SimWallTime is the wall time of the lab's headless run with its
	// default settings on the simulator's default profile, as measured by
	// the lab's BenchmarkHeadless on the 2-core development machine.
	SimWallTime time.Duration `json:"sim_wall_time"`
	// Exercise is the lab's exercise, or nil.
	Exercise *Exercise `json:"exercise,omitempty"`
}

// Report is what a lab's Run returns. It renders itself as tables and
// figures, and marshals to JSON as the lab's own result type.
type Report interface {
	// Tables returns the report's tables in the order the lab presents
	// them.
	Tables() []*charts.Table
	// Figures returns the report's charts in the order the lab presents
	// them.
	Figures() []Figure
	// Elapsed is the wall time the run took on this machine.
	Elapsed() time.Duration
}

// Figure is a chart with a file name, for saving.
type Figure struct {
	// Name is a file name without extension: "sweep-time".
	Name   string
	Figure charts.Figure
}

var (
	mu       sync.RWMutex
	registry = map[string]Lab{}
	primary  = map[string]bool{}
)

// Register makes a lab available by its name and aliases. It panics when
// a name is registered twice, like database/sql.Register: that is a
// programming error, found at start-up.
func Register(l Lab) {
	mu.Lock()
	defer mu.Unlock()
	info := l.Info()
	if info.Name == "" {
		panic("labs: Register of a lab with no name")
	}
	for _, n := range append([]string{info.Name}, info.Aliases...) {
		if _, dup := registry[n]; dup {
			panic("labs: Register called twice for " + n)
		}
		registry[n] = l
	}
	primary[info.Name] = true
}

// Lookup returns the lab registered under name (its name or an alias).
func Lookup(name string) (Lab, error) {
	mu.RLock()
	defer mu.RUnlock()
	if l, ok := registry[name]; ok {
		return l, nil
	}
	return nil, fmt.Errorf("labs: no lab %q (labs: %s)", name, strings.Join(names(), ", "))
}

// All returns every registered lab, sorted by name.
func All() []Lab {
	mu.RLock()
	defer mu.RUnlock()
	var ls []Lab
	for _, n := range names() {
		ls = append(ls, registry[n])
	}
	return ls
}

// names returns the registered primary names, sorted; mu must be held.
func names() []string {
	var ns []string
	for n := range primary {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}
