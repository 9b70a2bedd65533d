package labtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
)

// Headless runs the lab registered under name with its default settings
// on sim:t4, as `warplab lab NAME` does, b.N times: a lab's
// BenchmarkHeadless, whose time on the development machine is its
// Info.SimWallTime.
func Headless(b *testing.B, name string) {
	b.Helper()
	dev := testenv.Open(b, "sim:t4")
	for b.Loop() {
		if _, err := labs.Run(dev, name, nil, labs.NoProgress()); err != nil {
			b.Fatal(err)
		}
	}
}

// SameAsEvidence fails t when embedded, a lab's copy of a committed file
// of GPU measurements, differs from the file itself: evidence, its path
// from the repository's root, which is two folders above a lab's package
// (labs/NAME).
func SameAsEvidence(t testing.TB, embedded, evidence string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", evidence))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != embedded {
		t.Errorf("the lab's copy of %s differs from it: copy it again", evidence)
	}
}

// WriteReport writes r, the report of the lab name measured on a GPU, as
// text and JSON to NAME-gpu.txt and NAME-gpu.json in the folder
// $WARPLAB_GPU_REPORT, when that variable is set, for the evidence that
// scripts/gpu-evidence.sh collects. A report that cannot be encoded or
// written fails t: evidence that goes missing without a word is not
// evidence.
func WriteReport(t testing.TB, name string, r fmt.Stringer) {
	t.Helper()
	dir := os.Getenv("WARPLAB_GPU_REPORT")
	if dir == "" {
		return
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Errorf("%s report as JSON: %v", name, err)
	}
	for ext, data := range map[string][]byte{".txt": []byte(r.String()), ".json": b} {
		if data == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name+"-gpu"+ext), data, 0o644); err != nil {
			t.Error(err)
		}
	}
}
