package cudac

// This file resolves the cooperative_groups namespace before parsing:
// "namespace cg = cooperative_groups;" and "using namespace
// cooperative_groups;" are consumed, and every qualified name cg::X or
// cooperative_groups::X becomes one identifier token spelled
// "cooperative_groups::X", which the parser and checker know. Other
// namespaces are still refused by the parser.

// cgNamespace is the namespace's name and the prefix of its names.
const (
	cgNamespace = "cooperative_groups"
	cgPrefix    = cgNamespace + "::"
)

// cgNames are the cooperative_groups names the subset knows.
var cgNames = map[string]bool{
	"thread_block": true, "thread_group": true, "grid_group": true, "coalesced_group": true,
	"thread_block_tile": true, "this_thread_block": true, "this_grid": true,
	"tiled_partition": true, "coalesced_threads": true, "labeled_partition": true,
	"binary_partition": true, "sync": true, "reduce": true, "plus": true, "less": true,
	"greater": true, "bit_and": true, "bit_or": true, "bit_xor": true,
}

// cgTypeNames are the group types without template arguments.
var cgTypeNames = []string{"thread_block", "thread_group", "grid_group", "coalesced_group", "thread_block_tile"}

// cgTemplateNames are the cooperative_groups templates a call may name
// with explicit arguments: tiled_partition<32>(b), plus<float>().
var cgTemplateNames = []string{"tiled_partition", "plus", "less", "greater", "bit_and", "bit_or", "bit_xor", "reduce"}

// resolveNamespaces rewrites the cooperative_groups namespace's aliases
// and qualified names; see the file comment.
func resolveNamespaces(toks []token, d *diags) []token {
	aliases := map[string]bool{cgNamespace: true}
	using := false
	// Names the source declares itself (void reduce(...)) are not taken
	// from the namespace by a using-directive.
	own := map[string]bool{}
	for i := 1; i+1 < len(toks); i++ {
		t := toks[i]
		prev := toks[i-1]
		if t.kind == tIdent && cgNames[t.text] && toks[i+1].kind == tLParen &&
			(prev.kind == tIdent && !keywords[prev.text] && prev.text != "return" || prev.kind == tStar || prev.kind == tGt) {
			own[t.text] = true
		}
	}
	out := make([]token, 0, len(toks))
	word := func(i int, w string) bool { return i < len(toks) && toks[i].kind == tIdent && toks[i].text == w }
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		// namespace cg = cooperative_groups;
		case word(i, "namespace") && i+4 < len(toks) && toks[i+1].kind == tIdent && toks[i+2].kind == tAssign &&
			toks[i+3].kind == tIdent && aliases[toks[i+3].text] && toks[i+4].kind == tSemi:
			aliases[toks[i+1].text] = true
			i += 4
			continue
		// using namespace cooperative_groups;
		case word(i, "using") && word(i+1, "namespace") && i+3 < len(toks) && toks[i+2].kind == tIdent &&
			aliases[toks[i+2].text] && toks[i+3].kind == tSemi:
			using = true
			i += 3
			continue
		case t.kind == tIdent && aliases[t.text] && i+2 < len(toks) && toks[i+1].kind == tColonColon && toks[i+2].kind == tIdent:
			name := toks[i+2]
			if !cgNames[name.text] {
				d.errorf(d.tpos(t), "'%s::%s' is not supported (the cooperative groups subset has %s)",
					t.text, name.text, cgNameList())
			}
			q := t
			q.text = cgPrefix + name.text
			q.end = name.end
			out = append(out, q)
			i += 2
			continue
		case using && t.kind == tIdent && cgNames[t.text] && !own[t.text] && (len(out) == 0 ||
			out[len(out)-1].kind != tDot && out[len(out)-1].kind != tArrow && out[len(out)-1].kind != tColonColon):
			q := t
			q.text = cgPrefix + t.text
			out = append(out, q)
			continue
		}
		out = append(out, t)
	}
	return out
}

func cgNameList() string {
	return "thread_block, thread_group, thread_block_tile, coalesced_group, grid_group, this_thread_block, " +
		"this_grid, tiled_partition, coalesced_threads, labeled_partition, binary_partition, sync, reduce " +
		"and plus, less, greater, bit_and, bit_or, bit_xor"
}
