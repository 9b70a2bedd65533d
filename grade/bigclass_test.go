package grade

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// bigClass returns a generated class of n histogram submissions: every
// kind of histogramKinds in turn, kernels varied by a comment so no two
// students hand in the same bytes (the template stays the template).
func bigClass(n int) []classMember {
	kinds := histogramKinds()
	var out []classMember
	for i := 0; i < n; i++ {
		m := kinds[i%len(kinds)]
		m.name = fmt.Sprintf("s%03d-%s", i, m.name)
		if bytes.Contains(m.data, []byte("__global__")) && !strings.HasSuffix(m.name, "template") {
			m.data = bytes.Replace(m.data, []byte("__global__"), []byte(fmt.Sprintf("// student %d\\n__global__", i)), 1)
		}
		out = append(out, m)
	}
	return out
}

// TestClass grades a class of 200 generated submissions for the
// histogram key and 20 for Day 26's, each to its expected score, twice
// in different orders and job counts with identical results.
func TestClass(t *testing.T) {
	if testing.Short() {
		t.Skip("the 220-submission class takes about a minute; -short runs each kind once (TestHistogramKinds, TestDay26Kinds, TestKernelKeys)")
	}
	k, err := LoadKey("keys/histogram.toml")
	if err != nil {
		t.Fatal(err)
	}
	members := bigClass(200)
	subs := writeClass(t, t.TempDir(), members)
	results := Batch(k, subs, 2)
	checkClass(t, results, members)

	// Reversed order, one job: the same gradebook.
	rev := make([]Submission, len(subs))
	for i := range subs {
		rev[i] = subs[len(subs)-1-i]
	}
	again := Batch(k, rev[:40], 1)
	var a, b bytes.Buffer
	WriteCSV(&a, again)
	byName := map[string]Result{}
	for _, r := range results {
		byName[r.Student] = r
	}
	var sub []Result
	for _, r := range again {
		sub = append(sub, byName[r.Student])
	}
	WriteCSV(&b, sub)
	if a.String() != b.String() {
		t.Errorf("another order and job count grade differently:\n%s\nvs\n%s", a.String(), b.String())
	}

	k26, err := LoadKey("testdata/day26-small.toml")
	if err != nil {
		t.Fatal(err)
	}
	kinds := day26Kinds(day26Table(t))
	var d26 []classMember
	for i := 0; i < 20; i++ {
		m := kinds[i%len(kinds)]
		m.name = fmt.Sprintf("d%02d-%s", i, m.name)
		d26 = append(d26, m)
	}
	checkClass(t, Batch(k26, writeClass(t, t.TempDir(), d26), 2), d26)
}

// TestShardsMerge grades a class as four shards in four processes and
// merges their gradebooks: exactly the gradebook of one unsharded run.
func TestShardsMerge(t *testing.T) {
	if os.Getenv("GRADE_SHARD_DIR") != "" {
		return // the helper's own run, below
	}
	dir := t.TempDir()
	members := bigClass(24)
	if testing.Short() {
		members = members[:12]
	}
	subs := writeClass(t, dir, members)
	var list []string
	for _, s := range subs {
		list = append(list, s.Path)
	}
	listFile := filepath.Join(dir, "list.txt")
	os.WriteFile(listFile, []byte(strings.Join(list, "\n")), 0o644)

	k, err := LoadKey("keys/histogram.toml")
	if err != nil {
		t.Fatal(err)
	}
	var whole bytes.Buffer
	WriteCSV(&whole, Batch(k, subs, 2))

	var procs []*exec.Cmd
	for i := 0; i < 4; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestShardHelper$")
		cmd.Env = append(os.Environ(), "GRADE_SHARD_DIR="+filepath.Join(dir, "shard"+strconv.Itoa(i)),
			"GRADE_SHARD_LIST="+listFile, "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs = append(procs, cmd)
	}
	var shards []*os.File
	for i, p := range procs {
		if err := p.Wait(); err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
		f, err := os.Open(filepath.Join(dir, "shard"+strconv.Itoa(i), "gradebook.csv"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		shards = append(shards, f)
	}
	var merged bytes.Buffer
	if err := Merge(&merged, shards[0], shards[1], shards[2], shards[3]); err != nil {
		t.Fatal(err)
	}
	if merged.String() != whole.String() {
		t.Errorf("merged shards:\n%s\nunsharded:\n%s", merged.String(), whole.String())
	}
}

// TestShardHelper is one shard's process in TestShardsMerge.
func TestShardHelper(t *testing.T) {
	dir := os.Getenv("GRADE_SHARD_DIR")
	if dir == "" {
		t.Skip("run by TestShardsMerge")
	}
	k, err := LoadKey("keys/histogram.toml")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(os.Getenv("GRADE_SHARD_LIST"))
	if err != nil {
		t.Fatal(err)
	}
	var subs []Submission
	for _, p := range strings.Split(string(data), "\n") {
		s, err := FindSubmission(p)
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, s)
	}
	idx, _ := strconv.Atoi(os.Getenv("JOB_COMPLETION_INDEX"))
	shard, err := Shard(subs, idx, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, "csv", Batch(k, shard, 1)); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkClass grades the 200-submission histogram class with --jobs 2
// and reports the wall time per submission and per kernel submission,
// and the process's peak resident memory.
func BenchmarkClass(b *testing.B) {
	k, err := LoadKey("keys/histogram.toml")
	if err != nil {
		b.Fatal(err)
	}
	members := bigClass(200)
	subs := writeClass(b, b.TempDir(), members)
	kernels := 0
	for _, m := range members {
		if m.refused == "" {
			kernels++
		}
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		Batch(k, subs, 2)
	}
	per := time.Since(start).Seconds() / float64(b.N)
	b.ReportMetric(per, "s/class")
	b.ReportMetric(per/float64(kernels), "s/kernel-submission")
	b.ReportMetric(float64(peakRSS()), "peak-RSS-MiB")
}

// peakRSS returns the process's peak resident set in MiB (Linux), or 0.
func peakRSS() int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.Atoi(f[1])
			return kb / 1024
		}
	}
	return 0
}
