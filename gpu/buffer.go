package gpu

import (
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
)

// Scalar is an element type a Buffer can hold.
type Scalar interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// Buffer is device memory holding n elements of T. It binds to a kernel
// parameter of type T* (or const T*, or a pointer to a struct or void).
type Buffer[T Scalar] struct {
	mem driver.Memory
	n   int
}

// NewBuffer allocates a zeroed buffer of n elements.
func NewBuffer[T Scalar](d *Device, n int) (*Buffer[T], error) {
	if n < 0 {
		return nil, fmt.Errorf("gpu: new buffer: negative length %d", n)
	}
	var zero T
	size := int64(unsafe.Sizeof(zero))
	if int64(n) > math.MaxInt64/size {
		return nil, fmt.Errorf("gpu: new buffer of %d %s: %d bytes each overflows a 64-bit size", n, elemKind[T](), size)
	}
	mem, err := d.impl.Alloc(int64(n) * size)
	if err != nil {
		return nil, fmt.Errorf("gpu: new buffer of %d %s: %w", n, elemKind[T](), err)
	}
	return &Buffer[T]{mem: mem, n: n}, nil
}

// Upload allocates a buffer holding a copy of data.
func Upload[T Scalar](d *Device, data []T) (*Buffer[T], error) {
	b, err := NewBuffer[T](d, len(data))
	if err != nil {
		return nil, err
	}
	if err := b.Write(data); err != nil {
		b.Free()
		return nil, err
	}
	return b, nil
}

// Len returns the number of elements.
func (b *Buffer[T]) Len() int { return b.n }

// Bytes returns the size in bytes.
func (b *Buffer[T]) Bytes() int64 {
	var zero T
	return int64(b.n) * int64(unsafe.Sizeof(zero))
}

// freed is the error of every use of a buffer after its Free.
func (b *Buffer[T]) freed(what string) error {
	if b.mem == nil {
		return fmt.Errorf("gpu: %s a buffer of %d %s that has been freed", what, b.n, elemKind[T]())
	}
	return nil
}

// Write copies src into the start of the buffer.
func (b *Buffer[T]) Write(src []T) error {
	if len(src) > b.n {
		return fmt.Errorf("gpu: write %d elements into a buffer of %d", len(src), b.n)
	}
	if err := b.freed("write to"); err != nil {
		return err
	}
	_, err := b.mem.WriteAt(asBytes(src), 0)
	return err
}

// WriteAt copies src into the buffer from element i on, so that a large
// buffer can be filled a piece at a time from a small host slice.
func (b *Buffer[T]) WriteAt(i int, src []T) error {
	if i < 0 || len(src) > b.n-i {
		return fmt.Errorf("gpu: write %d elements at element %d of a buffer of %d", len(src), i, b.n)
	}
	if err := b.freed("write to"); err != nil {
		return err
	}
	var zero T
	_, err := b.mem.WriteAt(asBytes(src), int64(i)*int64(unsafe.Sizeof(zero)))
	return err
}

// Read copies the start of the buffer into dst.
func (b *Buffer[T]) Read(dst []T) error {
	if len(dst) > b.n {
		return fmt.Errorf("gpu: read %d elements from a buffer of %d", len(dst), b.n)
	}
	if err := b.freed("read from"); err != nil {
		return err
	}
	_, err := b.mem.ReadAt(asBytes(dst), 0)
	return err
}

// Download returns a copy of the buffer's contents.
func (b *Buffer[T]) Download() ([]T, error) {
	out := make([]T, b.n)
	if err := b.Read(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Zero sets every element to zero.
func (b *Buffer[T]) Zero() error {
	if err := b.freed("zero"); err != nil {
		return err
	}
	// A piece at a time: zeroing a large buffer costs no large host slice.
	size := b.mem.Size()
	zeros := make([]byte, min(size, zeroChunk))
	for off := int64(0); off < size; off += int64(len(zeros)) {
		if _, err := b.mem.WriteAt(zeros[:min(int64(len(zeros)), size-off)], off); err != nil {
			return err
		}
	}
	return nil
}

// zeroChunk is the host slice Zero writes from.
const zeroChunk = 1 << 20

// Free releases the device memory. Using the buffer afterwards is an
// error; freeing it again does nothing.
func (b *Buffer[T]) Free() error {
	if b.mem == nil {
		return nil
	}
	err := b.mem.Free()
	b.mem = nil
	return err
}

// At returns a pointer to element i, for passing part of a buffer to a kernel
// ("in + i" in C).
func (b *Buffer[T]) At(i int) Ptr {
	var zero T
	return Ptr{mem: b.mem, off: int64(i) * int64(unsafe.Sizeof(zero)), elem: elemKind[T]()}
}

// Ptr is a device pointer into a buffer, made by Buffer.At.
type Ptr struct {
	mem  driver.Memory
	off  int64
	elem cudac.Kind
}

func (b *Buffer[T]) pointer() Ptr { return b.At(0) }

// pointerArg is implemented by *Buffer[T] and Ptr.
type pointerArg interface{ pointer() Ptr }

func (p Ptr) pointer() Ptr { return p }

func asBytes[T Scalar](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// elemKind maps a Go element type to the cudac kind of the same size and
// representation.
func elemKind[T Scalar]() cudac.Kind {
	var zero T
	return kindOf(reflect.TypeOf(zero).Kind())
}

func kindOf(k reflect.Kind) cudac.Kind {
	switch k {
	case reflect.Int8:
		return cudac.Int8
	case reflect.Uint8:
		return cudac.Uint8
	case reflect.Int16:
		return cudac.Int16
	case reflect.Uint16:
		return cudac.Uint16
	case reflect.Int32:
		return cudac.Int32
	case reflect.Uint32:
		return cudac.Uint32
	case reflect.Int64, reflect.Int:
		return cudac.Int64
	case reflect.Uint64, reflect.Uint:
		return cudac.Uint64
	case reflect.Float32:
		return cudac.Float32
	case reflect.Float64:
		return cudac.Float64
	case reflect.Bool:
		return cudac.Bool
	}
	return cudac.Invalid
}
