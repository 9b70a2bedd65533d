#!/usr/bin/env bash
# check.sh runs the checks every commit must pass besides the tests, and
# fails (exit 1) when any of them does:
#
#   - gofmt -l prints nothing;
#   - go vet ./... is clean, with cgo and without (the cudarun stub);
#   - go generate ./... leaves the tree as it was: generated code is not
#     stale (it needs a git checkout; elsewhere it is skipped with a note);
#   - the module builds with CGO_ENABLED=0, and the tests of cudarun (its
#     stub) and gpu pass without cgo;
#   - the repository stands alone: no source or document cites a path
#     outside it or a course document by its file number (docs/measurements.md
#     names the documents by title); calibration/evidence/ is exempt, since it
#     keeps runs as they were printed;
#   - every compact copy of a GPU run's data that the module reads is the
#     same as its source in calibration/evidence/ (the table between the
#     "copies" markers of calibration/README.md);
#   - every commit after subject_base (main's head when the rule came in;
#     older subjects are history and stay as they are) has a subject of 72
#     characters or fewer (scripts/commit-msg says so at commit time);
#   - no image gets the GPU runs: calibration/ is its own module and listed
#     in .dockerignore, no Dockerfile line copies it, and no folder named
#     evidence lies outside it (the Dockerfile copies the rest of the build
#     context into the student image's source tree).
#
# scripts/test.sh runs it before go test; run it alone before a merge.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

failed=()
step() { echo "check: $1" >&2; }
fail() { echo "check: FAILED: $1" >&2; failed+=("$1"); }

step "gofmt -l ."
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "$unformatted" >&2
	fail "gofmt: the files above need gofmt -w"
fi

step "go vet ./..."
go vet ./... || fail "go vet ./..."
step "CGO_ENABLED=0 go vet ./cudarun/..."
CGO_ENABLED=0 go vet ./cudarun/... || fail "CGO_ENABLED=0 go vet ./cudarun/..."

step "go generate ./... leaves the tree unchanged"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# Compare the whole state (status and diff) before and after, so that
	# the check works in a tree with uncommitted changes too.
	state() { git status --porcelain=v1 --untracked-files=all && git diff --no-ext-diff --binary; }
	before=$(state | sha256sum)
	go generate ./... || fail "go generate ./..."
	after=$(state | sha256sum)
	if [ "$before" != "$after" ]; then
		git status --short >&2
		fail "go generate changed files (shown above): commit the regenerated code"
	fi
else
	echo "check: not a git checkout: go generate freshness not checked" >&2
fi

step "CGO_ENABLED=0 go build ./..."
CGO_ENABLED=0 go build ./... || fail "CGO_ENABLED=0 go build ./..."
step "CGO_ENABLED=0 go test ./cudarun/... ./gpu/..."
CGO_ENABLED=0 go test ./cudarun/... ./gpu/... || fail "CGO_ENABLED=0 go test ./cudarun/... ./gpu/..."

step "no references outside the repository"
if grep -rnE 'shared/(reference|seeds)|[Ss]eed 00[0-9]|internal/(seeds)' \
	--include='*.go' --include='*.md' --include='*.cu' --include='*.cuh' \
	--include='*.sh' --include='*.ipynb' --exclude-dir=.git --exclude-dir=evidence . >&2; then
	fail "the lines above cite a path outside the repository or a course document by number: cite docs/measurements.md and the document's title"
fi

step "commit subjects of 72 characters or fewer"
# subject_base: main's head when the limit came in. Commits after it must
# keep to it; the ones before are left as they were written.
subject_base=dbd2f7a6e4c479b9b33862ae6fc437cb8fe077e5
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "check: not a git checkout: commit subjects not checked" >&2
elif ! git cat-file -e "$subject_base^{commit}" 2>/dev/null; then
	echo "check: $subject_base is not in this clone (shallow?): commit subjects not checked" >&2
else
	long=$(git log --format='%h %s' "$subject_base..HEAD" | while read -r hash subject; do
		# ${#subject} counts characters, not bytes, in a UTF-8 locale.
		n=$(LC_ALL=C.UTF-8 bash -c 'echo ${#1}' _ "$subject")
		if [ "$n" -gt 72 ]; then echo "$hash ($n characters): $subject"; fi
	done)
	if [ -n "$long" ]; then
		echo "$long" >&2
		fail "the commits above have subjects over 72 characters: reword them (git rebase -i) before they reach main"
	fi
fi

step "compact copies of GPU runs match calibration/evidence/"
copies=$(sed -n '/<!-- copies begin -->/,/<!-- copies end -->/p' calibration/README.md |
	awk -F'|' 'NF > 3 && $2 ~ /`/ { gsub(/[ `]/, "", $2); gsub(/[ `]/, "", $3); print $2, $3 }')
if [ -z "$copies" ]; then
	fail "calibration/README.md has no table of copies between its copies markers"
fi
while read -r copy src; do
	[ -n "$copy" ] || continue
	if ! cmp -s "$copy" "calibration/$src"; then
		fail "$copy is not the same as calibration/$src (copy it again, or fix calibration/README.md's row)"
	fi
done <<<"$copies"

step "no image gets the GPU runs (calibration/)"
[ -f calibration/go.mod ] || fail "calibration/go.mod is missing: calibration/ would be part of the module"
grep -qxE '/?calibration/?' .dockerignore || fail ".dockerignore does not list calibration: the Dockerfile's COPY . . would put the GPU runs into the student image"
if grep -nE '^[[:space:]]*(COPY|ADD)[[:space:]].*(calibration|evidence)' Dockerfile >&2; then
	fail "the Dockerfile lines above copy GPU runs into an image"
fi
stray=$(git ls-files 2>/dev/null | grep -E '(^|/)evidence/' | grep -v '^calibration/' || true)
if [ -n "$stray" ]; then
	echo "$stray" | head -5 >&2
	fail "files under a folder named evidence outside calibration/ (above): they would reach the image; move them to calibration/evidence/"
fi

if [ ${#failed[@]} -gt 0 ]; then
	echo "check: ${#failed[@]} check(s) failed:" >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "check: all checks passed" >&2
