package grade

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/warplab/warplab/labs/all"
)

// notebookWith returns a notebook whose cells are srcs, the ones at the
// indexes in tagged tagged "answer".
func notebookWith(srcs []string, tagged ...int) []byte {
	type meta struct {
		Tags []string `json:"tags,omitempty"`
	}
	type cell struct {
		CellType string   `json:"cell_type"`
		Metadata meta     `json:"metadata"`
		Source   []string `json:"source"`
		Outputs  []any    `json:"outputs"`
	}
	nb := struct {
		Cells    []cell         `json:"cells"`
		Metadata map[string]any `json:"metadata"`
		NBFormat int            `json:"nbformat"`
		Minor    int            `json:"nbformat_minor"`
	}{Metadata: map[string]any{}, NBFormat: 4, Minor: 5}
	for i, s := range srcs {
		c := cell{CellType: "code", Source: strings.SplitAfter(s, "\n"), Outputs: []any{}}
		for _, t := range tagged {
			if t == i {
				c.Metadata.Tags = []string{"answer"}
			}
		}
		nb.Cells = append(nb.Cells, c)
	}
	data, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		panic(err)
	}
	return data
}

// kernelAnswer is an answer cell holding src as the field of typ.
func kernelAnswer(typ, field, src string) string {
	return fmt.Sprintf("var answer = %s{%s: `%s`}\n", typ, field, src)
}

// class is a generated class: notebook files, each with its expected
// score, or -1 for a refusal.
type classMember struct {
	name     string
	data     []byte
	expected float64
	// pending is the points left to the instructor's manual grading.
	pending float64
	refused string // a substring of the refusal, when refused
	// flagged: the result carries an instructor's flag.
	flagged bool
}

func writeClass(t testing.TB, dir string, members []classMember) []Submission {
	var subs []Submission
	for _, m := range members {
		p := filepath.Join(dir, m.name+".ipynb")
		if err := os.WriteFile(p, m.data, 0o644); err != nil {
			t.Fatal(err)
		}
		subs = append(subs, Submission{Student: m.name, Path: p})
	}
	return subs
}

func checkClass(t *testing.T, results []Result, members []classMember) {
	t.Helper()
	for i, r := range results {
		m := members[i]
		if m.refused != "" {
			if r.Gradable || !strings.Contains(r.Message, m.refused) {
				t.Errorf("%s: want refused with %q, got gradable=%v %q", m.name, m.refused, r.Gradable, r.Message)
			}
			continue
		}
		if m.flagged != (len(r.Flags) > 0) {
			t.Errorf("%s: want flagged %v, got flags %q", m.name, m.flagged, r.Flags)
		}
		if !r.Gradable || r.Score != m.expected || r.Pending != m.pending {
			var b strings.Builder
			for _, tt := range r.Tests {
				fmt.Fprintf(&b, "\n  %s: %s %g/%g %s", tt.Name, tt.Verdict, tt.Points, tt.MaxPoints, tt.Detail)
			}
			t.Errorf("%s: want %g (%g pending), got %g (gradable=%v %s)%s", m.name, m.expected, m.pending, r.Score, r.Gradable, r.Message, b.String())
		}
	}
}
