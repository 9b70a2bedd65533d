package grade

import (
	"archive/zip"
	"bytes"
	"debug/elf"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// GradescopeSetup is the autograder's setup.sh: it installs the warplab
// binary shipped in the zip, a statically linked linux/amd64 executable
// (GradescopeZip checks it), so Gradescope's image needs nothing else.
const GradescopeSetup = `#!/usr/bin/env bash
# Installs the warplab grader: a static binary, no network needed.
set -euo pipefail
install -m 0755 /autograder/source/warplab /usr/local/bin/warplab
warplab grade key check /autograder/source/key.toml
`

// GradescopeRun returns the autograder's run_autograder: it grades the
// submission folder (the student named by submission_metadata.json) and
// puts results.json where Gradescope reads it. When the grader itself
// fails, it writes GradescopeFallback instead, so the student gets a
// result that says so and the instructor the log. $WARPLAB_AUTOGRADER
// replaces /autograder, for tests.
func GradescopeRun() string {
	fallback, err := json.Marshal(GradescopeFallback())
	if err != nil {
		panic(err) // a fixed value
	}
	return `#!/usr/bin/env bash
# Grades the submission against the key. The grader writes a results.json
# for every submission, refused ones included; if the grader itself fails,
# a fallback results.json says so (no points; this log is the
# instructor's, in Gradescope's autograder output).
set -uo pipefail
root="${WARPLAB_AUTOGRADER:-/autograder}"
out=$(mktemp -d)
mkdir -p "$root/results"
warplab grade --key "$root/source/key.toml" --jobs 1 --format gradescope --out "$out" "$root/submission"
status=$?
set -- "$out"/*/results.json
if [ "$status" -eq 0 ] && [ "$#" -eq 1 ] && [ -f "$1" ]; then
  cp "$1" "$root/results/results.json"
else
  echo "run_autograder: warplab grade failed (exit $status); writing the fallback results.json" >&2
  cat > "$root/results/results.json" <<'FALLBACK'
` + string(fallback) + `
FALLBACK
fi
exit 0
`
}

// CheckStaticELF checks that exe is a statically linked linux/amd64
// executable: an ELF file with no program interpreter and no dynamic
// section, which runs on Gradescope's image whatever its C library.
func CheckStaticELF(exe []byte) error {
	f, err := elf.NewFile(bytes.NewReader(exe))
	if err != nil {
		return fmt.Errorf("grade: the binary is not a linux/amd64 executable (not ELF: %v); build one with CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -o warplab ./cmd/warplab", err)
	}
	defer f.Close()
	if f.Machine != elf.EM_X86_64 || f.Class != elf.ELFCLASS64 || f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN {
		return fmt.Errorf("grade: the binary is a %v %v %v, not a linux/amd64 executable; build one with CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -o warplab ./cmd/warplab", f.Class, f.Machine, f.Type)
	}
	var dynamic []string
	for _, p := range f.Progs {
		switch p.Type {
		case elf.PT_INTERP:
			dynamic = append(dynamic, "a program interpreter")
		case elf.PT_DYNAMIC:
			dynamic = append(dynamic, "a dynamic section")
		}
	}
	if s := f.Section(".dynamic"); s != nil && len(dynamic) == 0 {
		dynamic = append(dynamic, "a .dynamic section")
	}
	if len(dynamic) > 0 {
		return fmt.Errorf("grade: the binary is dynamically linked (it has %s), so it needs the C library of the machine that built it; build a static one with CGO_ENABLED=0 go build -o warplab ./cmd/warplab and pass --binary warplab", strings.Join(dynamic, " and "))
	}
	return nil
}

// GradescopeZip writes the Gradescope autograder zip: setup.sh,
// run_autograder, the key and the warplab binary, which must be a static
// linux/amd64 executable (CheckStaticELF).
func GradescopeZip(path string, key, binary []byte) error {
	if err := CheckStaticELF(binary); err != nil {
		return err
	}
	return writeZip(path, key, binary)
}

func writeZip(path string, key, binary []byte) error {
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
		{"run_autograder", []byte(GradescopeRun()), 0o755},
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
