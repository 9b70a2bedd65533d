// Package listing shows CUDA C source in a lab's notebook: as HTML with
// the syntax coloured and the lines numbered, and as plain text. It is
// for the labs' own kernels and for kernels a student writes; it colours
// tokens and does not parse, so a listing never fails.
package listing

import (
	"fmt"
	"html"
	"strings"
)

// Listing is a named source file, shown by charts.Show as a coloured,
// line-numbered block of code.
type Listing struct {
	// Name is the file name shown above the code ("tree.cu").
	Name   string
	Source string
}

// String returns the listing as plain text: the name, then the source.
func (l Listing) String() string {
	return "// " + l.Name + "\n" + strings.TrimRight(l.Source, "\n") + "\n"
}

// Markdown returns the listing as a fenced code block.
func (l Listing) Markdown() string {
	return "`" + l.Name + "`\n\n```cuda\n" + strings.TrimRight(l.Source, "\n") + "\n```\n"
}

// Token classes, and the colour each is drawn in.
type class int

const (
	plain class = iota
	comment
	keyword
	typeName
	builtin
	number
	str
	preproc
)

var colors = map[class]string{
	comment:  "#6a737d;font-style:italic",
	keyword:  "#a626a4;font-weight:bold",
	typeName: "#0550ae",
	builtin:  "#b35900",
	number:   "#098658",
	str:      "#a31515",
	preproc:  "#8250df",
}

var words = map[string]class{}

func init() {
	for _, w := range strings.Fields(`if else for while do return break continue switch case default
		template typename const constexpr static static_assert static_cast reinterpret_cast
		__global__ __device__ __host__ __shared__ __constant__ __restrict__ __forceinline__
		extern struct sizeof volatile inline using typedef true false nullptr`) {
		words[w] = keyword
	}
	for _, w := range strings.Fields(`void bool char short int long unsigned signed float double
		size_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t dim3`) {
		words[w] = typeName
	}
	for _, w := range strings.Fields(`threadIdx blockIdx blockDim gridDim warpSize
		atomicAdd atomicSub atomicExch atomicMin atomicMax atomicCAS atomicAnd atomicOr atomicXor atomicInc atomicDec
		__syncthreads __syncwarp __threadfence __threadfence_block
		__shfl_sync __shfl_down_sync __shfl_up_sync __shfl_xor_sync __ballot_sync __any_sync __all_sync
		__activemask __popc __ffs __float_as_int __int_as_float printf`) {
		words[w] = builtin
	}
}

// HTML returns the listing as a self-contained HTML fragment: the name,
// then the code with line numbers and coloured tokens, in inline styles.
func (l Listing) HTML() string {
	var b strings.Builder
	b.WriteString(`<div style="margin:6px 0;">`)
	fmt.Fprintf(&b, `<div style="font-family:sans-serif;font-size:12px;color:#555;margin-bottom:2px;">%s</div>`, html.EscapeString(l.Name))
	b.WriteString(`<pre style="margin:0;padding:8px 10px;background:#f6f8fa;border:1px solid #e1e4e8;border-radius:4px;font-size:12.5px;line-height:1.45;overflow-x:auto;">`)
	lines := strings.Split(strings.TrimRight(l.Source, "\n"), "\n")
	width := len(fmt.Sprint(len(lines)))
	inComment := false
	for i, line := range lines {
		fmt.Fprintf(&b, `<span style="color:#aaa;user-select:none;">%*d  </span>`, width, i+1)
		inComment = highlightLine(&b, line, inComment)
		b.WriteByte('\n')
	}
	b.WriteString("</pre></div>")
	return b.String()
}

// highlightLine writes one line of source as HTML; inComment says the
// line starts inside a /* comment, and the result whether it ends inside
// one.
func highlightLine(b *strings.Builder, line string, inComment bool) bool {
	emit := func(c class, s string) {
		if c == plain {
			b.WriteString(html.EscapeString(s))
			return
		}
		fmt.Fprintf(b, `<span style="color:%s;">%s</span>`, colors[c], html.EscapeString(s))
	}
	i := 0
	if inComment {
		end := strings.Index(line, "*/")
		if end < 0 {
			emit(comment, line)
			return true
		}
		emit(comment, line[:end+2])
		i = end + 2
	}
	if strings.HasPrefix(strings.TrimSpace(line[i:]), "#") {
		emit(preproc, line[i:])
		return false
	}
	start := i
	flush := func(j int) {
		if j > start {
			emit(plain, line[start:j])
		}
	}
	for i < len(line) {
		c := line[i]
		switch {
		case strings.HasPrefix(line[i:], "//"):
			flush(i)
			emit(comment, line[i:])
			return false
		case strings.HasPrefix(line[i:], "/*"):
			flush(i)
			end := strings.Index(line[i+2:], "*/")
			if end < 0 {
				emit(comment, line[i:])
				return true
			}
			emit(comment, line[i:i+2+end+2])
			i += 2 + end + 2
			start = i
		case c == '"' || c == '\'':
			flush(i)
			j := i + 1
			for j < len(line) && line[j] != c {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(line))
			emit(str, line[i:j])
			i, start = j, j
		case isIdentStart(c):
			j := i
			for j < len(line) && (isIdentStart(line[j]) || isDigit(line[j])) {
				j++
			}
			if cl, ok := words[line[i:j]]; ok {
				flush(i)
				emit(cl, line[i:j])
				start = j
			}
			i = j
		case isDigit(c) || (c == '.' && i+1 < len(line) && isDigit(line[i+1])):
			// A digit inside an identifier was consumed with it above.
			flush(i)
			j := i
			for j < len(line) && (isDigit(line[j]) || isIdentStart(line[j]) || line[j] == '.' ||
				((line[j] == '+' || line[j] == '-') && (line[j-1] == 'e' || line[j-1] == 'E') && !strings.HasPrefix(line[i:], "0x"))) {
				j++
			}
			emit(number, line[i:j])
			i, start = j, j
		default:
			i++
		}
	}
	flush(len(line))
	return false
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
