package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/warplab/warplab/grade"
)

func init() {
	register(&command{name: "grade", summary: "grade a class's notebooks against an instructor's key", run: gradeCmd})
}

const gradeUsage = `usage: warplab grade --key KEY [--jobs N] [--out DIR] [--format gradescope|prairielearn|csv|markdown] [--manual MARKS.csv] SUBMISSION...
       warplab grade key init LAB [-o FILE]      write a commented starting key
       warplab grade key check KEY               validate a key
       warplab grade merge -o FILE GRADEBOOK...  join shards' gradebook.csv files
       warplab grade package gradescope KEY [-o FILE.zip] [--binary FILE]

A SUBMISSION is a notebook or a folder holding one (a symbolic link, FIFO
or device is refused). Student Go is never run: the answer cell's literal
is read with go/parser; student CUDA runs on the simulator under the key's
budgets and reads no file. --out gets gradebook.csv, instructor.csv (every
test's full message, hidden checks' too) and the --format's files.
--shard-count N grades the shard JOB_COMPLETION_INDEX (or --shard-index)
of the submissions and writes shard.json, which merge checks.
docs/instructor-guide.md takes a class through it.

Prose (the key's manual points) is never scored by the grader: it shows
as pending, and DIR/manual.csv lists every student's text. Fill in its
points column and grade again with --manual FILE (a copy kept outside
DIR) to import the marks; docs/grading-scoring.md says how.`

func gradeCmd(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "key":
			return gradeKeyCmd(args[1:], stdout, stderr)
		case "merge":
			return gradeMergeCmd(args[1:], stdout, stderr)
		case "package":
			return gradePackageCmd(args[1:], stdout, stderr)
		}
	}
	fs := newFlags("grade", gradeUsage, stderr)
	keyPath := fs.String("key", "", "the instructor's key (TOML)")
	jobs := fs.Int("jobs", runtime.NumCPU(), "submissions graded at once")
	out := fs.String("out", "grades", "folder the results are written to")
	format := fs.String("format", "csv", "gradescope, prairielearn, csv or markdown (gradebook.csv is always written)")
	list := fs.String("list", "", "a file listing submissions, one per line, besides the arguments")
	shardIndex := fs.Int("shard-index", -1, "the shard to grade (default: $JOB_COMPLETION_INDEX)")
	shardCount := fs.Int("shard-count", 0, "number of shards (0: grade all)")
	marksPath := fs.String("manual", "", "the instructor's marks for the manual parts (the filled-in manual.csv)")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if *keyPath == "" {
		return usagef("--key is required")
	}
	if *jobs < 1 {
		return usagef("--jobs %d: want at least 1", *jobs)
	}
	valid := false
	for _, f := range grade.Formats() {
		valid = valid || f == *format
	}
	if !valid {
		return usagef("--format %q: want one of %s", *format, strings.Join(grade.Formats(), ", "))
	}
	if *shardCount < 0 {
		return usagef("--shard-count %d: want the number of shards, at least 1 (or 0 to grade all)", *shardCount)
	}
	if *list != "" {
		more, err := grade.ReadList(*list)
		if err != nil {
			return err
		}
		paths = append(paths, more...)
	}
	if len(paths) == 0 {
		return usagef("no submissions: give notebooks, folders or --list")
	}
	k, err := grade.LoadKey(*keyPath)
	if err != nil {
		return err
	}
	var marks []grade.Mark
	if *marksPath != "" {
		f, err := os.Open(*marksPath)
		if err != nil {
			return err
		}
		marks, err = grade.ReadMarks(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", *marksPath, err)
		}
	}
	var subs []grade.Submission
	for _, p := range paths {
		s, err := grade.FindSubmission(p)
		if err != nil {
			// A missing path is still a student's line in the gradebook.
			s = grade.Submission{Student: strings.TrimSuffix(filepath.Base(p), ".ipynb"), Path: p}
		}
		subs = append(subs, s)
	}
	if *shardCount > 0 {
		idx := *shardIndex
		if idx < 0 {
			env := os.Getenv("JOB_COMPLETION_INDEX")
			if idx, err = strconv.Atoi(env); err != nil {
				return usagef("--shard-count without --shard-index needs JOB_COMPLETION_INDEX, got %q", env)
			}
		}
		if subs, err = grade.Shard(subs, idx, *shardCount); err != nil {
			return usagef("%v", err)
		}
		info, _ := json.Marshal(grade.ShardInfo{Index: idx, Count: *shardCount, Submissions: len(subs)})
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(*out, "shard.json"), append(info, '\n'), 0o644); err != nil {
			return err
		}
	}
	start := time.Now()
	results := grade.Batch(k, subs, *jobs)
	if err := grade.ApplyMarks(results, marks); err != nil {
		return fmt.Errorf("%s: %w", *marksPath, err)
	}
	if err := grade.Write(*out, *format, results); err != nil {
		return err
	}
	if err := writeManual(filepath.Join(*out, "manual.csv"), results); err != nil {
		return err
	}
	refused := 0
	for _, r := range results {
		if !r.Gradable {
			refused++
		}
	}
	fmt.Fprintf(stdout, "graded %d submissions (%d refused) against %s in %v; results in %s\n",
		len(results), refused, k.Path, time.Since(start).Round(time.Millisecond), *out)
	return nil
}

