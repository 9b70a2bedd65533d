package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
)

// This file collects submissions: it finds a folder's notebook, reads
// who handed it in from the platform's metadata, and opens a notebook
// without following it anywhere it must not go. A submission is a
// student's, and the grading machine's: nothing in it may make the
// grader wait (a FIFO), read without end (/dev/zero), or read another
// student's notebook (a symbolic link to it).

// FindSubmission resolves a path given on the command line: a notebook,
// or a folder holding exactly one notebook (outside checkpoints). A
// folder's notebook must stay inside the folder: a symbolic link that
// leads out of it is refused when graded. The student is named by the
// platform's metadata where there is some (Gradescope's
// submission_metadata.json beside /autograder/submission, PrairieLearn's
// data/data.json beside /grade/student), else by the file's or folder's
// name. A path that is itself a symbolic link is not followed: Grade
// refuses it.
func FindSubmission(path string) (Submission, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return Submission{}, fmt.Errorf("grade: %w", err)
	}
	if !st.IsDir() {
		return Submission{Student: strings.TrimSuffix(filepath.Base(path), ".ipynb"), Path: path}, nil
	}
	var found []string
	err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != path {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".ipynb") {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		return Submission{}, fmt.Errorf("grade: %w", err)
	}
	s := Submission{Student: filepath.Base(filepath.Clean(path)), Path: path, Root: path}
	sort.Strings(found)
	if len(found) == 1 {
		s.Path = found[0]
	}
	// A folder with none or several is graded as a refusal.
	s.identify(path)
	return s, nil
}

// maxMetadataBytes bounds a platform's metadata file. Both can be large:
// Gradescope's lists every previous submission's results, PrairieLearn's
// holds the submitted files; the reader keeps only the fields it wants.
const maxMetadataBytes = 256 << 20

// identify names the student of the submission folder dir from the
// platform's metadata, where there is some.
func (s *Submission) identify(dir string) {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	switch filepath.Base(dir) {
	case "submission": // Gradescope: /autograder/submission
		var md struct {
			Users []struct {
				Name  string          `json:"name"`
				Email string          `json:"email"`
				ID    json.RawMessage `json:"id"`
			} `json:"users"`
		}
		if readMetadata(filepath.Join(parent, "submission_metadata.json"), &md) != nil || len(md.Users) == 0 {
			return
		}
		var names, emails, ids []string
		for _, u := range md.Users {
			names = append(names, u.Name)
			emails = append(emails, u.Email)
			ids = append(ids, strings.Trim(string(u.ID), `"`))
		}
		if n := strings.Join(names, " & "); strings.TrimSpace(n) != "" {
			s.Student = n
		}
		s.Email, s.ID, s.Platform = strings.Join(emails, " "), strings.Join(ids, " "), "gradescope"
	case "student": // PrairieLearn: /grade/student, /grade/data/data.json
		var md struct {
			VariantSeed json.RawMessage `json:"variant_seed"`
		}
		if readMetadata(filepath.Join(parent, "data", "data.json"), &md) != nil || len(md.VariantSeed) == 0 {
			return
		}
		// PrairieLearn keeps who submitted to itself; the variant it
		// served is the submission's identity here.
		s.ID, s.Platform = strings.Trim(string(md.VariantSeed), `"`), "prairielearn"
	}
}

