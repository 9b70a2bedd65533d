package main

import (
	"os"
	"testing"

	"github.com/warplab/warplab/gpusim/fidelity"
	"github.com/warplab/warplab/internal/golden"
)

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
	// The README is the golden file: the README with its section replaced
	// by the command's output must be the README as committed.
	const path = "../../README.md"
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fidelity.ReadmeSection(readme); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, path, fidelity.ReplaceReadmeSection(readme, md))
}
