package labs_test

import (
	"testing"

	"github.com/warplab/warplab/labs"
)

func TestVariantFor(t *testing.T) {
	a := labs.VariantFor("queue", "", "ada")
	if a != labs.VariantFor("queue", "", "  ADA ") {
		t.Error("the same student, spelled with other case and space, has another variant")
	}
	if a == labs.VariantFor("queue", "", "bob") {
		t.Error("two students have the same seed")
	}
	if a == labs.VariantFor("queue", "2027 spring", "ada") {
		t.Error("another course gives the same seed")
	}
	if a == labs.VariantFor("counters", "", "ada") {
		t.Error("another lab gives the same seed")
	}
	// Pick spreads a class over its choices.
	seen := map[int]int{}
	for i := range 300 {
		seen[labs.Pick(labs.VariantFor("queue", "", string(rune('a'+i%26))+string(rune('a'+i/26))), 8, 1, 2, 3)]++
	}
	for _, c := range []int{1, 2, 3} {
		if seen[c] < 50 {
			t.Errorf("choice %d picked %d times of 300: %v", c, seen[c], seen)
		}
	}
}

func TestIdentity(t *testing.T) {
	t.Setenv("JUPYTERHUB_USER", "hub-user")
	if got := labs.Identity(""); got != "hub-user" {
		t.Errorf("no student cell: %q, want the hub's user", got)
	}
	if got := labs.Identity(" ada "); got != "ada" {
		t.Errorf("student cell: %q, want ada", got)
	}
}

func ExampleVariantFor() {
	seed := labs.VariantFor("queue", "2026 fall", "ada")
	light := labs.Pick(seed, 0, 4, 8, 16)
	_ = light // each student's own light cost
}
