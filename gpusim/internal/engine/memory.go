package engine

import (
	"fmt"
	"sort"

	"github.com/warplab/warplab/gpusim/internal/ir"
)

// Memory is a device's global memory: allocations at increasing addresses
// from ir.GlobalBase, 256-byte aligned, with unmapped gaps between them so
// that running off the end of one is an illegal address, not the start of
// the next. Addresses are never reused, so a use after free is caught too.
type Memory struct {
	allocs []*Alloc // live, sorted by Base
	freed  []freedRange
	next   uint64
	total  int64
	limit  int64 // the device's memory
	host   int64 // what the host lends the simulator for it
}

// Alloc is one allocation.
type Alloc struct {
	Base uint64
	Data []byte
	// Name describes the allocation in error messages: the kernel
	// parameter it was passed as, or a module variable's name.
	Name string
}

type freedRange struct {
	base, size uint64
	label      string
}

// guardGap separates allocations.
const guardGap = 1 << 16

// NewMemory returns an empty memory holding at most limit bytes, the
// device's memory, and at most host bytes, what the host lends the
// simulator for it (0: no limit). Every simulated byte is a host byte, so
// both are checked before anything is allocated.
func NewMemory(limit, host int64) *Memory {
	return &Memory{next: ir.GlobalBase, limit: limit, host: host}
}

// Alloc allocates size zeroed bytes. The bytes are Go's zeroed memory,
// which the operating system maps lazily: pages the kernel never touches
// cost no host memory.
func (m *Memory) Alloc(size int64) (*Alloc, error) {
	if size < 0 {
		return nil, fmt.Errorf("negative size %d", size)
	}
	if m.limit > 0 && size > m.limit-m.total {
		return nil, fmt.Errorf("out of device memory: %s requested, the device has %s (%s in use)",
			Bytes(size), Bytes(m.limit), Bytes(m.total))
	}
	if m.host > 0 && size > m.host-m.total {
		return nil, fmt.Errorf("out of host memory: %s requested; the simulator keeps device memory in host memory, and this host lends it %s (%s in use)",
			Bytes(size), Bytes(m.host), Bytes(m.total))
	}
	a := &Alloc{Base: m.next, Data: make([]byte, size)}
	m.next = (m.next+uint64(size)+255)/256*256 + guardGap
	m.allocs = append(m.allocs, a)
	m.total += size
	return a, nil
}

// Free releases an allocation; its addresses stay unmapped.
func (m *Memory) Free(a *Alloc) {
	i := sort.Search(len(m.allocs), func(i int) bool { return m.allocs[i].Base >= a.Base })
	if i < len(m.allocs) && m.allocs[i] == a {
		m.allocs = append(m.allocs[:i], m.allocs[i+1:]...)
		m.total -= int64(len(a.Data))
		m.freed = append(m.freed, freedRange{a.Base, uint64(len(a.Data)), a.label()})
		a.Data = nil
	}
}

// find returns the allocation holding [addr, addr+size), or nil.
func (m *Memory) find(addr, size uint64) *Alloc {
	i := sort.Search(len(m.allocs), func(i int) bool { return m.allocs[i].Base > addr }) - 1
	if i < 0 {
		return nil
	}
	a := m.allocs[i]
	if addr-a.Base+size <= uint64(len(a.Data)) {
		return a
	}
	return nil
}

// describe explains why addr is not a valid global address.
func (m *Memory) describe(addr, size uint64) string {
	if addr < 4096 {
		return fmt.Sprintf("address %#x is a null pointer (or an offset from one)", addr)
	}
	for _, f := range m.freed {
		if addr >= f.base && addr < f.base+max(f.size, 1) {
			return fmt.Sprintf("address %#x is inside %s, which has been freed", addr, f.label)
		}
	}
	i := sort.Search(len(m.allocs), func(i int) bool { return m.allocs[i].Base > addr }) - 1
	if i >= 0 {
		a := m.allocs[i]
		end := a.Base + uint64(len(a.Data))
		if addr < end {
			return fmt.Sprintf("the %d-byte access at %#x runs %d bytes past the end of %s (%d bytes at %#x)",
				size, addr, addr+size-end, a.label(), len(a.Data), a.Base)
		}
		if addr-end < guardGap {
			return fmt.Sprintf("address %#x is %d bytes past the end of %s (%d bytes at %#x): element %d of a %d-element array of %d-byte values",
				addr, addr-end, a.label(), len(a.Data), a.Base, (addr-a.Base)/max(size, 1), uint64(len(a.Data))/max(size, 1), size)
		}
	}
	if i+1 < len(m.allocs) {
		a := m.allocs[i+1]
		if a.Base-addr < guardGap {
			return fmt.Sprintf("address %#x is %d bytes before the start of %s (%d bytes at %#x)",
				addr, a.Base-addr, a.label(), len(a.Data), a.Base)
		}
	}
	return fmt.Sprintf("address %#x is not in any allocation", addr)
}

// InUse returns the bytes allocated and not freed.
func (m *Memory) InUse() int64 { return m.total }

// Bytes formats a size for a person: exact below 1 KiB, else in the
// largest binary unit with three significant digits ("3.64 TiB").
func Bytes(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	f, u := float64(n)/1024, 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	return fmt.Sprintf("%.3g %ciB", f, units[u])
}

func (a *Alloc) label() string {
	if a.Name != "" {
		return "the allocation passed as " + a.Name
	}
	return "an allocation"
}
