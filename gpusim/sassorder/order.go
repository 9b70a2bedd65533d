package sassorder

import (
	"errors"
	"fmt"
	"strings"
)

// Instr is one instruction of a SASS listing.
type Instr struct {
	Line   int    // 1-based line in the listing
	Addr   string // the address comment's digits, e.g. "00a0"
	Opcode string // the mnemonic without its modifiers, e.g. "ATOMG"
	Text   string // the instruction without its predicate, e.g. "ATOMG.E.ADD.STRONG.GPU PT, R3, ..."
}

func (in Instr) String() string { return fmt.Sprintf("/*%s*/ %s (line %d)", in.Addr, in.Text, in.Line) }

// Order is what Analyze found before a kernel's first global atomic.
type Order struct {
	// Atomic is the first global atomic; Instrs is 0 when the kernel has
	// none (Atomic is then the zero Instr).
	Atomic Instr
	// LastLDC is the last LDC before Atomic and FirstULDC the first ULDC
	// before LastLDC (zero Instrs where there is none).
	LastLDC, FirstULDC Instr
	// ConstFirst says a ULDC comes before LastLDC.
	ConstFirst bool
	// Instrs counts the listing's instructions.
	Instrs int
}

// Analyze reads one kernel's SASS listing and reports whether a ULDC comes
// before the last LDC that precedes the kernel's first global atomic. It
// fails when the text holds no instruction lines.
func Analyze(sass string) (Order, error) {
	ins := Instructions(sass)
	if len(ins) == 0 {
		return Order{}, errors.New("sassorder: no instructions in the listing (want cuobjdump --dump-sass or nvdisasm -c output, lines such as \"/*0000*/ LDC R1, c[0x0][0x28] ;\")")
	}
	o := Order{Instrs: len(ins)}
	var uldc []Instr // the ULDCs so far
	for _, in := range ins {
		switch in.Opcode {
		case "ULDC":
			uldc = append(uldc, in)
		case "LDC":
			o.LastLDC = in
			if len(uldc) > 0 {
				o.FirstULDC = uldc[0]
			}
		case "ATOMG", "ATOM", "RED", "REDG":
			o.Atomic = in
			o.ConstFirst = o.FirstULDC.Line != 0
			return o, nil
		}
	}
	return Order{Instrs: len(ins)}, nil
}

// Instructions returns the instruction lines of a SASS listing: lines that
// start with an address comment (/*00a0*/) followed by an instruction, as
// cuobjdump --dump-sass and nvdisasm -c print them. Encoding-only lines,
// labels, headers and comments are skipped.
func Instructions(sass string) []Instr {
	var out []Instr
	for i, line := range strings.Split(sass, "\n") {
		t := strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(t, "/*")
		if !ok {
			continue
		}
		addr, rest, ok := strings.Cut(rest, "*/")
		if !ok || addr == "" || !isHex(addr) {
			continue
		}
		rest = strings.TrimSpace(rest)
		rest = strings.TrimPrefix(rest, "{") // nvdisasm's dual-issue braces
		rest = strings.TrimSpace(rest)
		if rest == "" || strings.HasPrefix(rest, "/*") {
			continue
		}
		if rest[0] == '@' { // predicate: @P0, @!P0, @UP0, @!PT
			_, after, found := strings.Cut(rest, " ")
			if !found {
				continue
			}
			rest = strings.TrimSpace(after)
		}
		if code, _, found := strings.Cut(rest, ";"); found {
			rest = strings.TrimSpace(code)
		}
		mnem, _, _ := strings.Cut(rest, " ")
		op, _, _ := strings.Cut(mnem, ".")
		if op == "" || !isOpcode(op) {
			continue
		}
		out = append(out, Instr{Line: i + 1, Addr: addr, Opcode: op, Text: rest})
	}
	return out
}

func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func isOpcode(s string) bool {
	for _, c := range s {
		if !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return 'A' <= s[0] && s[0] <= 'Z'
}

// Function is one function of a listing of several.
type Function struct {
	Name string // the symbol, e.g. _Z9popThreadPjjjiijPf
	SASS string // its listing, from its "Function : NAME" line
}

// Functions cuts a cuobjdump --dump-sass listing into its functions, in
// the listing's order: each from its "Function : NAME" line to the next
// function's or the end.
func Functions(dump string) []Function {
	var out []Function
	var b strings.Builder
	flush := func() {
		if len(out) > 0 {
			out[len(out)-1].SASS = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(dump, "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "Function : "); ok {
			flush()
			out = append(out, Function{Name: strings.TrimSpace(name)})
		}
		if len(out) > 0 {
			b.WriteString(line)
		}
	}
	flush()
	return out
}
