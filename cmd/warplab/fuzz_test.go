package main

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
)

// FuzzParseBuf feeds --buf values to parseBuf. It must never panic; a
// value it accepts must make, for a small count, exactly the contents its
// INIT describes, every value one of the type (the checks of initRows, for
// any input). Its seed corpus is in testdata/fuzz/FuzzParseBuf.
func FuzzParseBuf(f *testing.F) {
	for _, s := range []string{
		"p=f32:16:uniform:-1:1:5", "p=i32:8:randint:0:99999999999:1", "p=u32:8:randint:-5:5:1",
		"p=u64:4:randint:0:18446744073709551615:3", "p=i64:4:randint:-9223372036854775808:9223372036854775807:2",
		"p=i8:200:mod:128", "p=bool:4:randint:0:1:9", "p=f64:3:const:-1e308", "p=u8:4:const:0x10", "p=null",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := parseBuf(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: empty error", s)
			}
			return
		}
		if b.null || b.count > 256 {
			return
		}
		if err := checkContents(b); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
	})
}

// checkContents generates the contents of b and checks them against its
// INIT.
func checkContents(b bufSpec) error {
	switch b.typ {
	case "f32":
		return checkGen[float32](b)
	case "f64":
		return checkGen[float64](b)
	case "i8":
		return checkGen[int8](b)
	case "u8", "bool":
		return checkGen[uint8](b)
	case "i32":
		return checkGen[int32](b)
	case "u32":
		return checkGen[uint32](b)
	case "i64":
		return checkGen[int64](b)
	case "u64":
		return checkGen[uint64](b)
	}
	return fmt.Errorf("type %q accepted", b.typ)
}

func checkGen[T gpu.Scalar](b bufSpec) error {
	in := b.init
	gen := generator[T](in)
	lo, hi := new(big.Int), new(big.Int)
	if in.kind == "randint" {
		lo.SetInt64(int64(in.lo))
		if b.typ == "u64" || b.typ == "u32" || b.typ == "u8" || b.typ == "bool" {
			lo.SetUint64(in.lo)
		}
		hi.Add(lo, new(big.Int).SetUint64(in.span-1))
		if in.span == 0 {
			hi.SetUint64(math.MaxUint64)
		}
	}
	for i := 0; i < b.count; i++ {
		v := gen(i)
		var want *big.Int
		switch in.kind {
		case "zero":
			want = big.NewInt(0)
		case "iota":
			want = big.NewInt(int64(i))
		case "mod":
			want = big.NewInt(int64(i) % in.k)
		case "uniform":
			f := float64(v)
			if math.IsNaN(f) || math.IsInf(f, 0) || v < T(in.a) || v > T(in.b) {
				return fmt.Errorf("uniform value %d is %v, outside [%v, %v]", i, v, in.a, in.b)
			}
			continue
		case "const":
			continue
		}
		got := toBig(v)
		if got == nil {
			return fmt.Errorf("value %d is %v, not an integer", i, v)
		}
		if in.kind == "randint" {
			if got.Cmp(lo) < 0 || got.Cmp(hi) > 0 {
				return fmt.Errorf("randint value %d is %v, outside [%v, %v]", i, got, lo, hi)
			}
			continue
		}
		if got.Cmp(want) != 0 {
			return fmt.Errorf("%s value %d is %v, want %v", in.kind, i, got, want)
		}
	}
	return nil
}

// toBig is v as an integer, or nil if it is not one.
func toBig[T gpu.Scalar](v T) *big.Int {
	switch x := any(v).(type) {
	case float32:
		f := float64(x)
		if f != math.Trunc(f) || math.IsInf(f, 0) {
			return nil
		}
		i, _ := new(big.Float).SetFloat64(f).Int(nil)
		return i
	case float64:
		if x != math.Trunc(x) || math.IsInf(x, 0) {
			return nil
		}
		i, _ := new(big.Float).SetFloat64(x).Int(nil)
		return i
	case uint64:
		return new(big.Int).SetUint64(x)
	case uint32:
		return new(big.Int).SetUint64(uint64(x))
	case uint8:
		return new(big.Int).SetUint64(uint64(x))
	}
	i, ok := new(big.Int).SetString(fmt.Sprint(v), 10)
	if !ok {
		return nil
	}
	return i
}

// TestFuzzParseBufSeeds runs the checks of FuzzParseBuf over the INIT rows
// of the bad-input table, accepted or not, so that plain go test covers
// them too.
func TestFuzzParseBufSeeds(t *testing.T) {
	for _, row := range initRows() {
		for i, a := range row.args {
			if a != "--buf" {
				continue
			}
			s := row.args[i+1]
			b, err := parseBuf(s)
			if (err == nil) != (row.code == 0) {
				t.Errorf("%q: error %v, but the row's exit status is %d", s, err, row.code)
			}
			if err == nil && !strings.Contains(s, "null") {
				if err := checkContents(b); err != nil {
					t.Errorf("%q: %v", s, err)
				}
			}
		}
	}
}

// FuzzLabSettings feeds --set assignments to every lab's options, as
// warplab lab does before anything runs: parsing and resolving must never
// panic, an error must name the setting, and an accepted predict setting
// must be empty, "none" or a sim: spec (the simulator never reads it, so
// nothing later would catch it).
func FuzzLabSettings(f *testing.F) {
	for _, s := range []string{"predict=garbage!!", "predict=cuda", "predict=sim:../../etc/passwd", "predict=sim:t4",
		"sizes=4096,65536", "block-size=128", "block-size=-1", "threads=99999999999999999999", "seeds=1,2,3", "type=float", "=", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		set, err := labs.ParseSet([]string{s})
		if err != nil {
			return
		}
		for _, l := range labs.All() {
			r, err := labs.Resolve(l.Info().Name, l.Options(), set)
			if err != nil {
				if !strings.Contains(err.Error(), l.Info().Name) {
					t.Fatalf("%q: error %q does not name the lab", s, err)
				}
				continue
			}
			if p := r.Text("predict"); p != "" && p != "none" {
				if spec, err := gpu.ParseSpec(p); err != nil || spec.Backend() != "sim" {
					t.Fatalf("%s: predict=%q accepted", l.Info().Name, p)
				}
			}
		}
	})
}
