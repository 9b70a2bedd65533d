// Package golden checks test output against golden files, the one
// mechanism warplab's tests use for them.
//
// A test calls Check with the path of its golden file (by convention under
// the package's testdata/) and the output it produced. Run normally, Check
// fails the test when the two differ and reports the first line that
// differs; run with the -update flag, it writes the output to the file
// instead, so that the change shows up in the diff to review:
//
//	go test ./charts -update
//
// The flag is registered by this package, so every test binary that
// imports it has exactly one -update flag with one meaning.
package golden
