package labs_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/warplab/warplab/labs"
)

func TestReadSource(t *testing.T) {
	fsys := fstest.MapFS{"kernels/k.cu": {Data: []byte("__global__ void k() {}\n")}}
	s := labs.ReadSource(fsys, "kernels/k.cu")
	if s.File != "kernels/k.cu" || s.Text != "__global__ void k() {}\n" {
		t.Errorf("ReadSource = %+v", s)
	}
	if got := labs.ReadSource(fsys, "kernels/none.cu"); got.Text != "// no such file" || got.File != "kernels/none.cu" {
		t.Errorf("a missing file: %+v", got)
	}
	b, _ := json.Marshal(s)
	if string(b) != `{"file":"kernels/k.cu","text":"__global__ void k() {}\n"}` {
		t.Errorf("JSON %s", b)
	}
	if h := s.HTML(); !strings.Contains(h, "kernels/k.cu") || !strings.Contains(h, "__global__") {
		t.Errorf("HTML %s", h)
	}
	if m := s.Markdown(); !strings.HasPrefix(m, "`kernels/k.cu`\n\n```cuda\n") {
		t.Errorf("Markdown %q", m)
	}
}

// A lab shows the CUDA C files it embeds with ReadSource.
func ExampleReadSource() {
	fsys := fstest.MapFS{"kernels/inc.cu": {Data: []byte("__global__ void inc(int* c) { atomicAdd(c, 1); }\n")}}
	fmt.Print(labs.ReadSource(fsys, "kernels/inc.cu"))
	// Output:
	// // kernels/inc.cu
	// __global__ void inc(int* c) { atomicAdd(c, 1); }
}
