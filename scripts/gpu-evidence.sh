#!/usr/bin/env bash
# gpu-evidence.sh produces the evidence that the real-GPU backend works and
# that its timings are honest, in two steps, because the GPU machine has no
# Go toolchain:
#
#   scripts/gpu-evidence.sh build [PKG...]
#       on the development machine (Go, gcc): builds with cgo, into
#       bin/gpu-evidence/, the test binary of every package whose tests use
#       a GPU (cudarun, and each package whose tests import it or
#       internal/testenv) and the warplab command, and records the commit.
#       Naming packages (as in labs/queue) builds only those of them: the
#       compressed binaries of all of them are larger than one copy to the
#       GPU machine may be, so a run can be split in two. The steps after
#       the test binaries (timed comparisons, warplab on the GPU) go with
#       cudarun's binary: a run without it does only its packages' tests.
#
#   scripts/gpu-evidence.sh run DIR
#       on the GPU machine, from the root of the same tree with
#       bin/gpu-evidence/ copied in: runs them all with
#       WARPLAB_REQUIRE_GPU=1 (a test that finds no usable GPU fails instead
#       of skipping) and writes DIR/DATE-CARD-gpu-evidence.txt: the date,
#       the commit, the machine (nvidia-smi, uname), the command, the counts
#       of tests and benchmarks passed, skipped and failed, then every
#       step's command and output, unedited. It exits 1 when any step fails.
#
# The steps of a run:
#   1. each test binary, all its tests in one process (-test.v);
#   2. the timed comparisons with the nvcc-built reference, each in a
#      process of its own, so that no earlier test's deliberate fault can
#      move the GPU work into a helper process and spoil the timing:
#      BenchmarkDay26Timing and BenchmarkLaunchLatency (on a GPU other than
#      the H200 they report their figures beside the H200's and compare
#      nothing);
#   3. warplab devices; warplab run --device cuda on the Day 26 tree at 4M
#      (warm, --json, --cold) beside the lab's sweep at 4M; an endless
#      kernel stopped by warplab run --timeout 2s.
#
# Copy the file into calibration/evidence/ and add a row to
# calibration/README.md.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin="$root/bin/gpu-evidence"

usage() {
	echo "usage: $0 build [PKG...] | run DIR" >&2
	exit 2
}

