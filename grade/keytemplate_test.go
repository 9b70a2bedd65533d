package grade

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/counters"
	"github.com/warplab/warplab/labs/queue"
)

// TestKeyTemplatePointsArePartsChecked: a new key gives points only to
// parts the exercise's check reports, and every committed key too.
func TestKeyTemplatePointsArePartsChecked(t *testing.T) {
	for _, l := range labs.All() {
		ex := l.Info().Exercise
		if ex == nil {
			continue
		}
		if len(ex.Parts) == 0 {
			t.Errorf("%s: the exercise declares no parts", l.Info().Name)
			continue
		}
		text, err := KeyTemplate(l.Info().Name)
		if err != nil {
			t.Fatal(err)
		}
		k, err := ParseKey("t.toml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		for p, v := range k.Checks[0].Points {
			if !slices.Contains(ex.Parts, p) || v <= 0 {
				t.Errorf("%s: the template gives %q %g points; the parts are %q", l.Info().Name, p, v, ex.Parts)
			}
		}
	}
	keys, _ := filepath.Glob("keys/*.toml")
	for _, p := range keys {
		if _, err := LoadKey(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestKeyCheckRefusesUnknownParts: points for a part the check never
// reports are refused, naming the parts there are.
func TestKeyCheckRefusesUnknownParts(t *testing.T) {
	key := "lab = \"counters\"\n[[check]]\nname = \"visible\"\npoints = { answer = 1, \"the time you read\" = 3 }\n"
	_, err := ParseKey("k.toml", []byte(key))
	if err == nil || !strings.Contains(err.Error(), `points for "answer": the exercise reports no such part`) || !strings.Contains(err.Error(), `"the time you read"`) {
		t.Errorf("points for a missing part: %v", err)
	}
}

// TestKeyInitScoresAPerfectAnswer grades a perfect answer of counters and
// queue under the keys `key init` writes (at smaller sizes): every
// automatic point, the prose pending manual grading.
func TestKeyInitScoresAPerfectAnswer(t *testing.T) {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	const why = "the fastest choice spreads the atomics over the most lines the budget allows"
	// The perfect answer is the right one for the student's own variant,
	// as the key resolves it.
	cases := []struct {
		lab, settings string
		answer        func(t *testing.T, s labs.Settings) string
	}{
		{"counters", "threads = 65536\n", func(t *testing.T, s labs.Settings) string {
			c, err := counters.ConfigFrom(s)
			if err != nil {
				t.Fatal(err)
			}
			a, err := counters.Solution(dev, c)
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf("var answer = counters.Answer{Slices: %d, Padded: %v, Ms: %g, Why: %q}\n", a.Slices, a.Padded, a.Ms, why)
		}},
		{"queue", "items = 16384\nmax-k = 64\n", func(t *testing.T, s labs.Settings) string {
			c, err := queue.ConfigFrom(s)
			if err != nil {
				t.Fatal(err)
			}
			a, err := queue.Solution(dev, c)
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf("var answer = queue.Answer{K: %d, Ms: %g, Why: %q}\n", a.K, a.Ms, why)
		}},
	}
	for _, c := range cases {
		t.Run(c.lab, func(t *testing.T) {
			text, err := KeyTemplate(c.lab)
			if err != nil {
				t.Fatal(err)
			}
			text = strings.Replace(text, "[settings]\n", "[settings]\n"+c.settings, 1)
			k, err := ParseKey(c.lab+".toml", []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), "perfect.ipynb")
			set, _, err := k.settingsFor(0, k.Variant("perfect"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, notebookWith([]string{c.answer(t, set)}, 0), 0o644); err != nil {
				t.Fatal(err)
			}
			r := Grade(k, Submission{Student: "perfect", Path: p})
			// Every automatic point; the prose waits for the instructor.
			if !r.Gradable || r.Score+r.Pending != r.MaxScore || r.Pending == 0 || r.MaxScore == 0 {
				t.Errorf("a perfect answer under `key init %s`: %s (%+v)", c.lab, r.Message, r.Tests)
			}
		})
	}
}

// TestKeyInitKernelLabs grades each kernel lab's right answer under the
// key `key init` writes (its default sizes and budgets): full marks.
func TestKeyInitKernelLabs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs five kernel checks at the labs' default sizes, about 10 s")
	}
	for _, c := range kernelKeyCases() {
		if c.right == "" {
			continue
		}
		t.Run(c.lab, func(t *testing.T) {
			text, err := KeyTemplate(c.lab)
			if err != nil {
				t.Fatal(err)
			}
			k, err := ParseKey(c.lab+".toml", []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), "right.ipynb")
			if err := os.WriteFile(p, notebookWith([]string{kernelAnswer(c.typ, c.field, c.right)}, 0), 0o644); err != nil {
				t.Fatal(err)
			}
			r := Grade(k, Submission{Student: "right", Path: p})
			if !r.Gradable || r.Score != r.MaxScore || r.MaxScore == 0 {
				t.Errorf("the right answer under `key init %s`: %s (%+v)", c.lab, r.Message, r.Tests)
			}
		})
	}
}
