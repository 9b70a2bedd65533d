package cudac

// Scope is the set of threads a memory operation's ordering or atomicity
// is guaranteed for: CUDA's cuda::thread_scope and PTX's .cta, .gpu and
// .sys qualifiers. The zero value is device scope, the scope of the plain
// atomics (atomicAdd) and of __threadfence().
type Scope uint8

const (
	// ScopeDevice: every thread of the device (PTX .gpu):
	// atomicAdd, __threadfence(), cuda::thread_scope_device.
	ScopeDevice Scope = iota
	// ScopeBlock: the threads of one block (PTX .cta): atomicAdd_block,
	// __threadfence_block(), cuda::thread_scope_block.
	ScopeBlock
	// ScopeSystem: the device, the host and peer devices (PTX .sys):
	// atomicAdd_system, __threadfence_system(), cuda::thread_scope_system.
	ScopeSystem
	// ScopeThread: the calling thread alone (cuda::thread_scope_thread).
	ScopeThread
)

var scopeNames = [...]string{ScopeDevice: "device", ScopeBlock: "block", ScopeSystem: "system", ScopeThread: "thread"}

func (s Scope) String() string {
	if int(s) < len(scopeNames) {
		return scopeNames[s]
	}
	return "scope?"
}

// Includes reports whether scope s is at least as wide as other: every
// thread in other's set is in s's.
func (s Scope) Includes(other Scope) bool {
	return s.rank() >= other.rank()
}

// AcrossBlocks reports whether scope s covers threads of different blocks
// of one device: device and system scope do, block and thread scope do not.
func (s Scope) AcrossBlocks() bool { return s.Includes(ScopeDevice) }

func (s Scope) rank() int {
	switch s {
	case ScopeThread:
		return 0
	case ScopeBlock:
		return 1
	case ScopeDevice:
		return 2
	}
	return 3
}

// MemoryOrder is the memory order of an atomic, a load, a store or a fence:
// cuda::memory_order and PTX's .relaxed, .acquire, .release, .acq_rel and
// .sc qualifiers. The zero value, OrderDefault, is what the plain CUDA
// construct does: relaxed for the atomicXxx functions, sequentially
// consistent for the __threadfence functions (CUDA defines __threadfence()
// as cuda::atomic_thread_fence(cuda::memory_order_seq_cst,
// cuda::thread_scope_device)), and a plain (weak, non-atomic) access for
// loads and stores, volatile ones included.
type MemoryOrder uint8

const (
	OrderDefault MemoryOrder = iota
	OrderRelaxed
	OrderAcquire // memory_order_consume is treated as acquire, as nvcc does
	OrderRelease
	OrderAcqRel
	OrderSeqCst
)

var orderNames = [...]string{OrderDefault: "default", OrderRelaxed: "relaxed", OrderAcquire: "acquire",
	OrderRelease: "release", OrderAcqRel: "acq_rel", OrderSeqCst: "seq_cst"}

func (o MemoryOrder) String() string {
	if int(o) < len(orderNames) {
		return orderNames[o]
	}
	return "order?"
}

// Acquires reports whether the order has acquire semantics (acquire,
// acq_rel, seq_cst).
func (o MemoryOrder) Acquires() bool {
	return o == OrderAcquire || o == OrderAcqRel || o == OrderSeqCst
}

// Releases reports whether the order has release semantics (release,
// acq_rel, seq_cst).
func (o MemoryOrder) Releases() bool {
	return o == OrderRelease || o == OrderAcqRel || o == OrderSeqCst
}
