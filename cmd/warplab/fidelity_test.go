package main

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpusim/fidelity"
)

var update = flag.Bool("update", false, "rewrite the README's generated sections")

// TestFidelityCommand runs `warplab fidelity` for both profiles: it fails
// when any target is missed, and checks that the README's section is the
// command's own output.
func TestFidelityCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("the fidelity run simulates about 30 large launches; skipped with -short")
	}
	code, md, errs := warplab(t, "fidelity", "--markdown")
	if code != 0 {
		t.Errorf("warplab fidelity failed (exit %d): %s\n%s", code, errs, md)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("../../README.md", fidelity.ReplaceReadmeSection(readme, md), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	section, err := fidelity.ReadmeSection(readme)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(section) != strings.TrimSpace(md) {
		t.Errorf("README.md's fidelity section is not `warplab fidelity --markdown`'s output; run go test ./cmd/warplab -run Fidelity -update")
	}
}
