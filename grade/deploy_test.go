package grade

import (
	"os"
	"strings"
	"testing"
)

// The Kubernetes job shards by the index Kubernetes gives each pod, and
// its shard count matches its completions.
func TestJobManifest(t *testing.T) {
	data, err := os.ReadFile("../deploy/grading/job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"kind: Job", "completionMode: Indexed", "completions: 4", "--shard-count 4", "$(JOB_COMPLETION_INDEX)", "--key /key/key.toml", "secretName: warplab-key"} {
		if !strings.Contains(text, want) {
			t.Errorf("job.yaml lacks %q", want)
		}
	}
}
