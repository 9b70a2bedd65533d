#!/usr/bin/env bash
# test.sh installs what the tests need (scripts/setup.sh), runs the
# repository checks (scripts/check.sh: gofmt, go vet, generated code fresh,
# the build and the backend tests without cgo), then the Go tests of the
# whole module, then each fuzz target for a few seconds (scripts/fuzz.sh).
# Arguments go to go test, before the package pattern: scripts/test.sh
# -short, scripts/test.sh -run Notebook -v.
#
# It sets WARPLAB_REQUIRE_JUPYTER=1, so the notebook tests fail, rather
# than skip, when Jupyter, GoNB or Chromium is missing.
#
# With no arguments (the whole suite, as CI runs it) it then builds and
# tests the Docker images with scripts/image-test.sh, which skips when
# podman is missing unless WARPLAB_REQUIRE_IMAGE=1 (CI sets it).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"

gobin=$(go env GOBIN)
[ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
export PATH="$gobin:$PATH"
export WARPLAB_REQUIRE_JUPYTER=1

cd "$root"
scripts/check.sh
# The notebook tests run every lab notebook through Jupyter in one test
# binary: more than go test's default 10-minute limit on a 2-core machine.
go test -timeout 60m "$@" ./...
# Each fuzz target for a bounded time after its seed corpus (about a
# minute in all once the instrumented builds are cached).
scripts/fuzz.sh
if [ $# -eq 0 ]; then
	"$root/scripts/image-test.sh"
fi
