package ncu_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/warplab/warplab/internal/ncu"
)

const sample = `==PROF== Connected to process 1 (/tmp/probe)
"ID","Kernel Name","lts__t_sectors.sum","lts__t_sector_hit_rate.pct"
"","","sector","%"
"0","denomAtomic","1,806,109","90.01"
"1","denomShuffle","524,288","3.2"
`

func ExampleRaw() {
	m, err := ncu.Raw(strings.NewReader(sample), "lts__t_sector_hit_rate.pct", "lts__t_sectors.sum")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m[0], m[1])
	// Output: [90.01 1.806109e+06] [3.2 524288]
}

func TestRawErrors(t *testing.T) {
	if _, err := ncu.Raw(strings.NewReader(sample), "dram__bytes_read.sum"); err == nil || !strings.Contains(err.Error(), "no column dram__bytes_read.sum") {
		t.Errorf("a missing metric: %v", err)
	}
	bad := strings.Replace(sample, `"3.2"`, `"n/a"`, 1)
	if _, err := ncu.Raw(strings.NewReader(bad), "lts__t_sector_hit_rate.pct"); err == nil || !strings.Contains(err.Error(), "launch 1, lts__t_sector_hit_rate.pct") {
		t.Errorf("a value that is no number: %v", err)
	}
	short := strings.Replace(sample, `"1","denomShuffle","524,288","3.2"`, `"1","denomShuffle"`, 1)
	if _, err := ncu.Raw(strings.NewReader(short), "lts__t_sectors.sum"); err == nil || !strings.Contains(err.Error(), "launch 1 has no lts__t_sectors.sum") {
		t.Errorf("a short row: %v", err)
	}
}

// TestEvidence reads every launch of the committed H200 run.
func TestEvidence(t *testing.T) {
	f, err := os.Open("testdata/ncu-core.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := ncu.Raw(f, "lts__t_sectors.sum", "lts__t_sectors.max", "lts__t_sectors.avg", "lts__t_sector_hit_rate.pct")
	if err != nil {
		t.Fatal(err)
	}
	if len(m) < 20 || m[0][0] <= 0 {
		t.Errorf("%d launches, launch 0: %v", len(m), m[0])
	}
}
