package nbtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/internal/testenv"
)

// RequireEnv names the environment variable that, set to 1, turns every
// skip for a missing Jupyter, GoNB or Chromium into a failure.
// scripts/test.sh sets it, so that a broken set-up cannot pass as skipped
// tests.
const RequireEnv = "WARPLAB_REQUIRE_JUPYTER"

// ArtifactsEnv names the environment variable that, when set to a
// directory, keeps each test's executed notebook, HTML export and
// screenshot under DIR/TestName instead of a temporary directory.
const ArtifactsEnv = "WARPLAB_NBTEST_ARTIFACTS"

// NotebookLimit is the longest a whole notebook may take (Env.Limit): the
// course issues' bound, "the whole notebook under 90 s on the simulator",
// as a student's machine or a fresh CI machine of the development kind (2
// cores) runs it, the kernel's start and the GoNB build of the cells
// included. No headroom is added for load: the slowest lab notebook runs
// well inside it on the shared development machine (docs/speed.md).
const NotebookLimit = 90 * time.Second

// Env is a Jupyter installation able to run notebooks on the GoNB kernel.
type Env struct {
	// Jupyter is the jupyter command: Debian's /usr/bin/jupyter, which
	// runs Debian's python3 (the python3 first on PATH may be another
	// one, without Jupyter's modules).
	Jupyter string
	// CellTimeout is the longest one cell may run; zero means 5 minutes.
	CellTimeout time.Duration
	// Root is warplab's source tree (the folder of its go.mod): the test
	// kernel starts every notebook with a go.work that uses it, as the
	// kernel that scripts/setup.sh registers does.
	Root string
	// Limit is the longest a whole notebook may take in Execute, from the
	// kernel's start to the end of its last cell; zero means NotebookLimit,
	// a negative Limit none.
	Limit time.Duration

	env       []string // environment of the jupyter commands
	artifacts string   // where the test's files go
}

// Setup returns the Jupyter environment for a test that runs notebooks.
// It skips the test under go test -short, and when Jupyter, the gonb
// binary or its helpers (goimports, gopls) are missing, with a message
// to run scripts/setup.sh; with WARPLAB_REQUIRE_JUPYTER=1 they are
// failures instead.
//
// The kernel the notebooks run on is GoNB with -raw_error (errors as
// plain text, for test reports), from a kernel spec written for the test
// alone; the installed spec is not used or changed. $(go env GOPATH)/bin
// is put first on the kernel's PATH, where scripts/setup.sh installs gonb.
func Setup(t testing.TB) *Env {
	t.Helper()
	if testing.Short() {
		t.Skip("nbtest: runs notebooks through Jupyter: skipped under -short")
	}
	jupyter := "/usr/bin/jupyter"
	if _, err := os.Stat(jupyter); err != nil {
		missing(t, "Jupyter (%s) is not installed", jupyter)
	}
	gobin, err := goBin()
	if err != nil {
		missing(t, "%v", err)
	}
	path := gobin + string(os.PathListSeparator) + os.Getenv("PATH")
	var gonb string
	for _, tool := range []string{"gonb", "goimports", "gopls"} {
		p, err := lookPath(tool, path)
		if err != nil {
			missing(t, "%s is not installed (looked in %s and PATH)", tool, gobin)
		}
		if tool == "gonb" {
			gonb = p
		}
	}
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	e := &Env{Jupyter: jupyter, Root: root, artifacts: artifactsDir(t)}
	kernels := filepath.Join(e.artifacts, "jupyter")
	if err := writeKernelSpec(filepath.Join(kernels, "kernels", "gonb"), gonb, path, root); err != nil {
		t.Fatal(err)
	}
	e.env = append(os.Environ(),
		"PATH="+path,
		// Searched before the user's own kernels: the test kernel wins.
		"JUPYTER_PATH="+kernels,
	)
	return e
}

// missing skips the test, or fails it when RequireEnv is set.
func missing(t testing.TB, format string, args ...any) {
	t.Helper()
	testenv.SkipOrFail(t, RequireEnv, "nbtest: "+fmt.Sprintf(format, args...)+": run scripts/setup.sh")
}

// goBin returns where go install puts binaries.
func goBin() (string, error) {
	out, err := exec.Command("go", "env", "GOBIN", "GOPATH").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) == 2 && lines[0] != "" {
		return lines[0], nil
	}
	gopath := filepath.SplitList(lines[len(lines)-1])
	if len(gopath) == 0 || gopath[0] == "" {
		return "", fmt.Errorf("go env GOPATH is empty")
	}
	return filepath.Join(gopath[0], "bin"), nil
}

// lookPath finds an executable in the directories of path.
func lookPath(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found", name)
}

// ModuleRoot returns the folder of warplab's go.mod, found from the
// current directory (a test runs in its package's folder).
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("nbtest: go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("nbtest: not inside warplab's module (go env GOMOD is %q)", mod)
	}
	return filepath.Dir(mod), nil
}

