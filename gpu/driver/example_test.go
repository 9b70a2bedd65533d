package driver_test

import (
	"fmt"
	"log"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpu/driver"
)

// fill is a toy backend whose every kernel writes its scalar argument
// into each element of its pointer argument: enough to show what gpu
// hands a backend and what it gets back.
type fill struct{}

func (fill) Open(cfg driver.Config) (driver.Device, error) { return &fillDevice{cfg: cfg}, nil }

func (fill) Probe() []driver.Availability {
	return []driver.Availability{{Spec: "fill", Name: "a toy backend", Usable: true}}
}

type fillDevice struct{ cfg driver.Config }

func (d *fillDevice) Info() driver.Info {
	return driver.Info{Backend: "fill", Spec: d.cfg.Spec, Name: "toy", WarpSize: 32, MaxThreadsPerBlock: 1024}
}
func (d *fillDevice) Capabilities() driver.Capabilities { return driver.Capabilities{} }
func (d *fillDevice) Alloc(size int64) (driver.Memory, error) {
	return &fillMemory{b: make([]byte, size)}, nil
}
func (d *fillDevice) Compile(*cudac.Program) (driver.Module, error) { return fillModule{}, nil }
func (d *fillDevice) Close() error                                  { return nil }

type fillMemory struct{ b []byte }

func (m *fillMemory) Size() int64                              { return int64(len(m.b)) }
func (m *fillMemory) ReadAt(p []byte, off int64) (int, error)  { return copy(p, m.b[off:]), nil }
func (m *fillMemory) WriteAt(p []byte, off int64) (int, error) { return copy(m.b[off:], p), nil }
func (m *fillMemory) Free() error                              { return nil }

type fillModule struct{}

// Launch gets arguments gpu has checked: here an int* and an int.
func (fillModule) Launch(fn *cudac.Func, cfg driver.LaunchConfig, args []driver.ArgValue) (*driver.Result, error) {
	mem := args[0].Mem.(*fillMemory)
	for i := args[0].Offset; i+4 <= mem.Size(); i += 4 {
		for b := range int64(4) {
			mem.b[i+b] = byte(args[1].Bits >> (8 * b))
		}
	}
	return &driver.Result{Device: "toy", Timing: driver.Timing{Source: "not timed"}}, nil
}

// A backend registers itself from init, under the name its specs start with.
func init() { gpu.Register("fill", fill{}) }

func Example() {
	dev, err := gpu.Open("fill")
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	mod, err := dev.Compile("fill.cu", []byte(`__global__ void fill(int* out, int v) { out[threadIdx.x] = v; }`))
	if err != nil {
		log.Fatal(err)
	}
	k, _ := mod.Kernel("fill")
	out, _ := gpu.NewBuffer[int32](dev, 4)
	if _, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(4)}, out, 7); err != nil {
		log.Fatal(err)
	}
	got, _ := out.Download()
	fmt.Println(got, dev.Info().Spec)
	// gpu checked the arguments before the backend saw them:
	_, err = k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(4)}, out, 1.5)
	fmt.Println(err)
	// Output:
	// [7 7 7 7] fill
	// gpu: launch fill: argument 2 (int v): got double 1.5, want int
}
