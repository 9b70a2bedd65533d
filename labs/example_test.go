package labs_test

import (
	"fmt"
	"log"

	"github.com/warplab/warplab/labs"
	_ "github.com/warplab/warplab/labs/all"
)

// Look a lab up by name or alias and list the settings its run takes:
// what `warplab lab day26 --help` shows, and what `--set` changes.
func ExampleLookup() {
	l, err := labs.Lookup("atomics")
	if err != nil {
		log.Fatal(err)
	}
	info := l.Info()
	fmt.Println(info.Name, "-", info.Title)
	for _, o := range l.Options() {
		fmt.Printf("%s (%s) = %q\n", o.Name, o.Kind, o.Default)
	}
	_, err = labs.Resolve(info.Name, l.Options(), map[string]string{"block-size": "96"})
	fmt.Println(err)
	// Output:
	// day26 - Day 26: one sum, three ways
	// sizes (comma-separated whole numbers) = "4096,65536,262144,1048576,4194304"
	// block-size (whole number) = "256"
	// block-sizes (comma-separated whole numbers) = "64,256,1024"
	// baseline (whole number) = "256"
	// determinism-n (whole number) = "4194304"
	// determinism-runs (whole number) = "20"
	// runs (whole number) = ""
	// predict (text) = ""
	// labs: day26: block-size=96: 96: want a power of two (the tree sum halves the block at each step)
}
