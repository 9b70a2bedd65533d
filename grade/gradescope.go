package grade

import (
	"archive/zip"
	"fmt"
	"os"
)

// GradescopeSetup is the autograder's setup.sh: it installs the warplab
// binary shipped in the zip. The simulator needs nothing else.
const GradescopeSetup = `#!/usr/bin/env bash
# Installs the warplab grader: a static binary, no network needed.
set -euo pipefail
install -m 0755 /autograder/source/warplab /usr/local/bin/warplab
warplab grade key check /autograder/source/key.toml
`

// GradescopeRun is the autograder's run_autograder: it grades the
// submission folder and puts results.json where Gradescope reads it.
const GradescopeRun = `#!/usr/bin/env bash
# Grades /autograder/submission against the key; the grader writes a
# results.json for every submission, refused ones included.
set -uo pipefail
out=$(mktemp -d)
warplab grade --key /autograder/source/key.toml --jobs 1 --format gradescope --out "$out" /autograder/submission
mkdir -p /autograder/results
cp "$out"/submission/results.json /autograder/results/results.json
`

// GradescopeZip writes the Gradescope autograder zip: setup.sh,
// run_autograder, the key and the warplab binary.
func GradescopeZip(path string, key, binary []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	zw := zip.NewWriter(f)
	for _, e := range []struct {
		name string
		data []byte
		mode os.FileMode
	}{
		{"setup.sh", []byte(GradescopeSetup), 0o755},
		{"run_autograder", []byte(GradescopeRun), 0o755},
		{"key.toml", key, 0o644},
		{"warplab", binary, 0o755},
	} {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		h.SetMode(e.mode)
		w, err := zw.CreateHeader(h)
		if err == nil {
			_, err = w.Write(e.data)
		}
		if err != nil {
			f.Close()
			return fmt.Errorf("grade: %s: %w", path, err)
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return fmt.Errorf("grade: %s: %w", path, err)
	}
	return f.Close()
}