// writeManual writes the manual-grading sheet when some result has a
// manual part.
func writeManual(path string, results []grade.Result) error {
	any := false
	for _, r := range results {
		for _, t := range r.Tests {
			any = any || t.Manual
		}
	}
	if !any {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := grade.WriteManual(f, results); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func gradeKeyCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("grade key", gradeUsage, stderr)
	out := fs.String("o", "", "write the key to this file instead of stdout")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || (pos[0] != "init" && pos[0] != "check") {
		return usagef("want `key init LAB` or `key check KEY`")
	}
	if pos[0] == "check" {
		k, err := grade.LoadKey(pos[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: lab %s, %d checks, %g points\n", pos[1], k.LabName(), len(k.Checks), k.MaxScore())
		return nil
	}
	text, err := grade.KeyTemplate(pos[1])
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = io.WriteString(stdout, text)
		return err
	}
	return os.WriteFile(*out, []byte(text), 0o644)
}

func gradeMergeCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("grade merge", gradeUsage, stderr)
	out := fs.String("o", "", "the merged gradebook (default stdout)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("merge: give the shards' gradebook.csv files")
	}
	// Sharded runs left shard.json beside their gradebooks: the shards
	// given must be all of one count.
	var infos []grade.ShardInfo
	for _, p := range pos {
		data, err := os.ReadFile(filepath.Join(filepath.Dir(p), "shard.json"))
		if err != nil {
			continue
		}
		var info grade.ShardInfo
		if err := json.Unmarshal(data, &info); err != nil {
			return fmt.Errorf("%s: %v", filepath.Join(filepath.Dir(p), "shard.json"), err)
		}
		infos = append(infos, info)
	}
	if len(infos) > 0 && len(infos) != len(pos) {
		return fmt.Errorf("grade merge: %d of the %d gradebooks come from sharded runs: give every shard's gradebook.csv", len(infos), len(pos))
	}
	if err := grade.CheckShards(infos); err != nil {
		return err
	}
	var rs []io.Reader
	for _, p := range pos {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		rs = append(rs, f)
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	return grade.Merge(w, rs...)
}

func gradePackageCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("grade package", gradeUsage, stderr)
	out := fs.String("o", "autograder.zip", "the zip to write")
	binary := fs.String("binary", "", "a static linux/amd64 warplab binary to ship (default: this one, if static; build it with CGO_ENABLED=0 go build -o warplab ./cmd/warplab)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || pos[0] != "gradescope" {
		return usagef("want `package gradescope KEY`")
	}
	if _, err := grade.LoadKey(pos[1]); err != nil {
		return err
	}
	bin := *binary
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return err
		}
		if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
			return usagef("this warplab is %s/%s: pass --binary with a linux/amd64 build", runtime.GOOS, runtime.GOARCH)
		}
	}
	key, err := os.ReadFile(pos[1])
	if err != nil {
		return err
	}
	exe, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	if err := grade.GradescopeZip(*out, key, exe); err != nil {
		return fmt.Errorf("%s: %w", bin, err)
	}
	fmt.Fprintf(stdout, "wrote %s: upload it as the assignment's autograder\n", *out)
	return nil
}
