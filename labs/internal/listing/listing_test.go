package listing

import (
	"strings"
	"testing"
)

func TestHTML(t *testing.T) {
	l := Listing{Name: "k.cu", Source: "/* a\n b */ __global__ void k(float* x) {\n  x[0] = 1.5f; // one & <two>\n#define N 4\n  printf(\"%d\\n\", 0x1F);\n}\n"}
	got := l.HTML()
	for _, want := range []string{
		`>k.cu</div>`,
		`color:#6a737d;font-style:italic;">/* a</span>`,
		`color:#6a737d;font-style:italic;"> b */</span>`,
		`color:#a626a4;font-weight:bold;">__global__</span>`,
		`color:#0550ae;">void</span>`,
		`color:#098658;">1.5f</span>`,
		`// one &amp; &lt;two&gt;</span>`,
		`color:#8250df;">#define N 4</span>`,
		`color:#a31515;">&#34;%d\n&#34;</span>`,
		`color:#098658;">0x1F</span>`,
		`color:#b35900;">printf</span>`,
		`>6  </span>}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("HTML lacks %q:\n%s", want, got)
		}
	}
	// Identifiers with digits stay plain; keywords inside them are not coloured.
	if got := (Listing{Source: "int x2 = ifx + 1;"}).HTML(); strings.Contains(got, ">ifx<") || !strings.Contains(got, " x2 = ifx + ") {
		t.Errorf("identifiers: %s", got)
	}
}

func TestStringAndMarkdown(t *testing.T) {
	l := Listing{Name: "k.cu", Source: "int x;\n\n"}
	if got, want := l.String(), "// k.cu\nint x;\n"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := l.Markdown(), "`k.cu`\n\n```cuda\nint x;\n```\n"; got != want {
		t.Errorf("Markdown() = %q, want %q", got, want)
	}
}
