package cudac

import (
	"strings"
	"testing"
)

func TestAtomicRefChecks(t *testing.T) {
	const pre = "#include <cuda/atomic>\n"
	ok := []struct {
		body, want string
		scope      Scope
		order      MemoryOrder
	}{
		{"cuda::atomic_ref<int, cuda::thread_scope_device> r(p[0]); r.load(cuda::memory_order_acquire);",
			"(cuda::atomic_ref::load<int> (conv r):int*):int", ScopeDevice, OrderAcquire},
		{"cuda::atomic_ref<int> r(*p); r.store(3);", "(cuda::atomic_ref::store<int> (conv r):int* 3:int):void", ScopeSystem, OrderSeqCst},
		{"cuda::std::atomic_ref<int, cuda::std::thread_scope_block>(p[1]).fetch_add(2, cuda::std::memory_order_relaxed);",
			"(atomicAdd<int> (conv (conv (& (index p 1:long long):int):int*):cuda::atomic_ref<int, cuda::thread_scope_block>):int* 2:int):int", ScopeBlock, OrderRelaxed},
		{"cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_block);", "(__threadfence_block):void", ScopeBlock, OrderRelease},
	}
	for _, tt := range ok {
		src := pre + "__global__ void k(int* p) { " + tt.body + " }"
		prog, err := Compile("a.cu", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", tt.body, err)
			continue
		}
		f := prog.Funcs[len(prog.Funcs)-1]
		last := f.Body.Stmts[len(f.Body.Stmts)-1]
		if got := Dump(last); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.body, got, tt.want)
		}
		call, _ := last.(*ExprStmt).X.(*BuiltinCall)
		if call == nil || call.Scope != tt.scope || call.Order != tt.order {
			t.Errorf("%s: call %+v, want scope %s and order %s", tt.body, call, tt.scope, tt.order)
		}
	}
	bad := []struct{ body, want string }{
		{"cuda::atomic<int> a;", "a.cu:2:47: a cuda::atomic is supported only as a __device__ variable; for a local or shared object use cuda::atomic_ref"},
		{"cuda::atomic_flag f;", "a.cu:2:29: 'cuda::atomic_flag' is not supported (the <cuda/atomic> subset has atomic_ref"},
		{"cuda::atomic_ref<int, cuda::thread_scope_device> r(p[0]); r.load(2);", "the memory order of 'cuda::atomic_ref::load' must be a constant cuda::memory_order"},
		{"cuda::atomic_ref<int, cuda::thread_scope_device> r(p[0]); r.load(cuda::memory_order_release);", "a load cannot have memory order release"},
		{"cuda::atomic_ref<int, cuda::thread_scope_device> r(p[0]); r.store(1, cuda::memory_order_acquire);", "a store cannot have memory order acquire"},
		{"cuda::atomic_ref<int, cuda::thread_scope_device> r(p[0]); r.wait(1);", "no member 'wait' in 'cuda::atomic_ref<int, cuda::thread_scope_device>'"},
		{"cuda::atomic_ref<int, cuda::thread_scope_device> r(p[0] + 1);", "must be made from an object of type 'int'"},
		{"cuda::atomic_ref<short, cuda::thread_scope_device> r(p[0]);", "'cuda::atomic_ref<short>' is not supported"},
		{"cuda::atomic_ref<float, cuda::thread_scope_device> r(*(float*)p); r.fetch_and(1.0f);", "'cuda::atomic_ref::fetch_and' on 'cuda::atomic_ref<float, cuda::thread_scope_device>' is not supported"},
		{"cuda::atomic_ref<int, cuda::thread_scope_device> r(p[0]); int e = 0; r.compare_exchange_strong(e);", "'cuda::atomic_ref::compare_exchange_strong' takes 2 value arguments"},
		{"cuda::atomic_ref<int, cuda::thread_scope_device> r(p[0]); r + 1;", "invalid operands"},
		{"cuda::atomic_thread_fence(cuda::thread_scope_device);", "the memory order of 'cuda::atomic_thread_fence' must be a constant cuda::memory_order"},
	}
	globals := []struct{ src, want string }{
		{"__device__ cuda::atomic<int, cuda::thread_scope_device> c;\n__global__ void k(int* p) { p[0] = c.fetch_add(1); }", ""},
		{"__device__ cuda::atomic<int, cuda::thread_scope_device> c;\n__global__ void k(int* p) { p[0] = c; }", "cannot convert 'cuda::atomic<int, cuda::thread_scope_device>' to 'int'"},
		{"__constant__ cuda::atomic<int, cuda::thread_scope_device> c;\n", "a cuda::atomic must be a __device__ variable that is not const or __constant__"},
		{"__device__ cuda::atomic<short> c;\n", "'cuda::atomic<short>' is not supported"},
	}
	for _, tt := range globals {
		_, err := Compile("a.cu", []byte(pre+tt.src))
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: %v, want %q", tt.src, err, tt.want)
		}
	}
	for _, tt := range bad {
		src := pre + "__global__ void k(int* p) { " + tt.body + " }"
		_, err := Compile("a.cu", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.body, err, tt.want)
		}
	}
}