// writeKernelSpec writes a GoNB kernel spec for tests into dir: GoNB with
// plain-text errors, starting every notebook with a go.work that uses the
// module at root (GoNB's -go_work), as scripts/setup.sh's kernel does.
func writeKernelSpec(dir, gonb, path, root string) error {
	spec := map[string]any{
		"argv":           []string{gonb, "--kernel", "{connection_file}", "--raw_error", "--go_work=" + root},
		"display_name":   "Go (gonb, nbtest)",
		"language":       "go",
		"interrupt_mode": "message",
		"env":            map[string]string{"PATH": path},
	}
	b, err := json.MarshalIndent(spec, "", "  ")
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "kernel.json"), b, 0o644)
	}
	if err != nil {
		return fmt.Errorf("nbtest: writing the test kernel spec: %w", err)
	}
	return nil
}

// artifactsDir returns where the test keeps its files.
func artifactsDir(t testing.TB) string {
	t.Helper()
	root := os.Getenv(ArtifactsEnv)
	if root == "" {
		return t.TempDir()
	}
	dir := filepath.Join(root, strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()))
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// ArtifactsDir returns the directory where the test's files go: the
// executed notebook, its HTML export, screenshots.
func (e *Env) ArtifactsDir() string { return e.artifacts }

// run runs jupyter with args, killing it at the test's deadline.
func (e *Env) run(t testing.TB, dir string, args ...string) error {
	t.Helper()
	ctx, cancel := testContext(t)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.Jupyter, args...)
	cmd.Dir = dir
	cmd.Env = e.env
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("%v (the test's deadline)", ctx.Err())
		}
		return fmt.Errorf("jupyter %s: %v\n%s", args[0], err, out.String())
	}
	return nil
}

// Execute runs every cell of the notebook at path through Jupyter on the
// GoNB kernel and returns the executed notebook, written to the test's
// artifacts directory; the notebook file itself is not changed. The
// kernel starts in the notebook's own folder, as it would in the
// notebook server, so GONB_DIR is that folder. The test fails if a cell
// fails, with the failed cell's source and output, if a cell runs longer
// than CellTimeout, or if the whole notebook took longer than Limit.
func (e *Env) Execute(t testing.TB, path string) *Notebook {
	t.Helper()
	start := time.Now()
	nb, err := e.execute(t, path)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("nbtest: executed %s in %v", path, took.Round(100*time.Millisecond))
	if err := checkDuration(path, took, e.Limit); err != nil {
		t.Error(err)
	}
	return nb
}

// checkDuration returns an error when a notebook at path that took took
// is over limit (zero: NotebookLimit; negative: none).
func checkDuration(path string, took, limit time.Duration) error {
	if limit == 0 {
		limit = NotebookLimit
	}
	if limit < 0 || took <= limit {
		return nil
	}
	return fmt.Errorf("nbtest: %s took %v to run, over the %v a whole notebook may take on the simulator (nbtest.NotebookLimit): make its default settings smaller or its experiments cheaper",
		path, took.Round(100*time.Millisecond), limit)
}

// execute is Execute, returning what fails.
func (e *Env) execute(t testing.TB, path string) (*Notebook, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	timeout := e.CellTimeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	name := strings.TrimSuffix(filepath.Base(abs), ".ipynb") + ".executed"
	// --allow-errors: write the executed notebook even when a cell fails,
	// so that the failure is reported from its outputs.
	err = e.run(t, filepath.Dir(abs), "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
		fmt.Sprintf("--ExecutePreprocessor.timeout=%d", int(timeout.Seconds())),
		"--ExecutePreprocessor.kernel_name=gonb",
		"--output-dir", e.artifacts, "--output", name, abs)
	if err != nil {
		return nil, fmt.Errorf("nbtest: executing %s: %w", path, err)
	}
	nb, err := ReadNotebook(filepath.Join(e.artifacts, name+".ipynb"))
	if err != nil {
		return nil, err
	}
	if errs := nb.Errors(); len(errs) > 0 {
		return nb, fmt.Errorf("nbtest: %s: %d cell(s) failed; the first:\n%w", path, len(errs), errs[0])
	}
	return nb, nil
}

// ExportHTML exports an executed notebook to HTML with nbconvert's
// classic template (which loads require.js, as the classic notebook
// does) and returns the HTML file's path.
func (e *Env) ExportHTML(t testing.TB, nb *Notebook) string {
	t.Helper()
	name := strings.TrimSuffix(filepath.Base(nb.Path), ".ipynb")
	dir := filepath.Dir(nb.Path)
	if err := e.run(t, dir, "nbconvert", "--to", "html", "--template", "classic",
		"--output-dir", dir, "--output", name, nb.Path); err != nil {
		t.Fatalf("nbtest: exporting %s to HTML: %v", nb.Path, err)
	}
	return filepath.Join(dir, name+".html")
}

// testContext returns a context that ends shortly before the test's
// deadline (go test -timeout), so that a hung command is killed and
// reported rather than the whole test binary panicking.
func testContext(t testing.TB) (context.Context, context.CancelFunc) {
	if dt, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if d, ok := dt.Deadline(); ok {
			return context.WithDeadline(context.Background(), d.Add(-10*time.Second))
		}
	}
	return context.WithCancel(context.Background())
}