// readMetadata decodes the top-level fields of a platform's JSON file
// that v (a pointer to a struct) has, reading it as a regular file of
// bounded size and skipping every other field token by token, without
// holding it.
func readMetadata(path string, v any) error {
	f, err := openRegular(nil, path)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(io.LimitReader(f, maxMetadataBytes))
	nb := nbReader{dec: dec}
	if err := nb.expect(json.Delim('{'), "an object"); err != nil {
		return err
	}
	want := map[string]bool{}
	t := reflect.TypeOf(v).Elem()
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		want[name] = true
	}
	var kept bytes.Buffer
	kept.WriteByte('{')
	for dec.More() {
		key, err := nb.key()
		if err != nil {
			return err
		}
		if !want[key] {
			if err := nb.skip(); err != nil {
				return err
			}
			continue
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if kept.Len() > 1 {
			kept.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		kept.Write(k)
		kept.WriteByte(':')
		kept.Write(raw)
	}
	kept.WriteByte('}')
	return json.Unmarshal(kept.Bytes(), v)
}

// openSubmission opens the submission's notebook for reading: a regular
// file, not a symbolic link (unless it leads to a file inside the
// submission's own folder), never a FIFO, device or folder. The error
// is a Refusal that says which.
func openSubmission(s Submission) (*os.File, error) {
	if s.Root == "" {
		return openRegular(nil, s.Path)
	}
	rel, err := filepath.Rel(s.Root, s.Path)
	if err != nil || !filepath.IsLocal(rel) {
		if filepath.Clean(s.Root) == filepath.Clean(s.Path) {
			rel = "."
		} else {
			return nil, refusef("the notebook %s is not inside the submission's folder", s.Path)
		}
	}
	root, err := os.OpenRoot(s.Root)
	if err != nil {
		return nil, refusef("cannot read the submission: %v", err)
	}
	defer root.Close()
	return openRegular(root, rel)
}

// openRegular opens name (in root, when given) without following a
// final symbolic link out of root or blocking on a FIFO, and checks the
// open file is a regular one.
func openRegular(root *os.Root, name string) (*os.File, error) {
	// O_NONBLOCK: a FIFO put in place after the check must not block.
	// O_NOFOLLOW outside a root: no symbolic link is followed at all.
	flags := os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOFOLLOW
	lstat, open := os.Lstat, os.OpenFile
	if root != nil {
		// In a root a link may lead to a file inside it; os.Root
		// refuses one that leads out.
		flags &^= syscall.O_NOFOLLOW
		lstat, open = root.Lstat, root.OpenFile
	}
	st, err := lstat(name)
	if err != nil {
		return nil, refusef("cannot read the submission: %v", cleanPathErr(err))
	}
	if st.Mode()&fs.ModeSymlink != 0 && root == nil {
		return nil, refusef("the submission is a symbolic link, not a notebook: hand in the file itself")
	}
	if st.IsDir() {
		return nil, refusef("the folder holds no notebook, or more than one: submit one .ipynb")
	}
	if st.Mode()&fs.ModeSymlink == 0 && !st.Mode().IsRegular() {
		return nil, refusef("the submission is %s, not a notebook file", fileKind(st.Mode()))
	}
	f, err := open(name, flags, 0)
	if err != nil {
		if root != nil && st.Mode()&fs.ModeSymlink != 0 {
			return nil, refusef("the notebook is a symbolic link that leads out of the submission's folder (to another file, perhaps another student's): hand in the file itself")
		}
		return nil, refusef("cannot read the submission: %v", cleanPathErr(err))
	}
	fst, err := f.Stat()
	if err != nil || !fst.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, refusef("cannot read the submission: %v", err)
		}
		return nil, refusef("the submission is %s, not a notebook file", fileKind(fst.Mode()))
	}
	return f, nil
}

// cleanPathErr drops the path from a file error: the message names
// the cause, and the student's result names the submission already.
func cleanPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// fileKind names a file that is not a regular one.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a folder"
	}
	return "not a regular file"
}

// readAnswer opens the submission's notebook and reads its answer cell.
func readAnswer(s Submission) (string, error) {
	f, err := openSubmission(s)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return ReadAnswerCell(f)
}

// ReadList reads a file listing submissions, one path per line; blank
// lines and lines starting with # are skipped. A line over 64 KiB, a
// NUL byte or a file that is not a regular one or a pipe is an error
// that says so, with the line.
func ReadList(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("grade: --list: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("grade: --list %s: a folder, not a list of submissions (give the folder itself as an argument)", path)
	}
	const maxLine = 64 << 10
	var out []string
	r := newLineReader(f, maxLine)
	for n := 1; ; n++ {
		line, err := r.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("grade: --list %s:%d: %v", path, n, err)
		}
		if strings.IndexByte(line, 0) >= 0 {
			return nil, fmt.Errorf("grade: --list %s:%d: the line holds a NUL byte: the file is not a list of paths, one per line", path, n)
		}
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
		if len(out) > 1_000_000 {
			return nil, fmt.Errorf("grade: --list %s: more than a million submissions", path)
		}
	}
}

// lineReader reads lines of at most max bytes.
type lineReader struct {
	r   io.Reader
	buf []byte
	max int
	eof bool
}

func newLineReader(r io.Reader, max int) *lineReader { return &lineReader{r: r, max: max} }

func (l *lineReader) next() (string, error) {
	for {
		if i := bytes.IndexByte(l.buf, '\n'); i >= 0 {
			line := string(l.buf[:i])
			l.buf = l.buf[i+1:]
			return line, nil
		}
		if len(l.buf) > l.max {
			return "", fmt.Errorf("a line longer than %d bytes (%d KiB): the file is not a list of paths, one per line", l.max, l.max>>10)
		}
		if l.eof {
			if len(l.buf) == 0 {
				return "", io.EOF
			}
			line := string(l.buf)
			l.buf = nil
			return line, nil
		}
		chunk := make([]byte, 32<<10)
		n, err := l.r.Read(chunk)
		l.buf = append(l.buf, chunk[:n]...)
		if err == io.EOF {
			l.eof = true
		} else if err != nil {
			return "", err
		}
	}
}
