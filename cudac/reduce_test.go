package cudac

import (
	"strings"
	"testing"
)

func TestWarpReduceChecks(t *testing.T) {
	ok := []struct{ src, want string }{
		{"__global__ void k(int* o, int v) { o[0] = __reduce_add_sync(~0u, v); }", "(__reduce_add_sync<int> 4294967295:unsigned int v):int"},
		{"__global__ void k(unsigned* o, unsigned v) { o[0] = __reduce_min_sync(~0u, v); }", "(__reduce_min_sync<unsigned int> 4294967295:unsigned int v):unsigned int"},
		{"__global__ void k(int* o, short v) { o[0] = __reduce_max_sync(~0u, v); }", "(__reduce_max_sync<int> 4294967295:unsigned int (conv v):int):int"},
		{"__global__ void k(unsigned* o, int v) { o[0] = __reduce_xor_sync(~0u, v); }", "(__reduce_xor_sync<unsigned int> 4294967295:unsigned int (conv v):unsigned int):unsigned int"},
	}
	for _, tt := range ok {
		p, err := Compile("r.cu", []byte(tt.src), Arch("sm_90"))
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		f := p.Funcs[len(p.Funcs)-1]
		if got := Dump(f.Body.Stmts[0]); !strings.Contains(got, tt.want) {
			t.Errorf("%s: got %s, want it to hold %s", tt.src, got, tt.want)
		}
	}
	bad := []struct{ src, arch, want string }{
		{"__global__ void k(int* o, int v) { o[0] = __reduce_add_sync(~0u, v); }", "sm_75",
			"r.cu:1:43: '__reduce_add_sync' needs compute capability 8.0 or newer (sm_80); this target is sm_75, where NVRTC does not declare it"},
		{"__global__ void k(int* o, int v) { o[0] = __reduce_add_sync(~0u, v); }", "",
			"'__reduce_add_sync' needs compute capability 8.0 or newer (sm_80); this target is sm_75"},
		{"__global__ void k(float* o, float v) { o[0] = __reduce_add_sync(~0u, v); }", "sm_80",
			"r.cu:1:70: call of '__reduce_add_sync' with a 'float' value is ambiguous"},
		{"__global__ void k(long long* o, long long v) { o[0] = __reduce_min_sync(~0u, v); }", "sm_90",
			"call of '__reduce_min_sync' with a 'long long' value is ambiguous"},
		{"__global__ void k(int* o, int v) { o[0] = __reduce_or_sync(v); }", "sm_90",
			"too few arguments to '__reduce_or_sync'"},
	}
	for _, tt := range bad {
		var opts []Option
		if tt.arch != "" {
			opts = append(opts, Arch(tt.arch))
		}
		_, err := Compile("r.cu", []byte(tt.src), opts...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s on %q: %v, want %q", tt.src, tt.arch, err, tt.want)
		}
	}
}
