package cudac

// This file flattens the program's own namespaces: "namespace util {
// ... }" (and anonymous and nested ones, "namespace a::b { ... }") is
// read as if its braces were not there, "util::f" as "f", and "using
// namespace util;" and "namespace u = util;" are dropped. Names from two
// namespaces that collide are reported as a redefinition at file scope.
// The cooperative_groups and cuda namespaces are resolved before this
// (cg_names.go, atomicref.go); std and other library namespaces are not
// the program's own and stay as they are.

// flattenNamespaces removes the program's own namespaces from toks.
func flattenNamespaces(toks []token) []token {
	word := func(i int, w string) bool { return i < len(toks) && toks[i].kind == tIdent && toks[i].text == w }
	own := map[string]bool{}
	// First pass: the names of the namespaces the source defines.
	for i := range toks {
		if !word(i, "namespace") {
			continue
		}
		for k := i + 1; k < len(toks) && toks[k].kind == tIdent; k++ {
			own[toks[k].text] = true
			if k+1 >= len(toks) || toks[k+1].kind != tColonColon {
				break
			}
			k++
		}
		// namespace u = util;
		if i+3 < len(toks) && toks[i+1].kind == tIdent && toks[i+2].kind == tAssign && toks[i+3].kind == tIdent && own[toks[i+3].text] {
			own[toks[i+1].text] = true
		}
	}
	delete(own, "std")
	if len(own) == 0 {
		return toks
	}
	out := make([]token, 0, len(toks))
	// closes marks, by brace depth, the '}' that end a namespace.
	var closes []bool
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case word(i, "namespace"):
			// namespace [a[::b...]] {   or   namespace u = util;
			k := i + 1
			for k < len(toks) && toks[k].kind == tIdent && own[toks[k].text] {
				k++
				if k < len(toks) && toks[k].kind == tColonColon {
					k++
				}
			}
			if k < len(toks) && toks[k].kind == tLBrace {
				closes = append(closes, true)
				i = k
				continue
			}
			if k+2 < len(toks) && k == i+2 && toks[k].kind == tAssign && toks[k+1].kind == tIdent && own[toks[k+1].text] && toks[k+2].kind == tSemi {
				i = k + 2
				continue
			}
		case word(i, "inline") && word(i+1, "namespace"):
			continue
		case word(i, "using") && word(i+1, "namespace") && i+3 < len(toks) && toks[i+2].kind == tIdent && own[toks[i+2].text] && toks[i+3].kind == tSemi:
			i += 3
			continue
		case t.kind == tIdent && own[t.text] && i+2 < len(toks) && toks[i+1].kind == tColonColon && toks[i+2].kind == tIdent:
			// util::f is f.
			i++
			continue
		case t.kind == tLBrace:
			closes = append(closes, false)
		case t.kind == tRBrace:
			if n := len(closes); n > 0 {
				ns := closes[n-1]
				closes = closes[:n-1]
				if ns {
					continue
				}
			}
		}
		out = append(out, t)
	}
	return out
}
