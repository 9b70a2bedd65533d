package grade

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The Kubernetes job shards by the index Kubernetes gives each pod, its
// shard count is its completions, and the pod runs without a service
// account token, as group 100 on a ReadWriteMany volume, retrying a
// failed shard on its own.
func TestJobManifest(t *testing.T) {
	data, err := os.ReadFile("../deploy/grading/job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"kind: Job", "completionMode: Indexed", "parallelism: *shards", "$(JOB_COMPLETION_INDEX)",
		"--key /key/key.toml", "secretName: warplab-key", "automountServiceAccountToken: false", "fsGroup: 100",
		"backoffLimitPerIndex: 1", "accessModes: [ReadWriteMany]", "runAsNonRoot: true"} {
		if !strings.Contains(text, want) {
			t.Errorf("job.yaml lacks %q", want)
		}
	}
	completions := regexp.MustCompile(`(?m)^\s+completions: &shards (\d+)$`).FindStringSubmatch(text)
	count := regexp.MustCompile(`--shard-count (\d+)`).FindAllStringSubmatch(text, -1)
	if completions == nil || len(count) != 1 || count[0][1] != completions[1] {
		t.Errorf("completions %v and --shard-count %v differ", completions, count)
	}
	if strings.Contains(text, "backoffLimit:") {
		t.Error("job.yaml sets backoffLimit: a failed shard would fail the whole Job; backoffLimitPerIndex retries it alone")
	}
}

func TestCheckShards(t *testing.T) {
	all := []ShardInfo{{0, 3, 5}, {2, 3, 4}, {1, 3, 5}}
	if err := CheckShards(all); err != nil {
		t.Error(err)
	}
	for _, tt := range []struct {
		infos []ShardInfo
		want  string
	}{
		{all[:2], "shards 1 of 3 are missing"},
		{[]ShardInfo{{0, 3, 1}, {1, 4, 1}}, "different --shard-count"},
		{[]ShardInfo{{0, 2, 1}, {0, 2, 1}, {1, 2, 1}}, "shard 0 is given twice"},
		{[]ShardInfo{{5, 2, 1}}, "shard 5 of 2"},
	} {
		if err := CheckShards(tt.infos); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want %q", tt.infos, err, tt.want)
		}
	}
}
