package grade

import (
	"os"
	"strings"
	"testing"

	"github.com/warplab/warplab/labs/aggregation"
	"github.com/warplab/warplab/labs/cas"
	"github.com/warplab/warplab/labs/ordering"
	"github.com/warplab/warplab/labs/reproducible"
)

// Right answers of the kernel labs: the labs' own tests read the first two
// from their testdata; the others are copies of theirs.
var (
	softmaxRight      = readFile("../labs/softmax/testdata/solution.cu")
	reproducibleRight = readFile("../labs/reproducible/testdata/lastblock.cu")
)

// readFile returns the file's text; the tests cannot run without it.
func readFile(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

const (
	casRight = `
__device__ float atomicMaxFloat(float* addr, float value) {
    int* a = (int*)addr;
    int old = *a;
    while (__int_as_float(old) < value) {
        int assumed = old;
        old = atomicCAS(a, assumed, __float_as_int(value));
        if (old == assumed) break;
    }
    return __int_as_float(old);
}
__global__ void foldMax(const float* v, int n, int C, float* m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicMaxFloat(&m[i / C], v[i]);
}
`
	orderingRight = `__global__ void publish(int* base, int trials, int* counts) {
    if (threadIdx.x != 0) return;
    int pair = blockIdx.x >> 1;
    int* payload = base + pair * 128;
    int* flag = payload + 32;
    int* ack = flag + 32;
    for (int t = 1; t <= trials; ++t) {
        if ((blockIdx.x & 1) == 0) {
            *(volatile int*)payload = t;
            __threadfence();
            *(volatile int*)flag = t;
            while (*(volatile int*)ack != t) {}
        } else {
            while (*(volatile int*)flag != t) {}
            __threadfence();
            if (*(volatile int*)payload != t) counts[2 * pair] += 1;
            *(volatile int*)ack = t;
        }
    }
}`
)

// kernelKeyCase is a kernel lab's key with answers of known score.
type kernelKeyCase struct {
	lab, typ, field string
	right, template string
}

func kernelKeyCases() []kernelKeyCase {
	return []kernelKeyCase{
		{"histogram", "histogram.Answer", "Source", histPrivatised, ""},
		{"softmax", "softmax.Answer", "Kernel", softmaxRight, ""},
		{"cas", "cas.Answer", "Source", casRight, cas.AnswerTemplate},
		{"ordering", "ordering.Answer", "Source", orderingRight, ordering.AnswerTemplate},
		{"reproducible", "reproducible.Answer", "Source", reproducibleRight, reproducible.AnswerTemplate},
		{"aggregation", "aggregation.Answer", "Source", "", aggregation.AnswerTemplate},
	}
}

// kernelKinds returns, for a kernel lab, the template (nothing), a
// kernel that does not compile (nothing, with its line) and an empty
// answer (nothing); TestScoringRules grades the right answers.
func kernelKinds(c kernelKeyCase) []classMember {
	ans := func(src string) []byte {
		return notebookWith([]string{kernelAnswer(c.typ, c.field, src)}, 0)
	}
	var m []classMember
	if c.template != "" {
		m = append(m, classMember{name: c.lab + "-template", data: ans(c.template), expected: 0})
	}
	m = append(m,
		classMember{name: c.lab + "-syntax", data: ans("__global__ void k(int* p) {\n  p[0] = ;\n}\n"), expected: 0},
		classMember{name: c.lab + "-empty", data: notebookWith([]string{"var answer = " + c.typ + "{}\n"}, 0), expected: 0},
	)
	return m
}

func TestKernelKeys(t *testing.T) {
	for _, c := range kernelKeyCases() {
		t.Run(c.lab, func(t *testing.T) {
			k, err := LoadKey("keys/" + c.lab + ".toml")
			if err != nil {
				t.Fatal(err)
			}
			members := kernelKinds(c)
			results := Batch(k, writeClass(t, t.TempDir(), members), 2)
			checkClass(t, results, members)
			for _, r := range results {
				if strings.HasSuffix(r.Student, "-syntax") {
					if !strings.Contains(r.Tests[0].Detail+r.Tests[1].Detail+r.Tests[2].Detail, "answer.cu:2") {
						t.Errorf("%s: the compile error does not name its line: %+v", r.Student, r.Tests)
					}
				}
			}
		})
	}
}
