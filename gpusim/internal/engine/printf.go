package engine

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// printfRec is one line of device printf output.
type printfRec struct {
	block  int64
	thread int
	seq    int64
	text   string
}

// maxPrintfBytes bounds a launch's printf output, like the device's FIFO
// (cudaLimitPrintfFifoSize, 1 MiB by default): output past it is dropped.
const maxPrintfBytes = 1 << 20

func (x *exec) mkPrintf(in *ir.Inst) step {
	f := x.k.Formats[in.Aux]
	args := make([]int, len(in.Args))
	for i, r := range in.Args {
		args[i] = ri(r)
	}
	dst := ri(in.Dst)
	return func(w *warp) stop {
		c := w.blk.ctx
		r := w.regs
		vals := make([]uint64, len(args))
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			for i, a := range args {
				vals[i] = r[a+l]
			}
			if c.printfBytes < maxPrintfBytes {
				s := FormatC(f.Text, vals, f.Kinds)
				c.printfBytes += len(s)
				w.printfs++
				c.printfs = append(c.printfs, printfRec{block: w.blk.linear, thread: w.idx*32 + l, seq: w.printfs, text: s})
			} else {
				c.printfCut++
			}
			r[dst+l] = uint64(len(args))
		}
		c.count.Printfs++
		return run
	}
}

// FormatC formats like C's printf, with the argument values as register
// bits of the given kinds (after printf's default promotions).
func FormatC(format string, vals []uint64, kinds []cudac.Kind) string {
	var b strings.Builder
	ai := 0
	next := func() (uint64, cudac.Kind, bool) {
		if ai >= len(vals) {
			return 0, cudac.Invalid, false
		}
		ai++
		return vals[ai-1], kinds[ai-1], true
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
			j++
		}
		flags := format[i+1 : j]
		// The width and the precision: digits, or '*' for an int argument
		// (a negative width is the '-' flag, a negative precision none),
		// each at most cudac.MaxPrintfWidth.
		number := func() (string, bool) {
			if j < len(format) && format[j] == '*' {
				j++
				v, _, ok := next()
				if !ok {
					return "", false
				}
				return strconv.Itoa(int(int32(uint32(v)))), true
			}
			k := j
			for j < len(format) && format[j] >= '0' && format[j] <= '9' {
				j++
			}
			return format[k:j], true
		}
		width, ok := number()
		if !ok {
			b.WriteString(format[i:])
			break
		}
		if strings.HasPrefix(width, "-") {
			flags, width = flags+"-", width[1:]
		}
		prec := ""
		if j < len(format) && format[j] == '.' {
			j++
			p, ok := number()
			if !ok {
				b.WriteString(format[i:])
				break
			}
			prec = "." + p
			if strings.HasPrefix(p, "-") {
				prec = ""
			}
		}
		width, prec = clampWidth(width), clampWidth(prec)
		for j < len(format) && strings.IndexByte("hlLqjzt", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		spec := flags + width + prec
		verb := format[j]
		i = j
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		v, k, ok := next()
		if !ok {
			b.WriteString("%" + spec + string(verb))
			continue
		}
		b.WriteString(formatOne(spec, verb, v, k))
	}
	return b.String()
}

// clampWidth cuts a width (digits) or a precision ('.' and digits) to
// cudac.MaxPrintfWidth: a '*' argument may ask for more than a device's
// printf buffer holds (and more than Go's fmt formats).
func clampWidth(s string) string {
	dot := strings.HasPrefix(s, ".")
	n, err := strconv.Atoi(strings.TrimPrefix(s, "."))
	// Digits too many for an int (a range error) are a huge width too.
	huge := errors.Is(err, strconv.ErrRange)
	if !huge && (err != nil || n <= cudac.MaxPrintfWidth) {
		return s
	}
	if dot {
		return "." + strconv.Itoa(cudac.MaxPrintfWidth)
	}
	return strconv.Itoa(cudac.MaxPrintfWidth)
}

func formatOne(spec string, verb byte, v uint64, k cudac.Kind) string {
	f := func(goVerb string, arg any) string { return fmt.Sprintf("%"+spec+goVerb, arg) }
	signed := func() int64 {
		switch k {
		case cudac.Int64, cudac.Uint64, cudac.Pointer:
			return int64(v)
		}
		return int64(int32(uint32(v)))
	}
	unsigned := func() uint64 {
		switch k {
		case cudac.Int64, cudac.Uint64, cudac.Pointer:
			return v
		}
		return uint64(uint32(v))
	}
	float := func() float64 {
		if k == cudac.Float32 {
			return float64(math.Float32frombits(uint32(v)))
		}
		return math.Float64frombits(v)
	}
	switch verb {
	case 'd', 'i':
		return f("d", signed())
	case 'u':
		return f("d", unsigned())
	case 'x':
		return f("x", unsigned())
	case 'X':
		return f("X", unsigned())
	case 'o':
		return f("o", unsigned())
	case 'c':
		return f("c", rune(uint8(v)))
	case 'f', 'F':
		return f("f", float())
	case 'e', 'E':
		return f(string(verb), float())
	case 'g', 'G':
		return f(string(verb), float())
	case 'a', 'A':
		return strconv.FormatFloat(float(), 'x', -1, 64)
	case 'p':
		return "0x" + strconv.FormatUint(v, 16)
	case 's':
		return "(string)"
	}
	return "%" + spec + string(verb)
}