build() {
	cd "$root"
	command -v go >/dev/null || { echo "gpu-evidence: build needs Go" >&2; exit 1; }
	command -v gcc >/dev/null || { echo "gpu-evidence: build needs gcc (cudarun uses cgo)" >&2; exit 1; }
	rm -rf "$bin"
	mkdir -p "$bin"
	local module pkgs
	module=$(go list -m)
	# Packages whose tests use a GPU: cudarun, and those whose tests import
	# cudarun or internal/testenv.
	pkgs=$(go list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... |
		awk -v m="$module" '{ for (i = 2; i <= NF; i++) if ($i == m "/cudarun" || $i == m "/internal/testenv") { print $1; break } }' |
		grep -vx "$module/internal/testenv" | sort -u)
	if [ $# -gt 0 ]; then
		local want="" w
		for w in "$@"; do
			w=${w#./}
			echo "$pkgs" | grep -qx "$module/$w" || { echo "gpu-evidence: $w is not a package whose tests use a GPU" >&2; exit 2; }
			want="$want $module/$w"
		done
		pkgs=$want
	fi
	: >"$bin/PACKAGES"
	local p rel name
	for p in $pkgs; do
		rel=${p#"$module"/}
		name=$(echo "$rel" | tr / _).test
		echo "gpu-evidence: go test -c $rel" >&2
		CGO_ENABLED=1 go test -c -ldflags='-s -w' -o "$bin/$name" "./$rel"
		echo "$rel $name" >>"$bin/PACKAGES"
	done
	echo "gpu-evidence: go build ./cmd/warplab" >&2
	CGO_ENABLED=1 go build -ldflags='-s -w' -o "$bin/warplab" ./cmd/warplab
	{
		echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
		local dirty
		dirty=$(git status --porcelain 2>/dev/null | grep -v '^?? bin/' | wc -l || true)
		echo "uncommitted changes: $dirty files"
		echo "built: $(date -u '+%Y-%m-%d %H:%M:%S UTC') with $(go version | cut -d' ' -f3-), $(gcc --version | head -1)"
	} >"$bin/MANIFEST"
	cat "$bin/MANIFEST" >&2
	# The binaries travel to the GPU machine compressed (a copy there is
	# limited in size); run unpacks them.
	gzip -9 "$bin"/*.test "$bin/warplab"
	du -sh "$bin" >&2
	echo "gpu-evidence: carry bin/gpu-evidence to the GPU machine and run: scripts/gpu-evidence.sh run DIR" >&2
}

# counts prints the pass, skip and fail counts of go test -v output.
counts() {
	local f=$1
	local tp ts tf sp ss sf bp bf
	tp=$(grep -c '^--- PASS: Test\|^--- PASS: Example' "$f" || true)
	ts=$(grep -c '^--- SKIP: Test' "$f" || true)
	tf=$(grep -c '^--- FAIL: Test\|^--- FAIL: Example' "$f" || true)
	sp=$(grep -c '^ \+--- PASS' "$f" || true)
	ss=$(grep -c '^ \+--- SKIP' "$f" || true)
	sf=$(grep -c '^ \+--- FAIL' "$f" || true)
	bp=$(grep -c '^Benchmark[^ ]*[[:space:]]\+[0-9]\+[[:space:]].* ns/op' "$f" || true)
	bf=$(grep -c '^--- \(FAIL\|SKIP\): Benchmark' "$f" || true)
	echo "tests: $tp passed, $ts skipped, $tf failed (subtests: $sp passed, $ss skipped, $sf failed); benchmarks: $bp ran, $bf failed or skipped"
}

run() {
	local dir=$1
	cd "$root"
	[ -f "$bin/MANIFEST" ] || { echo "gpu-evidence: no $bin/MANIFEST: run '$0 build' first, on a machine with Go, and copy bin/gpu-evidence here" >&2; exit 1; }
	local gz
	for gz in "$bin"/*.gz; do
		[ -e "$gz" ] || continue
		[ -e "${gz%.gz}" ] || gunzip -k "$gz"
	done
	command -v nvidia-smi >/dev/null || echo "gpu-evidence: nvidia-smi not found; the tests will say whether a GPU is usable" >&2
	mkdir -p "$dir"
	local card started
	card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | awk '{print tolower($NF)}' || true)
	[ -n "$card" ] || card=nogpu
	started=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
	local out="$dir/$(date -u +%Y-%m-%d)-$card-gpu-evidence.txt"
	local body
	body=$(mktemp)
	export WARPLAB_REQUIRE_GPU=1
	export WARPLAB_DEVICE=
	local failed=()

	# step NAME DIR CMD...: runs CMD in DIR, appending its output to body.
	step() {
		local name=$1 wd=$2
		shift 2
		{
			echo
			echo "== $name"
			echo "== (cd $wd && $*)"
			echo "== started $(date -u '+%H:%M:%S')"
		} >>"$body"
		local rc=0
		(cd "$root/$wd" && "$@") >>"$body" 2>&1 || rc=$?
		echo "== exit status $rc, ended $(date -u '+%H:%M:%S')" >>"$body"
		if [ "$rc" != 0 ]; then
			failed+=("$name (exit $rc)")
		fi
		echo "gpu-evidence: $name: exit $rc" >&2
	}

	local rel name
	while read -r rel name; do
		step "tests of $rel, one process" "$rel" "$bin/$name" -test.v -test.count=1 -test.timeout=30m
	done <"$bin/PACKAGES"
	if [ -e "$bin/cudarun.test" ]; then
		backend_steps
	else
		echo "gpu-evidence: no cudarun.test in this build: the timed comparisons and warplab steps are left to the run that has it" >&2
	fi
	report
}

# backend_steps runs the timed comparisons and warplab on the GPU (inside
# run, with its step function).
backend_steps() {
	step "BenchmarkDay26Timing, a process of its own" cudarun "$bin/cudarun.test" -test.run '^$' -test.bench '^BenchmarkDay26Timing$' -test.benchtime 1x -test.v
	step "BenchmarkLaunchLatency, a process of its own" cudarun "$bin/cudarun.test" -test.run '^$' -test.bench '^BenchmarkLaunchLatency$' -test.benchtime 500x -test.v
	step "warplab devices" . "$bin/warplab" devices
	local tree="internal/coursekernels/day26_sums.cu --kernel sumTreeAtomic --grid 16384 --block 256 --buf in=f32:4194304:mod:4 --buf total=f32:1:zero --scalar n=u64:4194304 --print total --device cuda"
	# shellcheck disable=SC2086 # $tree is the argument list
	step "warplab run on the GPU: the Day 26 tree at 4M, the labs' method (median of 10 after 3 warm-ups)" . "$bin/warplab" run $tree --runs 3
	# shellcheck disable=SC2086
	step "warplab run on the GPU: the same, --json (method, stats, times)" . "$bin/warplab" run $tree --json
	# shellcheck disable=SC2086
	step "warplab run on the GPU: the same, --cold (one launch, no warm-up)" . "$bin/warplab" run $tree --cold --runs 3
	step "the Day 26 lab's sweep at 4M on the GPU (mean of 10 after 3 warm-ups), to compare with warplab run" . "$bin/warplab" lab day26 --device cuda \
		--set sizes=4194304 --set block-sizes=256 --set determinism-runs=2
	step "the histogram lab on the GPU at the H200 rows' size (16M elements, 256 and 4096 bins), measured beside the simulator's prediction" . "$bin/warplab" lab histogram --device cuda \
		--set n=16777216 --set bins=256,4096 --set barrier-seeds=20
	step "the cas lab on the GPU at the H200 rows' size (4M threads), measured beside the simulator's prediction and retries" . "$bin/warplab" lab cas --device cuda \
		--set n=4194304 --set contenders=1,32,256,4096,65536,4194304
	step "the reproducible lab on the GPU at the H200 rows' size (4M elements, 20 runs per sum): distinct totals, error and time, the simulator's h200 prediction beside the H200's and this GPU's" . "$bin/warplab" lab reproducible --device cuda \
		--set n=4194304 --set runs=20
	step "warplab run on the GPU: a kernel that never ends, --timeout 2s (exit 1 and the time-limit message expected)" . sh -c \
		'start=$(date +%s.%N); out=$("$0" run cudarun/testdata/endless.cu --kernel endless --grid 132 --block 256 --buf stop=i32:1:zero --device cuda --timeout 2s 2>&1); rc=$?; echo "$out"; echo "exit $rc after $(awk -v a="$start" -v b="$(date +%s.%N)" "BEGIN{printf \"%.2f\", b-a}") s (process start, compile and helper start included)"; [ $rc -eq 1 ] && echo "$out" | grep -q "time limit exceeded in kernel endless"' "$bin/warplab"
}

# report writes the evidence file (inside run).
report() {

	{
		echo "gpu-evidence: the real-GPU backend's tests and timed comparisons"
		echo "date: $started (ended $(date -u '+%Y-%m-%d %H:%M:%S UTC'))"
		sed 's/^/build: /' "$bin/MANIFEST"
		echo "command: scripts/gpu-evidence.sh run $dir (WARPLAB_REQUIRE_GPU=1)"
		echo "packages: $(cut -d' ' -f1 "$bin/PACKAGES" | tr '\n' ' ')$([ -e "$bin/cudarun.test" ] || echo '(no cudarun: its timed comparisons and the warplab steps are in the other run)')"
		echo "machine: $(nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv,noheader 2>/dev/null | head -1 || echo 'no nvidia-smi')"
		echo "machine: $(uname -srm), $(nproc) CPUs"
		if command -v nvidia-smi >/dev/null; then
			echo "machine: CUDA $(nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -1) (the driver's)"
		fi
		echo "result: $(counts "$body")"
		if [ ${#failed[@]} -gt 0 ]; then
			printf 'result: FAILED step: %s\n' "${failed[@]}"
		else
			echo "result: every step exited 0"
		fi
		grep '^--- SKIP\|^ \+--- SKIP' "$body" | sed 's/^ */skipped: /' || true
		cat "$body"
	} >"$out"
	rm -f "$body"
	echo "gpu-evidence: wrote $out" >&2
	sed -n '1,/^$/p' "$out" | grep '^result\|^skipped' >&2 || true
	[ ${#failed[@]} -eq 0 ]
}

case "${1:-}" in
build) shift; build "$@" ;;
run) [ $# -eq 2 ] || usage; run "$2" ;;
*) usage ;;
esac
