// Package nbtest runs warplab's notebooks for real, in tests: through
// Jupyter on the GoNB kernel, then in a headless browser, the way GoNB
// tests itself (its internal/nbtests).
//
// # What a notebook test does
//
//	func TestLab(t *testing.T) {
//		env := nbtest.Setup(t) // skips under -short
//		nb := env.Execute(t, "../../notebooks/day26-atomics.ipynb") // fails on a cell error
//		if len(nb.Find("text/html", "One sum, three ways")) == 0 {
//			t.Error("no sum table")
//		}
//		page := env.InspectPage(t, env.ExportHTML(t, nb))
//		for _, c := range page.Charts {
//			if !c.Drawn() {
//				t.Errorf("chart %s did not draw: %+v", c.ID, c)
//			}
//		}
//	}
//
// Setup finds Debian's /usr/bin/jupyter (the python3 first on PATH may be
// another one, without Jupyter's modules) and the gonb, goimports and
// gopls binaries that scripts/setup.sh installs in $(go env GOPATH)/bin.
// It writes a kernel spec of its own for the test, GoNB with -raw_error so
// that errors come back as plain text and with -go_work naming warplab's
// source tree (Env.Root), as the kernel that scripts/setup.sh registers
// does, so that a notebook's cells import warplab's packages with no
// set-up of their own; it puts that folder first on JUPYTER_PATH. The
// user's installed kernel is neither used nor changed.
//
// Execute runs the notebook with jupyter nbconvert --to notebook --execute,
// from the notebook's own folder, so that GONB_DIR is that folder, as in
// the notebook server. The notebook file is not changed: the executed copy
// goes to the test's artifacts directory. Any cell with an error output
// fails the test, reported with the cell's source and what it wrote, and
// so does a notebook that takes longer than Env.Limit as a whole
// (NotebookLimit, the issues' 90 s, unless the test sets another). A
// "!shell" line that fails does not make an error output in GoNB; the
// Go cells after it fail instead.
//
// The executed Notebook is parsed with encoding/json: Cells, Outputs, Find
// (outputs of a MIME type containing a string), PNGs and DecodePNGs
// (image/png outputs), and Errors.
//
// ExportHTML exports it with nbconvert's classic template, which puts
// require.js on the page as the classic notebook does. Opened from disk,
// the export has no notebook server to serve the chart library, so its
// charts show their static images; Served writes a copy whose charts find
// the library as under the notebook server (the data-base-url the classic
// notebook sets, and the files below it). InspectPage opens
// the export in headless Chromium, driven through the DevTools protocol
// over a pipe (--remote-debugging-pipe: no port, no client library), with
// every http and https request refused, so that a page draws only from
// what it holds. It waits for the charts to draw, reads each echarts
// canvas's pixels in the page (getImageData: drawn pixels, and saturated
// ones that only the series draw), measures each image the same way, and
// saves a screenshot of the whole page and one of every chart. For a
// drawn chart it also reads, from echarts, the title, the series (names,
// colours, points in pixels) and the texts that do not fit inside the
// canvas. ChartCanvas.Drawn, ChartCanvas.StaticShown and InkFraction turn
// those numbers into checks.
//
// # Skips, failures and files
//
// Tests that use Setup skip under go test -short, and skip with a message
// to run scripts/setup.sh when Jupyter, GoNB or Chromium is missing.
// With WARPLAB_REQUIRE_JUPYTER=1 (scripts/test.sh sets it) those skips
// are failures, so a broken set-up cannot pass as skipped tests.
//
// Each test's files (the executed notebook, its HTML export, the
// screenshot) go to a temporary directory, removed after the test, or to
// $WARPLAB_NBTEST_ARTIFACTS/TestName when that variable is set, to look
// at afterwards. WARPLAB_CHROMIUM names another Chromium binary.
//
// A smoke notebook, testdata/smoke.ipynb, proves the whole chain: it
// imports the checkout's packages, shows a charts.Table, an echarts chart
// and a gonum/plot PNG, and TestSmokeNotebook checks all three in the
// browser. TestNotebooks (notebooks_test.go) runs every lab notebook of
// notebooks/ the same way; it lives here so that the folder students see
// holds only notebooks. Notebooks are committed without outputs.
package nbtest
