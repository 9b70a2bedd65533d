package fidelity

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the README's fidelity section")

// TestFidelity runs every reference table and fails on any miss.
func TestFidelity(t *testing.T) {
	if testing.Short() {
		t.Skip("the fidelity run simulates about 30 large launches; skipped with -short")
	}
	var md bytes.Buffer
	for _, p := range Profiles {
		r, err := Run(p, DefaultOptions(p))
		if err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		r.WriteText(&text)
		t.Logf("\n%s", text.String())
		for _, m := range r.Misses() {
			t.Errorf("%s: %s", p, m)
		}
		r.WriteMarkdown(&md)
	}
	// The README's section is this run's Markdown, not a hand-written copy.
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section, err := ReadmeSection(readme)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("../../README.md", ReplaceReadmeSection(readme, md.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if strings.TrimSpace(section) != strings.TrimSpace(md.String()) {
		t.Errorf("README.md's fidelity section differs from `warplab fidelity --markdown`; run go test ./gpusim/fidelity -update")
	}
}
